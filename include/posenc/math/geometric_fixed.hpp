// geometric_fixed.hpp: base^(-num/den) rounded once onto q15's or q31's grid, then saturated
// (numeric/fixed_point.hpp): ALiBi's slopes 2^(-8h/n) in CMSIS-DSP's fixed point.
//
//   math::geometric_value_fixed<Q>(base, num, den)   {RN_even(x 2^F) saturated, whether it saturated}
//
// From y = geometric_value<double> (correctly rounded, geometric_frequency.hpp): every grid midpoint
// is a double, so RN_grid(x) = RN_grid(y) unless y is a midpoint (math/round_fixed.hpp). Then
// either x is exact (a power of two: base = 2^k and den | k num), y = x and ties-to-even decides a
// true tie (2^-16 in q15 rounds to 0); or x is irrational, never a midpoint, and Ziv's loop on the
// grid decides it from mp::geometric_approx's enclosure (256 to 1024 bits).
#pragma once

#include <cstdint>

#include "posenc/math/detail/mp/geometric.hpp"
#include "posenc/math/detail/mp/ziv_fixed.hpp"
#include "posenc/math/geometric_frequency.hpp"
#include "posenc/math/round_fixed.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/status.hpp"

namespace posenc::math {

template <fixed_point_type Q>
constexpr posenc::result<saturated_value<Q>> geometric_value_fixed(double base, std::int64_t num,
                                                                   std::int64_t den) noexcept {
  constexpr int F = fixed_format<Q>::fraction_bits;
  const posenc::result<double> y = geometric_value<double>(base, num, den);
  if (!y.ok()) return {{}, y.error};
  const detail::grid_position g = detail::grid_side(y.value, F);
  const int k = detail::power_of_two_exponent(base);
  if (g.side != 0 || (k != 0 && (num * k) % den == 0))  // decided by y, or x = y exactly
    return {saturate<Q>(detail::grid_round_dd(y.value, 0.0, F)), posenc::status::ok};
  const auto n = static_cast<std::uint64_t>(num);
  const auto d = static_cast<std::uint32_t>(den);
  std::int64_t out = 0;
  const auto a4 = detail::mp::geometric_approx<4>(base, n, d);
  if (detail::mp::grid_round_checked(a4.v, a4.err, F, out)) return {saturate<Q>(out), posenc::status::ok};
  const auto a8 = detail::mp::geometric_approx<8>(base, n, d);
  if (detail::mp::grid_round_checked(a8.v, a8.err, F, out)) return {saturate<Q>(out), posenc::status::ok};
  const auto a16 = detail::mp::geometric_approx<16>(base, n, d);
  if (detail::mp::grid_round_checked(a16.v, a16.err, F, out)) return {saturate<Q>(out), posenc::status::ok};
  return {{}, posenc::status::domain_error};  // unreachable for an irrational x (see the top)
}

}  // namespace posenc::math
