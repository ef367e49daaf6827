# The float row kernel's two-ended test (sincos_table_rows.hpp row_values, sincos_table_entry.hpp
# round_two_ended): an entry c (a double) is within E0 of the true value; the kernel forms
# RN(c - e) and RN(c + e) in double and converts both to float (RN_T on the bits for bfloat16 and
# float16). RN_T is monotone and fixes every T midpoint, so equal ends decide RN_T of every real
# between them once RN(c - e) <= c - E0 and RN(c + e) >= c + E0: that enclosure is what each part
# proves, for E0 <= 2^-30 (the entries: at most 2^-43 + the frequency's term). Beyond, the ends
# are a float cell apart or the midpoint argument of proofs/gappa/README.md applies.
@rnd = float<ieee_64, ne>;

#%% part unfolded
# row_values: e = (e_base[b] + ferr) * (1 + 2^-50); e_base[b] >= e0 + {{M53}} (entry_bounds, checked
# in exact arithmetic by rows_float_recurrence), e0 the entry's error before the frequency's term,
# ferr >= the frequency's term. |c| <= 1 + e0 + ferr.
#:check (c - (e0 + ferr)) - lo >= 0 /\ hi - (c + (e0 + ferr)) >= 0
#:query (c - (e0 + ferr)) - lo
x = eb + ferr;
rx = rnd(x);
K = {{KROW}};
t = rx * K;
e = rnd(t);
lo = rnd(c - e);
hi = rnd(c + e);
{ c in [-1.001, 1.001] /\ e0 in [0, 1b-31] /\ eb - e0 in [{{M53}}, 1b-31] /\ ferr in [0, 1b-31]
  /\ @FLT(c, 53) /\ @FLT(eb, 53) /\ @FLT(ferr, 53) -> GOAL }
(c - (e0 + ferr)) - lo -> ((c - e) - lo) + (e - x) + (eb - e0);
hi - (c + (e0 + ferr)) -> (hi - (c + e)) + (e - x) + (eb - e0);
e - x -> x * ((e - x) / x) { x <> 0 };
(e - x) / x -> (1 + (e - t) / t) * ((1 + (rx - x) / x) * K) - 1 { x <> 0, t <> 0 };

#%% part two_ended
# round_two_ended: e = e0 + {{TM}} in double, cc within e0 of the true value, which is in [-1, 1].
# The upper end (the lower one is the same for -cc: RN is odd): when cc + e0 > 1 only [.., 1] needs
# enclosing; when RN(cc + e) reaches [1, 2) it may fall 2^-83 short of cc + e0 (e0 + 2^-53 rounded
# down), but then it is >= 1 (part two_ended_top). Here cc + e < 1 - 2^-60.
#:check hi - (cc + e0) >= 0
#:query hi - (cc + e0)
e = rnd(e0 + {{TM}});
hi = rnd(cc + e);
y = cc + e;
# (cc + e0 >= -1: the interval meets [-1, 1])
{ cc in [-1.001, 1.001] /\ e0 in [0, 1b-30] /\ cc + e0 in [-1, 1] /\ y <= 1152921504606846975b-60
  /\ @FLT(cc, 53) /\ @FLT(e0, 53) -> GOAL }
hi - (cc + e0) -> (hi - y) + (e - (e0 + {{TM}})) + {{TM}};
y -> (cc + e0) + (e - e0);
e - e0 -> (e - (e0 + {{TM}})) + {{TM}};
$ y in (0);

#%% part two_ended_top
# The same, cc + e >= 1 - 2^-60: RN(cc + e) >= 1, above every true value.
#:check hi - 1 >= 0
e = rnd(e0 + {{TM}});
hi = rnd(cc + e);
y = cc + e;
{ cc in [-1.001, 1.001] /\ e0 in [0, 1b-30] /\ y >= 1152921504606846975b-60 /\ @FLT(cc, 53) /\ @FLT(e0, 53) -> GOAL }

#%% part folded
# fill_slice, folded amplitude af = hi + lo within err: A = |af.hi|, scaled into [1, 2] (no
# underflow: every rounding below is then relative); v = RN(c A); the true value af cos is within
# X = e A + afe0 of c A (afe0 = |af.lo| + af.err, |cos| <= 1), and the kernel forms
#   afe = RN(RN(afe0) K40), ef = ((e A + afe) K50 + A {{FM}} K40B) K50B   (every operation rounded)
# Proven: RN(v - ef) <= c A - X and RN(v + ef) >= c A + X.
#:check (c * A - X) - lo >= 0 /\ hi - (c * A + X) >= 0
#:query (c * A - X) - lo
K50 = {{K50}};
K40 = {{K40}};
K40B = {{K40B}};
K50B = {{K50B}};
afs = rnd(afe0);
afe = rnd(afs * K40);
eA = rnd(e * A);
X1 = rnd(eA + afe);
X2 = rnd(X1 * K50);
M1 = rnd(A * {{FM}});
M = rnd(M1 * K40B);
t2 = rnd(X2 + M);
ef = rnd(t2 * K50B);
v = rnd(c * A);
lo = rnd(v - ef);
hi = rnd(v + ef);
X = e * A + afe0;
{ A in [1, 2] /\ c in [-1.001, 1.001] /\ e in [0, 1b-30] /\ afe0 in [0, 1b-30] /\ @FLT(A, 53) /\ @FLT(c, 53) /\ @FLT(e, 53)
  -> GOAL }
(c * A - X) - lo -> ((v - ef) - lo) + (c * A - v) + (ef - X);
hi - (c * A + X) -> (hi - (v + ef)) + (v - c * A) + (ef - X);
ef - X -> (ef - t2 * K50B) + (t2 - (X2 + M)) * K50B + (X2 - X1 * K50) * K50B + (X1 - X) * (K50 * K50B) + X * (K50 * K50B - 1) + M * K50B;
X1 - X -> (X1 - (eA + afe)) + (eA - e * A) + (afe - afe0);
afe - afe0 -> (afe - afs * K40) + (afs - afe0) * K40 + afe0 * (K40 - 1);
$ A in 8;
