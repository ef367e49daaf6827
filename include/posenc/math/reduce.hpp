// reduce.hpp: additive (Cody-Waite) argument reduction modulo pi/2 in double-double.
//
// x = k * pi/2 + r, |r| <= pi/4 (+ 2^-20), returned as an unevaluated double-double r = hi + lo
// with a proven absolute error bound. Valid for |x| < 0x1.8p30 (about 1.61e9 rad, k < 2^30);
// callers send larger arguments to the accurate path (posenc::detail::mp, Payne-Hanek).
//
// Sources: W. J. Cody and W. Waite, "Software Manual for the Elementary Functions" (1980), ch. 8
// (pi/2 split into parts whose products by k are exact); CRlibm trigo_fast.c (the same scheme with
// a double-double remainder); J.-M. Muller, "Elementary Functions", 3rd ed., section 11.2.
#pragma once

#include <cstdint>

#include "posenc/math/double_double.hpp"

namespace posenc::detail {

// pi/2 = P1 + P2 + P3 + P4 + P5 + e, |e| < 2^-150. P1..P4 have 23 significant bits, so k * Pi is
// exact for |k| <= 2^30; P5 is a full double (its product is formed with two_prod). Generated with
// MPFR at 1000 bits: Pi = RN_23(pi/2 - P1 - ... - P(i-1)) for i <= 4, P5 = RN_53(remainder)
// (/tmp/trig/gen/gen.c: mpfr_const_pi, mpfr_set into a 23- or 53-bit mpfr_t, printf("%a")).
inline constexpr double pio2_p1 = 0x1.921fb4p+0;
inline constexpr double pio2_p2 = 0x1.4442dp-24;
inline constexpr double pio2_p3 = 0x1.846988p-48;
inline constexpr double pio2_p4 = 0x1.8cc518p-72;
inline constexpr double pio2_p5 = -0x1.fc8f8cbb5bf6cp-97;
inline constexpr double two_over_pi = 0x1.45f306dc9c883p-1;  // RN(2/pi): only picks k

// Largest |x.hi| the reduction accepts: then |k| <= RN(0x1.8p30 * 2/pi) < 2^30.
inline constexpr double reduce_max = 0x1.8p30;

// x - k*pi/2 = hi + lo + d, |d| <= err. quadrant = k mod 4 (0..3).
struct reduced {
  double hi;
  double lo;
  double err;
  int quadrant;
};

// Reduces x = xh + xl (|xl| <= ulp(xh)/2, or xl = 0) for |xh| < reduce_max; returns false beyond.
//
// Exactness: k = nearest integer to RN(xh * RN(2/pi)) (the 1.5*2^52 trick, valid below 2^51);
// t1 = xh - k*P1 is exact by Sterbenz's lemma (xh/2 <= k*P1 <= 2 xh for k >= 1, because
// pi/2 - P1 ~ 2^-23.7 dwarfs the 2^-52 error in k's choice); every later step is a TwoSum or a
// TwoProduct, exact, whose small parts are gathered in lo.
// Error bound: every partial sum s_i satisfies |s_i| <= M = 0.8 + |k| * 2^-23.6 (|r| <= pi/4 +
// 2^-20 plus the not-yet-subtracted parts), so each of the six gathered terms is <= 2^-53 M and
// their sequential sum errs by <= (2+3+4+5+6) * 2^-53 * 2^-53 M < 2^-101.6 M; the truncation
// of pi/2 adds |k| * 2^-150. Hence err <= 2^-101.9 + |k| * 2^-125.1 <= 2^-101 + |k| * 2^-124.
constexpr bool reduce_pio2(double xh, double xl, reduced& out) noexcept {
  if (!(xh < reduce_max && xh > -reduce_max)) return false;   // also rejects NaN
  const double k = (xh * two_over_pi + 0x1.8p52) - 0x1.8p52;  // round to nearest integer
  if (k == 0) {
    out = {xh, xl, 0.0, 0};
    return true;
  }
  const double t1 = xh - k * pio2_p1;  // exact (Sterbenz)
  const math::double_double s0 = two_sum(t1, xl);
  const math::double_double s1 = two_sum(s0.hi, -(k * pio2_p2));
  const math::double_double s2 = two_sum(s1.hi, -(k * pio2_p3));
  const math::double_double s3 = two_sum(s2.hi, -(k * pio2_p4));
  const math::double_double p5 = two_prod(k, pio2_p5);
  const math::double_double s4 = two_sum(s3.hi, -p5.hi);
  const double lo = ((((s0.lo + s1.lo) + s2.lo) + s3.lo) + s4.lo) - p5.lo;
  const math::double_double r = two_sum(s4.hi, lo);  // TwoSum: lo may exceed s4.hi after cancellation
  const double ak = k < 0 ? -k : k;
  out = {r.hi, r.lo, 0x1p-101 + ak * 0x1p-124,
         static_cast<int>(static_cast<std::int64_t>(k) & 3)};  // two's complement: k mod 4 in 0..3
  return true;
}

}  // namespace posenc::detail
