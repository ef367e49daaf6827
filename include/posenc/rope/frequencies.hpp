// frequencies.hpp: RoPE inv_freq[j] and attention factors of every scaling, exact then rounded
// once into double, float, bfloat16 or float16, at compile time and at run time alike.
//
// Semantics: HuggingFace transformers src/transformers/modeling_rope_utils.py (the function named
// at each entry point; pe-formulas.md sections 1.0-1.3), with every parameter taken as the exact
// binary value it holds and every formula evaluated in the reals (logs, exps, pi, floors, ceils,
// clamps and blends included), then RN_T once. Method: detail/evaluate.hpp.
// Preconditions: validate(cfg).ok() (validate.hpp). Each function takes a checked_config (a plain
// config converts): in constant evaluation a broken precondition is a compile error naming it, at
// run time status::domain_error.
// Known limit: a value that is exactly a midpoint of T cannot be decided by Ziv's test and gets
// status::domain_error. It needs an algebraic coincidence (e.g. sqrt(1 + ln s/ln L0) a 9-bit
// dyadic when s and L0 are powers of one integer); no curated config has one.
#pragma once

#include <cstdint>
#include <span>

#include "posenc/math/detail/eval/evaluate.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/sincos_source.hpp"
#include "posenc/rope/checked_config.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/dims.hpp"
#include "posenc/rope/detail/inv_freq_formula.hpp"
#include "posenc/rope/validate.hpp"

namespace posenc::rope {

// The rotary dimension: floor(head_dim * partial_rotary_factor) (HF), or rotary_dim when set
// (GPT-J), or head_dim for proportional. 0 for an invalid config.
constexpr int rotary_dim(const config& c) noexcept { return static_cast<int>(rope::detail::rotary_dim(c)); }

// inv_freq[j], 0 <= j < rotary_dim(c)/2. Zero for proportional's non-rotating pairs.
template <class T = double>
constexpr posenc::result<T> inv_freq(const checked_config& cc, int j) noexcept {
  const config& c = cc.get();
  if (!cc.ok() || j < 0 || j >= rotary_dim(c) / 2) return {T{}, posenc::status::domain_error};
  if (j >= rope::detail::rotating_pairs(c)) return {posenc::detail::round_dd<T>(0.0, 0.0), posenc::status::ok};
  return posenc::detail::eval::round_formula<T>(
      [&c, j](auto p) { return rope::detail::inv_freq_eval<decltype(p)>(c, j); });
}

// The factor HF multiplies cos and sin by (the second value of the rope init functions).
template <class T = double>
constexpr posenc::result<T> attention_factor(const checked_config& cc) noexcept {
  const config& c = cc.get();
  if (!cc.ok()) return {T{}, posenc::status::domain_error};
  const bool takes_explicit = c.rope_type == scaling::yarn || c.rope_type == scaling::longrope;
  if (takes_explicit && c.attention_factor.has_value())
    return posenc::detail::rounded_result(posenc::detail::round_dd<T>(*c.attention_factor, 0.0));
  return posenc::detail::eval::round_formula<T>([&c](auto p) { return rope::detail::attention_eval<decltype(p)>(c); });
}

// DeepSeek's softmax-scale multiplier mscale^2 (modeling_deepseek_v3 DeepseekV3Attention).
template <class T = double>
constexpr posenc::result<T> softmax_scale_factor(const checked_config& cc) noexcept {
  const config& c = cc.get();
  if (!cc.ok()) return {T{}, posenc::status::domain_error};
  return posenc::detail::eval::round_formula<T>([&c](auto p) { return rope::detail::softmax_eval<decltype(p)>(c); });
}

// YaRN's find_correction_range (_compute_yarn_parameters). With truncate, low and high are the
// exact integers max(floor(low), 0) and min(ceil(high), d - 1); without, RN_double of the exact
// clamped reals.
struct correction_range {
  double low = 0;
  double high = 0;
  bool truncated = true;
  posenc::status error = posenc::status::ok;
  constexpr bool ok() const noexcept { return error == posenc::status::ok; }
};

constexpr correction_range yarn_correction_range(const checked_config& cc) noexcept {
  using namespace rope::detail;
  using namespace posenc::detail::eval;
  const config& c = cc.get();
  if (!cc.ok() || c.rope_type != scaling::yarn) return {0, 0, c.truncate, posenc::status::domain_error};
  const auto lo = round_formula<double>([&c](auto p) { return yarn_range<decltype(p)>(c).low; });
  const auto hi = round_formula<double>([&c](auto p) { return yarn_range<decltype(p)>(c).high; });
  return {lo.value, hi.value, c.truncate, lo.ok() && hi.ok() ? posenc::status::ok : posenc::status::domain_error};
}

// Llama-3's band of pair j (_compute_llama3_parameters): kept, smoothed, or divided by factor.
enum class llama3_band : unsigned char { keep, smoothed, divided };

constexpr posenc::result<llama3_band> llama3_band_of(const checked_config& cc, int j) noexcept {
  using namespace rope::detail;
  using namespace posenc::detail::eval;
  const config& c = cc.get();
  if (!cc.ok() || c.rope_type != scaling::llama3 || j < 0 || j >= detail::rotary_dim(c) / 2)
    return {llama3_band::keep, posenc::status::domain_error};
  int b = llama3_band_eval<dd_num>(c, dd_num::exp(log_theta<dd_num>(c, j)));
  if (b == 3) b = llama3_band_eval<mp_num<4>>(c, mp_num<4>::exp(log_theta<mp_num<4>>(c, j)));
  if (b == 3) b = llama3_band_eval<mp_num<16>>(c, mp_num<16>::exp(log_theta<mp_num<16>>(c, j)));
  if (b == 3) return {llama3_band::keep, posenc::status::domain_error};
  return {static_cast<llama3_band>(b), posenc::status::ok};
}

// LongRoPE's factors for c.seq_len: long_factor iff seq_len > original_max_position_embeddings
// (_compute_longrope_parameters and dynamic_rope_update), else short_factor.
constexpr std::span<const double> longrope_factors(const config& c) noexcept {
  return c.seq_len > c.original_max_position_embeddings ? c.long_factor : c.short_factor;
}

using frequency_value = math::frequency_value;  // math/sincos_source.hpp

// The exact scaled frequency from the 256-bit evaluation rounded to a double-double: relative error 2^-104
// whatever the scaling (frequency_dd's double-double evaluation can be as loose as 2^-60 in
// Llama-3's smoothed band, enough for float tables, not for deciding a double entry's rounding
// from a row kernel's anchors, sincos_table_rows_double.hpp), at a few microseconds a column.
constexpr frequency_value frequency_dd_accurate(const checked_config& cc, int j) noexcept {
  using namespace rope::detail;
  using namespace posenc::detail::eval;
  const config& c = cc.get();
  if (!cc.ok() || j < 0 || j >= detail::rotary_dim(c) / 2) return {{}, 0, posenc::status::domain_error};
  if (j >= rotating_pairs(c)) return {};
  const auto m = inv_freq_eval<mp_num<4>>(c, j);
  if (mp_num<4>::failed(m) || !mp_num<4>::separated(m)) return {{}, 0, posenc::status::domain_error};
  const double hi = posenc::detail::mp::round_value<double>(m.v);
  const double lo =
      posenc::detail::mp::round_value<double>(posenc::detail::mp::sub(m.v, posenc::detail::mp::from_double<4>(hi)));
  return {{hi, lo}, 0x1p-104, posenc::status::ok};
}

// The exact scaled frequency as a provider for angle tables: a double-double with a relative
// error bound (so that cos/sin of m * inv_freq[j] can be rounded correctly with respect to the
// exact frequency). From the double-double evaluation (bound typically 2^-80 or better), or, when
// that cannot decide a branch, from the 256-bit one (frequency_dd_accurate, 2^-104).
constexpr frequency_value frequency_dd(const checked_config& cc, int j) noexcept {
  using namespace rope::detail;
  using namespace posenc::detail::eval;
  const config& c = cc.get();
  if (!cc.ok() || j < 0 || j >= detail::rotary_dim(c) / 2) return {{}, 0, posenc::status::domain_error};
  if (j >= rotating_pairs(c)) return {};
  const dd_val a = inv_freq_eval<dd_num>(c, j);
  if (!dd_num::failed(a) && a.v.hi != 0 && a.err <= dd_num::bot(a) - 60)
    return {a.v, a.err == exact_err ? 0.0 : posenc::detail::pow2(a.err - dd_num::bot(a)), posenc::status::ok};
  return frequency_dd_accurate(cc, j);
}

// The frequency at 64 * Limbs bits with an absolute error bound 2^err (mp::approx), for the
// multiprecision fallback of angle tables. err >= 2^19 means the formula could not decide a
// branch at this precision (retry with more limbs). Precondition: validate(c).ok(),
// 0 <= j < rotary_dim(c)/2 (zero past proportional's rotating pairs is not represented here).
template <int Limbs>
constexpr posenc::detail::mp::approx<Limbs> frequency_mp(const config& c, int j) noexcept {
  return rope::detail::inv_freq_eval<posenc::detail::eval::mp_num<Limbs>>(c, j);
}

}  // namespace posenc::rope
