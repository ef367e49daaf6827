// trig_scalar_fast.hpp: the first fast paths of the scalar float and double sin and cos, written for
// constant evaluation: one function a result, no calls but the cheap rounding test, one kernel.
//
// The general fast path (trig.hpp: reduce_pio2, trig_kernel_fast, ziv_round) carries double-double
// values and makes some thirty calls a result; in GCC's constant evaluator every call and every
// integer operation costs several double operations' worth of time, and memory that stays
// allocated until the table is done (docs/performance.md 1.1). A float needs far less: an
// approximation within 2^-50 relative leaves the rounding test failing about once in 2^25 (62 of the
// 1.58e9 floats it takes, checked at run time). So for
// 2^-27 <= |x| < 2^20 this path does, in about 40 double operations:
//   k = nearest integer to x 2/pi, w = (x - k P1) - k P2   (Cody and Waite, two parts),
//   sin w or cos w by its Taylor polynomial (Abramowitz & Stegun 4.3.65/4.3.66), sign by k mod 4,
//   round_test_float (round_test_cheap.hpp).
// Arguments it does not cover, and the rare ones whose test fails, go to the general path, whose
// result is the same correctly rounded float: the bits never depend on the path.
#pragma once

#include <cstdint>

#include "posenc/math/detail/round_test_cheap.hpp"
#include "posenc/math/detail/trig_table.hpp"

namespace posenc::detail {

// pi/2 = P1 + P2 + e, |e| < 2^-87.8: P1 = pi/2 rounded to 32 significant bits, P2 = RN(pi/2 - P1)
// (MPFR/mpmath at 300 bits; P1 has 32 bits, so k P1 is exact for |k| < 2^21).
inline constexpr double trig_float_p1 = 0x1.921fb544p+0;
inline constexpr double trig_float_p2 = 0x1.0b4611a626331p-34;

// RN_float(sin(x + shift pi/2)) for shift 0 (sin) or 1 (cos) when the fast path decides it; x a
// float's value; it takes 2^-27 <= |x| < 2^20. Returns false (out unspecified) to send x elsewhere.
//
// Reduction. |x 2/pi| < 2^19.4 and RN(x RN(2/pi)) errs by < 2^-32, so |k| < 2^20, |x - k pi/2|
// <= pi/4 + 2^-32, and k P1 is exact. t = x - k P1 is exact: x (a float's value >= 2^-27) and
// k P1 are multiples of 2^-50, and |t| <= pi/4 + 2^-32 + |k| |pi/2 - P1| < 1. |k P2| < 2^-13.9
// rounds with error <= 2^-67; w = RN(t - RN(k P2)) errs by <= 2^-53 |w|; the dropped e adds
// |k| 2^-87.8 < 2^-67.8. So |w - (x - k pi/2)| <= 2^-53 |w| + 2^-66, and |w| <= pi/4 + 2^-31.
// sin w = w + w^3 Q(w^2), Q to the w^15/15! term: truncation <= |w| 0.786^16 / 17! < 2^-54 |w|.
//   Horner on u = RN(w^2) <= 0.618 with |c(n+2) u| <= 0.031 |c(n)|: Q errs by <= 2.1 * 2^-53 Q,
//   u's rounding adds 2^-57 Q; s = RN(RN(w u) q) by <= 5.2 * 2^-53 |w^3 Q| <= 2^-53.9 |w|
//   (|w^2 Q| <= 0.618/6); y = RN(w + s) by 2^-53 |y|. With |w| <= 1.13 |y| (sin w >= 0.9 w
//   here) and the reduction error: |y - sin| <= 2^-53 |y| + 2^-51.95 |w| + 2^-66
//   <= 2^-51.3 |y| + 2^-66.
// cos w = 1 + u P(u), P to the w^16/16! term: truncation <= 0.618^9 / 18! < 2^-58.9. P errs by
//   <= 2.2 * 2^-53 P plus 2^-57 P from u; u P by <= 4.3 * 2^-53 |u P| <= 2^-52.5 (|u P| <= 0.31);
//   y = RN(1 + u P) by 2^-53 |y|; the reduction error times |sin w| <= 0.71: <= 2^-53.7 + 2^-66.
//   In all <= 2^-53 |y| + 2^-51.8 <= 2^-50.5 |y| (y >= 0.7).
// Both within the e = 2^-50 |y| + 2^-65 handed to the test (more than 2x in hand).
constexpr bool trig_float_fast(double x, int shift, float& out) noexcept {
  const double ax = x < 0 ? -x : x;
  if (!(ax >= 0x1p-27 && ax < 0x1p20)) return false;                  // also NaN and infinities
  const double k = (x * 0x1.45f306dc9c883p-1 + 0x1.8p52) - 0x1.8p52;  // RN(2/pi); |x| < 2^20
  const double w = (x - k * trig_float_p1) - k * trig_float_p2;
  const int quadrant = static_cast<int>((static_cast<std::int64_t>(k) + shift) & 3);
  const double u = w * w;
  double y = 0.0;
  if ((quadrant & 1) == 0) {  // sin(w + q pi/2) = +-sin w for q = 0, 2
    const double q =
        -0x1.5555555555555p-3 +
        u * (0x1.1111111111111p-7 +
             u * (-0x1.a01a01a01a01ap-13 +
                  u * (0x1.71de3a556c734p-19 +
                       u * (-0x1.ae64567f544e4p-26 + u * (0x1.6124613a86d09p-33 + u * -0x1.ae7f3e733b81fp-41)))));
    y = w + (w * u) * q;
  } else {  // +-cos w for q = 1, 3
    const double p =
        -0.5 +
        u * (0x1.5555555555555p-5 +
             u * (-0x1.6c16c16c16c17p-10 +
                  u * (0x1.a01a01a01a01ap-16 +
                       u * (-0x1.27e4fb7789f5cp-22 +
                            u * (0x1.1eed8eff8d898p-29 + u * (-0x1.93974a8c07c9dp-37 + u * 0x1.ae7f3e733b81fp-45))))));
    y = 1.0 + u * p;
  }
  if (quadrant >= 2) y = -y;
  const double ay = y < 0 ? -y : y;
  return round_test_float(y, ay * 0x1p-50 + 0x1p-65, out);
}

// Double results: the same shape with double-double values where a double result needs them.
// pi/2 = Q1 + Q2 + Q3 + e, |e| < 2^-122.8: Q1 = P1 above, Q2 = RN_32(pi/2 - Q1) (32 significant
// bits, so k Q2 is exact for |k| < 2^21), Q3 = RN(pi/2 - Q1 - Q2) (mpmath at 400 bits).
inline constexpr double trig_double_q2 = 0x1.0b4611a6p-34;
inline constexpr double trig_double_q3 = 0x1.3198a2e037073p-69;

// RN(sin(x + shift pi/2)) for shift 0 (sin) or 1 (cos) when this path decides it; it takes
// 2^-27 <= |x| < 2^20. Returns false (out unspecified) to send x to the general path (trig.hpp), which returns
// the same correctly rounded double.
//
// Reduction: k as in trig_float_fast (|k| < 2^20, |x - k pi/2| <= pi/4 + 2^-32). t = x - k Q1 is
// exact: for k = 0 it is x; otherwise |x| >= 1/2, so x and k Q1 are multiples of 2^-53, and |t| < 1.
// k Q2 is exact, (sh, sl) = TwoSum(t, -k Q2) exact; RN(k Q3) (|k Q3| < 2^-48.7) errs by <= 2^-102,
// lo = RN(sl - RN(k Q3)) by <= 2^-101.6, the dropped e by |k| 2^-122.8 < 2^-102.8, and
// (rh, rl) = TwoSum(sh, lo) is exact: |rh + rl - (x - k pi/2)| <= 2^-100, |rl| <= 2^-53.
// sh is 0 or a multiple of 2^-65 and lo a multiple of 2^-122, so no product below underflows.
// Kernel: the operations of trig_kernel_fast (trig_kernel.hpp) written out for the one result
// needed (sin r for an even quadrant, cos r for an odd one), with its proven bound
// |hi + lo - f(r)| <= 2^-64 |hi|; |d sin/dr|, |d cos/dr| <= 1 add the reduction's 2^-100.
// About one argument in a thousand then fails round_test_double and takes the general path.
constexpr bool trig_double_fast(double x, int shift, double& out) noexcept {
  constexpr double shifter = 0x1.8p52;
  constexpr double veltkamp = 134217729.0;  // 2^27 + 1: Dekker's TwoProduct without FMA
  const double ax = x < 0 ? -x : x;
  if (!(ax >= 0x1p-27 && ax < 0x1p20)) return false;  // also NaN and infinities
  const double k = (x * 0x1.45f306dc9c883p-1 + shifter) - shifter;
  const double t = x - k * trig_float_p1;
  const double p2 = k * trig_double_q2;
  const double sh = t - p2;  // TwoSum(t, -p2)
  const double sb = sh - t;
  const double sl = (t - (sh - sb)) + (-p2 - sb);
  const double lo0 = sl - k * trig_double_q3;
  const double rh = sh + lo0;  // TwoSum(sh, lo0)
  const double rb = rh - sh;
  const double rl = (sh - (rh - rb)) + (lo0 - rb);
  const int quadrant = static_cast<int>((static_cast<std::int64_t>(k) + shift) & 3);
  // trig_kernel_fast, one result.
  const double fi = (rh * 128.0 + shifter) - shifter;
  const int i = static_cast<int>(fi);
  const int ai = i < 0 ? -i : i;
  const double sg = i < 0 ? -1.0 : 1.0;
  const double s_hi = sg * trig_table[ai][0], s_lo = sg * trig_table[ai][1];
  const double c_hi = trig_table[ai][2], c_lo = trig_table[ai][3];
  const double zh = rh - fi * 0x1p-7;
  const double zl = rl;
  const double u = zh * zh;
  const double ps = u * (-0x1.5555555555555p-3 +
                         u * (0x1.1111111111111p-7 + u * (-0x1.a01a01a01a01ap-13 + u * 0x1.71de3a556c734p-19)));
  const double pc = u * (-0.5 + u * (0x1.5555555555555p-5 + u * (-0x1.6c16c16c16c17p-10 + u * 0x1.a01a01a01a01ap-16)));
  const double st = zh * ps + zl * (1.0 + pc);  // sin(zh + zl) - zh
  const double ct = pc - zl * zh;               // cos(zh + zl) - 1
  // sin r = S + C z + ...: TwoProduct(C, z) and FastTwoSum(S, C z); cos r = C - S z + ...: the
  // same with the roles of S and C swapped and -S z.
  const bool odd = (quadrant & 1) != 0;
  const double big = odd ? c_hi : s_hi, big_lo = odd ? c_lo : s_lo;
  const double other = odd ? -s_hi : c_hi, other_lo = odd ? -s_lo : c_lo;
  const double pp = other * zh;  // TwoProduct(other, zh)
  const double oa = veltkamp * other;
  const double o1 = oa - (oa - other), o2 = other - o1;
  const double za = veltkamp * zh;
  const double z1 = za - (za - zh), z2 = zh - z1;
  const double pe = ((o1 * z1 - pp) + o1 * z2 + o2 * z1) + o2 * z2;
  const double hh = big + pp;  // FastTwoSum: |big| >= sin(1/128) > |pp|, or big = S = 0
  const double hl = pp - (hh - big);
  // sin: (sl + cl z) + (C st + S ct); cos: (cl - sl z) + (C ct - S st).
  const double rest = odd ? (c_hi * ct - s_hi * st) : (c_hi * st + s_hi * ct);
  double h = hh;
  double l = ((hl + pe) + (big_lo + other_lo * zh)) + rest;
  if (quadrant >= 2) {
    h = -h;
    l = -l;
  }
  const double ah = h < 0 ? -h : h;
  return round_test_double(h, l, ah * 0x1p-64 + 0x1p-100, out);
}

}  // namespace posenc::detail
