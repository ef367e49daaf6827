# cis_anchor (sincos_table_entry.hpp): each component is RN(hi + lo) of the fast kernel's
# double-double (trig_kernel_fast), which is within K of the true cos/sin of the anchor's angle: K =
# the kernel's 2^-64 |hi| + the reduction's 2^-101 + |k| 2^-124 + the product angle's 2^-103 |phi|
# (sin and cos are 1-Lipschitz), |phi| < reduce_max; the runner sums K from those headers in exact
# arithmetic. Proven: |RN(x) - v| <= DELTA = the header's delta (inside anchor_error::a), for the
# true value v in [-1, 1] and |x - v| <= K. Part inner: |x| <= 1 - 2^-60 (then RN errs by 2^-54
# at most); part top: x >= 1 - 2^-60, RN(x) = 1 (the bottom is the same for -x: RN is odd).
@rnd = float<ieee_64, ne>;

#%% part inner
#:check |y - v| <= {{DELTA}}
#:query y - v
y = rnd(x);
{ v in [-1, 1] /\ x - v in [-{{K}}, {{K}}] /\ x in [-1152921504606846975b-60, 1152921504606846975b-60] -> GOAL }
y - v -> (y - x) + (x - v);

#%% part top
#:check |y - v| <= {{DELTA}}
y = rnd(x);
{ v in [-1, 1] /\ x - v in [-{{K}}, {{K}}] /\ x >= 1152921504606846975b-60 -> GOAL }
y - v -> (y - 1) + (1 - v);
x -> v + (x - v);
