# The double row kernel's entry A E_b (sincos_table_rows_double.hpp to_short, cmul_short) and its
# unfolded two-ended test (decide). A = (ach_ + acl_) + i (ash_ + asl_), E likewise: normalised
# double-doubles, |high| <= 1 + 2^-40, |low| <= 2^-53. to_short keeps h = the Veltkamp half of the
# high part (a rounding to nearest on 26 bits: Boldo 2006; the tie rule does not matter to these
# bounds) and l = RN(RN(hi - h) + lo); the products of halves are exact (26 + 26 bits: Gappa checks
# FLT(., 53)), TwoSum exact (Knuth), the gathered low parts rounded as written.
@rnd = float<ieee_64, ne>;
@half = float<26, ne>;
ach = half(ach_); ash = half(ash_); ech = half(ech_); esh = half(esh_);
acl = rnd(rnd(ach_ - ach) + acl_); asl = rnd(rnd(ash_ - ash) + asl_);
ecl = rnd(rnd(ech_ - ech) + ecl_); esl = rnd(rnd(esh_ - esh) + esl_);
p1 = ach * ech; p2 = ash * esh; p3 = ash * ech; p4 = ach * esh;
c = rnd(p1 - p2); ct = (p1 - p2) - c;
s = rnd(p3 + p4); st = (p3 + p4) - s;
x = rnd(rnd(rnd(ach * ecl) + rnd(acl * ech)) + rnd(acl * ecl));
y = rnd(rnd(rnd(ash * esl) + rnd(asl * esh)) + rnd(asl * esl));
u = rnd(rnd(rnd(ash * ecl) + rnd(asl * ech)) + rnd(asl * ecl));
v = rnd(rnd(rnd(ach * esl) + rnd(acl * esh)) + rnd(acl * esl));
cl = rnd(ct + rnd(x - y));
sl = rnd(st + rnd(u + v));
AC = ach_ + acl_; AS = ash_ + asl_; EC = ech_ + ecl_; ES = esh_ + esl_;
Re = AC * EC - AS * ES;
Im = AS * EC + AC * ES;
acx = AC - ach; asx = AS - ash; ecx = EC - ech; esx = ES - esh;

#%% part entry
# Each component of c + cl within R_e = {{RE}} of the exact product's.
#:check |c + cl - Re| <= {{RE}} /\ |s + sl - Im| <= {{RE}} /\ @FLT(p1, 53) /\ @FLT(p2, 53) /\ @FLT(p3, 53) /\ @FLT(p4, 53)
#:query c + cl - Re
#:query s + sl - Im
{ |ach_| <= 4503599627374592b-52 /\ |ash_| <= 4503599627374592b-52 /\ |ech_| <= 4503599627374592b-52 /\ |esh_| <= 4503599627374592b-52
  /\ |acl_| <= 1b-53 /\ |asl_| <= 1b-53 /\ |ecl_| <= 1b-53 /\ |esl_| <= 1b-53
  /\ @FLT(ach_, 53) /\ @FLT(ash_, 53) /\ @FLT(ech_, 53) /\ @FLT(esh_, 53) /\ @FLT(acl_, 53) /\ @FLT(asl_, 53) /\ @FLT(ecl_, 53) /\ @FLT(esl_, 53)
  -> GOAL }
c + cl - Re -> cl - (ct + ((ach * ecx + acx * ech + acx * ecx) - (ash * esx + asx * esh + asx * esx)));
s + sl - Im -> sl - (st + ((ash * ecx + asx * ech + asx * ecx) + (ach * esx + acx * esh + acx * esx)));
acx -> (ach_ - ach) + acl_; asx -> (ash_ - ash) + asl_; ecx -> (ech_ - ech) + ecl_; esx -> (esh_ - esh) + esl_;

#%% part test
# decide(c, cl, e'): e' = RN(RN(e_row + ferr) (1 + 2^-50)) + {{TM}}, the entry within E0 = e_row + ferr
# (e_row >= R_e: entry_bounds_dd). For E0 <= 2^-30: RN(cl - e') <= cl - E0 and RN(cl + e') >= cl + E0,
# so the ends c + RN(cl -+ e') (one more monotone rounding) decide RN of every real in the interval.
# (The low parts' range comes from the model above: |cl| <= 2^-25 here, the header's 2^-23.9 with
# |hi| < 2.) The same holds for sl.
#:check (cl - E0) - lo >= 0 /\ hi - (cl + E0) >= 0
#:query (cl - E0) - lo
rE0 = rnd(erow + ferr); K50 = {{K50}}; tE = rE0 * K50; X2 = rnd(tE);
ee = rnd(X2 + {{TM}});
lo = rnd(cl - ee); hi = rnd(cl + ee);
E0 = erow + ferr;
{ |ach_| <= 4503599627374592b-52 /\ |ash_| <= 4503599627374592b-52 /\ |ech_| <= 4503599627374592b-52 /\ |esh_| <= 4503599627374592b-52
  /\ |acl_| <= 1b-53 /\ |asl_| <= 1b-53 /\ |ecl_| <= 1b-53 /\ |esl_| <= 1b-53
  /\ @FLT(ach_, 53) /\ @FLT(ash_, 53) /\ @FLT(ech_, 53) /\ @FLT(esh_, 53) /\ @FLT(acl_, 53) /\ @FLT(asl_, 53) /\ @FLT(ecl_, 53) /\ @FLT(esl_, 53)
  /\ erow in [{{RELOW}}, 1b-31] /\ ferr in [0, 1b-31] /\ @FLT(erow, 53) /\ @FLT(ferr, 53)
  -> GOAL }
(cl - E0) - lo -> ((cl - ee) - lo) + (ee - E0);
hi - (cl + E0) -> (hi - (cl + ee)) + (ee - E0);
ee - E0 -> (ee - (X2 + {{TM}})) + E0 * ((X2 - E0) / E0) + {{TM}} { E0 <> 0 };
(X2 - E0) / E0 -> (1 + (X2 - tE) / tE) * ((1 + (rE0 - E0) / E0) * K50) - 1 { E0 <> 0, tE <> 0 };

#%% part test_wide
# E0 > 2^-30 (a frequency known too loosely): then the two ends differ, whatever E0 (up to 2^1000):
# c + RN(cl + e') - (c + RN(cl - e')) >= 2 e' (1 - 2^-52) is far more than an ulp of either sum.
#:check hi2 - lo2 >= 1b-40
ee2 = rnd(rnd(rnd(E2) * {{K50}}) + {{TM}});
y1 = rnd(l2 - ee2); y2 = rnd(l2 + ee2); lo2 = rnd(c2 + y1); hi2 = rnd(c2 + y2);
{ c2 in [-2.0001, 2.0001] /\ l2 in [-1b-25, 1b-25] /\ E2 in [1b-30, 1b1000] /\ @FLT(c2, 53) /\ @FLT(l2, 53) -> GOAL }
hi2 - lo2 -> ((hi2 - (c2 + y2)) - (lo2 - (c2 + y1))) + ((y2 - (l2 + ee2)) - (y1 - (l2 - ee2))) + 2 * ee2;
#:logsplit E2 -31 1000
