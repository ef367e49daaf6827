# dd_add (double_double.hpp), CRlibm Add22 with TwoSum on the high parts, which is Joldes, Muller,
# Popescu's AccurateDWPlusDW (TOMS 2017, Algorithm 6):
#   (sh, sl) = TwoSum(ah, bh); (th, tl) = TwoSum(al, bl); c = RN(sl + th);
#   (vh, vl) = Fast2Sum(sh, c); w = RN(vl + tl); (zh, zl) = Fast2Sum(vh, w); result zh + zl.
# dd_add(a, b) = dd_add(b, a) (TwoSum's two outputs do not depend on the order) and
# dd_add(-a, -b) = -dd_add(a, b) (RN is symmetric), so |bh| <= ah, ah scaled into [1, 2]; bh = beta ah
# with beta in [-1, 1]. a, b normalised: |al| <= 2^-53 ah, |bl| <= 2^-53 |bh| (ulp/2 is at most that).
# TwoSum is modelled by the exact value it returns (Knuth: any operands). Fast2Sum too in the parts
# same_sign and opposite, where Gappa checks its precondition |sh| >= |c|, |vh| >= |w|; in part
# cancel (where |sh| < |c| can happen) both Fast2Sums are modelled literally (s = RN(a + b),
# e = RN(b - RN(s - a))), so no precondition is assumed there.
# Proven: relative error <= {{ADD}} when ah, bh have the same sign or |bh| <= 9/16 ah (parts
# same_sign, opposite), and |error| <= {{ADD}} max(|ah|, |bh|) in every case (all three parts). The
# relative bound in the cancellation case (opposite signs, 9/16 ah < |bh| <= ah) is not Gappa's: interval
# reasoning cannot see that RN(0 + x) = x for a double x of unknown exponent; it is Joldes, Muller,
# Popescu's Theorem (3u^2/(1 - 4u)), formally proved in Coq by Muller and Rideau (TOMS 2022).
@rnd = float<ieee_64, ne>;

al = ah * ra;
bh = ah * beta;
bl = bh * rb;
sh = rnd(ah + bh); sl = (ah + bh) - sh;
th = rnd(al + bl); tl = (al + bl) - th;
c = rnd(sl + th);
S = ah + al + bh + bl;
G = 1 + beta + ra + beta * rb;

#%% part same_sign
# beta in [0, 1]; Fast2Sum exact (precondition checked).
#:check (Z - S) / S in [-{{ADD}}, {{ADD}}] /\ (Z - S) / ah in [-{{ADD}}, {{ADD}}]
#:check sh in [1, 4] /\ c in [-1b-50, 1b-50] /\ vh in [1b-1, 5] /\ w in [-1b-50, 1b-50]
#:query (Z - S) / S
vh = rnd(sh + c); vl = (sh + c) - vh;
w = rnd(vl + tl);
Z = vh + w;
N = (c - (sl + th)) + (w - (vl + tl));
{ ah in [1, 2] /\ beta in [0, 1] /\ ra in [-1b-53, 1b-53] /\ rb in [-1b-53, 1b-53] -> GOAL }
Z - S -> N;
(Z - S) / S -> (N / ah) / G { ah <> 0, G <> 0 };
(Z - S) / ah -> N / ah { ah <> 0 };
ah + bh -> ah * (1 + beta);
al + bl -> ah * (ra + beta * rb);
$ ah in 16, beta in 16;

#%% part opposite
# beta in [-9/16, 0]: little cancellation of the high parts (up to 9/16, so that dd_log's el + Lm,
# |Lm| < 0.3467 <= 0.5002 |el|, is inside); Fast2Sum exact (precondition checked).
#:check (Z - S) / S in [-{{ADD}}, {{ADD}}] /\ (Z - S) / ah in [-{{ADD}}, {{ADD}}]
#:check sh in [1b-3, 2] /\ c in [-1b-50, 1b-50] /\ vh in [1b-3, 3] /\ w in [-1b-50, 1b-50]
#:query (Z - S) / S
vh = rnd(sh + c); vl = (sh + c) - vh;
w = rnd(vl + tl);
Z = vh + w;
N = (c - (sl + th)) + (w - (vl + tl));
{ ah in [1, 2] /\ beta in [-9b-4, 0] /\ ra in [-1b-53, 1b-53] /\ rb in [-1b-53, 1b-53] -> GOAL }
Z - S -> N;
(Z - S) / S -> (N / ah) / G { ah <> 0, G <> 0 };
(Z - S) / ah -> N / ah { ah <> 0 };
ah + bh -> ah * (1 + beta);
al + bl -> ah * (ra + beta * rb);
$ ah in 4, beta in 4;

#%% part cancel
# beta in [-1, -1/2] (ah + bh is exact, Sterbenz, and may be 0): the absolute error, both Fast2Sums
# as written (no precondition), relative to max(|ah|, |bh|) = ah.
#:check (Z - S) / ah in [-{{ADD}}, {{ADD}}]
#:query (Z - S) / ah
vh = rnd(sh + c); z1 = rnd(vh - sh); vl = rnd(c - z1);
w = rnd(vl + tl);
zh = rnd(vh + w); z2 = rnd(zh - vh); zl = rnd(w - z2);
Z = zh + zl;
{ ah in [1, 2] /\ beta in [-1, -1b-1] /\ ra in [-1b-53, 1b-53] /\ rb in [-1b-53, 1b-53] -> GOAL }
Z - S -> (c - (sl + th)) + ((vl - (c - z1)) - (z1 - (vh - sh))) + (w - (vl + tl)) + ((zl - (w - z2)) - (z2 - (zh - vh)));
vh - sh -> (vh - (sh + c)) + c;
c - z1 -> -(vh - (sh + c)) - (z1 - (vh - sh));
zh - vh -> (zh - (vh + w)) + w;
w - z2 -> -(zh - (vh + w)) - (z2 - (zh - vh));
(Z - S) / ah -> (Z - S) * (1 / ah) { ah <> 0 };
ah + bh -> ah * (1 + beta);
al + bl -> ah * (ra + beta * rb);
$ ah in 4, beta in 4;
