// bench/runtime/framework_storage.hpp: how the frameworks store a float32 value as bfloat16 or
// float16 (torch's .to(torch.bfloat16) / .to(torch.float16): round to nearest even, NaN kept
// quiet), for the float32 baselines of the run-time benchmarks (rope_scalings_bench,
// schemes_bench). Written here from the formats' definitions, not taken from posenc's own
// rounding, so that a baseline borrows nothing of what it is measured against.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>

namespace posenc_bench {

inline std::uint16_t bf16_bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<std::uint16_t>((u >> 16) | 0x40u);  // quiet NaN
  return static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

inline std::uint16_t f16_bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  const std::uint32_t sign = (u >> 16) & 0x8000u, mag = u & 0x7FFFFFFFu;
  if (mag >= 0x47800000u) return static_cast<std::uint16_t>(sign | (mag > 0x7F800000u ? 0x7E00u : 0x7C00u));
  if (mag >= 0x38800000u) {  // normal float16 (the rounding may carry into infinity, as it should)
    const std::uint32_t r = mag + 0xFFFu + ((mag >> 13) & 1u);
    return static_cast<std::uint16_t>(sign | ((r >> 13) - 0x1C000u));
  }
  if (mag < 0x33000000u) return static_cast<std::uint16_t>(sign);  // below half the least subnormal
  // Subnormal float16: the significand with its hidden bit, shifted by 126 - e - 24 + 25 places.
  const std::uint32_t e = mag >> 23, m = (mag & 0x7FFFFFu) | 0x800000u, sh = 126u - e;
  const std::uint32_t q = m >> sh, rem = m & ((1u << sh) - 1u), halfway = 1u << (sh - 1u);
  const std::uint32_t up = rem > halfway || (rem == halfway && (q & 1u) != 0) ? 1u : 0u;
  return static_cast<std::uint16_t>(sign | (q + up));
}

// A pipeline value of type F (float, or double for the double tables) stored as T.
template <class T, class F>
T store_as(F v) {
  if constexpr (std::is_same_v<T, posenc::bfloat16>)
    return posenc::bfloat16::from_bits(bf16_bits(v));
  else if constexpr (std::is_same_v<T, posenc::float16>)
    return posenc::float16::from_bits(f16_bits(v));
  else
    return static_cast<T>(v);
}

// A stored value's bits, for comparisons and checksums.
template <class T>
std::uint64_t bits_of(T v) {
  if constexpr (std::is_same_v<T, posenc::bfloat16> || std::is_same_v<T, posenc::float16>) {
    return v.bits;
  } else {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof v);
    return b;
  }
}

}  // namespace posenc_bench
