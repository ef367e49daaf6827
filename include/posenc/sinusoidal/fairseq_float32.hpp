// fairseq_float32.hpp: RUN-TIME ONLY. fairseq's float32 sinusoidal pipeline as a named policy,
// calling the C library's expf, sinf and cosf as fairseq's torch ops call their float32 kernels.
// posenc's own tables (table.hpp) are exact: sin and cos of the exact angle, rounded once; this
// header is for users who must match fairseq's bits. docs/sinusoidal.md section 4 measures the drift.
// Not included by posenc/sinusoidal.hpp: the core stays libm-free and constexpr; include this header
// by name (it needs <cmath> and is not constexpr).
//
// Source: facebookresearch/fairseq fairseq/modules/sinusoidal_positional_embedding.py,
// SinusoidalPositionalEmbedding.get_embedding(num_embeddings, embedding_dim, padding_idx):
//   half_dim = embedding_dim // 2
//   emb = math.log(10000) / (half_dim - 1)                   a Python double (C log)
//   emb = torch.exp(torch.arange(half_dim, dtype=torch.float) * -emb)
//                                    freq_i = expf(float(i) * f32(-emb))   (the Python scalar meets a
//                                    float32 tensor: converted to float32 first, one product, expf)
//   emb = torch.arange(num_embeddings, dtype=torch.float).unsqueeze(1) * emb.unsqueeze(0)
//                                    angle = float(r) * freq_i             (one float32 product)
//   emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=1)              [sinf | cosf]
//   if embedding_dim % 2 == 1: a zero column is appended
//   if padding_idx is not None: emb[padding_idx, :] = 0
// Rows are table rows r (positions): fairseq's make_positions numbers tokens from padding_idx + 1.
// The config must be sinusoidal::exponent::fairseq with layout::concat (fairseq's); `base` replaces
// fairseq's hard-coded 10000 (tensor2tensor's max_timescale), through math.log(base).
//
// What "bit for bit" means here: every float32 step is one IEEE binary32 rounding (as torch's CPU
// kernels do; build with -ffp-contract=off, which posenc::posenc sets, so no product is fused), and
// expf/sinf/cosf are this platform's libm (glibc here). torch's CPU exp/sin/cos on float32 tensors
// are its own vectorised kernels (Sleef u10 on AVX2/AVX-512 builds, 1 ulp), not glibc: where they
// round differently from the libm, a torch run differs from this policy (and an exp difference moves
// the angle, so it can show as several ulps of sin/cos at large positions). Equality with torch is
// not claimed; equality with the transliteration of fairseq's code on this libm is tested.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "posenc/sinusoidal/config.hpp"
#include "posenc/sinusoidal/validate.hpp"
#include "posenc/status.hpp"

namespace posenc::sinusoidal {

struct fairseq_float32_policy {};
inline constexpr fairseq_float32_policy fairseq_float32{};

// fairseq's float32 frequencies, out[i] = expf(float(i) * f32(-log(base) / (d/2 - 1))), i < d/2.
inline posenc::status frequency_row(fairseq_float32_policy, const checked_config& cc, std::span<float> out) {
  const config& c = cc.get();
  if (!cc.ok() || c.exponent != exponent::fairseq || out.size() != static_cast<std::size_t>(c.dim / 2))
    return posenc::status::domain_error;
  const double emb = std::log(c.base) / static_cast<double>(c.dim / 2 - 1);
  const auto neg = static_cast<float>(-emb);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = std::exp(static_cast<float>(i) * neg);
  return posenc::status::ok;
}

// Rows first_row, first_row + 1, ... of fairseq's weight table (d = cfg.dim floats each; out.size()
// a multiple of d); row padding_idx, if given and in range, is zero. Rows below 2^24 (float(r) exact,
// as torch.arange(dtype=float) gives them). domain_error otherwise.
inline posenc::status fill_table(fairseq_float32_policy p, const checked_config& cc, std::span<float> out,
                                 std::int64_t first_row = 0, std::optional<std::int64_t> padding_idx = std::nullopt) {
  const config& c = cc.get();
  if (!cc.ok() || c.exponent != exponent::fairseq || c.layout != layout::concat) return posenc::status::domain_error;
  const auto d = static_cast<std::size_t>(c.dim), half = d / 2;
  if (out.size() % d != 0 || first_row < 0) return posenc::status::domain_error;
  const std::size_t rows = out.size() / d;
  if (static_cast<std::uint64_t>(first_row) + rows > (std::uint64_t{1} << 24)) return posenc::status::domain_error;
  std::vector<float> freq(half);
  if (const auto e = frequency_row(p, cc, freq); e != posenc::status::ok) return e;
  for (std::size_t r = 0; r < rows; ++r) {
    const std::int64_t pos = first_row + static_cast<std::int64_t>(r);
    float* row = out.data() + r * d;
    if (padding_idx && *padding_idx == pos) {
      for (std::size_t k = 0; k < d; ++k) row[k] = 0.0f;
      continue;
    }
    const auto pf = static_cast<float>(pos);
    for (std::size_t i = 0; i < half; ++i) {
      const float a = pf * freq[i];
      row[i] = std::sin(a);
      row[half + i] = std::cos(a);
    }
    if (d % 2 != 0) row[d - 1] = 0.0f;
  }
  return posenc::status::ok;
}

}  // namespace posenc::sinusoidal
