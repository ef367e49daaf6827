// fixed_point_slopes.hpp: ALiBi's slopes in CMSIS-DSP's q15 and q31 (numeric/fixed_point.hpp,
// docs/fixed-point.md): RN_even(m_h 2^F) of the exact slope, rounded once
// (math::geometric_value_fixed). Slopes lie in (0, 1): 2^-1 and the other powers of two are exact,
// a slope below 2^-(F+1) rounds to 0 (a tie at exactly 2^-(F+1) goes to even, 0), and none
// saturates (max_bias > 0 makes every slope < 1), though the count is returned for uniformity.
//
//   alibi::fill_slopes<q15>(cfg, span)        -> posenc::fixed_fill_status
//   alibi::make_slopes<q15, Heads>(cfg)
//
// The biases -m_h |i - j| are not offered in q15/q31: they leave [-1, 1) from distance 1/m_h on
// (2 for m = 2^-1), so a fixed-point bias table would be almost all saturation. Firmware computes
// the bias from the q15 slope and the distance in its own wider arithmetic.
#pragma once

#include <array>
#include <cstddef>
#include <span>

#include "posenc/alibi/config.hpp"
#include "posenc/alibi/slopes.hpp"
#include "posenc/alibi/validate.hpp"
#include "posenc/math/geometric_fixed.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/status.hpp"

namespace posenc::alibi {

template <fixed_point_type Q>
constexpr fixed_fill_status fill_slopes(const checked_config& cc, std::span<Q> out) noexcept {
  if (!cc.ok() || out.size() != static_cast<std::size_t>(cc.get().heads)) return {posenc::status::domain_error, 0};
  fixed_fill_status st{};
  for (std::size_t h = 0; h < out.size(); ++h) {
    const auto e = slope_exponent_of(cc, static_cast<int>(h));
    if (!e.ok()) return {e.error, st.saturated};
    const auto s = math::geometric_value_fixed<Q>(2.0, e.value.num, e.value.den);
    if (!s.ok()) return {s.error, st.saturated};
    out[h] = s.value.value;
    st.saturated += s.value.saturated ? 1 : 0;
  }
  return st;
}

template <fixed_point_type Q, std::size_t Heads>
constexpr posenc::result<std::array<Q, Heads>> make_slopes(const checked_config& cc) noexcept {
  posenc::result<std::array<Q, Heads>> r{};
  r.error = fill_slopes<Q>(cc, std::span<Q>(r.value)).error;
  return r;
}

}  // namespace posenc::alibi
