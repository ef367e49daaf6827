// policy.hpp: named RoPE evaluation policies. The library's own tables are exact (the real angle,
// cos/sin rounded once); the framework policies reproduce, operation by operation in IEEE binary32,
// the float32 pipelines of HuggingFace transformers and of ggml's CPU backend, for users who must
// match a model trained or served with them. docs/rope-precision.md quantifies their drift.
//
//   posenc::rope::exact         cos/sin of the exact angle m * b^(-2j/d), rounded once
//                               (= posenc::math::sincos_geometric<T>(m, b, 2j, d), bit for bit)
//   posenc::rope::hf_float32    HF modeling_rope_utils.py (v5) + LlamaRotaryEmbedding, every rope_type
//                               (default, linear, ntk, dynamic, yarn, longrope, llama3, partial
//                               rotary, proportional); the steps are in detail/policy_hf.hpp. Default:
//                                 t    = float(2j) / float(d)                 float32 division
//                                 p    = powf(float(base), t)                 torch.pow(Scalar, Tensor)
//                                 inv  = 1.0f / p                             __rtruediv__ = reciprocal()*1
//                                 inv  = inv / float(factor)                  linear only (inv_freq /= factor)
//                                 a    = inv * float(m)                       K=1 float32 matmul: one product
//                                 cos  = cosf(a) * float(attention_factor)    emb.cos() * attention_scaling
//                                 sin  = sinf(a) * float(attention_factor)    (a Python float: f32 multiply)
//   posenc::rope::ggml_float32  ggml-cpu ops.cpp ggml_rope_cache_init / rope_yarn (pe-formulas.md 2.1):
//                                 theta_scale = powf(float(base), -2.0f / float(d))
//                                 theta = float(m); j times: theta *= theta_scale   (float recurrence)
//                                 a = freq_scale * theta, freq_scale = 1.0f / float(factor) (linear)
//                                 cos, sin = cosf(a), sinf(a)                 * mscale (1.0f here)
//
// Caveat, stated on purpose: every float32 step is IEEE binary32 round-to-nearest (as the C++
// abstract machine does it in constant evaluation, and at run time with SSE2 and
// -ffp-contract=off), and powf/cosf/sinf are posenc::math's CORRECTLY ROUNDED float functions.
// torch's own pow/cos/sin (Sleef u10 vector code or libm, CPU; CUDA's powf/cosf, up to 2 ulp)
// and ggml's libm cosf/sinf/powf are not correctly rounded and can differ by one ulp in rare cases
// (docs/rope-precision.md counts them for glibc over the Llama-2 table). So these policies are
// "the HF (ggml) pipeline with correctly rounded float32 elementary functions": deterministic,
// the same on every platform and at compile time, and within those rare ulps of any real run.
// Other known differences from a real run: on CUDA, torch divides by a CPU scalar as a multiply by
// its reciprocal (same result when d and factor are powers of two); TF32 matmuls (off by default
// since torch 1.12) would round inv_freq to 10 bits; ggml's CUDA backend uses
// pos * powf(theta_scale, j) instead of the recurrence. None of these is modelled.
//
// Scope: hf_float32 covers every config rope::validate accepts (rotary dim < 2^24); ggml_float32
// covers rope_type default and linear (attention factor 1; rotary dim from the config, partial
// rotary included, proportional excluded): rope::applies(ggml_float32, c) says which, and why not,
// for every caller (the CLI and Python too). Anything else gives status::domain_error.
// ggml keeps no inv_freq tensor: inv_freq(ggml_float32, ...) is its angle at position 1
// (freq_scale * theta_scale^j by the recurrence), the frequency table ggml's arithmetic defines;
// ggml's angle at position m is the recurrence from float(m), not inv_freq * m in float32.
// HF version differences (hf_float32 follows the v5 text): v4.4x YaRN passes
// max_position_embeddings (not original_max_position_embeddings) to find_correction_range, always
// truncates, uses 0.1 ln(s) + 1 without the s <= 1 guard and ignores mscale/mscale_all_dim; v4.4x
// LongRoPE (and early v4.5x YaRN, issue #38224) replace `factor` by max_pos / original_max_pos
// whenever original_max_position_embeddings exists. Dynamic: seq_len > max_position_embeddings is
// the forward-time recomputation (float32 tensor ops on the int64 seq_len); otherwise the
// __init__ value (Python floats; the base is then unchanged). LongRoPE: long factors iff
// seq_len > original_max_position_embeddings (dynamic_rope_update). Python's math.log/pow/sqrt
// are libm; here posenc's correctly rounded double functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/math/pow.hpp"
#include "posenc/math/round.hpp"
#include "posenc/math/sincos_geometric.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/trig.hpp"
#include "posenc/rope/checked_config.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/dims.hpp"
#include "posenc/rope/detail/policy_hf.hpp"
#include "posenc/rope/validate.hpp"
#include "posenc/status.hpp"

namespace posenc::rope {

struct exact_policy {};
struct hf_float32_policy {};
struct ggml_float32_policy {};
inline constexpr exact_policy exact{};
inline constexpr hf_float32_policy hf_float32{};
inline constexpr ggml_float32_policy ggml_float32{};

// Whether ggml_float32 reproduces ggml for this config, or the sentence saying why not: the one
// statement of its scope, read by every ggml_float32 function here, the CLI and Python, so that
// they refuse the same configs with the same words. ggml's other scalings are other pipelines
// (its YaRN ramp is not HF's) and proportional RoPE is not ggml's: refused, not approximated.
// The rotary dim needs no check: validate caps it at 65536, exact as a float (ggml's float(d)).
constexpr validation applies(ggml_float32_policy, const checked_config& cc) noexcept {
  if (!cc.ok()) return cc.check();
  const config& c = cc.get();
  if (c.rope_type != scaling::default_ && c.rope_type != scaling::linear)
    return {posenc::status::domain_error, "ggml's float32 recurrence covers rope_type default and linear only"};
  if (c.proportional)
    return {posenc::status::domain_error, "ggml's float32 recurrence does not cover proportional RoPE"};
  return {};
}

}  // namespace posenc::rope

namespace posenc::rope::detail::ggml_pipeline {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

constexpr bool in_range(const rope::config& c, int j) noexcept { return j >= 0 && j < rope::detail::rotary_dim(c) / 2; }
constexpr bool linear(const rope::config& c) noexcept { return c.rope_type == rope::scaling::linear; }

// float(x) of a config double: the value torch / GGUF hold in float32 (RN, as the C++ conversion
// does in constant evaluation and with SSE2 at run time).
constexpr float f32(double x) noexcept { return static_cast<float>(x); }

// ggml's freq_scale (llama.cpp: rope_freq_scale_train = 1.0f / ropescale) and theta_scale.
constexpr float ggml_freq_scale(const rope::config& c) noexcept { return linear(c) ? 1.0f / f32(c.factor) : 1.0f; }
constexpr float ggml_theta_scale(const rope::config& c) noexcept {
  return math::pow(f32(c.rope_theta), -2.0f / static_cast<float>(rope::detail::rotary_dim(c)));
}

template <class T>
constexpr math::sincos_result<T> widen(math::sincos_result<float> s) noexcept {  // float -> T (HF's .to(dtype))
  return {round_dd<T>(static_cast<double>(s.sin), 0.0), round_dd<T>(static_cast<double>(s.cos), 0.0)};
}

}  // namespace posenc::rope::detail::ggml_pipeline

namespace posenc::rope {

// HF's float32 inv_freq[j] (the returned tensor of the rope_type's _compute_*_parameters).
constexpr posenc::result<float> inv_freq(hf_float32_policy, const checked_config& cc, int j) noexcept {
  const config& c = cc.get();
  if (!rope::detail::hf_pipeline::supported(cc) || !rope::detail::ggml_pipeline::in_range(c, j))
    return {0.0f, posenc::status::domain_error};
  return {rope::detail::hf_pipeline::inv_freq(rope::detail::hf_pipeline::make_params(c), j), posenc::status::ok};
}

// HF's attention_factor (the Python float that multiplies cos and sin): 1.0 except YaRN and
// LongRoPE (explicit attention_factor, get_mscale ratio, or sqrt(1 + ln s / ln L0)).
constexpr posenc::result<double> attention_scaling(hf_float32_policy, const checked_config& cc) noexcept {
  const config& c = cc.get();
  if (!rope::detail::hf_pipeline::supported(cc)) return {0.0, posenc::status::domain_error};
  return {rope::detail::hf_pipeline::make_params(c).attention, posenc::status::ok};
}

// HF's whole float32 inv_freq tensor: out[j] for j < out.size() <= rotary_dim(c)/2. A constexpr
// table should compute it once and form each angle as inv[j] * static_cast<float>(m) (what
// angle() does); angle_row recomputes the powf per pair, which dominates compile time.
constexpr posenc::status inv_freq_row(hf_float32_policy, const checked_config& cc, std::span<float> out) noexcept {
  const config& c = cc.get();
  if (!rope::detail::hf_pipeline::supported(cc) ||
      out.size() > static_cast<std::size_t>(rope::detail::rotary_dim(c) / 2))
    return posenc::status::domain_error;
  const rope::detail::hf_pipeline::params p = rope::detail::hf_pipeline::make_params(c);
  for (std::size_t j = 0; j < out.size(); ++j)
    out[j] = rope::detail::hf_pipeline::inv_freq(p, static_cast<std::int64_t>(j));
  return posenc::status::ok;
}

// The float32 angle of pair j at position m. HF: float(inv_freq[j]) * float(m) (positions above
// 2^24 round, as position_ids.float() does). ggml: m < 2^31 (pos is int32); O(j) (the recurrence).
constexpr posenc::result<float> angle(hf_float32_policy, const checked_config& cc, std::uint64_t m, int j) noexcept {
  const config& c = cc.get();
  if (!rope::detail::hf_pipeline::supported(cc) || !rope::detail::ggml_pipeline::in_range(c, j))
    return {0.0f, posenc::status::domain_error};
  return {rope::detail::hf_pipeline::inv_freq(rope::detail::hf_pipeline::make_params(c), j) * static_cast<float>(m),
          posenc::status::ok};
}

constexpr posenc::result<float> angle(ggml_float32_policy, const checked_config& cc, std::uint64_t m, int j) noexcept {
  const config& c = cc.get();
  if (!rope::applies(rope::ggml_float32, cc).ok() || !rope::detail::ggml_pipeline::in_range(c, j) ||
      m >= (std::uint64_t{1} << 31))
    return {0.0f, posenc::status::domain_error};
  const float scale = rope::detail::ggml_pipeline::ggml_theta_scale(c);
  float theta = static_cast<float>(m);  // theta_base = (float)pos[i]
  for (int i = 0; i < j; ++i) theta *= scale;
  return {rope::detail::ggml_pipeline::ggml_freq_scale(c) * theta, posenc::status::ok};
}

// A whole row: out[j] = angle(policy, c, m, j) for j < out.size() <= rotary_dim(c)/2, in O(size)
// (the way both frameworks build their caches). Returns the first failing status, if any.
constexpr posenc::status angle_row(hf_float32_policy, const checked_config& cc, std::uint64_t m,
                                   std::span<float> out) noexcept {
  const config& c = cc.get();
  if (!rope::detail::hf_pipeline::supported(cc) ||
      out.size() > static_cast<std::size_t>(rope::detail::rotary_dim(c) / 2))
    return posenc::status::domain_error;
  const rope::detail::hf_pipeline::params p = rope::detail::hf_pipeline::make_params(c);
  const float mf = static_cast<float>(m);
  for (std::size_t j = 0; j < out.size(); ++j)
    out[j] = rope::detail::hf_pipeline::inv_freq(p, static_cast<std::int64_t>(j)) * mf;
  return posenc::status::ok;
}

constexpr posenc::status angle_row(ggml_float32_policy, const checked_config& cc, std::uint64_t m,
                                   std::span<float> out) noexcept {
  const config& c = cc.get();
  if (!rope::applies(rope::ggml_float32, cc).ok() ||
      out.size() > static_cast<std::size_t>(rope::detail::rotary_dim(c) / 2) || m >= (std::uint64_t{1} << 31))
    return posenc::status::domain_error;
  const float scale = rope::detail::ggml_pipeline::ggml_theta_scale(c),
              fs = rope::detail::ggml_pipeline::ggml_freq_scale(c);
  float theta = static_cast<float>(m);
  for (std::size_t j = 0; j < out.size(); ++j) {
    out[j] = fs * theta;
    theta *= scale;
  }
  return posenc::status::ok;
}

// ggml's frequency table: its angle of pair j at position 1, freq_scale * theta_scale^j by the
// recurrence (theta starts at 1.0f). ggml keeps no inv_freq tensor; this is the table its float32
// arithmetic defines, and what `posenc emit rope-freq` and Python's rope_inv_freq give for it.
constexpr posenc::result<float> inv_freq(ggml_float32_policy p, const checked_config& cc, int j) noexcept {
  return angle(p, cc, 1, j);
}
constexpr posenc::status inv_freq_row(ggml_float32_policy p, const checked_config& cc, std::span<float> out) noexcept {
  return angle_row(p, cc, 1, out);
}

// ggml's attention factor for the configs it covers: its mscale, 1.0f for default and linear.
constexpr posenc::result<double> attention_scaling(ggml_float32_policy, const checked_config& cc) noexcept {
  if (!rope::applies(rope::ggml_float32, cc).ok()) return {0.0, posenc::status::domain_error};
  return {1.0, posenc::status::ok};
}

// {sin, cos} of pair j at position m under a policy, in T (double, float, bfloat16, float16).
// exact: RN_T of the exact values (math::sincos_geometric<T>; default rope_type only, no partial-rotary
// subtlety: d = rotary_dim(c)). Framework policies: cosf/sinf of the float32 angle, then converted
// to T as HF's .to(x.dtype) does (exact for double, a second rounding for bfloat16/float16).
template <class T = float>
constexpr posenc::result<math::sincos_result<T>> sincos(exact_policy, const checked_config& cc, std::uint64_t m,
                                                        int j) noexcept {
  const config& c = cc.get();
  // exact's own scope (not ggml's): the unscaled geometric angle, which only rope_type default
  // without proportional's non-rotating pairs has.
  if (!cc.ok() || c.rope_type != scaling::default_ || c.proportional || !rope::detail::ggml_pipeline::in_range(c, j))
    return {{}, posenc::status::domain_error};
  return math::sincos_geometric<T>(m, c.rope_theta, 2 * std::int64_t{j}, rope::detail::rotary_dim(c));
}

// hf_float32: cos = emb.cos() * attention_scaling, sin likewise (float32 products), then .to(T).
template <class T = float>
constexpr posenc::result<math::sincos_result<T>> sincos(hf_float32_policy p, const checked_config& cc, std::uint64_t m,
                                                        int j) noexcept {
  const config& c = cc.get();
  const posenc::result<float> a = angle(p, cc, m, j);
  if (!a.ok()) return {{}, a.error};
  const float att = static_cast<float>(rope::detail::hf_pipeline::make_params(c).attention);
  const math::sincos_result<float> s = math::sincos(a.value);
  return {rope::detail::ggml_pipeline::widen<T>({s.sin * att, s.cos * att}), posenc::status::ok};
}

template <class T = float, class Policy>
constexpr posenc::result<math::sincos_result<T>> sincos(Policy p, const checked_config& cc, std::uint64_t m,
                                                        int j) noexcept {
  const posenc::result<float> a = angle(p, cc, m, j);
  if (!a.ok()) return {{}, a.error};
  return {rope::detail::ggml_pipeline::widen<T>(math::sincos(a.value)), posenc::status::ok};
}

template <class T = float, class Policy>
constexpr posenc::result<T> cos(Policy p, const checked_config& cc, std::uint64_t m, int j) noexcept {
  const auto r = sincos<T>(p, cc, m, j);
  return {r.value.cos, r.error};
}
template <class T = float, class Policy>
constexpr posenc::result<T> sin(Policy p, const checked_config& cc, std::uint64_t m, int j) noexcept {
  const auto r = sincos<T>(p, cc, m, j);
  return {r.value.sin, r.error};
}

}  // namespace posenc::rope
