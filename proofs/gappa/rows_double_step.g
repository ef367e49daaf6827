# One step of the double row kernel's recurrence, the dd-lite product Z W (sincos_table_rows_double.hpp
# cmul, then normalise): Z = (zch + zcl) + i (zsh + zsl), W likewise, each high part a double with
# |.| <= 1 + 2^-40 and each low part |.| <= 2^-53 (a normalised double-double near the unit circle).
# Modelled as in the header: p_i = RN(products of the high parts); e_i = p_i's error, exact (Dekker's
# TwoProduct on the Veltkamp halves: exact while no product underflows, which |theta| >= 2^-400
# ensures); c, ct = TwoSum(p1, -p2) and s, st = TwoSum(p3, p4), exact (Knuth); the gathered low
# parts rounded as written; normalise's TwoSum exact. Proven: each component of c + cl (= hi + lo
# after normalise) is within K = R / sqrt2 of the exact product's (R = anchor_error_dd::R, a modulus).
@rnd = float<ieee_64, ne>;

#%% part product
#:check |c + cl - Re| <= {{K}} /\ |s + sl - Im| <= {{K}}
#:query c + cl - Re
#:query s + sl - Im
P1 = zch * wch; P2 = zsh * wsh; P3 = zsh * wch; P4 = zch * wsh;
p1 = rnd(P1); p2 = rnd(P2); p3 = rnd(P3); p4 = rnd(P4);
e1 = P1 - p1; e2 = P2 - p2; e3 = P3 - p3; e4 = P4 - p4;
c = rnd(p1 - p2); ct = (p1 - p2) - c;
s = rnd(p3 + p4); st = (p3 + p4) - s;
cl = rnd(rnd(rnd(ct + rnd(e1 - e2)) + rnd(rnd(zch * wcl) - rnd(zsh * wsl))) + rnd(rnd(zcl * wch) - rnd(zsl * wsh)));
sl = rnd(rnd(rnd(st + rnd(e3 + e4)) + rnd(rnd(zsh * wcl) + rnd(zch * wsl))) + rnd(rnd(zsl * wch) + rnd(zcl * wsh)));
Re = (zch + zcl) * (wch + wcl) - (zsh + zsl) * (wsh + wsl);
Im = (zsh + zsl) * (wch + wcl) + (zch + zcl) * (wsh + wsl);
{ |zch| <= 4503599627374592b-52 /\ |zsh| <= 4503599627374592b-52 /\ |wch| <= 4503599627374592b-52 /\ |wsh| <= 4503599627374592b-52
  /\ |zcl| <= 1b-53 /\ |zsl| <= 1b-53 /\ |wcl| <= 1b-53 /\ |wsl| <= 1b-53
  /\ @FLT(zch, 53) /\ @FLT(zsh, 53) /\ @FLT(wch, 53) /\ @FLT(wsh, 53) /\ @FLT(zcl, 53) /\ @FLT(zsl, 53) /\ @FLT(wcl, 53) /\ @FLT(wsl, 53)
  -> GOAL }
c + cl - Re -> (cl - (ct + (e1 - e2) + (zch * wcl - zsh * wsl) + (zcl * wch - zsl * wsh))) - (zcl * wcl - zsl * wsl);
s + sl - Im -> (sl - (st + (e3 + e4) + (zsh * wcl + zch * wsl) + (zsl * wch + zcl * wsh))) - (zsl * wcl + zcl * wsl);
