// rational_power.hpp: (a/b)^(num/den) for positive integers a, b and an exact rational exponent,
// at 64L bits with a proven error bound: the accurate path of math/rational_power.hpp.
#pragma once

#include <cstdint>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/exp_log.hpp"

namespace posenc::detail::mp {

// z = (log a - log b) |num| / den, negated when num < 0, then exp(z). Errors (absolute): each log
// within 2^err (log_approx), their difference within 2^(max + 1) plus its truncation (2 ulp);
// times |num| < 2^g scales it by 2^g and truncates (1 ulp); / den shrinks it and truncates (2 ulp);
// exp_approx turns the absolute error of its argument into a relative one.
template <int L>
constexpr approx<L> rational_power_approx(std::uint64_t a, std::uint64_t b, std::int64_t num,
                                          std::uint32_t den) noexcept {
  const approx<L> la = log_approx<L>(static_cast<double>(a));
  const approx<L> lb = log_approx<L>(static_cast<double>(b));
  const bigfloat<L> diff = sub(la.v, lb.v);
  const std::uint64_t n = static_cast<std::uint64_t>(num < 0 ? -num : num);
  const int g = 64 - std::countl_zero(n);
  bigfloat<L> z = div_small(mul_small(diff, n), den);
  if (num < 0) z = negate(z);
  const int derr = max_int(max_int(la.err, lb.err) + 1, diff.top() + 2 - 64 * L) + 1;
  const int zerr = max_int(derr + g, z.top() + 3 - 64 * L) + 1;
  return exp_approx<L>(z, zerr);
}

}  // namespace posenc::detail::mp
