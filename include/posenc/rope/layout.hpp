// layout.hpp: the two RoPE layouts of a head vector, and the permutation between them.
//
// A head of head_dim elements rotates its first rotary_dim (even) elements as rotary_dim/2 pairs;
// pair j has frequency index j in both layouts (pe-formulas.md 1.4):
//   interleaved (GPT-J, Meta's view_as_complex, ggml NORMAL): pair j = elements (2j, 2j+1)
//     (HF models/gptj/modeling_gptj.py rotate_every_two; Meta llama/model.py apply_rotary_emb);
//   half-split (GPT-NeoX, HF Llama rotate_half, ggml NEOX):   pair j = elements (j, j + rotary_dim/2)
//     (HF models/llama/modeling_llama.py rotate_half, apply_rotary_pos_emb).
// Elements at rotary_dim and above pass through (partial rotary; GPT-NeoX rotary_pct, GPT-J rotary_dim).
//
// The weight permutation: HF convert_llama_weights_to_hf.py
//   permute(w, n_heads, dim1, dim2) = w.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2)
//                                      .reshape(dim1, dim2)
// reads, for head h, t in {0, 1}, i < head_dim/2:  out[h hd + t hd/2 + i] = in[h hd + 2 i + t].
// So HF row (half-split position of pair i, component t) takes Meta row (interleaved position of
// the same pair and component). llama.cpp convert_hf_to_gguf.py LlamaModel.permute is its inverse.
// The same map turns an interleaved activation vector into a half-split one; with rotary_dim <
// head_dim it acts on the rotary block and is the identity on the rest.
//
// Convention: every permutation here is a gather, out[k] = in[source(k)].
#pragma once

#include <array>
#include <cstddef>

#include "posenc/math/sincos_result.hpp"
#include "posenc/rotary_layout.hpp"
#include "posenc/status.hpp"

namespace posenc::rope {

using layout = posenc::rotary_layout;  // interleaved, half_split (rotary_layout.hpp)

// Element index of component t (0 = x, 1 = y) of pair j in a rotary block of rotary_dim elements.
constexpr std::size_t pair_index(layout l, std::size_t j, int t, std::size_t rotary_dim) noexcept {
  return l == layout::interleaved ? 2 * j + static_cast<std::size_t>(t)
                                  : j + static_cast<std::size_t>(t) * (rotary_dim / 2);
}

// Gather source for the Meta -> HF direction (interleaved -> half-split): the interleaved row that
// lands at half-split row `row`. Rows are counted over all heads (row = h head_dim + r).
constexpr std::size_t half_split_source(std::size_t row, std::size_t head_dim, std::size_t rotary_dim) noexcept {
  const std::size_t base = row - row % head_dim, r = row % head_dim, half = rotary_dim / 2;
  if (r >= rotary_dim) return row;
  const std::size_t t = r / half, i = r % half;  // half-split position t half + i holds pair i, comp. t
  return base + 2 * i + t;
}
constexpr std::size_t half_split_source(std::size_t row, std::size_t head_dim) noexcept {
  return half_split_source(row, head_dim, head_dim);
}

// Gather source for the HF -> Meta direction (half-split -> interleaved, llama.cpp's permute).
constexpr std::size_t interleaved_source(std::size_t row, std::size_t head_dim, std::size_t rotary_dim) noexcept {
  const std::size_t base = row - row % head_dim, r = row % head_dim;
  if (r >= rotary_dim) return row;
  return base + (r % 2) * (rotary_dim / 2) + r / 2;  // interleaved position 2i + t holds pair i, comp. t
}
constexpr std::size_t interleaved_source(std::size_t row, std::size_t head_dim) noexcept {
  return interleaved_source(row, head_dim, head_dim);
}

// Preconditions shared by the permutations and the kernels: 0 < rotary_dim <= head_dim, rotary_dim even.
constexpr posenc::status check_dims(std::size_t head_dim, std::size_t rotary_dim) noexcept {
  return (rotary_dim == 0 || rotary_dim % 2 != 0 || rotary_dim > head_dim) ? posenc::status::domain_error
                                                                           : posenc::status::ok;
}

// The permutation as an array of gather sources for n_heads heads of HeadDim rows (RotaryDim rotated).
// to_half_split = true: HF's permute (Meta -> HF); false: its inverse (HF -> Meta).
template <std::size_t NHeads, std::size_t HeadDim, std::size_t RotaryDim = HeadDim>
constexpr std::array<std::size_t, NHeads * HeadDim> layout_permutation(bool to_half_split) noexcept {
  static_assert(NHeads > 0 && HeadDim > 0, "posenc: layout_permutation needs n_heads > 0 and head_dim > 0");
  static_assert(RotaryDim > 0 && RotaryDim % 2 == 0 && RotaryDim <= HeadDim,
                "posenc: rotary_dim must be even, nonzero and at most head_dim");
  std::array<std::size_t, NHeads * HeadDim> p{};
  for (std::size_t k = 0; k < p.size(); ++k)
    p[k] = to_half_split ? half_split_source(k, HeadDim, RotaryDim) : interleaved_source(k, HeadDim, RotaryDim);
  return p;
}

// One table row (rotary_dim/2 pairs) spread over the rotary block's elements in layout l: both
// elements of pair j get cos/sin of pair j (HF's cat(freqs, freqs); GPT-J's repeat_interleave(, 2)).
// The sign of rotate_half / rotate_every_two is not folded in: apply.hpp does the rotation.
template <class T>
constexpr void expand_row(layout l, const math::sincos_result<T>* row, std::size_t rotary_dim, T* cos_out,
                          T* sin_out) noexcept {
  for (std::size_t j = 0; j < rotary_dim / 2; ++j)
    for (int t = 0; t < 2; ++t) {
      cos_out[pair_index(l, j, t, rotary_dim)] = row[j].cos;
      sin_out[pair_index(l, j, t, rotary_dim)] = row[j].sin;
    }
}

// Out of place over a row-major matrix of n_heads * head_dim rows and cols columns:
// out row k = in row source(k). in and out must not overlap. T is any copyable type (copied, so
// bit patterns are kept). domain_error when the dimensions break check_dims.
template <class T>
constexpr posenc::status permute_rows(const T* in, T* out, std::size_t n_heads, std::size_t head_dim,
                                      std::size_t rotary_dim, std::size_t cols, bool to_half_split) noexcept {
  if (check_dims(head_dim, rotary_dim) != posenc::status::ok) return posenc::status::domain_error;
  const std::size_t rows = n_heads * head_dim;
  for (std::size_t k = 0; k < rows; ++k) {
    const std::size_t src =
        to_half_split ? half_split_source(k, head_dim, rotary_dim) : interleaved_source(k, head_dim, rotary_dim);
    for (std::size_t c = 0; c < cols; ++c) out[k * cols + c] = in[src * cols + c];
  }
  return posenc::status::ok;
}

}  // namespace posenc::rope

namespace posenc::detail {

// In place, no heap: follow each cycle of the permutation within one head from its smallest row
// (the cycle leader: a row is a leader iff no row of its cycle is smaller), moving one column at a
// time through a single temporary. Cost O(head_dim * cycle length) index steps per head, plus one
// move per element.
template <class T>
constexpr void permute_head_in_place(T* w, std::size_t head_dim, std::size_t rotary_dim, std::size_t cols,
                                     bool to_half_split) noexcept {
  const auto src = [&](std::size_t r) {
    return to_half_split ? rope::half_split_source(r, head_dim, rotary_dim)
                         : rope::interleaved_source(r, head_dim, rotary_dim);
  };
  for (std::size_t lead = 0; lead < rotary_dim; ++lead) {
    std::size_t r = src(lead);
    while (r > lead) r = src(r);
    if (r != lead || src(lead) == lead) continue;  // not the leader, or a fixed point
    for (std::size_t c = 0; c < cols; ++c) {
      const T first = w[lead * cols + c];
      std::size_t k = lead;
      for (std::size_t s = src(k); s != lead; k = s, s = src(s)) w[k * cols + c] = w[s * cols + c];
      w[k * cols + c] = first;
    }
  }
}

}  // namespace posenc::detail

namespace posenc::rope {

// In place version of permute_rows: same result, no extra memory.
template <class T>
constexpr posenc::status permute_rows_in_place(T* w, std::size_t n_heads, std::size_t head_dim, std::size_t rotary_dim,
                                               std::size_t cols, bool to_half_split) noexcept {
  if (check_dims(head_dim, rotary_dim) != posenc::status::ok) return posenc::status::domain_error;
  for (std::size_t h = 0; h < n_heads; ++h)
    posenc::detail::permute_head_in_place(w + h * head_dim * cols, head_dim, rotary_dim, cols, to_half_split);
  return posenc::status::ok;
}

}  // namespace posenc::rope
