// rope_theta.hpp: the RoPE frequency theta_j = base^(-2j/d) as a double-double, constexpr.
//
// The exponent 2j/d is used as the exact rational it is. With log(base) = E ln2 + Lm
// (log_kernel.hpp, |Lm| < 0.36) and 2jE = q d + f (0 <= f < d, integers):
//   theta = 2^-q * exp(-(f ln2 + 2j Lm) / d),  |argument| < ln2 + 0.36 < 1.06,
// so the exponent's error is absolute and small whatever the base. Error-free and double-word
// operations: Joldes, Muller, Popescu, "Tight and rigorous error bounds for basic building blocks
// of double-word arithmetic", ACM TOMS 44(2), 2017 (AccurateDWPlusDW = dd_add, 3u^2; DWDivFP3,
// 3.5u^2).
#pragma once

#include <cstdint>

#include "posenc/math/detail/exp_kernel.hpp"
#include "posenc/math/detail/log_kernel.hpp"
#include "posenc/math/double_double.hpp"

namespace posenc::detail {

// x / y for a double-double x and a double y != 0 (DWDivFP3 of Joldes et al. 2017, relative
// error below 3.5 u^2 < 2^-104.1).
constexpr math::double_double dd_div(math::double_double x, double y) noexcept {
  const double th = x.hi / y;
  const math::double_double p = two_prod(th, y);
  const double dl = ((x.hi - p.hi) - p.lo) + x.lo;  // x.hi - p.hi is exact (Sterbenz)
  return fast_two_sum(th, dl / y);
}

}  // namespace posenc::detail

namespace posenc::math {

// Relative error bound of rope_theta: |theta - base^(-2j/d)| <= 2^-100 base^(-2j/d).
// Derivation (u = 2^-53; errors of the numerator n = f ln2 + 2j Lm, as multiples of d):
//  Lm to 2^-103.5 |Lm| < 2^-105 absolute (log_dd_mant), times 2j < d: 2^-105 d;
//  B = 2j Lm by dd_mul(dd, double): TwoProd exact, two roundings < 3u^2 |B|, |B| < 0.36 d: 2^-105.9 d;
//  A = f ln2: ln2 to 2^-108 absolute, 3u^2 of |A| < 0.7 d: 2^-104.9 d;
//  n = A + B (AccurateDWPlusDW, 3u^2 of |n| < 1.06 d): 2^-104.3 d; sum 2^-102.9 d.
//  Dividing by d (DWDivFP3, 3.5u^2 of |arg| < 1.06): argument error < 2^-102.5 absolute, so a
//  relative error < 2^-102.4 of the exponential; exp_dd_eval adds 2^-102; the scaling by 2^(k-q)
//  is exact. Total below 2^-101.2; the constant states 2^-100 (measured maximum about 2^-104.5).
inline constexpr double rope_theta_max_rel_error = 0x1p-100;

// theta_j = base^(-2j/d) (exact rational exponent) as a normalised double-double with relative
// error at most rope_theta_max_rel_error. Preconditions (the caller validates): 1 < base < 2^960
// (so that theta and its low part are normal doubles), d > 0 even, 0 <= j < d/2.
constexpr double_double rope_theta(double base, int j, int d) noexcept {
  if (j == 0) return {1.0, 0.0};
  constexpr double_double ln2{0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56};
  const detail::log_parts lb = detail::log_dd_mant(base);  // E >= 0 as base > 1
  const std::int64_t n = 2 * static_cast<std::int64_t>(j) * lb.E;
  const std::int64_t q = n / d, f = n % d;
  const double_double a = detail::dd_mul(ln2, static_cast<double>(f));
  const double_double b = detail::dd_mul(lb.Lm, static_cast<double>(2 * j));
  const double_double arg = detail::dd_div(detail::dd_add(a, b), -static_cast<double>(d));
  const detail::exp_parts e = detail::exp_dd_eval(arg.hi, arg.lo);
  const double s = detail::exp2i(e.k - static_cast<int>(q));
  return {e.hi * s, e.lo * s};
}

}  // namespace posenc::math
