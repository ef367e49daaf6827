# The rounding of one component of the float row kernel's complex product (sincos_table_rows.hpp:
# fill_slice's recurrence and row_values' entries; sincos_table_engine.hpp's entries):
#   re = fl(fl(x c) - fl(y s)),  im = fl(fl(y c) + fl(x s))        (no FMA: -ffp-contract=off)
# With P, Q the exact products, each component is fl(fl(P) -+ fl(Q)). RN is odd, so up to signs it is
# a sum of two non-negative terms (part sum) or a difference of two positive ones, P >= Q (parts
# near: P <= 1.9 Q, far: P >= 1.9 Q), or one product is 0 (part zero). In each Gappa proves
#   |error| <= K (P + Q),   K = R / sqrt2 (R = anchor_error::R of sincos_table_entry.hpp, as compiled)
# and |xc| + |ys| <= |Z||W| (Cauchy-Schwarz) turns the two components into R |Z||W| as a modulus.
# Rounding: binary64 to nearest without underflow (float<53,ne>); an underflowing product adds at most
# 2^-1075 absolute, far inside the slack of R (R / sqrt2 - u(2+u) >= 2^-103 |Z||W|, |Z||W| ~ 1).
@rnd = float<53, ne>;

#%% part sum
#:check (r - (P + Q)) / (P + Q) in [-{{K}}, {{K}}]
#:query (r - (P + Q)) / (P + Q)
q1 = rnd(P); q2 = rnd(Q); r = rnd(q1 + q2);
# (float<53,ne> has no exponent range: scaling P and Q by one power of two changes nothing; by
# symmetry P >= Q, so P in [1, 2) covers every pair.)
{ P in [1, 2] /\ Q in [0, 2] /\ P / (P + Q) in [0, 1] -> GOAL }

#%% part near
#:check (r - (P - Q)) / (P + Q) in [-{{K}}, {{K}}]
#:query (r - (P - Q)) / (P + Q)
q1 = rnd(P); q2 = rnd(Q); d = q1 - q2; r = rnd(d);
S = P + Q;
# (scaled so that Q is in [1, 2), as in part sum)
{ Q in [1, 2] /\ P in [1, 3.8] /\ P / Q in [1, 1.9] -> GOAL }
(r - (P - Q)) / (P + Q) -> (r - d) / S + ((q1 - P) / P) * (P / S) - ((q2 - Q) / Q) * (Q / S) { S <> 0, P <> 0, Q <> 0 };
d / S -> (q1 / P) * (P / S) - (q2 / Q) * (Q / S) { S <> 0, P <> 0, Q <> 0 };
q1 / P -> 1 + (q1 - P) / P { P <> 0 };
q2 / Q -> 1 + (q2 - Q) / Q { Q <> 0 };
P / S -> 1 / (1 + 1 / (P / Q)) { S <> 0, P <> 0, Q <> 0 };
Q / S -> 1 / (P / Q + 1) { S <> 0, Q <> 0 };

#%% part far
# (r - (P - Q)) + (P + Q) = a + b with a = q1 t, b = 2Q - q2 t, t = r / (q1 - q2): a convex
# combination of REL(a, P) and REL(b, Q), each within u (2 + u).
#:check (r - (P - Q)) / (P + Q) in [-{{K}}, {{K}}]
#:query (r - (P - Q)) / (P + Q)
q1 = rnd(P); q2 = rnd(Q); d = q1 - q2; r = rnd(d);
S = P + Q;
t = r / d;
a = q1 * t;
b = 2 * Q - q2 * t;
# (scaled so that Q is in [1, 2); P > 2^100 Q is part tiny)
{ Q in [1, 2] /\ P in [1.9, 1b101] /\ P / Q in [1.9, 1b100] /\ P / (P + Q) in [0, 1] -> GOAL }
(r - (P - Q)) / (P + Q) -> (a + b - S) / S { d <> 0, S <> 0 };
(a - P) / P -> (q1 - P) / P + (q1 / P) * (t - 1) { P <> 0, d <> 0 };
(b - Q) / Q -> -((q2 - Q) / Q) - (q2 / Q) * (t - 1) { Q <> 0, d <> 0 };
t - 1 -> (r - d) / d { d <> 0 };
d / q2 -> q1 / q2 - 1 { q2 <> 0 };
q1 / q2 -> (P / Q) * ((q1 / P) / (q2 / Q)) { P <> 0, Q <> 0, q2 <> 0 };
q1 / P -> 1 + (q1 - P) / P { P <> 0 };
q2 / Q -> 1 + (q2 - Q) / Q { Q <> 0 };

#%% part tiny
# P >= 2^100 Q (or Q = 0), scaled so that P is in [1, 2).
#:check (r - (P - Q)) / (P + Q) in [-{{K}}, {{K}}]
#:query (r - (P - Q)) / (P + Q)
q1 = rnd(P); q2 = rnd(Q); d = q1 - q2; r = rnd(d);
S = P + Q;
{ P in [1, 2] /\ Q in [0, 1b-99] -> GOAL }
(r - (P - Q)) / (P + Q) -> ((r - d) + (q1 - P) - (q2 - Q)) / S { S <> 0 };
