// geometric.hpp: base^(-num/den) for an exact rational exponent, at 64L bits with a proven error
// bound: the accurate path of math/geometric_frequency.hpp and of the RoPE angles (rope.hpp).
#pragma once

#include <cstdint>

#include "posenc/detail/mp/bigfloat.hpp"
#include "posenc/detail/mp/exp_log.hpp"

namespace posenc::detail::mp {

// theta = exp(-(num/den) log base). Errors (absolute): log base within 2^lb.err; times num then
// divided by den (num/den <= 1 shrinks the inherited error; the two truncations are < 1 and < 2
// ulp of the result); exp_approx turns the absolute error of its argument into a relative one
// (exp_log.hpp). Preconditions: base finite and > 1, 0 <= num <= den, 1 <= den < 2^32.
template <int L>
constexpr approx<L> geometric_approx(double base, std::uint64_t num, std::uint32_t den) noexcept {
  const approx<L> lb = log_approx<L>(base);
  const bigfloat<L> z = negate(div_small(mul_small(lb.v, num), den));
  return exp_approx<L>(z, max_int(lb.err, z.top() + 3 - 64 * L) + 1);
}

}  // namespace posenc::detail::mp
