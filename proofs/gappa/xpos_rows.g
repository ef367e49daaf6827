# xpos's row kernel (xpos/rows.hpp row_fast): each value is a product of two double-double factors
# whose exact product V is known to a relative bound r (rel[t]). The scales are positive; scaled so
# that the computed value is in [1, 2] (|n l| < 600 keeps every value normal).
@rnd = float<ieee_64, ne>;

#%% part double
# T = double: hi + lo = Mul22(A, S), |lo| <= 2^-53 hi, |hi + lo - V| <= r V, so
# V in [(hi + lo) / (1 + r), (hi + lo) / (1 - r)]. e = hi r {{K8}} + hi {{H96}} (as written, every
# operation rounded). Proven for r in [2^-102, 2^-10] (rel[t] >= Mul22's 2^-102): RN(lo - e) <= V - hi
# and RN(lo + e) >= V - hi at both ends, so hi + RN(lo -+ e) decide. (r > 2^-10: part double_wide.)
#:check (lo - (hi + lo) * r / (1 + r)) - a >= 0 /\ b - (lo + (hi + lo) * r / (1 - r)) >= 0
#:query (lo - (hi + lo) * r / (1 + r)) - a
hr = rnd(hi * r);
e1 = rnd(hr * {{K8}});
e2 = rnd(hi * {{H96}});
e = rnd(e1 + e2);
a = rnd(lo - e); b = rnd(lo + e);
{ hi in [1, 2] /\ lo in [-1b-53, 1b-53] /\ r in [1b-102, 1b-10] /\ @FLT(hi, 53) /\ @FLT(lo, 53) /\ @FLT(r, 53) -> GOAL }
(lo - (hi + lo) * r / (1 + r)) - a -> ((lo - e) - a) + (e - (hi + lo) * r / (1 + r));
b - (lo + (hi + lo) * r / (1 - r)) -> (b - (lo + e)) + (e - (hi + lo) * r / (1 - r));
e - (hi + lo) * r / (1 + r) -> (e - (e1 + e2)) + (e1 - hr * {{K8}}) + (hr - hi * r) * {{K8}} + hi * r * ({{K8}} - 1 / (1 + r)) - lo * (r / (1 + r)) + e2;
e - (hi + lo) * r / (1 - r) -> (e - (e1 + e2)) + (e1 - hr * {{K8}}) + (hr - hi * r) * {{K8}} + hi * r * ({{K8}} - 1 / (1 - r)) - lo * (r / (1 - r)) + e2;
#:logsplit r -103 -10

#%% part double_wide
# r > 2^-10: e >= hi 2^-10 (1 - 2^-51), and the ends hi + RN(lo -+ e) differ.
#:check bw - aw >= 1b-20
e = rnd(rnd(rnd(hi * r) * {{K8}}) + rnd(hi * {{H96}}));
aw = rnd(hi + rnd(lo - e)); bw = rnd(hi + rnd(lo + e));
{ hi in [1, 2] /\ lo in [-1b-52, 1b-52] /\ r in [1b-10, 1b100] /\ @FLT(hi, 53) /\ @FLT(lo, 53) /\ @FLT(r, 53) -> GOAL }
bw - aw -> ((bw - (hi + rnd(lo + e))) - (aw - (hi + rnd(lo - e)))) + ((rnd(lo + e) - (lo + e)) - (rnd(lo - e) - (lo - e))) + 2 * e;
#:logsplit r -11 100

#%% part float_product
# T = float and narrower: v = RN(A_hi S_hi), the low parts dropped (|A_lo| <= 2^-53 A_hi, normalised
# Mul22 results): relative to A S within PROD = {{PROD}} (the header's 3.01 u).
#:check (v - A * S) / (A * S) in [-{{PROD}}, {{PROD}}]
#:query (v - A * S) / (A * S)
v = rnd(Ah * Sh);
A = Ah + Al; S = Sh + Sl;
{ Ah in [1, 2] /\ Sh in [1, 2] /\ Al / Ah in [-1b-53, 1b-53] /\ Sl / Sh in [-1b-53, 1b-53] /\ @FLT(Ah, 53) /\ @FLT(Sh, 53) -> GOAL }
(v - A * S) / (A * S) -> ((v - Ah * Sh) / (Ah * Sh) - (Al / Ah + Sl / Sh + (Al / Ah) * (Sl / Sh))) / ((1 + Al / Ah) * (1 + Sl / Sh)) { Ah <> 0, Sh <> 0, A * S <> 0 };

#%% part float_form
# The float test's ends: V within rho |V| of v (rho: the factors' bounds + PROD + the exponent's
# error), x the kernel's double sum of those terms (x >= rho (1 - 5 2^-53): five roundings of
# non-negative terms), r = RN(RN(x K50) + FORM) with FORM = {{FORM}}; e = RN(v r). Proven for
# rho <= 2^-30 (the kernel's is about 2^-50: every term is below 2^-60 but PROD): RN(v - e) <= v / (1 + rho)
# and RN(v + e) >= v / (1 - rho), the ends of V's interval.
#:check v / (1 + rho) - lo >= 0 /\ hi - v / (1 - rho) >= 0
#:query v / (1 + rho) - lo
x = rnd(rho * kappa);
xk = rnd(x * {{K50}});
r = rnd(xk + {{FORM}});
e = rnd(v * r);
lo = rnd(v - e); hi = rnd(v + e);
# (rho >= PROD > 2^-52: the sum always holds the product's rounding)
{ v in [1, 2] /\ rho in [1b-52, 1b-30] /\ kappa in [9007199254740987b-53, 1.0000001] /\ @FLT(v, 53) -> GOAL }
v / (1 + rho) - lo -> ((v - e) - lo) + (e - v * r) + v * (r - rho / (1 + rho));
hi - v / (1 - rho) -> (hi - (v + e)) + (e - v * r) + v * (r - rho / (1 - rho));
r - rho / (1 + rho) -> (r - (xk + {{FORM}})) + (xk - x * {{K50}}) + (x - rho * kappa) * {{K50}} + rho * (kappa * {{K50}} - 1 / (1 + rho)) + {{FORM}};
r - rho / (1 - rho) -> (r - (xk + {{FORM}})) + (xk - x * {{K50}}) + (x - rho * kappa) * {{K50}} + rho * (kappa * {{K50}} - 1 / (1 - rho)) + {{FORM}};
#:logsplit rho -53 -30
