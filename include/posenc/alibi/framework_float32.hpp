// framework_float32.hpp: RUN-TIME ONLY. Named float32 ALiBi policies. posenc's own slopes and
// biases are exact (slopes.hpp, bias.hpp: the real value rounded once); these reproduce, operation by
// operation in IEEE binary32 with this platform's libm pow, what BLOOM (HF transformers) and ggml
// compute, for users who must match a model served with them. docs/alibi.md section 5 measures their
// drift from the exact values. Not included by posenc/alibi.hpp (the core stays libm-free and
// constexpr): include this header by name.
//
//   posenc::alibi::bloom_float32   HF models/bloom/modeling_bloom.py build_alibi_tensor (max_bias 8 only):
//     c     = 2 ** math.floor(math.log2(n))
//     base  = f32(2 ** (-(2 ** -(math.log2(c) - 3))))        Python double pow (C pow), then float32
//     slope = powf(base, float(h + 1))                         torch.pow(base, arange(1, 1 + c, int32)), h < c
//     extra = f32(2 ** (-(2 ** -(math.log2(2c) - 3))))         the heads past c:
//     slope = powf(extra, float(2 (h - c) + 1))                torch.pow(extra_base, arange(1, 1 + 2 r, 2))
//     bias  = slope * float(j)                                 slopes[..., None] * arange_tensor (int64 ->
//                                                              float32, one product), j the key's index
//   posenc::alibi::ggml_float32    ggml-cpu ops.cpp ggml_compute_forward_soft_max_f32 (and flash-attn ext):
//     n_head_log2 = 1u << floor(log2(n_head))
//     m0    = powf(2.0f, -(max_bias) / n_head_log2)            float division by the unsigned count
//     m1    = powf(2.0f, -(max_bias / 2.0f) / n_head_log2)
//     slope = h < n_head_log2 ? powf(m0, h + 1) : powf(m1, 2 (h - n_head_log2) + 1)
//     bias  = slope * float(-|i - j|)                          slope * mask value (llama.cpp's KQ mask)
//
// Why run time, with libm, and not constexpr with posenc::math::pow: glibc 2.36's powf is not
// correctly rounded, and on these very arguments it misrounds 374 of the 131,584 ggml slopes of head
// counts 1..256 at max_bias 8, 16, 0.5 and 8.5 (MPFR sides with posenc::math::pow on every one), and
// BLOOM's slopes likewise. A correctly rounded policy would then not be what ggml (or torch's scalar
// std::pow path) computes on the same machine; calling std::pow is. So the policies equal the
// frameworks' code run on this libm, bit for bit (tests/test_scheme_policies.cpp checks it against a
// transliteration). They do not claim torch's bits: torch.pow on a float32 tensor uses its own
// vectorised pow (Sleef_powf_u10 on AVX2 builds) for full vectors (16 or more heads here) and
// std::pow for the rest, and CUDA's powf is within 2 ulp; neither was available to compare.
// Not modelled: ggml adds slope * mask to the scaled score (`wp[i] += slope * mp[i]`, which a
// compiler may fuse into an FMA); an F16 KQ mask rounds the distance to fp16 first (exact up to
// 2048); BLOOM's `.to(dtype)` cast to bfloat16/float16 and its left-padding positions
// (cumsum(mask) - 1: pass the key's position as j). Build with -ffp-contract=off (posenc::posenc
// sets it) so no product is fused.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/alibi/slopes.hpp"
#include "posenc/alibi/validate.hpp"
#include "posenc/status.hpp"

namespace posenc::alibi {

struct bloom_float32_policy {};
struct ggml_float32_policy {};
inline constexpr bloom_float32_policy bloom_float32{};
inline constexpr ggml_float32_policy ggml_float32{};

}  // namespace posenc::alibi

namespace posenc::alibi::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// Python: 2 ** (-(2 ** -(math.log2(g) - 3))) for a power of two g: the inner power is 8 / g
// exactly (2.0 ** integer, exact in any pow), the outer one C's pow(double); torch.tensor(...,
// float32) rounds it.
inline float bloom_base(int g) { return static_cast<float>(std::pow(2.0, -8.0 / g)); }

}  // namespace posenc::alibi::detail

namespace posenc::alibi {

// BLOOM's float32 slope of head h; domain_error unless max_bias is 8 (BLOOM hard-codes it) and
// 0 <= h < heads.
inline posenc::result<float> slope(bloom_float32_policy, const checked_config& cc, int h) {
  const config& c = cc.get();
  if (!cc.ok() || c.max_bias != 8.0 || h < 0 || h >= c.heads) return {0.0f, posenc::status::domain_error};
  const int g = power_group(c.heads);
  if (h < g) return {std::pow(alibi::detail::bloom_base(g), static_cast<float>(h + 1)), posenc::status::ok};
  return {std::pow(alibi::detail::bloom_base(2 * g), static_cast<float>(2 * (h - g) + 1)), posenc::status::ok};
}

// ggml's float32 slope of head h (max_bias as the float32 GGUF stores); domain_error for a head
// outside [0, heads).
inline posenc::result<float> slope(ggml_float32_policy, const checked_config& cc, int h) {
  const config& c = cc.get();
  if (!cc.ok() || h < 0 || h >= c.heads) return {0.0f, posenc::status::domain_error};
  const auto n_head_log2 = static_cast<std::uint32_t>(power_group(c.heads));
  const auto max_bias = static_cast<float>(c.max_bias);
  const auto hu = static_cast<std::uint32_t>(h);
  if (hu < n_head_log2) {
    const float m0 = std::pow(2.0f, -(max_bias) / static_cast<float>(n_head_log2));
    return {std::pow(m0, static_cast<float>(hu + 1)), posenc::status::ok};
  }
  const float m1 = std::pow(2.0f, -(max_bias / 2.0f) / static_cast<float>(n_head_log2));
  return {std::pow(m1, static_cast<float>(2 * (hu - n_head_log2) + 1)), posenc::status::ok};
}

// Every head's slope under a policy into out (out.size() == heads).
template <class Policy>
posenc::status fill_slopes(Policy p, const checked_config& cc, std::span<float> out) {
  if (!cc.ok() || out.size() != static_cast<std::size_t>(cc.get().heads)) return posenc::status::domain_error;
  for (std::size_t h = 0; h < out.size(); ++h) {
    const posenc::result<float> s = slope(p, cc, static_cast<int>(h));
    if (!s.ok()) return s.error;
    out[h] = s.value;
  }
  return posenc::status::ok;
}

// BLOOM's alibi row of head h: out[j] = slope * float(first_key + j), the (1, seq_length) row
// build_alibi_tensor gives every query (positive: softmax is shift-invariant per row, so
// slope * j equals -slope * (i - j) up to a per-row constant). Keys below 2^53.
inline posenc::status fill_bias_row(bloom_float32_policy p, const checked_config& cc, int h, std::span<float> out,
                                    std::uint64_t first_key = 0) {
  const posenc::result<float> s = slope(p, cc, h);
  if (!s.ok() || first_key + out.size() >= (std::uint64_t{1} << 53)) return posenc::status::domain_error;
  for (std::size_t j = 0; j < out.size(); ++j) out[j] = s.value * static_cast<float>(first_key + j);
  return posenc::status::ok;
}

// ggml's bias by distance: out[k] = slope * float(-k) (llama.cpp's mask holds -|p0 - p1|, converted
// from int: +0 at k = 0), the layout of alibi::fill_bias_by_distance. Distances below 2^31 (int32
// positions).
inline posenc::status fill_bias_by_distance(ggml_float32_policy p, const checked_config& cc, int h,
                                            std::span<float> out) {
  const posenc::result<float> s = slope(p, cc, h);
  if (!s.ok() || out.size() > (std::size_t{1} << 31)) return posenc::status::domain_error;
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = s.value * static_cast<float>(-static_cast<std::int64_t>(k));
  return posenc::status::ok;
}

}  // namespace posenc::alibi
