// geometric.hpp: base^(-num/den) for an exact rational exponent, at 64L bits with a proven error
// bound: the accurate path of math/geometric_frequency.hpp and of the RoPE angles (rope.hpp).
#pragma once

#include <cstdint>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/exp_log.hpp"

namespace posenc::detail::mp {

// theta = exp(-(num/den) log base). Errors (absolute): log base within 2^lb.err; times num then
// divided by den, which scales the inherited error by e = num/den < 2^g, g the bit length of
// floor(e) (g = 0 for e < 1: it shrinks); the two truncations are < 1 and < 2 ulp of the result;
// exp_approx turns the absolute error of its argument into a relative one (exp_log.hpp).
// Preconditions: base finite and > 1, num < 2^53, 1 <= den < 2^32 (math::geometric_value's).
template <int L>
constexpr approx<L> geometric_approx(double base, std::uint64_t num, std::uint32_t den) noexcept {
  const approx<L> lb = log_approx<L>(base);
  const bigfloat<L> z = negate(div_small(mul_small(lb.v, num), den));
  const int g = num / den == 0 ? 0 : ilog2(num / den) + 1;
  return exp_approx<L>(z, max_int(lb.err + g, z.top() + 3 - 64 * L) + 1);
}

}  // namespace posenc::detail::mp
