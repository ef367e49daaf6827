// log_ratio_compare.hpp: the sign of k1 log(p1/q1) - k2 log(p2/q2) for positive integers, exactly:
// the step behind every bucket that is the floor or ceiling of a ratio of logs (T5, DeBERTa).
//
// Method: double-double logs (dd_log, relative error 2^-101) decide when the difference exceeds
// its error bound; otherwise exact integers decide whether it is 0: k1 log(p1/q1) = k2 log(p2/q2)
// iff (p1/q1)^k1 = (p2/q2)^k2, iff, with both fractions in lowest terms (powers of a reduced
// fraction stay reduced: unique factorisation), the numerators satisfy a^k1 = c^k2 and the
// denominators b^k1 = d^k2, iff each pair is (t^(k2/g), t^(k1/g)) for an integer t, g = gcd(k1, k2).
// A difference that is neither separated nor 0 is reported undecided (the callers return
// domain_error; their tests show it does not occur in their ranges).
#pragma once

#include <cstdint>
#include <numeric>

#include "posenc/math/detail/log_kernel.hpp"
#include "posenc/math/double_double.hpp"

namespace posenc::detail {

// base^k if it stays at most 2^62, else 0.
constexpr std::uint64_t checked_power(std::uint64_t base, std::int64_t k) noexcept {
  std::uint64_t r = 1;
  for (std::int64_t i = 0; i < k; ++i) {
    if (base != 0 && r > (std::uint64_t{1} << 62) / base) return 0;
    r *= base;
  }
  return r;
}

// x^a == y^c for integers x, y >= 1 and a, c >= 0.
constexpr bool equal_powers(std::uint64_t x, std::int64_t a, std::uint64_t y, std::int64_t c) noexcept {
  if (a == 0) return y == 1 || c == 0;
  if (c == 0) return x == 1;
  const std::int64_t g = std::gcd(a, c);
  const std::int64_t rx = c / g, ry = a / g;  // x = t^rx, y = t^ry
  std::uint64_t lo = 1, hi = x;               // t = the rx-th root of x, by bisection
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    const std::uint64_t p = checked_power(mid, rx);
    if (p != 0 && p <= x)
      lo = mid;
    else
      hi = mid - 1;
  }
  return checked_power(lo, rx) == x && checked_power(lo, ry) == y;
}

enum class log_order : signed char { less = -1, equal = 0, greater = 1, undecided = 2 };

// The sign of k1 log(p1/q1) - k2 log(p2/q2). Preconditions: p, q in [1, 2^53), k in [0, 2^20].
constexpr log_order compare_log_ratios(std::int64_t k1, std::int64_t p1, std::int64_t q1, std::int64_t k2,
                                       std::int64_t p2, std::int64_t q2) noexcept {
  const auto ln = [](std::int64_t x) { return dd_log(static_cast<double>(x)); };
  const auto diff = [](math::double_double a, math::double_double b) { return dd_add(a, {-b.hi, -b.lo}); };
  const math::double_double lp1 = ln(p1), lq1 = ln(q1), lp2 = ln(p2), lq2 = ln(q2);
  const math::double_double d =
      diff(dd_mul(diff(lp1, lq1), static_cast<double>(k1)), dd_mul(diff(lp2, lq2), static_cast<double>(k2)));
  // Each log within 2^-101 of itself; |log x| <= 37 (x < 2^53); the two subtractions, the two
  // products and the final sum each add below 2^-104 of magnitudes at most (k1 + k2) 2 * 37: in all
  // below (k1 + k2) (4 * 37) 2^-100 < (k1 + k2) 2^-92.
  const double err = static_cast<double>(k1 + k2) * 0x1p-92;
  if (d.hi > err) return log_order::greater;
  if (d.hi < -err) return log_order::less;
  const auto a = static_cast<std::uint64_t>(p1), b = static_cast<std::uint64_t>(q1);
  const auto c = static_cast<std::uint64_t>(p2), e = static_cast<std::uint64_t>(q2);
  const std::uint64_t g1 = std::gcd(a, b), g2 = std::gcd(c, e);
  if (equal_powers(a / g1, k1, c / g2, k2) && equal_powers(b / g1, k1, e / g2, k2)) return log_order::equal;
  return log_order::undecided;
}

}  // namespace posenc::detail
