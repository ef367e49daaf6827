// round_fixed.hpp: one correct rounding (to nearest, ties to even) onto the fixed-point grid
// 2^-F of q15 (F = 15) and q31 (F = 31), then CMSIS-DSP's saturation (numeric/fixed_point.hpp).
//
//   math::round_to_fixed<Q>(double_double v)   {RN_even(v 2^F) saturated, whether it saturated}
//
// Rounding to an absolute grid is rounding to a fixed absolute precision. The grid's midpoints
// (2k + 1) 2^-(F+1) with |k| < 2^(52-F) are doubles (at most 53 significant bits); q15's with
// |k| < 2^23 are floats too. That gives the one fact the tables rest on (the argument of
// round.hpp's round_dd, with a grid in place of a format):
//   RN_S is monotone and fixes every S value, so for y = RN_S(x) with S = double (or float, for
//   q15), x and y lie on the same side of every grid midpoint unless y IS a midpoint. Hence
//   RN_grid(x) = RN_grid(y) whenever y is not a midpoint; when it is, the sign of x - y decides
//   (above: up, below: down), ties-to-even only when x = y. This is one rounding of x, not a
//   double rounding: y is only used where it is on x's side of every midpoint.
// grid_side() below says which case a y is in; grid_round_dd() applies it to hi + lo (TwoSum's
// error term is the sign of x - y); mp/ziv_fixed.hpp decides a midpoint case from an enclosure.
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/double_double.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/status.hpp"

namespace posenc::detail {

// |y 2^F| below this is handled exactly (every grid midpoint there is a double); above it, y is
// far outside every fixed-point range and grid_side() reports it as +-2^grid_limit_bits.
inline constexpr int grid_limit_bits = 52;

// Where y 2^F lies against the integers: k = floor(y 2^F) (clamped to +-2^52 far outside the
// range) and the side of the midpoint k + 1/2: -1 below (RN is k), +1 above (RN is k + 1), 0 on it.
// Exact: y 2^F is a power-of-two scaling, and t - floor(t) is exact for |t| < 2^52.
struct grid_position {
  std::int64_t floor = 0;
  int side = -1;
};

constexpr grid_position grid_side(double y, int fraction_bits) noexcept {
  // y 2^F: exact, one multiplication (calls and loops dominate constant-evaluation cost).
  const double t = y * std::bit_cast<double>(static_cast<std::uint64_t>(1023 + fraction_bits) << 52);
  constexpr double lim = 0x1p52;
  if (!(t < lim)) return {std::int64_t{1} << grid_limit_bits, -1};  // also NaN: callers check finiteness
  if (t <= -lim) return {-(std::int64_t{1} << grid_limit_bits), -1};
  // Branch-free: the comparisons below are data-dependent, and as branches they were most of a
  // run-time table's cost (mispredicted about half the time).
  std::int64_t k = static_cast<std::int64_t>(t);  // toward zero, exact
  k -= static_cast<std::int64_t>(static_cast<double>(k) > t);
  const double frac = t - static_cast<double>(k);  // in [0, 1), exact
  return {k, static_cast<int>(frac > 0.5) - static_cast<int>(frac < 0.5)};
}

// RN_even((hi + lo) 2^F) for finite hi, lo, unsaturated: s = RN(hi + lo) and e = hi + lo - s by
// TwoSum; on a midpoint the sign of e decides, ties to even only when e == 0.
constexpr std::int64_t grid_round_dd(double hi, double lo, int fraction_bits) noexcept {
  const math::double_double se = two_sum(hi, lo);
  const grid_position g = grid_side(se.hi, fraction_bits);
  if (g.side > 0 || (g.side == 0 && (se.lo > 0 || (se.lo == 0 && (g.floor & 1) != 0)))) return g.floor + 1;
  return g.floor;
}

}  // namespace posenc::detail

namespace posenc::math {

// RN_even(v 2^F) of the exact v.hi + v.lo, saturated to Q's range. invalid_input for a NaN or
// infinite part (value 0).
template <fixed_point_type Q>
constexpr posenc::result<saturated_value<Q>> round_to_fixed(double_double v) noexcept {
  const auto finite = [](double x) {
    return (std::bit_cast<std::uint64_t>(x) & 0x7FF0000000000000u) != 0x7FF0000000000000u;
  };
  if (!finite(v.hi) || !finite(v.lo)) return {{}, posenc::status::invalid_input};
  return {saturate<Q>(detail::grid_round_dd(v.hi, v.lo, fixed_format<Q>::fraction_bits)), posenc::status::ok};
}

template <fixed_point_type Q>
constexpr posenc::result<saturated_value<Q>> round_to_fixed(double v) noexcept {
  return round_to_fixed<Q>(double_double{v, 0.0});
}

}  // namespace posenc::math
