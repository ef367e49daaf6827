// fixed_point_scale.hpp: XPOS's scales zeta_j^(n / scale_base) in CMSIS-DSP's q15 and q31
// (numeric/fixed_point.hpp, docs/fixed-point.md), each RN_even(x 2^F) of the exact scale
// (math::rational_power_fixed), then saturated.
//
//   xpos::fill_scales<q15>(cfg, first, span, inverse)   -> posenc::fixed_fill_status
//   xpos::make_scale_table<q15, Positions, Pairs>(cfg, first, inverse)
//
// zeta_j < 1, so the scales of positions n >= 0 lie in (0, 1] (n = 0 gives 1, saturated to
// 2^F - 1) and those of n < 0 exceed 1 and all saturate; the inverse scales the other way round.
// The fill counts them; a table of mostly saturated values is the caller's to avoid (q's scales at
// n >= 0 are the fixed-point table that makes sense). Cost: the scalar path per entry (a
// correctly rounded double, rarely the enclosure): about a microsecond an entry at run time.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/math/rational_power_fixed.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/status.hpp"
#include "posenc/xpos/config.hpp"
#include "posenc/xpos/scale.hpp"
#include "posenc/xpos/validate.hpp"

namespace posenc::xpos {

// out[r * pairs + j] = scale (inverse: inverse_scale) of pair j at position first + r, in Q.
template <fixed_point_type Q>
constexpr fixed_fill_status fill_scales(const checked_config& cc, std::int64_t first, std::span<Q> out,
                                        bool inverse = false) noexcept {
  if (!cc.ok()) return {posenc::status::domain_error, 0};
  const auto pairs = static_cast<std::size_t>(cc.get().head_dim / 2);
  if (out.size() % pairs != 0) return {posenc::status::domain_error, 0};
  fixed_fill_status st{};
  for (std::size_t r = 0; r < out.size() / pairs; ++r)
    for (std::size_t j = 0; j < pairs; ++j) {
      const std::int64_t n = first + static_cast<std::int64_t>(r);
      const std::int64_t e = inverse ? -n : n;
      const auto z = zeta(cc, static_cast<int>(j));
      if (!z.ok() || n <= -(std::int64_t{1} << 53) || n >= (std::int64_t{1} << 53))
        return {posenc::status::domain_error, st.saturated};
      const auto v = math::rational_power_fixed<Q>(z.value.num, z.value.den, e, cc.get().scale_base);
      if (!v.ok()) return {v.error, st.saturated};
      out[r * pairs + j] = v.value.value;
      st.saturated += v.value.saturated ? 1 : 0;
    }
  return st;
}

// The table as a std::array (the saturation count: fill_scales').
template <fixed_point_type Q, std::size_t Positions, std::size_t Pairs>
constexpr posenc::result<std::array<Q, Positions * Pairs>> make_scale_table(const checked_config& cc,
                                                                            std::int64_t first = 0,
                                                                            bool inverse = false) noexcept {
  posenc::result<std::array<Q, Positions * Pairs>> r{};
  if (cc.ok() && static_cast<std::size_t>(cc.get().head_dim / 2) != Pairs) {
    r.error = posenc::status::domain_error;
    return r;
  }
  r.error = fill_scales<Q>(cc, first, std::span<Q>(r.value), inverse).error;
  return r;
}

}  // namespace posenc::xpos
