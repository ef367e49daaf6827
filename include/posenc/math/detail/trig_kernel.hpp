// trig_kernel.hpp: sin and cos of a reduced argument r = rh + rl, |r| <= pi/4 + 2^-20, with a
// proven error bound, in two grades:
//   trig_kernel_fast: double arithmetic plus one TwoProduct per result, |error| <= 2^-64 |result|
//                     (enough for float, bfloat16 and float16 results: the rounding test then
//                     fails with probability about 2^-39 for float);
//   trig_kernel_dd:   double-double where it matters, |error| <= 2^-84 |result| (double results:
//                     the rounding test fails with probability about 2^-29).
//
// Method (table-driven, CRlibm trigo_fast.c / Tang 1989): r = a + z, a = i/128 from
// trig_table.hpp, |z| <= 2^-8 + 2^-52; with S = sin a, C = cos a and Taylor polynomials for the
// small z (Abramowitz & Stegun 4.3.65/4.3.66):
//   sin r = S + C z + S (cos z - 1) + C (sin z - z)
//   cos r = C - S z + C (cos z - 1) - S (sin z - z)
// The terms are ordered by size: S or C (>= 2^-8 unless i = 0, when S = 0 and C = 1), C z (<= 2^-8),
// S(cos z - 1) (<= 2^-17 |S|), C(sin z - z) (<= 2^-26.6). Each error bound below is derived term by
// term in the comment of its function; tests/test_trig_fastpath.cpp checks it against MPFR.
#pragma once

#include "posenc/math/detail/trig_table.hpp"
#include "posenc/math/double_double.hpp"

namespace posenc::detail {

// An approximation hi + lo of a value v with |hi + lo - v| <= err.
struct trig_approx {
  double hi = 0.0;
  double lo = 0.0;
  double err = 0.0;
};

struct trig_kernel_out {
  trig_approx sin_r;
  trig_approx cos_r;
};

// Fast grade. Inputs |rh| <= pi/4 + 2^-20, |rl| <= 2^-53 (a TwoSum output).
// Error (absolute, before the reduction error): with u = zh^2 <= 2^-16,
//  - ps ~ sin(zh)/zh - 1 and pc ~ cos(zh) - 1 by Horner, coefficients 1/n! rounded to double:
//    approximation |ps - (sin(zh)/zh - 1)| < 2^-72.5 and |pc - (cos(zh) - 1)| < 2^-90.5 (the
//    rounding of 1/6, resp. 1/24, times u, resp. u^2; the truncations are below 2^-101), rounding
//    <= 4 ulp: |dps| <= 2^-51 * 2^-18.6 + 2^-72.5 < 2^-69.4, |dpc| <= 2^-51 * 2^-17 + 2^-90.5 < 2^-67.99;
//  - ct = cos z - 1 (<= 2^-17): pc error, ct's rounding (2^-70), the dropped zl^2/2 and
//    zl (sin zh - zh) (< 2^-79.5): <= 2^-67.6;
//  - st = sin z - zh (<= 2^-26.5): zh dps (< 2^-77.4) + roundings (2^-80 each): <= 2^-76;
//  - S ct errs by <= 2^-67.3 |S|, the dropped Sl ct <= 2^-70 |S|, C st by <= 2^-75.9, the sum of lo
//    (big terms last) by <= 2^-69 |S| + 2^-78, the table by 2^-106 (|S| + |C|).
// Total <= 2^-66.7 |S| + 2^-75.5 for sin r; since |sin r| >= |S|/2 > 2^-8.01 when i != 0 this is
// <= 2^-65 |sin r|; when i = 0 (S = 0, C = 1) only st errs: <= 2^-68 |z|. cos r (>= 0.7) likewise.
// The stated bound 2^-64 |hi| keeps a factor of 2 in hand.
constexpr trig_kernel_out trig_kernel_fast(double rh, double rl, bool want_sin, bool want_cos) noexcept {
  const double fi = (rh * 128.0 + 0x1.8p52) - 0x1.8p52;  // nearest integer to 128 rh
  const int i = static_cast<int>(fi);
  const int ai = i < 0 ? -i : i;
  const double sg = i < 0 ? -1.0 : 1.0;  // sin(-a) = -sin(a)
  const double sh = sg * trig_table[ai][0], sl = sg * trig_table[ai][1];
  const double ch = trig_table[ai][2], cl = trig_table[ai][3];
  const double zh = rh - fi * 0x1p-7;  // exact: a multiple of ulp(rh) below 2^-7
  const double zl = rl;
  const double u = zh * zh;
  // Taylor coefficients 1/n! (correctly rounded), A&S 4.3.65 and 4.3.66.
  const double ps = u * (-0x1.5555555555555p-3 +
                         u * (0x1.1111111111111p-7 + u * (-0x1.a01a01a01a01ap-13 + u * 0x1.71de3a556c734p-19)));
  const double pc = u * (-0.5 + u * (0x1.5555555555555p-5 + u * (-0x1.6c16c16c16c17p-10 + u * 0x1.a01a01a01a01ap-16)));
  const double st = zh * ps + zl * (1.0 + pc);  // sin(zh + zl) - zh
  const double ct = pc - zl * zh;               // cos(zh + zl) - 1
  trig_kernel_out o{};
  if (want_sin) {
    const math::double_double p = two_prod(ch, zh);
    const math::double_double h = fast_two_sum(sh, p.hi);  // |sh| >= sin(1/128) > |p| or sh = 0
    const double lo = ((h.lo + p.lo) + (sl + cl * zh)) + (ch * st + sh * ct);
    o.sin_r = {h.hi, lo, (h.hi < 0 ? -h.hi : h.hi) * 0x1p-64};
  }
  if (want_cos) {
    const math::double_double q = two_prod(sh, zh);
    const math::double_double h = fast_two_sum(ch, -q.hi);  // |ch| >= 0.7 > |q|
    const double lo = ((h.lo - q.lo) + (cl - sl * zh)) + (ch * ct - sh * st);
    o.cos_r = {h.hi, lo, h.hi * 0x1p-64};
  }
  return o;
}

// Double-double grade. Same inputs. u = z^2, ct = cos z - 1 and P = sin(z)/z - 1 are carried as
// double-doubles: their leading terms -u/2 (exact halving) and -u/6 (TwoProduct with the two-part
// 1/6) exactly, the tails c4 = u^2(1/24 - ...) (<= 2^-36.6) and s5 = u^2(1/120 - ...) (<= 2^-38.9)
// in double with <= 4 ulp error (2^-87.3, 2^-89.5), coefficients 1/n! rounded to double: the
// approximations |cth + ctl - (cos(z) - 1)| < 2^-90.5 and |pp - (sin(z)/z - 1)| < 2^-94.8 (the
// rounding of 1/24, resp. 1/120, times u^2; the truncations are below 2^-96), so |dct| <= 2^-87.1,
// |dP| <= 2^-89.4. Then S ct errs by <= 2^-87.1 |S|, C st = C z P by <= 2^-97, the TwoSum/
// FastTwoSum tails and product tails gathered in lo (all <= 2^-52 |h|) by <= 2^-101 |h|, the table
// by 2^-106. Total <= 2^-85.9 |sin r| for i != 0 (|S| <= 2 |sin r|, |sin r| > 2^-8.01), <= 2^-89 |z|
// for i = 0; the stated 2^-84 |hi| keeps 3.7x.
constexpr trig_kernel_out trig_kernel_dd(double rh, double rl, bool want_sin, bool want_cos) noexcept {
  const double fi = (rh * 128.0 + 0x1.8p52) - 0x1.8p52;
  const int i = static_cast<int>(fi);
  const int ai = i < 0 ? -i : i;
  const double sg = i < 0 ? -1.0 : 1.0;
  const double sh = sg * trig_table[ai][0], sl = sg * trig_table[ai][1];
  const double ch = trig_table[ai][2], cl = trig_table[ai][3];
  const double zh = rh - fi * 0x1p-7;
  const double zl = rl;
  // u = z^2 (zl^2 <= 2^-108 dropped); renormalised because zl / zh is not small when zh is, and the
  // tails below use u.hi alone.
  const math::double_double u0 = two_prod(zh, zh);
  const math::double_double u = two_sum(u0.hi, u0.lo + 2.0 * zh * zl);
  const double uu = u.hi * u.hi;
  const double c4 =
      uu * (0x1.5555555555555p-5 +
            u.hi * (-0x1.6c16c16c16c17p-10 + u.hi * (0x1.a01a01a01a01ap-16 - u.hi * 0x1.27e4fb7789f5cp-22)));
  const double s5 = uu * (0x1.1111111111111p-7 + u.hi * (-0x1.a01a01a01a01ap-13 + u.hi * 0x1.71de3a556c734p-19));
  const double cth = -0.5 * u.hi, ctl = -0.5 * u.lo + c4;          // cos z - 1
  math::double_double pp = two_prod(u.hi, -0x1.5555555555555p-3);  // -u/6; 1/6 = hi + lo below
  pp.lo += (u.hi * -0x1.5555555555555p-57 + u.lo * -0x1.5555555555555p-3) + s5;
  math::double_double st = two_prod(zh, pp.hi);  // sin z - z = z P
  st.lo += zh * pp.lo + zl * pp.hi;
  trig_kernel_out o{};
  if (want_sin) {
    math::double_double a = two_prod(ch, zh);  // C z
    a.lo += ch * zl + cl * zh;
    math::double_double b = two_prod(sh, cth);  // S (cos z - 1)
    b.lo += sh * ctl + sl * cth;
    math::double_double c = two_prod(ch, st.hi);  // C (sin z - z)
    c.lo += ch * st.lo + cl * st.hi;
    const math::double_double h = fast_two_sum(sh, a.hi);  // |sh| >= sin(1/128) > |a| or sh = 0
    const math::double_double g = two_sum(b.hi, c.hi);
    const math::double_double h2 = fast_two_sum(h.hi, g.hi);  // |h| >= 2^-8 > |g|, or i = 0
    const double lo = ((h.lo + h2.lo) + (g.lo + sl)) + ((a.lo + b.lo) + c.lo);
    const math::double_double r = fast_two_sum(h2.hi, lo);
    o.sin_r = {r.hi, r.lo, (r.hi < 0 ? -r.hi : r.hi) * 0x1p-84};
  }
  if (want_cos) {
    math::double_double a = two_prod(sh, zh);  // S z
    a.lo += sh * zl + sl * zh;
    math::double_double b = two_prod(ch, cth);  // C (cos z - 1)
    b.lo += ch * ctl + cl * cth;
    math::double_double c = two_prod(sh, st.hi);  // S (sin z - z)
    c.lo += sh * st.lo + sl * st.hi;
    const math::double_double h = fast_two_sum(ch, -a.hi);
    const math::double_double g = two_sum(b.hi, -c.hi);
    const math::double_double h2 = fast_two_sum(h.hi, g.hi);
    const double lo = ((h.lo + h2.lo) + (g.lo + cl)) + ((b.lo - a.lo) - c.lo);
    const math::double_double r = fast_two_sum(h2.hi, lo);
    o.cos_r = {r.hi, r.lo, r.hi * 0x1p-84};
  }
  return o;
}

}  // namespace posenc::detail
