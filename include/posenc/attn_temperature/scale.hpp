// scale.hpp: Llama-4's attention temperature, the factor q is multiplied by on the NoPE layers at
// 0-based position p (HF modeling_llama4.py, Llama4TextAttention.forward with
// attn_temperature_tuning: log1p(floor((cache_position + 1) / floor_scale)) * attn_scale + 1; vLLM's
// _get_attn_scale writes it log(floor(...) + 1)), exact then rounded once into T:
//
//   scale(p) = RN_T(1 + attn_scale ln(1 + floor((p + 1) / floor_scale)))
//
// with attn_scale its exact double value (0.1 is 0x1.999999999999ap-4, not a tenth).
//
//   constexpr posenc::attn_temperature::config llama4{};                   // config.hpp
//   attn_temperature::scale<T>(cfg, p)                       one position
//   attn_temperature::fill_scales<T>(cfg, start, span)       rows p = start .. start + size - 1
//   attn_temperature::make_scales<T, N>(cfg, start)          the same into a std::array
//
// The generators take an attn_temperature::checked_config (validate.hpp), made from a config where
// it is passed: a broken precondition is a compile error naming it in constant evaluation,
// domain_error at run time. Per call: domain_error for a position outside [0, 2^52].
//
// Exactness: the step k = floor((p + 1) / floor_scale) is an integer division (no overflow: p + 1
// <= 2^52 + 1). For k = 0 or attn_scale = 0 the value is 1 exactly. Otherwise ln(1 + k) is
// transcendental (Lindemann: e^r is transcendental for algebraic r != 0, so ln of an integer
// above 1 is not algebraic), hence so is 1 + a ln(1 + k) for a rational a > 0: never a T value nor
// a midpoint, so Ziv's strategy (math/detail/eval/evaluate.hpp: double-double, then 256 to 1024
// bits) always decides.
//
// The table is piecewise constant, so fill_scales evaluates each step once and copies it over the
// step's positions: a table of a million rows at floor_scale 8192 costs 128 evaluations.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/attn_temperature/config.hpp"
#include "posenc/attn_temperature/validate.hpp"
#include "posenc/math/detail/eval/evaluate.hpp"
#include "posenc/math/round.hpp"
#include "posenc/status.hpp"

namespace posenc::attn_temperature {

// The largest position the generators take (p + 1 and the step stay exact doubles).
inline constexpr std::int64_t max_position = std::int64_t{1} << 52;

// floor((p + 1) / floor_scale), the step of position p (0 <= p <= max_position, floor_scale >= 1).
constexpr std::int64_t step_of(const config& c, std::int64_t p) noexcept { return (p + 1) / c.floor_scale; }

}  // namespace posenc::attn_temperature

namespace posenc::attn_temperature::detail {

// 1 + a ln(1 + k) over a number type of math/detail/eval (num_dd.hpp, num_mp.hpp); k + 1 <= 2^52 + 1
// is an exact double.
template <class P>
constexpr typename P::value scale_eval(double attn_scale, std::int64_t k) noexcept {
  return P::add(P::of(1.0), P::mul(P::of(attn_scale), P::log(P::of_int(k + 1))));
}

// RN_T of the scale of step k.
template <class T>
constexpr posenc::result<T> scale_of_step(const config& c, std::int64_t k) noexcept {
  if (k == 0 || c.attn_scale == 0.0) return {posenc::detail::round_dd<T>(1.0, 0.0), posenc::status::ok};
  const double a = c.attn_scale;
  return posenc::detail::eval::round_formula<T>([a, k](auto p) { return scale_eval<decltype(p)>(a, k); });
}

}  // namespace posenc::attn_temperature::detail

namespace posenc::attn_temperature {

template <class T = double>
constexpr posenc::result<T> scale(const checked_config& cc, std::int64_t p) noexcept {
  if (!cc.ok()) return {T{}, cc.check().error};
  if (p < 0 || p > max_position) return {T{}, posenc::status::domain_error};
  return attn_temperature::detail::scale_of_step<T>(cc.get(), step_of(cc.get(), p));
}

// The same from a plain config (a braced {.floor_scale = F} binds here).
template <class T = double>
constexpr posenc::result<T> scale(const config& c, std::int64_t p) noexcept {
  return scale<T>(checked_config{c}, p);
}

// out[i] = scale(start + i), the config validated once and each step evaluated once.
template <class T = double>
constexpr posenc::status fill_scales(const checked_config& cc, std::int64_t start, std::span<T> out) noexcept {
  if (!cc.ok()) return cc.check().error;
  if (out.empty()) return posenc::status::ok;
  if (start < 0 || start > max_position || out.size() - 1 > static_cast<std::size_t>(max_position - start))
    return posenc::status::domain_error;
  const config& c = cc.get();
  std::size_t i = 0;
  while (i < out.size()) {
    const std::int64_t p = start + static_cast<std::int64_t>(i);
    const std::int64_t k = step_of(c, p);
    const auto v = attn_temperature::detail::scale_of_step<T>(c, k);
    if (!v.ok()) return v.error;
    // Step k holds the positions with k f <= p + 1 < (k + 1) f: up to p = (k + 1) f - 2.
    const auto run = static_cast<std::size_t>((k + 1) * c.floor_scale - 1 - p);
    const std::size_t end = run < out.size() - i ? i + run : out.size();
    for (; i < end; ++i) out[i] = v.value;
  }
  return posenc::status::ok;
}

template <class T = double>
constexpr posenc::status fill_scales(const config& c, std::int64_t start, std::span<T> out) noexcept {
  return fill_scales<T>(checked_config{c}, start, out);
}

template <class T, std::size_t N>
constexpr posenc::result<std::array<T, N>> make_scales(const checked_config& cc, std::int64_t start = 0) noexcept {
  posenc::result<std::array<T, N>> r{};
  r.error = fill_scales<T>(cc, start, std::span<T>(r.value));
  return r;
}

template <class T, std::size_t N>
constexpr posenc::result<std::array<T, N>> make_scales(const config& c, std::int64_t start = 0) noexcept {
  return make_scales<T, N>(checked_config{c}, start);
}

}  // namespace posenc::attn_temperature
