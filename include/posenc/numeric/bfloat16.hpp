// bfloat16.hpp: the bfloat16 storage type (1 sign, 8 exponent, 7 fraction bits).
//
// Layout: the upper half of an IEEE 754 binary32 (Google Brain "bfloat16", also Intel's BF16
// whitepaper, doc 338302). It is a storage type only: no arithmetic operators. Values are made by
// posenc::math::round_to<bfloat16> (one correct rounding from an exact or extended value, never
// through float) and read back exactly with to_float().
#pragma once

#include <bit>
#include <cstdint>

namespace posenc {

struct bfloat16 {
  std::uint16_t bits = 0;

  static constexpr bfloat16 from_bits(std::uint16_t b) noexcept { return bfloat16{b}; }

  // Exact: every bfloat16 is a float whose low 16 bits are zero (NaN payloads are kept).
  constexpr float to_float() const noexcept {
    return std::bit_cast<float>(static_cast<std::uint32_t>(static_cast<std::uint32_t>(bits) << 16));
  }

  constexpr bool is_nan() const noexcept { return (bits & 0x7FFFu) > 0x7F80u; }
  constexpr bool is_inf() const noexcept { return (bits & 0x7FFFu) == 0x7F80u; }

  // Equality compares bit patterns, because this is a storage type: -0 != +0, and a NaN equals a
  // NaN with the same bits. Compare to_float() values for IEEE semantics.
  friend constexpr bool operator==(bfloat16, bfloat16) noexcept = default;
};

}  // namespace posenc
