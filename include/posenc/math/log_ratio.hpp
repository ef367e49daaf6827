// log_ratio.hpp: log(n) / log(base) = log_base(n) for integers, correctly rounded into double,
// float, bfloat16 or float16: the log-n attention scaling (Su, "entropy-invariant attention",
// kexue.fm 8823: logits times log_512(n); Qwen-1's logn_list, log_L(i) for i > L).
//
//   math::log_ratio<T>(n, base)       posenc::result<T>
//
// Exact values: log n / log base is rational iff n and base are powers of one integer t0 (if
// n^q = base^p then both are powers of a common integer, which unique factorisation gives), and
// then it is c/a for n = t0^c, base = t0^a with t0 not itself a perfect power. That rational is
// found exactly (integer roots) and rounded once; every other value is irrational (Gelfond-
// Schneider), hence neither a T value nor a midpoint, and Ziv's test decides it.
// Method otherwise: dd_log(n) / dd_log(base) in double-double (each log within 2^-101 relative, the
// quotient within 2^-104 more): within 2^-99 relative; Ziv's test; then
// detail/mp/log_ratio.hpp at 256 to 1024 bits.
#pragma once

#include <cstdint>
#include <numeric>

#include "posenc/math/detail/log_kernel.hpp"
#include "posenc/math/detail/log_ratio_compare.hpp"
#include "posenc/math/detail/mp/log_ratio.hpp"
#include "posenc/math/detail/mp/ziv.hpp"
#include "posenc/math/detail/round_once.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/rational_power.hpp"
#include "posenc/math/round.hpp"
#include "posenc/status.hpp"

namespace posenc::detail {

// The exact c/a when n = t0^c and base = t0^a (t0 the smallest root of base), else {0, 0}.
struct exact_log_ratio {
  std::int64_t num = 0;
  std::int64_t den = 0;
};

constexpr exact_log_ratio log_ratio_exact(std::uint64_t n, std::uint64_t base) noexcept {
  for (std::int64_t a = 63; a >= 1; --a) {
    const std::uint64_t t0 = exact_root(base, a);
    if (t0 < 2) continue;
    std::int64_t c = 0;
    std::uint64_t m = n;
    while (m % t0 == 0) {
      m /= t0;
      ++c;
    }
    if (m != 1) return {};
    const std::int64_t g = std::gcd(c, a);
    return {c / g, a / g};
  }
  return {};
}

}  // namespace posenc::detail

namespace posenc::math {

// Preconditions: 1 <= n < 2^53, 2 <= base < 2^53; domain_error otherwise. log_base(1) = 0.
template <class T = double>
constexpr posenc::result<T> log_ratio(std::int64_t n, std::int64_t base) noexcept {
  constexpr std::int64_t lim = std::int64_t{1} << 53;
  if (n < 1 || n >= lim || base < 2 || base >= lim) return {T{}, posenc::status::domain_error};
  const auto un = static_cast<std::uint64_t>(n), ub = static_cast<std::uint64_t>(base);
  if (const detail::exact_log_ratio e = detail::log_ratio_exact(un, ub); e.den != 0) {
    // c / a exactly (a <= 63): the quotient hi plus its remainder's quotient lo is within 2^-104 of
    // it (the remainder c - hi a is exact by TwoProduct). A dyadic c/a (a a power of two) is hi
    // itself (err 0); otherwise c/a lies at least 2^-60 |c/a| from every midpoint of every T (its
    // denominator a has an odd factor at most 63), far outside the enclosure, so Ziv's test decides.
    const double hi = static_cast<double>(e.num) / static_cast<double>(e.den);
    const double_double p = detail::two_prod(hi, static_cast<double>(e.den));
    const double lo = ((static_cast<double>(e.num) - p.hi) - p.lo) / static_cast<double>(e.den);
    const double ah = hi < 0 ? -hi : hi;
    T out{};
    if (detail::ziv_round<T>(hi, lo, (e.den & (e.den - 1)) == 0 ? 0.0 : ah * 0x1p-100, out))
      return {out, posenc::status::ok};
  }
  const double_double x = detail::dd_log(static_cast<double>(n)), y = detail::dd_log(static_cast<double>(base));
  const double_double q0 = detail::dd_div(x, y.hi);
  // x / (y.hi + y.lo) = q0 (1 - y.lo/y.hi + (y.lo/y.hi)^2 - ...): subtract the small correction
  // q0 y.lo / y.hi (|y.lo/y.hi| <= 2^-53; its own rounding and the dropped square are below 2^-105).
  const double_double q = detail::dd_add(q0, {-(q0.hi * (y.lo / y.hi)), 0.0});
  return {
      detail::round_once<T>({q.hi, q.lo, (q.hi < 0 ? -q.hi : q.hi) * 0x1p-99},
                            [un, ub](auto lv) { return detail::mp::log_ratio_approx<decltype(lv)::value>(un, ub); }),
      posenc::status::ok};
}

}  // namespace posenc::math
