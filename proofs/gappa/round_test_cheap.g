# The cheap two-ended tests of round_test_cheap.hpp: the inequalities their proofs (in the header)
# rest on. Scaled so that |y| (|s|) is in [1, 2]: the conditions |y| >= 2^-900 (|s| >= 2^-900) keep
# every rounding below relative, up to at most 2^-1075 absolute for a subnormal intermediate, far
# inside the slack.
@rnd = float<ieee_64, ne>;

#%% part float
# round_test_float: m = RN(e + |y| {{MF}}) with e <= |y| {{FEMAX}}. The proof needs m - e >= ulp(M) for
# the float midpoint M next to y + e, where ulp(M) <= 2^-52 |M| <= 2^-52 |y| (1 + 2^-22).
#:check (m - e) - y * 1b-52 * (1 + 1b-22) >= 0
#:query (m - e) - y * 1b-52 * (1 + 1b-22)
# (|y| MF: exact, MF a power of two, checked by the runner)
e = y * eta;
m = rnd(e + y * {{MF}});
{ y in [1, 2] /\ eta in [0, {{FEMAX}}] -> GOAL }
(m - e) - y * 1b-52 * (1 + 1b-22) -> (m - (e + y * {{MF}})) + y * ({{MF}} - 1b-52 * (1 + 1b-22));

#%% part double
# round_test_double: (s, t) = Fast2Sum(h, l), |t| <= 2^-53 |s|; e <= |s| {{DEMAX}}; d = |s| {{DF}}
# (exact: DF is a power of two, checked by the runner). The proof needs
# RN(RN(t + e) + d) >= t + e + 2^-103 |s| (and the mirror image, RN being odd).
#:check rnd(rnd(t + e) + d) - (t + e) - s * 1b-103 >= 0
#:query rnd(rnd(t + e) + d) - (t + e) - s * 1b-103
t = s * tau;
e = s * eta;
d = s * {{DF}};
{ s in [1, 2] /\ tau in [-1b-53, 1b-53] /\ eta in [0, {{DEMAX}}] -> GOAL }
rnd(rnd(t + e) + d) - (t + e) - s * 1b-103 -> (rnd(rnd(t + e) + d) - (rnd(t + e) + d)) + (rnd(t + e) - (t + e)) + s * ({{DF}} - 1b-103);
