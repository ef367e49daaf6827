// dinov3.hpp: DINOv3's RoPE positions: the patch-centre coordinates of an H x W grid, mapped to
// [-1, 1] (facebookresearch/dinov3 dinov3/layers/rope_position_encoding.py RopePositionEmbedding
// .forward, "separate" normalisation: coords = 2 (i + 0.5) / H - 1; HF transformers
// models/dinov3_vit/modeling_dinov3_vit.py; ../shared/reference/pe-formulas-more.md 6.2).
//
//   rope::dinov3_coord(i, n)                 RN_double((2i + 1) / n - 1), the exact value rounded once
//   rope::dinov3_positions(h, w, out)        the ND positions (axis-major: y row, then x row) of
//                                            the h x w grid's patches, row-major (meshgrid "ij")
//   rope::dinov3_config(axes, base)          {.axes_dim = axes ({D/2, D/2}), .rope_theta = base (100), turns}
//
// The angle of pair k of an axis is 2 pi coord / period_k, period_k = base^(2k / (D/2)), k < D/4:
// 2 pi coord theta_k with theta_k the RoPE frequency of an axis of dim D/2 (rope/turns.hpp). Rows
// are DINOv3's [y angles | x angles] tiled twice: fill_nd_table with layout::half_split.
// DINOv3 computes its coordinates in its rope dtype (float32 by default; arange(0.5, H) / H, then
// 2 c - 1: two roundings), so its own coordinates differ from these where those roundings move
// them (docs/rope-streams.md). The "max" and "min" normalisations divide by max(H, W) or min(H, W):
// pass that as n. Training-time shift, jitter and rescale augmentations are random and not covered.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/rope/nd.hpp"
#include "posenc/status.hpp"

namespace posenc::rope {

// (2i + 1) / n - 1 = (2i + 1 - n) / n: a quotient of two integers below 2^53, each a double
// exactly, so IEEE division rounds the exact value once (IEEE 754 5.4.1; constant evaluation
// divides the same way). 0 <= i < n < 2^52.
constexpr double dinov3_coord(std::uint64_t i, std::uint64_t n) noexcept {
  const double num = static_cast<double>(2 * i + 1) - static_cast<double>(n);  // exact: integers below 2^53
  return num / static_cast<double>(n);
}

// out[0 .. h w) = y coordinates, out[h w .. 2 h w) = x coordinates of the patches (r, c), token
// r w + c. domain_error: h or w zero or above 2^20, or out not of size 2 h w.
constexpr posenc::status dinov3_positions(std::size_t h, std::size_t w, std::span<double> out) noexcept {
  constexpr std::size_t most = std::size_t{1} << 20;
  if (h == 0 || w == 0 || h > most || w > most || out.size() != 2 * h * w) return posenc::status::domain_error;
  for (std::size_t r = 0; r < h; ++r)
    for (std::size_t c = 0; c < w; ++c) {
      out[r * w + c] = dinov3_coord(r, h);
      out[h * w + r * w + c] = dinov3_coord(c, w);
    }
  return posenc::status::ok;
}

// DINOv3's axes for a head dim D (D % 4 == 0): two axes of D/2, theta = base (100), turns. The
// axes array must outlive the config.
constexpr nd_config dinov3_config(std::span<const int> axes, double base = 100.0) noexcept {
  return {.axes_dim = axes, .rope_theta = base, .angle = angle_unit::turns};
}

}  // namespace posenc::rope
