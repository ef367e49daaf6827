// rational_power_fixed.hpp: (a/b)^(num/den) rounded once onto q15's or q31's grid, then saturated
// (numeric/fixed_point.hpp): XPOS's scales zeta_j^(n / scale_base) in CMSIS-DSP's fixed point.
//
//   math::rational_power_fixed<Q>(a, b, num, den)   {RN_even(x 2^F) saturated, whether it saturated}
//
// From y = rational_power<double> (correctly rounded): every grid midpoint is a double, so
// RN_grid(x) = RN_grid(y) unless y is a midpoint (math/round_fixed.hpp). Then Ziv's loop on the grid
// decides x from mp::rational_power_approx's enclosure, unless x is itself that midpoint: x is then
// a dyadic rational (detail::rational_power_exact finds it) with y = x, a true tie, and
// ties-to-even decides. (An exact x of 54 bits is never a midpoint, which has at most 53, so its
// distance to y's midpoint is far above 2^-1024 relative and the loop decides it.)
#pragma once

#include <cstdint>

#include "posenc/math/detail/mp/rational_power.hpp"
#include "posenc/math/detail/mp/ziv_fixed.hpp"
#include "posenc/math/rational_power.hpp"
#include "posenc/math/round_fixed.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/status.hpp"

namespace posenc::math {

template <fixed_point_type Q>
constexpr posenc::result<saturated_value<Q>> rational_power_fixed(std::int64_t a, std::int64_t b, std::int64_t num,
                                                                  std::int64_t den) noexcept {
  constexpr int F = fixed_format<Q>::fraction_bits;
  const posenc::result<double> y = rational_power<double>(a, b, num, den);
  if (y.error == posenc::status::domain_error || y.error == posenc::status::invalid_input) return {{}, y.error};
  if (y.error == posenc::status::overflow)  // x > DBL_MAX: far past Q's range
    return {saturate<Q>(std::int64_t{1} << detail::grid_limit_bits), posenc::status::ok};
  const detail::grid_position g = detail::grid_side(y.value, F);
  if (g.side != 0) return {saturate<Q>(g.floor + (g.side > 0 ? 1 : 0)), posenc::status::ok};
  const auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
  const auto d = static_cast<std::uint32_t>(den);
  std::int64_t out = 0;
  const auto a4 = detail::mp::rational_power_approx<4>(ua, ub, num, d);
  if (detail::mp::grid_round_checked(a4.v, a4.err, F, out)) return {saturate<Q>(out), posenc::status::ok};
  const auto a8 = detail::mp::rational_power_approx<8>(ua, ub, num, d);
  if (detail::mp::grid_round_checked(a8.v, a8.err, F, out)) return {saturate<Q>(out), posenc::status::ok};
  const auto a16 = detail::mp::rational_power_approx<16>(ua, ub, num, d);
  if (detail::mp::grid_round_checked(a16.v, a16.err, F, out)) return {saturate<Q>(out), posenc::status::ok};
  double exact = 0;  // undecided at 1024 bits: x is the midpoint y itself when x is dyadic
  if (num == 0 || a == b || detail::rational_power_exact<double>(ua, ub, num, den, exact))
    return {saturate<Q>(detail::grid_round_dd(y.value, 0.0, F)), posenc::status::ok};
  return {{}, posenc::status::domain_error};
}

}  // namespace posenc::math
