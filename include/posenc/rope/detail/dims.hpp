// dims.hpp: the rotary dimension and pair counts of a RoPE config.
//
// HF: dim = int(head_dim * partial_rotary_factor) (modeling_rope_utils.py, every
// _compute_*_parameters); proportional: rope_angles = int(partial_rotary_factor * head_dim // 2)
// (_compute_proportional_rope_parameters), with inv_freq over all head_dim/2 pairs, the last ones
// zero. The products are taken exactly (TwoProd), then floored: the exact real formula.
#pragma once

#include <cstdint>

#include "posenc/math/double_double.hpp"
#include "posenc/rope/config.hpp"

namespace posenc::rope::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// floor(n * f) for 0 <= n < 2^31 and 0 < f <= 1 (so the product is below 2^31).
constexpr std::int64_t floor_product(int n, double f) noexcept {
  const math::double_double p = two_prod(static_cast<double>(n), f);
  std::int64_t k = static_cast<std::int64_t>(p.hi);  // truncation; p.hi >= 0
  if (static_cast<double>(k) == p.hi && p.lo < 0) --k;
  return k;
}

constexpr bool prf_ok(double f) noexcept { return f > 0 && f <= 1.0; }

// The rotary dimension d (elements that rotate); pairs are j < d/2.
constexpr std::int64_t rotary_dim(const rope::config& c) noexcept {
  if (c.proportional) return c.head_dim;
  if (c.rotary_dim > 0) return c.rotary_dim;
  if (c.head_dim <= 0 || !prf_ok(c.partial_rotary_factor)) return 0;
  return floor_product(c.head_dim, c.partial_rotary_factor);
}

// The denominator of the exponent 2j/D: head_dim for proportional, else the rotary dim.
constexpr std::int64_t exponent_dim(const rope::config& c) noexcept {
  return c.proportional ? c.head_dim : rotary_dim(c);
}

// Pairs with a nonzero frequency: floor(prf * head_dim / 2) for proportional, else d/2.
constexpr std::int64_t rotating_pairs(const rope::config& c) noexcept {
  if (!c.proportional) return rotary_dim(c) / 2;
  if (c.head_dim <= 0 || !prf_ok(c.partial_rotary_factor)) return 0;
  return floor_product(c.head_dim, c.partial_rotary_factor) / 2;  // floor(floor(x)/2) = floor(x/2)
}

}  // namespace posenc::rope::detail
