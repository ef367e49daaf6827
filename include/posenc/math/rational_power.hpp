// rational_power.hpp: (a/b)^(num/den) for positive integers a, b and an exact rational exponent,
// correctly rounded into double, float, bfloat16 or float16: XPOS's scale zeta_j^(n/scale_base)
// with zeta_j = (2j + 0.4d)/(1.4d) = (10j + 2d)/(7d) (Sun et al., "A Length-Extrapolatable
// Transformer", ACL 2023), at any position n, negative ones included.
//
//   math::rational_power<T>(a, b, num, den)     posenc::result<T>; overflow when it exceeds T
//
// Method: x = (log a - log b) num / den in double-double (dd_log within 2^-101 relative: an
// absolute error below (|log a| + |log b|) 2^-101 + 2^-104 |x| after the subtraction, product and
// quotient, times |num/den| for the inherited part), exp(x) by dd_exp (2^-102 relative): the
// value within e^(2^-99 (|x| + |num/den| (|log a| + |log b|))) - 1 relative, decided by Ziv's test;
// otherwise, or for |x| > 600, detail/mp/rational_power.hpp at 256 to 1024 bits.
// Exact values: with num/den and a/b in lowest terms, (a/b)^(num/den) is rational iff a and b are
// perfect den-th powers s^den, t^den, and then it is (s/t)^num; it is a T value or a midpoint only
// if it is dyadic with at most 54 significant bits: the denominator (t^num, or s^|num| for num < 0)
// a power of two and the numerator below 2^54. Those are rounded exactly; every other value is
// irrational or a non-dyadic rational (or too wide to be a midpoint), and Ziv's test decides it.
#pragma once

#include <bit>
#include <cstdint>
#include <numeric>

#include "posenc/math/detail/exp_kernel.hpp"
#include "posenc/math/detail/log_kernel.hpp"
#include "posenc/math/detail/log_ratio_compare.hpp"
#include "posenc/math/detail/mp/rational_power.hpp"
#include "posenc/math/detail/mp/ziv.hpp"
#include "posenc/math/detail/round_once.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/round.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/status.hpp"

namespace posenc::detail {

// x^k when it stays below 2^54 (x >= 1), else 0.
constexpr std::uint64_t power_below_2_54(std::uint64_t x, std::int64_t k) noexcept {
  std::uint64_t r = 1;
  for (std::int64_t i = 0; i < k; ++i) {
    if (r > ((std::uint64_t{1} << 54) - 1) / x) return 0;
    r *= x;
  }
  return r;
}

// The integer den-th root of x when x is a perfect den-th power, else 0.
constexpr std::uint64_t exact_root(std::uint64_t x, std::int64_t den) noexcept {
  std::uint64_t lo = 1, hi = x;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    const std::uint64_t p = checked_power(mid, den);
    if (p != 0 && p <= x)
      lo = mid;
    else
      hi = mid - 1;
  }
  return checked_power(lo, den) == x ? lo : 0;
}

// true and the exact value in out when (a/b)^(num/den) is a dyadic with at most 54 bits (see the top).
template <class T>
constexpr bool rational_power_exact(std::uint64_t a, std::uint64_t b, std::int64_t num, std::int64_t den,
                                    T& out) noexcept {
  const std::int64_t g = std::gcd(num < 0 ? -num : num, den);
  const std::int64_t n = num / g, d = den / g;
  const std::uint64_t h = std::gcd(a, b);
  const std::uint64_t s = exact_root(a / h, d), t = exact_root(b / h, d);
  if (s == 0 || t == 0) return false;
  const std::uint64_t top = n >= 0 ? s : t, bottom = n >= 0 ? t : s;  // value = (top / bottom)^|n|
  const std::int64_t k = n < 0 ? -n : n;
  if (!std::has_single_bit(bottom)) return false;
  const std::uint64_t p = power_below_2_54(top, k);
  const std::int64_t shift = static_cast<std::int64_t>(std::countr_zero(bottom)) * k;
  if (p == 0 || shift > 1074 + 60) return false;
  // p 2^-shift: p < 2^54 is exact in a double-double hi + lo; the scaling by a power of two is
  // exact down to 2^-1022 and is applied once, in the final rounding, below that.
  const double ph = static_cast<double>(p & ~std::uint64_t{1}), pl = static_cast<double>(p & 1);
  if (shift <= 1000) {
    const double s2 = exp2i(-static_cast<int>(shift));
    out = round_dd<T>(ph * s2, pl * s2);
    return true;
  }
  return false;  // far below every T's range: Ziv's loop rounds it (to 0 or a subnormal)
}

}  // namespace posenc::detail

namespace posenc::math {

// Preconditions: 1 <= a, b < 2^53, |num| < 2^53, 1 <= den < 2^31; domain_error otherwise.
template <class T = double>
constexpr posenc::result<T> rational_power(std::int64_t a, std::int64_t b, std::int64_t num,
                                           std::int64_t den) noexcept {
  constexpr std::int64_t lim = std::int64_t{1} << 53;
  if (a < 1 || b < 1 || a >= lim || b >= lim || num <= -lim || num >= lim || den < 1 || den >= (std::int64_t{1} << 31))
    return {T{}, posenc::status::domain_error};
  T out{};
  const auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
  if (num == 0 || a == b) return {detail::round_dd<T>(1.0, 0.0), posenc::status::ok};
  if (detail::rational_power_exact<T>(ua, ub, num, den, out)) return detail::rounded_result(out);
  const double_double la = detail::dd_log(static_cast<double>(a)), lb = detail::dd_log(static_cast<double>(b));
  const double_double x = detail::dd_div(detail::dd_mul(detail::dd_add(la, {-lb.hi, -lb.lo}), static_cast<double>(num)),
                                         static_cast<double>(den));
  const double ax = x.hi < 0 ? -x.hi : x.hi;
  detail::fast_value fast{};  // none past |x| = 600, where dd_exp does not apply
  if (ax < 600) {
    const double ratio = static_cast<double>(num < 0 ? -num : num) / static_cast<double>(den);
    const double xerr = 0x1p-99 * (ax + ratio * ((la.hi < 0 ? -la.hi : la.hi) + (lb.hi < 0 ? -lb.hi : lb.hi)));
    const double_double v = detail::dd_exp(x);
    // |exp(x + dx) - v| <= v (e^|dx| - 1 + 2^-102) (1 + ...): bounded by v (1.01 xerr + 2^-101).
    fast = {v.hi, v.lo, v.hi * (1.01 * xerr + 0x1p-101)};
  }
  const auto n = num;
  const auto d = static_cast<std::uint32_t>(den);
  return detail::rounded_result(detail::round_once<T>(
      fast, [ua, ub, n, d](auto lv) { return detail::mp::rational_power_approx<decltype(lv)::value>(ua, ub, n, d); }));
}

}  // namespace posenc::math
