// sqrt.hpp: correctly rounded (to nearest, ties to even) square root of double and float.
//
// Method for double: write x = M * 4^k with M in [1, 4) (subnormals scaled by 2^108 first), take a
// degree-2 Chebyshev interpolant of sqrt on [1, 2) or [2, 4) (relative error < 9.4e-4) and three
// Newton steps y <- (y + M/y) / 2 (error e -> e^2/2: below 1e-26 before rounding; the last step's
// roundings leave |y - sqrt(M)| <= u = 2^-52, one ulp). Then one exact correction decides between
// y - u, y and y + u: with Y = y * 2^52 and X = M * 2^104 integers, sqrt(M) > y + u/2 iff
// X - Y^2 - Y > 0 and sqrt(M) < y - u/2 iff X - Y^2 + Y <= 0 (no ties: (Y +- 1/2)^2 is not an
// integer). Y^2 = p + e exactly by Dekker's product (double_double.hpp), and M - p is exact by
// Sterbenz's lemma, so both signs are computed exactly (every term is a multiple of 2^-104 below
// 2^-49; TwoSum keeps the one sum that could be inexact). Source of the residual idea: Markstein,
// "Computation of elementary functions on the IBM RISC System/6000 processor" (1990), and
// J.-M. Muller et al., "Handbook of Floating-Point Arithmetic" (2018), section 5.4 / 9.5.
//
// float: sqrt of the double, rounded to float. Double rounding is innocuous for sqrt when the
// intermediate precision is at least 2p + 2 = 50 bits (S. Figueroa, "When is double rounding
// innocuous?", ACM SIGNUM Newsletter 30(3), 1995), and binary64 has 53.
//
// Special values per C Annex F.10.4.5: sqrt(+-0) = +-0, sqrt(+inf) = +inf, sqrt(x < 0) and
// sqrt(NaN) are NaN (a quiet NaN from std::numeric_limits).
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

#include "posenc/math/double_double.hpp"

namespace posenc::math {

constexpr double sqrt(double x) noexcept {
  if (x != x || x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0 || x == std::numeric_limits<double>::infinity()) return x;  // keeps the sign of -0
  const bool tiny = x < 0x1p-1022;
  std::uint64_t b = std::bit_cast<std::uint64_t>(tiny ? x * 0x1p108 : x);  // exact scaling
  const int e = static_cast<int>(b >> 52) - 1023;                          // x = 1.f * 2^e
  const int odd = e & 1;                                                   // e odd: M in [2, 4)
  b = (b & 0x000FFFFFFFFFFFFFu) | (static_cast<std::uint64_t>(1023 + odd) << 52);
  const double m = std::bit_cast<double>(b);
  // Chebyshev interpolants at the nodes of [1, 2] and [2, 4] (relative error 9.4e-4 on each).
  double y = odd != 0 ? 0x1.44bcd39932046p-1 + m * (0x1.c2a115731866cp-2 + m * -0x1.94e050d111e80p-6)
                      : 0x1.cb3f921f94600p-2 + m * (0x1.3ea49ac91b570p-1 + m * -0x1.1e4a6d483582bp-4);
  y = 0.5 * (y + m / y);
  y = 0.5 * (y + m / y);
  y = 0.5 * (y + m / y);
  if (y >= 2.0) y = 0x1.fffffffffffffp0;  // sqrt(M) < 2 - 2^-53: clamp into [1, 2)
  if (y < 1.0) y = 1.0;
  constexpr double u = 0x1p-52;
  const math::double_double yy = detail::two_prod(y, y);  // Y^2 = (p + e) * 2^104
  const double d1 = m - yy.hi;                            // exact (Sterbenz)
  const math::double_double up = detail::two_sum(d1, -(y * u));
  const math::double_double dn = detail::two_sum(d1, y * u);
  std::uint64_t r = std::bit_cast<std::uint64_t>(y);
  if (up.hi + (up.lo - yy.lo) > 0)
    ++r;  // X - Y^2 - Y > 0: round up to y + u
  else if (dn.hi + (dn.lo - yy.lo) <= 0)
    --r;  // X - Y^2 + Y <= 0: down to y - u (y > 1 here)
  // Result: y * 2^(k) with k = (e - odd) / 2, or 2^(k - 54) for a scaled subnormal x.
  const int k = (e - odd) / 2 - (tiny ? 54 : 0);
  return std::bit_cast<double>(r + (static_cast<std::uint64_t>(static_cast<std::int64_t>(k)) << 52));
}

constexpr float sqrt(float x) noexcept {
  if (x != x || x < 0) return std::numeric_limits<float>::quiet_NaN();
  if (x == 0 || x == std::numeric_limits<float>::infinity()) return x;
  return static_cast<float>(math::sqrt(static_cast<double>(x)));  // innocuous double rounding
}

}  // namespace posenc::math
