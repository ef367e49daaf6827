// laws/attn_temperature/table.hpp: what the attention-temperature laws (temperature_one_before_step,
// temperature_monotone, temperature_steps) read: the scale of each position of a range, posenc's
// (attn_temperature::make_scales, fill_scales) or anyone's, and the step length floor_scale it
// claims (docs/logn.md, Llama-4's attention temperature).
//
//   constexpr auto s = posenc::attn_temperature::make_scales<float, 64>({.floor_scale = 8}).value;
//   constexpr laws::temperature_table<float> t{s, 0, 8};                  // positions 0 .. 63
//   static_assert(laws::temperature_steps(t).holds);
//
// The exact scale 1 + a ln(1 + floor((p + 1) / f)) (a >= 0) is 1 before the first step, constant
// on each step, and non-decreasing; rounding to nearest keeps all three. A step may round to the
// value of the one before it (bfloat16 holds 8 bits), so no law asks for a strict rise.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace posenc::laws {

template <class T>
struct temperature_table {
  using value_type = T;
  std::span<const T> scales;  // scales[i] is the scale of position start + i
  std::int64_t start = 0;     // 0-based positions (HF's cache_position)
  std::int64_t floor_scale = 8192;

  constexpr std::size_t size() const noexcept { return scales.size(); }
  constexpr std::int64_t position(std::size_t i) const noexcept { return start + static_cast<std::int64_t>(i); }
  constexpr bool valid() const noexcept { return start >= 0 && floor_scale >= 1; }
  // p = k floor_scale - 1 for some k >= 1: the scale may change from p - 1 to p.
  constexpr bool step_at(std::int64_t p) const noexcept { return (p + 1) % floor_scale == 0; }
};
template <class T, std::size_t N>
temperature_table(const std::array<T, N>&, std::int64_t, std::int64_t) -> temperature_table<T>;

}  // namespace posenc::laws
