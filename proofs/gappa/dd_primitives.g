# Double-double primitives (double_double.hpp, product_angle.hpp), FMA-free; TwoProduct (Dekker with
# Veltkamp's split), TwoSum and Fast2Sum are exact (their preconditions: no underflow or overflow,
# |a| >= |b| for Fast2Sum), so each is modelled by the exact value it returns.
@rnd = float<ieee_64, ne>;

#%% part mul22
# dd_mul(a, b) = Fast2Sum(p, RN(e + RN(RN(ah bl) + RN(al bh)))), (p, e) = TwoProduct(ah, bh); a, b
# normalised (|al| <= ulp(ah)/2), scaled so that ah, bh are in [1, 2). Relative error <= {{MUL22}}.
#:check (p + t - A * B) / (A * B) in [-{{MUL22}}, {{MUL22}}]
#:query (p + t - A * B) / (A * B)
p = rnd(ah * bh);
e = ah * bh - p;
cross = rnd(rnd(ah * bl) + rnd(al * bh));
t = rnd(e + cross);
A = ah + al; B = bh + bl;
{ ah in [1, 2] /\ bh in [1, 2] /\ al in [-1b-53, 1b-53] /\ bl in [-1b-53, 1b-53] /\ @FLT(ah, 53) /\ @FLT(bh, 53) /\ @FLT(al, 53) /\ @FLT(bl, 53) -> GOAL }
(p + t - A * B) / (A * B) -> ((t - (e + cross)) + (cross - (ah * bl + al * bh)) - al * bl) / (A * B) { A * B <> 0 };
$ ah in 16, bh in 16;

#%% part product_angle
# product_angle: phi = m (th + tl) as Fast2Sum(p, RN(pe + RN(m tl))), (p, pe) = TwoProduct(m, th),
# m < 2^53 an integer (exact as a double), |tl| <= 2^-53 |th|. Scaled so that X = m th is in [1, 2]
# (scaling th by a power of two scales every rounding: |th| in [2^-900, 2^900] keeps them normal).
# Proven: |hi + lo - phi| <= {{PA}} |hi|, hi = RN(p + t) the Fast2Sum's high part.
#:check (S - (X + Y)) / hi in [-{{PA}}, {{PA}}]
#:query (S - (X + Y)) / hi
Y = X * rho;
p = rnd(X);
pe = X - p;
q = rnd(Y);
t = rnd(pe + q);
S = p + t;
hi = rnd(S);
{ X in [1, 2] /\ rho in [-1b-53, 1b-53] -> GOAL }
(S - (X + Y)) / hi -> ((t - (pe + q)) + (q - Y)) / hi { hi <> 0 };
