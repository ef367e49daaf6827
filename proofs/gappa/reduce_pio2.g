# reduce_pio2 (reduce.hpp): x - k pi/2 for x = xh + xl, Cody-Waite with pi/2 = P1 + ... + P5 + e
# (P1..P4 23-bit doubles, P5 a full double; e's enclosure comes from pi to 600
# bits, computed by the runner). Modelled as written: k = RN(RN(RN(xh two_over_pi) + C) - C),
# C = 1.5 2^52; t1 = RN(xh - RN(k P1)); TwoSum(t1, xl), then TwoSum(s_i.hi, -RN(k P_{i+1})) for
# P2..P4, TwoProduct(k, P5) and TwoSum(s3.hi, -p5.hi); lo gathers s0.lo .. s4.lo and -p5.lo with
# five roundings in the header's order; the result r = TwoSum(s4.hi, lo) has r.hi + r.lo = s4.hi + lo.
# TwoSum and TwoProduct are modelled by the exact values they return; the products k Pi (i <= 4)
# and the subtraction t1 are rounded as written and Gappa proves them exact (et .. e4 = 0: k has
# at most 30 bits, Sterbenz for t1). Signs: reduce_pio2(-x) = -reduce_pio2(x) with -k (RN is
# symmetric, and C is even so ties go the same way), so xh > 0; the branch k != 0 gives k >= 1.
# x normalised: |xl| <= ulp(xh)/2 <= 2^-53 xh (or xl = 0). The runner checks xh over groups of
# binades [2^j0, 2^(j1+1)) up to the largest double below reduce_max (XL, XH below; narrower groups
# where the |k| 2^-124 term dominates). No rounding underflows (xh >= 2^-1).
@rnd = float<ieee_64, ne>;
P1 = {{P1}};
P2 = {{P2}};
P3 = {{P3}};
P4 = {{P4}};
P5 = {{P5}};
TPI = {{TPI}};
C = {{C}};
PIO2 = P1 + P2 + P3 + P4 + P5 + e;

y = rnd(xh * TPI);
a = rnd(y + C);
k = rnd(a - C);
q1 = rnd(k * P1);
t1 = rnd(xh - q1);
s0h = rnd(t1 + xl);   s0l = (t1 + xl) - s0h;
q2 = rnd(k * P2);
s1h = rnd(s0h - q2);  s1l = (s0h - q2) - s1h;
q3 = rnd(k * P3);
s2h = rnd(s1h - q3);  s2l = (s1h - q3) - s2h;
q4 = rnd(k * P4);
s3h = rnd(s2h - q4);  s3l = (s2h - q4) - s3h;
p5h = rnd(k * P5);    p5l = k * P5 - p5h;
s4h = rnd(s3h - p5h); s4l = (s3h - p5h) - s4h;
r1 = rnd(s0l + s1l);
r2 = rnd(r1 + s2l);
r3 = rnd(r2 + s3l);
r4 = rnd(r3 + s4l);
lo = rnd(r4 - p5l);
L = s0l + s1l + s2l + s3l + s4l - p5l;
X = xh + xl;
R = xh - k * PIO2;
E = (s4h + lo) - (X - k * PIO2);
errb = rnd({{A}} + rnd(k * {{B}}));
e1 = q1 - k * P1;
et = t1 - (xh - k * P1);
e2 = q2 - k * P2;
e3 = q3 - k * P3;
e4 = q4 - k * P4;

#%% part reduce
# |r.hi + r.lo - (x - k pi/2)| <= err = RN(A + RN(|k| B)) as the header computes it.
#:check E / errb in [-1, 1]
#:check et in [0, 0] /\ e2 in [0, 0] /\ e3 in [0, 0] /\ e4 in [0, 0]
#:query E / errb
{ xh in [{{XL}}, {{XH}}] /\ xl / xh in [-1b-53, 1b-53] /\ e in [{{EL}}, {{EH}}] /\ k >= 1 /\ @FLT(xh, 53) /\ @FLT(xl, 53) -> GOAL }
E -> (lo - L) + et - e2 - e3 - e4 + k * e;
lo - L -> (lo - (r4 - p5l)) + (r4 - (r3 + s4l)) + (r3 - (r2 + s3l)) + (r2 - (r1 + s2l)) + (r1 - (s0l + s1l));
R -> PIO2 * ((xh * TPI - k) + xh * (1 / PIO2 - TPI)) { PIO2 <> 0 };
xh * TPI - k -> (xh * TPI - y) + ((y + C) - a) + ((a - C) - k);
xh - q1 -> R + k * (PIO2 - P1) - e1;
et -> (t1 - (xh - q1)) - e1;
t1 + xl -> R + k * (PIO2 - P1) + xl + et;
s0h - q2 -> R + k * (PIO2 - P1 - P2) + xl - s0l + et - e2;
s1h - q3 -> R + k * (PIO2 - P1 - P2 - P3) + xl - s0l - s1l + et - e2 - e3;
s2h - q4 -> R + k * (PIO2 - P1 - P2 - P3 - P4) + xl - s0l - s1l - s2l + et - e2 - e3 - e4;
s3h - p5h -> R + k * (PIO2 - P1 - P2 - P3 - P4) + xl - s0l - s1l - s2l - s3l + et - e2 - e3 - e4 - p5h;

#%% part k_zero
# Below the first binade the branch k == 0 (an exact return) is taken: k = 0 for 0 <= xh <= 1/2.
#:check k in [0, 0]
{ xh in [0, 1b-1] /\ @FLT(xh, 53) -> GOAL }
