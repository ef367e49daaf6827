// turn_angle.hpp: an angle counted in turns, 2 pi t, for the fast paths of encodings whose angle is
// 2 pi times a product (rope/turns.hpp: DINOv3's 2 pi coord / period). Scheme-neutral.
//
//   turns_to_radians(phi, err, out)   t = phi.hi + phi.lo within err (turns) to a = 2 pi (t - n),
//                                     n the nearest integer to phi.hi, as a double-double within
//                                     out.err radians: the same sin and cos as 2 pi t
//   exact_quarter_turns(m, theta, s, q)  whether m 2^s theta (theta a double) is an exact multiple
//                                     of 1/4, and which quarter (mod 4)
//
// Why reduce in turns: 2 pi t for t up to 2^21 would be reduced modulo pi/2 after a rounding of
// 2 pi t; t - n is exact (below), so the only error left is the product by 2 pi of a number below
// 1, which is relative, and an exact quarter turn stays recognisable before any rounding.
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/detail/product_angle.hpp"
#include "posenc/math/double_double.hpp"

namespace posenc::detail {

// 2 pi = two_pi_dd.hi + two_pi_dd.lo + e, |e| < 2^-107 (MPFR mpfr_const_pi at 2000 bits times 2,
// hi = RN(2 pi), lo = RN(2 pi - hi); the remainder is 0.243 * 2^-105).
inline constexpr math::double_double two_pi_dd{0x1.921fb54442d18p+2, 0x1.1a62633145c07p-52};

// Largest |phi.hi| turns_to_radians takes: below it the nearest-integer trick is exact and
// |phi.lo| <= ulp(phi.hi) / 2 <= 2^-4, so |t - n| < 1.
inline constexpr double turns_max = 0x1p49;

// Error argument. n = RN(phi.hi + 1.5 2^52) - 1.5 2^52 is the nearest integer to phi.hi (exact for
// |phi.hi| < 2^51). phi.hi - n is exact: it is phi.hi when n = 0, and when |n| >= 1, phi.hi lies
// in [n - 1/2, n + 1/2], inside [n/2, 2n] (or [2n, n/2] for n < 0), so Sterbenz's lemma applies. two_sum adds phi.lo exactly:
// f = f.hi + f.lo = phi - n exactly, |f| < 1. The exact angle A = 2 pi (t - n) satisfies
//   |A - a| <= 2 pi err + |f| |2 pi - C| + |C f - a|
// with C the double-double constant: |2 pi - C| < 2^-107, and dd_mul (CRlibm Mul22) is within
// 2^-102 |C f|. As |f| = |C f| / C < |C f| / 6, the last two terms are below 2^-101 |a|. The
// bound is formed as 6.2832 err + 2^-100 |a.hi|: 6.2832 / (2 pi) > 1 + 2^-20 and 2^-100 > 2 *
// 2^-101 cover the roundings of the two products and their sum (each at most 2^-53 relative).
constexpr bool turns_to_radians(const product_phase& phi, double err, product_phase& out) noexcept {
  const double ah = phi.hi < 0 ? -phi.hi : phi.hi;
  if (!(ah < turns_max)) return false;
  const double n = (phi.hi + 0x1.8p52) - 0x1.8p52;
  const math::double_double f = two_sum(phi.hi - n, phi.lo);
  const math::double_double a = dd_mul(f, two_pi_dd);
  out = {a.hi, a.lo, 6.2832 * err + (a.hi < 0 ? -a.hi : a.hi) * 0x1p-100};
  return true;
}

// t = m 2^s theta for a positive double theta = a 2^b (a odd) and m >= 1: t = (m' a) 2^k with
// m = m' 2^z, m' odd, k = z + s + b. 4t = (m' a) 2^(k + 2) is an integer iff k + 2 >= 0, and then
// 4t mod 4 is 0 (k + 2 >= 2), 2 (k + 2 = 1, m' a odd) or m' a mod 4 (k + 2 = 0). true and q = 4t mod 4
// when 4t is an integer; false otherwise (or theta not a positive finite double).
constexpr bool exact_quarter_turns(std::uint64_t m, double theta, int s, int& q) noexcept {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(theta);
  const int field = static_cast<int>((bits >> 52) & 0x7FF);
  if (m == 0 || !(theta > 0) || field == 0x7FF) return false;
  std::uint64_t a = bits & 0xFFFFFFFFFFFFFu;
  int b = field == 0 ? -1074 : field - 1075;
  if (field != 0) a |= std::uint64_t{1} << 52;
  const int ta = std::countr_zero(a), z = std::countr_zero(m);
  a >>= ta;
  b += ta;
  const long k2 = static_cast<long>(z) + s + b + 2;
  if (k2 < 0) return false;
  const std::uint64_t odd = (m >> z) * a;  // only its low two bits matter (mod 2^64 is fine)
  q = k2 >= 2 ? 0 : k2 == 1 ? 2 : static_cast<int>(odd & 3u);
  return true;
}

}  // namespace posenc::detail
