# The double row kernel's folded amplitude (sincos_table_rows_double.hpp entry_vector<true>,
# row_values_dd): af = ah + al within err (|al| <= 2^-53 ah), the entry c + cl within E0 of cos
# (|c| in [2^-60, 1.001]: smaller lanes go to the scalar path; |cl| <= 2^-25 + 2^-77, the range
# rows_double_entry's model proves). ah is scaled into [1, 2]: 2^-500 <= |af.hi| <= 2^500 and
# |c| >= 2^-60 keep every product far from underflow, so each rounding is relative (an underflowing
# cl ah or c al adds at most 2^-1075, inside the margin). vc = RN(c ah) and its error ec (TwoProduct,
# exact), vcl = RN(ec + RN(RN(cl ah) + RN(c al))); the test's e as written in the header:
#   e1 = RN(RN(e_row + ferr) K50), ef = ((e1 (ah KAH) + K40 err) + ah M1) K50 + M2 ah
# The true value af cos - vc is within W -+ ((ah + al) E0 + err) (W = ec + cl ah + c al + al cl,
# |cos| <= 1); proven: RN(vcl - ef) <= W - (ah + al) E0 - err and RN(vcl + ef) >= W + (...), so the
# ends vc + RN(vcl -+ ef) decide. For E0, err <= 2^-31; beyond, the ends differ (as in
# rows_double_entry's test_wide).
@rnd = float<ieee_64, ne>;

#%% part folded
#:check (W - (ah + al) * E0 - err) - y1 >= 0 /\ y2 - (W + (ah + al) * E0 + err) >= 0
#:query (W - (ah + al) * E0 - err) - y1
KAH = {{KAH}}; K40 = {{K40}}; K50 = {{K50}};
vc = rnd(c * ah);
ec = c * ah - vc;
g = rnd(rnd(cl * ah) + rnd(c * al));
vcl = rnd(ec + g);
E0 = erow + ferr;
rE0 = rnd(E0); t1 = rE0 * K50; e1 = rnd(t1);
f1 = rnd(e1 * rnd(ah * KAH));
f2 = rnd(K40 * err);
f3 = rnd(ah * {{M1}});
f4 = rnd(rnd(f1 + f2) + f3);
t5 = f4 * K50;
f5 = rnd(t5);
f6 = rnd({{M2}} * ah);
ef = rnd(f5 + f6);
y1 = rnd(vcl - ef); y2 = rnd(vcl + ef);
W = ec + (cl * ah + c * al) + al * cl;
{ ah in [1, 2] /\ |al| <= 1b-52 /\ c in [-1.001, 1.001] /\ |c| >= 1b-60 /\ |cl| <= 4503599627370497b-77
  /\ erow in [{{RELOW}}, 1b-31] /\ ferr in [0, 1b-31] /\ err in [0, 1b-31]
  /\ @FLT(ah, 53) /\ @FLT(al, 53) /\ @FLT(c, 53) /\ @FLT(cl, 53) /\ @FLT(erow, 53) /\ @FLT(ferr, 53) /\ @FLT(err, 53)
  -> GOAL }
(W - (ah + al) * E0 - err) - y1 -> ((vcl - ef) - y1) + (W - vcl) + (ef - ((ah + al) * E0 + err));
y2 - (W + (ah + al) * E0 + err) -> (y2 - (vcl + ef)) + (vcl - W) + (ef - ((ah + al) * E0 + err));
W - vcl -> -(vcl - (ec + g)) - (g - (cl * ah + c * al)) + al * cl;
vcl - W -> (vcl - (ec + g)) + (g - (cl * ah + c * al)) - al * cl;
ef - ((ah + al) * E0 + err) -> (ef - (f5 + f6)) + (f5 - t5) + (f4 - (f1 + f2 + f3)) * K50 + (f1 - e1 * (ah * KAH)) * K50 + (f2 - K40 * err) * K50 + (f3 - ah * {{M1}}) * K50 + (e1 - E0) * (ah * KAH * K50) + E0 * (ah * (KAH * K50 - 1) - al) + err * (K40 * K50 - 1) + ah * {{M1}} * K50 + f6;
f4 - (f1 + f2 + f3) -> (f4 - (rnd(f1 + f2) + f3)) + (rnd(f1 + f2) - (f1 + f2));
e1 - E0 -> E0 * ((e1 - E0) / E0) { E0 <> 0 };
(e1 - E0) / E0 -> (1 + (e1 - t1) / t1) * ((1 + (rE0 - E0) / E0) * K50) - 1 { E0 <> 0, t1 <> 0 };

#%% part folded_wide
# E0 > 2^-31 or err > 2^-31: then ef >= 2^-32 (ef >= E0 ah K50 (1 - 2^-52)^3 and >= err likewise,
# ah >= 1), and the two ends differ whatever ef (up to 2^1000).
#:check hi2 - lo2 >= 1b-40
y1 = rnd(l2 - ef2); y2 = rnd(l2 + ef2); lo2 = rnd(v2 + y1); hi2 = rnd(v2 + y2);
{ v2 in [-4.01, 4.01] /\ l2 in [-1b-22, 1b-22] /\ ef2 in [1b-32, 1b1000] /\ @FLT(v2, 53) /\ @FLT(l2, 53) /\ @FLT(ef2, 53) -> GOAL }
hi2 - lo2 -> ((hi2 - (v2 + y2)) - (lo2 - (v2 + y1))) + ((y2 - (l2 + ef2)) - (y1 - (l2 - ef2))) + 2 * ef2;
#:logsplit ef2 -33 1000
