// policy_hf.hpp: HF transformers' float32 inv_freq pipeline for every rope_type, step by step.
//
// Source: huggingface/transformers src/transformers/modeling_rope_utils.py (v5 text, the one with
// rope_parameters, truncate and proportional; see ../../../../docs/rope-precision.md and
// pe-formulas.md 1.0-1.3). Each torch op on a float32 tensor is one IEEE binary32 rounding; a
// Python scalar meeting a float32 tensor is first converted to float32 (torch type promotion:
// a wrapped number never widens a tensor), written f32(x) below. Python scalars computed with
// math.* are binary64 (posenc::math's correctly rounded double log/pow/sqrt stand in for libm).
// Three torch facts the formulas rely on (torch/_tensor.py, aten/src/ATen/native/cpu/PowKernel.cpp):
//   scalar / tensor  is Tensor.__rtruediv__ = tensor.reciprocal() * scalar  (two roundings);
//   tensor ** python_float  on a 1-element float tensor is std::pow(float, double) (a binary64
//   pow, then rounded to float), except exponent 2.0 which is x * x;
//   python_float ** tensor  (base ** (arange / dim)) is pow(Tensor, Tensor) with the base wrapped
//   and converted to float32; the CPU kernel (cpu_kernel_vec, ATen/native/cpu/Loops.h) runs
//   Vectorized<float>::pow on whole blocks of 2 * Vectorized<float>::size() elements, which on
//   the AVX2 build is SLEEF's Sleef_powf8_u10 (math::sleef_powf: 1 ULP, not correctly rounded),
//   and std::pow(float, float), libm's powf, on the n mod 16 elements after the last block.
#pragma once

#include <cstdint>
#include <limits>

#include "posenc/math/exp_log.hpp"
#include "posenc/math/pow.hpp"
#include "posenc/math/sleef_powf.hpp"
#include "posenc/math/sqrt.hpp"
#include "posenc/rope/checked_config.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/dims.hpp"
#include "posenc/rope/validate.hpp"

namespace posenc::rope::detail::hf_pipeline {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

using rope::scaling;

constexpr float f32(double x) noexcept { return static_cast<float>(x); }

// Python's math.floor / math.ceil for the small correction dims (|x| < 2^62).
constexpr double py_floor(double x) noexcept {
  const double t = static_cast<double>(static_cast<std::int64_t>(x));  // truncation toward 0
  return t > x ? t - 1.0 : t;
}
constexpr double py_ceil(double x) noexcept { return -py_floor(-x); }

// Per-config scalars, computed once per row (they cost logs and pows in constant evaluation).
struct params {
  scaling type = scaling::default_;
  float d = 0;             // float(dim): arange(0, dim, 2).float() / dim
  float base = 0;          // float32 base fed to base ** tensor
  float factor = 1;        // f32(factor)
  std::int64_t pairs = 0;  // pairs with a nonzero frequency (proportional: rope_angles)
  // YaRN: f32(low) and f32(high - low) of linear_ramp_factor.
  float ramp_low = 0, ramp_den = 1;
  // Llama-3: f32 of low_freq_wavelen, high_freq_wavelen, old_context_len, low_freq_factor,
  // high_freq_factor - low_freq_factor, and of 2 * math.pi.
  float low_wl = 0, high_wl = 0, l0 = 0, lff = 0, hml = 1, two_pi = 0;
  const double* ext = nullptr;  // LongRoPE: the chosen factors, as written (rounded to float32 at use)
  double attention = 1.0;       // the Python float attention_factor
};

// factor, or max_position_embeddings / original_max_position_embeddings when unset (yarn,
// longrope: v5 `if factor is None`).
constexpr double py_factor(const rope::config& c) noexcept {
  if (c.factor != 0.0) return c.factor;
  return static_cast<double>(c.max_position_embeddings) / static_cast<double>(c.original_max_position_embeddings);
}

// _compute_yarn_parameters get_mscale: 0.1 * mscale * math.log(scale) + 1.0 (left to right).
constexpr double get_mscale(double scale, double m) noexcept {
  if (scale <= 1) return 1.0;
  return 0.1 * m * math::log(scale) + 1.0;
}

// find_correction_dim: (dim * math.log(L0 / (num_rotations * 2 * math.pi))) / (2 * math.log(base)).
constexpr double correction_dim(double n_rot, double dim, double base, double l0) noexcept {
  constexpr double pi = 3.141592653589793;  // math.pi, the double nearest pi
  return (dim * math::log(l0 / (n_rot * 2 * pi))) / (2 * math::log(base));
}

// The base of the dynamic NTK formula, as HF feeds it to base ** tensor (float32).
constexpr float dynamic_base(const rope::config& c, std::int64_t dim) noexcept {
  const double s = c.factor, e = static_cast<double>(dim) / static_cast<double>(dim - 2);
  const double mp = static_cast<double>(c.max_position_embeddings);
  if (c.seq_len > c.max_position_embeddings) {
    // Forward (dynamic_rope_update, growth): seq_len = max(position_ids) + 1 is an int64 tensor,
    // so every step is a float32 tensor op: factor * seq_len / max_pos - (factor - 1).
    float x = f32(s) * static_cast<float>(c.seq_len);
    x = x / f32(mp);
    x = x - f32(s - 1);
    const float y = e == 2.0 ? x * x : static_cast<float>(math::pow(static_cast<double>(x), e));
    return f32(c.rope_theta) * y;  // base * (...): Python float * float32 tensor
  }
  // __init__: seq_len = max_position_embeddings, all Python floats.
  const double b = c.rope_theta * math::pow(s * mp / mp - (s - 1), e);
  return f32(b);
}

constexpr params make_params(const rope::config& c) noexcept {
  params p;
  p.type = c.rope_type;
  const std::int64_t dim = rope::detail::rotary_dim(c);  // proportional: head_dim
  p.d = static_cast<float>(dim);
  p.base = f32(c.rope_theta);
  p.pairs = rope::detail::rotating_pairs(c);
  if (c.rope_type == scaling::linear || c.rope_type == scaling::llama3) p.factor = f32(c.factor);
  if (c.proportional) p.factor = c.factor == 0.0 ? 1.0f : f32(c.factor);  // factor defaults to 1.0
  if (c.rope_type == scaling::ntk) {  // commit 0044e3b3: base * factor ** (dim / (dim - 2)), Python
    const double e = static_cast<double>(dim) / static_cast<double>(dim - 2);
    p.base = f32(c.rope_theta * math::pow(c.factor, e));
  }
  if (c.rope_type == scaling::dynamic) p.base = dynamic_base(c, dim);
  if (c.rope_type == scaling::yarn) {
    const double s = py_factor(c);
    p.factor = f32(s);
    if (c.attention_factor)
      p.attention = *c.attention_factor;
    else if (c.mscale != 0.0 && c.mscale_all_dim != 0.0)
      p.attention = get_mscale(s, c.mscale) / get_mscale(s, c.mscale_all_dim);
    else
      p.attention = get_mscale(s, 1.0);
    const double l0 = static_cast<double>(c.original_max_position_embeddings), dd = static_cast<double>(dim);
    double low = correction_dim(c.beta_fast, dd, c.rope_theta, l0);
    double high = correction_dim(c.beta_slow, dd, c.rope_theta, l0);
    if (c.truncate) low = py_floor(low), high = py_ceil(high);
    low = low > 0 ? low : 0.0;             // max(low, 0)
    high = high < dd - 1 ? high : dd - 1;  // min(high, dim - 1)
    if (low == high) high += 0.001;        // linear_ramp_factor: prevent singularity
    p.ramp_low = f32(low);
    p.ramp_den = f32(high - low);
  }
  if (c.rope_type == scaling::longrope) {
    const double s = py_factor(c), l0 = static_cast<double>(c.original_max_position_embeddings);
    if (c.attention_factor)
      p.attention = *c.attention_factor;
    else
      p.attention = s <= 1.0 ? 1.0 : math::sqrt(1 + math::log(s) / math::log(l0));
    p.ext = (c.seq_len != 0 && c.seq_len > c.original_max_position_embeddings) ? c.long_factor.data()
                                                                               : c.short_factor.data();
  }
  if (c.rope_type == scaling::llama3) {
    const double l0 = static_cast<double>(c.original_max_position_embeddings);
    p.low_wl = f32(l0 / c.low_freq_factor);
    p.high_wl = f32(l0 / c.high_freq_factor);
    p.l0 = f32(l0);
    p.lff = f32(c.low_freq_factor);
    p.hml = f32(c.high_freq_factor - c.low_freq_factor);
    p.two_pi = f32(2 * 3.141592653589793);  // 2 * math.pi
  }
  return p;
}

// Elements of torch's float32 pow over n elements that its AVX2 kernel computes with SLEEF: the
// whole blocks of 16 (two 8-float vectors per step of vectorized_loop). The AVX-512 build has
// blocks of 32 and the same SLEEF algorithm (Sleef_powf16_u10avx512f: the same bits, checked by
// tests/sleef/test_sleef_powf.cpp); torch 1.13 picks AVX2 unless ATEN_CPU_CAPABILITY says otherwise.
constexpr std::int64_t torch_avx2_vector_body(std::int64_t n) noexcept { return n - n % 16; }

// base ** t as torch computes element j of the n-element exponent tensor (see the header): SLEEF's
// powf in the vector body; in the tail, libm's powf, for which the correctly rounded power stands in
// (glibc's powf is not correctly rounded: it differs from it on 239 of the 327,760 RoPE exponents
// of tests/sleef's grid; docs/rope-precision.md, "torch's pow").
constexpr float torch_pow(float base, float t, std::int64_t j, std::int64_t n) noexcept {
  return j < torch_avx2_vector_body(n) ? math::sleef_powf(base, t) : math::pow(base, t);
}

// inv_freq[j] (0 <= j < dim/2), following the function of p.type line by line.
constexpr float inv_freq(const params& p, std::int64_t j) noexcept {
  if (j >= p.pairs) return 0.0f;                      // proportional: torch.zeros(nope_angles)
  const float t = static_cast<float>(2 * j) / p.d;    // arange(0, dim, 2).float() / dim
  const float pw = torch_pow(p.base, t, j, p.pairs);  // base ** t, p.pairs elements
  switch (p.type) {
    case scaling::yarn: {
      const float extrap = 1.0f / pw;                               // 1.0 / pos_freqs
      const float interp = 1.0f / (p.factor * pw);                  // 1.0 / (factor * pos_freqs)
      float r = (static_cast<float>(j) - p.ramp_low) / p.ramp_den;  // (arange(n) - min) / (max - min)
      r = r < 0.0f ? 0.0f : (r > 1.0f ? 1.0f : r);                  // clamp(0, 1)
      const float w = 1.0f - r;                                     // inv_freq_extrapolation_factor
      // interp * (1 - w) + extrap * w: one rounding per op (separate statements: never contracted)
      const float a = interp * (1.0f - w);
      const float b = extrap * w;
      return a + b;
    }
    case scaling::longrope:  // 1.0 / (ext_factors * base ** shape); ext_factors =
      // torch.tensor(short_factor, dtype=torch.float32): each Python float rounded once to float32
      return 1.0f / (f32(p.ext[j]) * pw);
    case scaling::llama3: {
      const float inv = 1.0f / pw;
      const float wl = (1.0f / inv) * p.two_pi;  // 2 * math.pi / inv_freq (__rtruediv__)
      const float llama = wl > p.low_wl ? inv / p.factor : inv;
      const bool medium = !(wl < p.high_wl) && !(wl > p.low_wl);
      // hff == lff (Llama-4): torch divides by zero everywhere and masks the result, so only a
      // float32 wavelength exactly at L0 / hff keeps it: (x / 0) then gives NaN, as in torch.
      if (p.hml == 0.0f) return medium ? std::numeric_limits<float>::quiet_NaN() : llama;
      const float q = (1.0f / wl) * p.l0;              // old_context_len / wavelen (__rtruediv__)
      const float sf = (q - p.lff) / p.hml;            // (... - lff) / (hff - lff)
      const float a = (1.0f - sf) * llama / p.factor;  // (1 - sf) * inv_freq_llama / factor
      const float b = sf * llama;
      const float smoothed = a + b;
      return medium ? smoothed : llama;
    }
    case scaling::linear: return (1.0f / pw) / p.factor;  // inv_freq /= factor
    default: return (1.0f / pw) / p.factor;               // default/ntk/dynamic: factor 1 (exact);
  }                                                       // proportional: inv_freq /= factor
}

// The configs the HF policy covers: valid, and dim < 2^24 (exact as a float).
constexpr bool supported(const rope::checked_config& c) noexcept {
  return c.ok() && rope::detail::rotary_dim(c.get()) < (std::int64_t{1} << 24);
}

}  // namespace posenc::rope::detail::hf_pipeline
