// float16.hpp: the IEEE 754 binary16 storage type (1 sign, 5 exponent, 10 fraction bits).
//
// Layout: IEEE 754-2008 section 3.6, binary16 (emin = -14, emax = 15, bias 15). It is a storage
// type only: no arithmetic operators. Values are made by posenc::math::round_to<float16> (one
// correct rounding from an exact or extended value, never through float) and read back exactly
// with to_float().
#pragma once

#include <bit>
#include <cstdint>

namespace posenc {

struct float16 {
  std::uint16_t bits = 0;

  static constexpr float16 from_bits(std::uint16_t b) noexcept { return float16{b}; }

  // Exact: binary16 is a subset of binary32. Normal numbers and inf/NaN are re-biased field by
  // field (the NaN payload moves to the top of the float fraction, so quiet stays quiet);
  // subnormals are fraction * 2^-24, an exact float product.
  constexpr float to_float() const noexcept {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    const std::uint32_t field = (bits >> 10) & 0x1Fu;
    const std::uint32_t frac = bits & 0x3FFu;
    if (field == 0) {
      const float mag = static_cast<float>(frac) * 0x1p-24f;
      return sign != 0 ? -mag : mag;
    }
    const std::uint32_t exp32 = field == 0x1Fu ? 0xFFu : field + (127u - 15u);
    return std::bit_cast<float>(sign | (exp32 << 23) | (frac << 13));
  }

  constexpr bool is_nan() const noexcept { return (bits & 0x7FFFu) > 0x7C00u; }
  constexpr bool is_inf() const noexcept { return (bits & 0x7FFFu) == 0x7C00u; }

  // Equality compares bit patterns, because this is a storage type: -0 != +0, and a NaN equals a
  // NaN with the same bits. Compare to_float() values for IEEE semantics.
  friend constexpr bool operator==(float16, float16) noexcept = default;
};

}  // namespace posenc
