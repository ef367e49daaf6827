# dd_div (double_double.hpp): x / y for a double-double x = xh + xl and a double y, FMA-free:
#   th = RN(xh / y); (ph, pl) = TwoProduct(th, y); dl = RN(RN(RN(xh - ph) - pl) + xl);
#   return Fast2Sum(th, RN(dl / y)).
# TwoProduct and Fast2Sum are modelled by the exact values they return (Fast2Sum's precondition
# |th| >= |tl| is part of the goal). Signs: dd_div(-x, y) = dd_div(x, -y) = -dd_div(x, y) (RN is
# symmetric), so xh, y > 0. Scaling: xh by 2^a into [1, 2) and y by 2^b into (1, 2] scales every
# operation by a power of two (y a power of two becomes 2, not 1). x normalised: |xl| <= ulp(xh)/2.
#
# Gappa proves both subtractions of the remainder exact: xh - ph (Sterbenz: Gappa shows it from
# xh and ph's exponents and |xh - ph| < 2 ulp) and (xh - ph) - pl = xh - th y (the remainder of a
# rounded quotient is a double: a multiple of ulp(th) ulp(y) below 2^53 of them). Every rewriting
# hint below is an identity Gappa checks (no "not trivially equal" warning; the runner fails on one).
# Gappa's own case splits ($) did not reproduce the box-by-box proof of the second exactness (the
# exponents it uses seem to be those of the whole range), so the runner checks the (xh, y) plane box
# by box (XL .. YH below, 4 x 4 boxes), each box one gappa run with its ranges as hypotheses.
@rnd = float<ieee_64, ne>;

th = rnd(xh / y);
ph = rnd(th * y);
pl = th * y - ph;
d1 = rnd(xh - ph);
d2 = rnd(d1 - pl);
dl = rnd(d2 + xl);
tl = rnd(dl / y);
X = xh + xl;
D = X - th * y;

#%% part div
# Relative error of th + tl against x / y, at most {{DIV}} (3.5 u^2 in the header).
#:check (th + tl - X / y) / (X / y) in [-{{DIV}}, {{DIV}}]
#:check th in [1b-1, 2] /\ tl in [-1b-50, 1b-50]
#:check d1 - (xh - ph) in [0, 0] /\ d2 - (d1 - pl) in [0, 0]
#:query (th + tl - X / y) / (X / y)
{ xh in [{{XL}}, {{XH}}] /\ y in [{{YL}}, {{YH}}] /\ xl in [-1b-53, 1b-53] /\ @FLT(xh, 53) /\ @FLT(y, 53) /\ @FLT(xl, 53) -> GOAL }
xh - ph -> (xh - th * y) - (ph - th * y);
xh - th * y -> (xh / y - th) * y { y <> 0 };
d1 - pl -> (xh / y - th) * y + (d1 - (xh - ph)) { y <> 0 };
(th + tl - X / y) / (X / y) -> ((tl - dl / y) * y + (dl - D)) / X { y <> 0, X <> 0 };
dl - D -> (dl - (d2 + xl)) + (d2 - (d1 - pl)) + (d1 - (xh - ph));
dl / y -> (xh / y - th) + xl / y + (dl - D) / y { y <> 0 };
