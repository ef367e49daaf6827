// fixed_point.hpp: the q15 and q31 fixed-point storage types of CMSIS-DSP (Arm, "CMSIS-DSP:
// Fixed-point data types": q15_t, q31_t), for tables on cores without an FPU.
//
// A q15 holds the integer k = RN_even(x * 2^15) saturated to [-2^15, 2^15 - 1], so it stands for
// k * 2^-15 in [-1, 1 - 2^-15]; a q31 the same with 31 fraction bits. The integer is rounded once
// from the exact real x (docs/fixed-point.md: how the tables decide it), then saturated: 1.0 and
// anything from 1 - 2^-16 (q15) up become 0x7FFF, CMSIS's own choice for 1.0 in its cos/sin and
// twiddle tables (arm_common_tables.c). Saturation is not an error: a fill counts it
// (posenc::fixed_fill_status) and the CLI notes it on stderr.
//
// Storage only, as bfloat16 and float16: no arithmetic operators. Two's complement raw bits
// (`bits`, as CMSIS's q15_t is an int16_t), read back exactly with to_double().
#pragma once

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "posenc/status.hpp"

namespace posenc {

struct q15 {
  std::int16_t bits = 0;
  static constexpr q15 from_bits(std::int16_t b) noexcept { return q15{b}; }
  constexpr double to_double() const noexcept { return static_cast<double>(bits) * 0x1p-15; }  // exact
  constexpr float to_float() const noexcept { return static_cast<float>(bits) * 0x1p-15f; }    // exact (16 bits)
  friend constexpr bool operator==(q15, q15) noexcept = default;
};

struct q31 {
  std::int32_t bits = 0;
  static constexpr q31 from_bits(std::int32_t b) noexcept { return q31{b}; }
  constexpr double to_double() const noexcept { return static_cast<double>(bits) * 0x1p-31; }  // exact (32 bits)
  friend constexpr bool operator==(q31, q31) noexcept = default;
};

// The parameters of a fixed-point format: fraction bits F, the raw integer type, its range.
template <class Q>
struct fixed_format;

template <>
struct fixed_format<q15> {
  static constexpr int fraction_bits = 15;
  using storage = std::int16_t;
  static constexpr std::int64_t min_raw = -32768, max_raw = 32767;
};

template <>
struct fixed_format<q31> {
  static constexpr int fraction_bits = 31;
  using storage = std::int32_t;
  static constexpr std::int64_t min_raw = -2147483648LL, max_raw = 2147483647LL;
};

// The fixed-point types posenc rounds into; disjoint from storage_type (format.hpp).
template <class Q>
concept fixed_point_type = std::is_same_v<Q, q15> || std::is_same_v<Q, q31>;

// The rounded integer k = RN_even(x 2^F) clamped to Q's range: CMSIS's saturation (__SSAT).
// saturated says whether the clamp changed k.
template <fixed_point_type Q>
struct saturated_value {
  Q value{};
  bool saturated = false;
};

template <fixed_point_type Q>
constexpr saturated_value<Q> saturate(std::int64_t k) noexcept {
  using F = fixed_format<Q>;
  const std::int64_t hi = k < F::max_raw ? k : F::max_raw;  // selects, not branches
  const std::int64_t c = hi > F::min_raw ? hi : F::min_raw;
  return {Q::from_bits(static_cast<typename F::storage>(c)), c != k};
}

// What a fixed-point fill returns: its status (as the floating-point fills' posenc::status) and the
// number of values it saturated (each cos or sin of a row and pair counted once, whatever copies
// the layout stores). Saturation is reported, not an error: a q15 cos table saturates at every
// angle below 2^-7.5 rad (cos > 1 - 2^-16), position 0 included.
struct fixed_fill_status {
  posenc::status error = posenc::status::ok;
  std::uint64_t saturated = 0;
  constexpr bool ok() const noexcept { return error == posenc::status::ok; }
};

}  // namespace posenc
