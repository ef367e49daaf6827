# ALiBi's fast bias (alibi/bias.hpp, bias_at_distance and entry): p = dd_mul(m, k) for the slope
# m = (mh, ml) = geometric_frequency(2, num, den) and a distance k >= 1 (a double, exact below 2^53):
#   (p0, pe) = TwoProduct(mh, k); q = RN(ml k); t = RN(pe + q); (ph, pl) = Fast2Sum(p0, t),
# so ph + pl = S = p0 + t exactly; the rounding test is told err = RN(|ph| C), C the header's
# slope_product_rel_error. Hypothesis: mh + ml = M (1 + eta), |eta| <= H (geometric_frequency's
# geometric_frequency_max_rel_error), M the exact slope 2^(-num/den) > 0; m normalised,
# |ml| <= ulp(mh)/2. Scaling: mh and k by powers of two into [1, 2) and [1, 2] (the error is
# relative; the slopes and distances keep every rounding far from underflow and overflow).
# Goal: |S - M k| <= err, as |S - M k| / ph <= C (1 - 2^-52) (err = RN(ph C) >= ph C (1 - 2^-53)).
@rnd = float<ieee_64, ne>;

A = mh + ml;
M = A / (1 + eta);
p0 = rnd(mh * K);
pe = mh * K - p0;
q = rnd(ml * K);
t = rnd(pe + q);
S = p0 + t;
ph = rnd(S);

#%% part product
#:check (S - M * K) / ph in [-{{CHK}}, {{CHK}}]
#:query (S - M * K) / ph
{ mh in [1, {{MHMAX}}] /\ K in [1, 2] /\ ml in [-1b-53, 1b-53] /\ eta in [-{{H}}, {{H}}] /\ @FLT(mh, 53) /\ @FLT(K, 53) /\ @FLT(ml, 53) -> GOAL }
(S - A * K) / ph -> ((t - (pe + q)) + (q - ml * K)) / ph { ph <> 0 };
(S - M * K) / ph -> (S - A * K) / ph + (A * K / ph) * (eta / (1 + eta)) { ph <> 0, 1 + eta <> 0 };
A * K / ph -> 1 - (S - A * K) / ph - (ph - S) / ph { ph <> 0 };
