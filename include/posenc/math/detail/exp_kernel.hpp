// exp_kernel.hpp: the fast-path kernels of exp, shared by exp, pow and rope_theta.
//
// Method (Tang's table-driven exp, in the two-table form of CORE-MATH's binary64 exp):
// x = k ln2/2^t + r with k = round(x 2^t/ln2), so e^x = 2^(k >> t) * 2^(table bits of k) * e^r.
//  - exp_dd_eval: t = 12, two 64-entry double-double tables (2^(i/64), 2^(j/4096) - 1),
//    |r| <= 2^-13.5, degree-6 Taylor polynomial, double-double throughout: relative error
//    below exp_dd_rel_error = 2^-102.
//  - exp_small_eval: t = 6, one table (2^(i/64)), |r| < 2^-7.52, degree-6 Taylor polynomial in
//    plain double: relative error below exp_small_rel_error = 2^-58; the cheap path for float and
//    narrower results (about 30 operations).
// The reduction constants are ln2/2^t split so that k * (first part) is exact (Cody and Waite,
// "Software Manual for the Elementary Functions", 1980). Constants and tables were computed with
// MPFR (see exp_table.hpp); the polynomial coefficients are the Taylor coefficients 1/n! rounded
// to nearest (double-double where the analysis needs it).
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/detail/exp_table.hpp"
#include "posenc/math/double_double.hpp"

namespace posenc::detail {

// (hi + lo) * 2^k.
struct exp_parts {
  double hi;
  double lo;
  int k;
};

// 2^k for -1022 <= k <= 1023, by its bit pattern (no arithmetic, so no constexpr overflow).
constexpr double exp2i(int k) noexcept { return std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52); }

// Relative error bounds of the two kernels (derivations at each function).
inline constexpr double exp_dd_rel_error = 0x1p-102;
inline constexpr double exp_small_rel_error = 0x1p-58;

// e^(xh + xl) = (hi + lo) * 2^k, hi + lo in [0.9999, 2.0002] normalised. Preconditions:
// |xh| <= 746, |xl| <= 2^-43 (a normalised double-double of such magnitude).
// Error: |hi + lo - e^x 2^-k| <= 2^-102 (hi + lo). Derivation (u = 2^-53):
//  r: k is the integer nearest RN(xh RN(4096/ln2)), within 1/2 + 2^-30.8 of xh 4096/ln2 (< 2^22.1);
//     kd*E1 exact (E1 has 29 bits, |k| < 2^23) and xh - kd*E1 exact (Sterbenz); kd*E2 exact
//     (two_prod); the roundings of c, of kd*E3 and of s2.lo + c are below 2^-118 each, and
//     |E1+E2+E3 - ln2/4096| < 2^-155: |r - r*| < 2^-116, |r| <= ln2/8192 + 2^-43.3 + |xl| < 2^-13.5.
//  P = e^r - 1: Taylor remainder r^7/7! < 2^-106.7; a in double (|a| < 0.05, error < 2^-57,
//     times r^4 < 2^-54); b = 1/6 + r a to 2^-70 (times r^3 < 2^-40.5); the double-double
//     products and sums (relative 2^-102 and 2^-103, CRlibm Mul22/Add22) on terms below 2^-13.5:
//     |P - (e^r - 1)| < 2^-106.2.
//  W = d + P + dP with d = 2^(j/4096) - 1 (< 2^-6.5, table error 2^-112.5): |W err| < 2^-105.9.
//  V = T + T W, T = 2^(i/64) to 2^-106 relative; T W to 2^-102 |TW| < 2^-107.5 (T < 2);
//     the final Add22 of two same-sign terms loses at most 2^-104.7 |V|: total below 2^-103.8.
constexpr exp_parts exp_dd_eval(double xh, double xl) noexcept {
  constexpr double inv = 0x1.71547652b82fep+12;  // 4096/ln2
  constexpr double E1 = 0x1.62e42ffp-13, E2 = -0x1.718432a1b0e26p-47, E3 = -0x1.9ff0342542fc3p-102;
  constexpr double shifter = 0x1.8p52;  // adding it rounds to an integer (|xh*inv| < 2^51)
  const double kd = (xh * inv + shifter) - shifter;
  const int k = static_cast<int>(kd);
  const double t = xh - kd * E1;
  const math::double_double p = two_prod(kd, E2);
  const math::double_double s = two_sum(t, -p.hi);
  const double c = (s.lo - p.lo) - kd * E3;
  const math::double_double s2 = two_sum(s.hi, xl);
  const math::double_double r = two_sum(s2.hi, s2.lo + c);
  // Taylor: e^r - 1 = r + r^2 (1/2 + r (1/6 + r (1/24 + r/120 + r^2/720))).
  const double a = 0x1.5555555555555p-5 + r.hi * (0x1.1111111111111p-7 + r.hi * 0x1.6c16c16c16c17p-10);
  const math::double_double b = fast_two_sum(0x1.5555555555555p-3, 0x1.5555555555555p-57 + r.hi * a);
  const math::double_double c2 = dd_add({0.5, 0.0}, dd_mul(r, b));
  const math::double_double P = dd_add(r, dd_mul(dd_mul(r, r), c2));
  const unsigned i = static_cast<unsigned>(k >> 6) & 63u, j = static_cast<unsigned>(k) & 63u;
  const math::double_double d{exp2_lo[2 * j], exp2_lo[2 * j + 1]};
  const math::double_double W = dd_add(d, dd_add(P, dd_mul(d, P)));
  const math::double_double T{exp2_hi[2 * i], exp2_hi[2 * i + 1]};
  const math::double_double V = dd_add(T, dd_mul(T, W));
  return {V.hi, V.lo, k >> 12};
}

// e^(xh + xl) = (hi + lo) * 2^k with relative error below 2^-58, hi + lo normalised, in plain
// double arithmetic. Preconditions: |xh| <= 105, |xl| <= 2^-46. Derivation (u = 2^-53): k is the
// integer nearest RN(xh RN(64/ln2)), within 1/2 + 2^-39.7 of xh 64/ln2 (< 2^13.3); kd*F1 exact
// (F1 has 38 bits, |k| < 2^14) and xh - kd*F1 exact (Sterbenz); the rounding of the sum r is below
// u|r| <= 2^-60.5, the rest (kd*F2, F3 omitted) below 2^-84: |r| <= ln2/128 + 2^-45 (< 2^-7.52;
// ln2/128 + 2^-46.3 + |xl| + 2^-84, times 1 + u). Approximation |r + q - (e^r - 1)| < 2^-64.9 (the
// Taylor remainder r^7/7! < 2^-65.0, the coefficients' rounding < 2^-79); the evaluation of q below
// 2^-67; the roundings of r + q, of T.hi*p and of T.lo + T.hi*p and the omitted T.lo*p are each
// below 2^-60.47 relative to T e^r: in all < 2^-58.1.
constexpr exp_parts exp_small_eval(double xh, double xl) noexcept {
  constexpr double inv = 0x1.71547652b82fep+6;  // 64/ln2
  constexpr double F1 = 0x1.62e42fefap-7, F2 = 0x1.cf79abc9e3b3ap-46;
  constexpr double shifter = 0x1.8p52;
  const double kd = (xh * inv + shifter) - shifter;
  const int k = static_cast<int>(kd);
  const double r = (xh - kd * F1) + (xl - kd * F2);
  const double q = r * r *
                   (0.5 + r * (0x1.5555555555555p-3 +
                               r * (0x1.5555555555555p-5 + r * (0x1.1111111111111p-7 + r * 0x1.6c16c16c16c17p-10))));
  const unsigned i = static_cast<unsigned>(k) & 63u;
  const double th = exp2_hi[2 * i];
  const math::double_double v = fast_two_sum(th, exp2_hi[2 * i + 1] + th * (r + q));
  return {v.hi, v.lo, k >> 6};
}

// e^x as a double-double, relative error below 2^-102 (exp_dd_eval, then an exact scaling).
// Precondition: -670 <= x.hi <= 709 (so that the result and its low part stay normal) and x
// normalised.
constexpr math::double_double dd_exp(math::double_double x) noexcept {
  const exp_parts e = exp_dd_eval(x.hi, x.lo);
  const double s = exp2i(e.k);
  return {e.hi * s, e.lo * s};
}

}  // namespace posenc::detail
