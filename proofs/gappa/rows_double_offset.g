# The double row kernel's row offsets (sincos_table_rows_double.hpp rotate_small): the entry product's
# unnormalised (c + cl) + i (s + sl) turned by a small angle t, |t| <= TMAX, as 1 - t^2/2 + i t:
#   q = RN(RN(t t) 0.5),  cl' = RN(cl - RN(RN(RN(s + sl) t) + RN(c q))),
#                         sl' = RN(sl + RN(RN(RN(c + cl) t) - RN(s q))).
# t is the kernel's RN(o_p RN-high(theta)) of the exact angle t_ = o_p theta: the runner derives
# |t - t_| <= TERR from the header's gate on |o| |theta_hi| and on theta's rel_err (three roundings
# and theta's high part). cos t_ = 1 - t_^2/2 + ec, sin t_ = t_ + es, |ec| <= t_^4/24 <= EC and
# |es| <= |t_|^3/6 <= ES (Taylor with Lagrange remainder; the runner computes EC, ES from TMAX + TERR).
# c + cl and s + sl are within the entry bound (2^-70 or less) of a cosine and a sine: |.| <= 1 + 2^-23
# is all this uses, with |cl|, |sl| <= 2^-25 (the entry certificate's model, rows_double_entry.g).
@rnd = float<ieee_64, ne>;
tt = rnd(t * t); q = rnd(tt * 0.5);
ys = rnd(s + sl); xs = rnd(c + cl);
A = rnd(ys * t); B = rnd(c * q); kc = rnd(A + B);
Ck = rnd(xs * t); D = rnd(s * q); ks = rnd(Ck - D);
cl2 = rnd(cl - kc); sl2 = rnd(sl + ks);
X = c + cl; Y = s + sl;
h2 = t_ * t_ / 2;
CO = 1 - h2 + ec; SI = t_ + es;
Re = X * CO - Y * SI; Im = Y * CO + X * SI;

#%% part rotate
# Each component of the turned value within R_o = {{RO}} of the exact product of (c + cl) + i (s + sl)
# and cis(t_); the low parts stay below 2^-24 (the test's margin, part test).
#:check |c + cl2 - Re| <= {{RO}} /\ |s + sl2 - Im| <= {{RO}} /\ |cl2| <= 1b-24 /\ |sl2| <= 1b-24
#:query c + cl2 - Re
{ |c + cl| <= 1.0000001 /\ |s + sl| <= 1.0000001 /\ |cl| <= 1b-25 /\ |sl| <= 1b-25
  /\ @FLT(c, 53) /\ @FLT(s, 53) /\ @FLT(cl, 53) /\ @FLT(sl, 53)
  /\ |t| <= {{TMAX}} /\ @FLT(t, 53) /\ |t - t_| <= {{TERR}} /\ |ec| <= {{EC}} /\ |es| <= {{ES}}
  -> GOAL }
c + cl2 - Re -> (cl2 - (cl - kc)) - (kc - (Y * t_ + X * h2)) + (Y * es - X * ec);
s + sl2 - Im -> (sl2 - (sl + ks)) + (ks - (X * t_ - Y * h2)) - (Y * ec + X * es);
kc - (Y * t_ + X * h2) -> (kc - (A + B)) + (A - Y * t_) + (B - X * h2);
A - Y * t_ -> (A - ys * t) + (ys - Y) * t + Y * (t - t_);
B - X * h2 -> (B - c * q) + c * (q - h2) - cl * h2;
q - h2 -> (q - tt * 0.5) + (tt - t * t) * 0.5 + (t - t_) * (t + t_) * 0.5;
ks - (X * t_ - Y * h2) -> (ks - (Ck - D)) + (Ck - X * t_) - (D - Y * h2);
Ck - X * t_ -> (Ck - xs * t) + (xs - X) * t + X * (t - t_);
D - Y * h2 -> (D - s * q) + s * (q - h2) - sl * h2;

#%% part test
# decide(c, cl', e') as in rows_double_entry.g's part test, now on the turned low part: e' =
# RN(RN(e_row + ferr) (1 + 2^-50)) + {{TM}}, the entry within E0 = e_row + ferr (e_row >= R_e + R_o).
# RN(cl' - e') <= cl' - E0 and RN(cl' + e') >= cl' + E0: the test keeps deciding RN of the interval.
#:check (cl2 - E0) - lo >= 0 /\ hi - (cl2 + E0) >= 0
rE0 = rnd(erow + ferr); K50 = {{K50}}; tE = rE0 * K50; X2 = rnd(tE);
ee = rnd(X2 + {{TM}});
lo = rnd(cl2 - ee); hi = rnd(cl2 + ee);
E0 = erow + ferr;
{ |c + cl| <= 1.0000001 /\ |s + sl| <= 1.0000001 /\ |cl| <= 1b-25 /\ |sl| <= 1b-25
  /\ @FLT(c, 53) /\ @FLT(s, 53) /\ @FLT(cl, 53) /\ @FLT(sl, 53)
  /\ |t| <= {{TMAX}} /\ @FLT(t, 53)
  /\ erow in [{{RELOW}}, 1b-31] /\ ferr in [0, 1b-31] /\ @FLT(erow, 53) /\ @FLT(ferr, 53)
  -> GOAL }
(cl2 - E0) - lo -> ((cl2 - ee) - lo) + (ee - E0);
hi - (cl2 + E0) -> (hi - (cl2 + ee)) + (ee - E0);
ee - E0 -> (ee - (X2 + {{TM}})) + E0 * ((X2 - E0) / E0) + {{TM}} { E0 <> 0 };
(X2 - E0) / E0 -> (1 + (X2 - tE) / tE) * ((1 + (rE0 - E0) / E0) * K50) - 1 { E0 <> 0, tE <> 0 };
