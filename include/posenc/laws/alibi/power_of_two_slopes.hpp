// alibi_power_of_two_slopes.hpp: law "a slope is the exact power of two where the formula gives
// one": m_h = 2^-e_h with e_h = max_bias (h + 1) / c (or max_bias (2 (h - c) + 1) / (2c) past the
// first group; alibi/slopes.hpp). Where e_h is an integer (every head of 8 heads with max_bias 8:
// 2^-1 .. 2^-8; the first group of 16 heads: h odd), the slope must hold 2^-e_h bit for bit: no
// pow(2, -8/16 * ...) evaluated in floating point may leave it an ulp off (docs/laws.md section 7).
// A bit law (0 or 1 against 0). A power below T's smallest normal (float16 past 2^-14) is not
// checked: RN_T of it is still exact down to the subnormal step, but this law reads normal slopes.
// q15/q31 (alibi/fixed_point_slopes.hpp): 2^-e with 1 <= e <= F is a whole number of steps and
// below 1 (never saturated), so RN_even leaves it exact and the law holds bit for bit; 2^-F (one
// step) and below are not checked (2^-F is exact too, but the slope laws read 2 steps and more).
//   static_assert(laws::alibi_power_of_two_slopes(slopes, cfg).holds);
// Index: the head (the pair field). Invalid config or a span of another length: head -1.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/alibi/config.hpp"
#include "posenc/alibi/slopes.hpp"
#include "posenc/laws/alibi/geometric_slopes.hpp"
#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"

namespace posenc::laws::failed {

// Where a failing alibi_power_of_two_slopes stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool alibi_power_of_two_slopes(std::int64_t head, std::int64_t position, std::int64_t element) noexcept {
  return at_head<alibi_power_of_two_slopes>(head) && position + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity alibi_power_of_two_slopes{failed::alibi_power_of_two_slopes, law_indices::head};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class T>
constexpr law_result alibi_power_of_two_slopes(std::span<const T> m, const alibi::config& c) noexcept {
  law_result r = make_result("alibi power-of-two slopes: m_h = 2^-e_h exactly where e_h is an integer",
                             &kind::alibi_power_of_two_slopes);
  if (!alibi::validate(c).ok() || m.size() != static_cast<std::size_t>(c.heads)) {
    r.require(false, {-1, -1, -1});
    return r;
  }
  const alibi::checked_config cc{c};
  for (int h = 0; h < c.heads; ++h) {
    const auto e = alibi::slope_exponent_of(cc, h).value;
    if (e.den != 1) continue;
    const double power = posenc::detail::pow2(-static_cast<int>(e.num));
    if (!detail::normal_value<T>(power)) continue;
    r.require(detail::to_double(m[static_cast<std::size_t>(h)]) == power, {-1, h, -1});
  }
  return r;
}

template <class T, std::size_t N>
constexpr law_result alibi_power_of_two_slopes(const T (&m)[N], const alibi::config& c) noexcept {
  return alibi_power_of_two_slopes(std::span<const T>(m), c);
}
template <class T, std::size_t N>
constexpr law_result alibi_power_of_two_slopes(const std::array<T, N>& m, const alibi::config& c) noexcept {
  return alibi_power_of_two_slopes(std::span<const T>(m), c);
}

}  // namespace posenc::laws
