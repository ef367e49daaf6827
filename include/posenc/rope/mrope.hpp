// mrope.hpp: M-RoPE, multimodal RoPE over three position streams t (time), h (row), w (column):
// Qwen2-VL and Qwen2.5-VL (sections), Qwen3-VL and Qwen3.5 (interleaved), correctly rounded.
//
//   constexpr rope::mrope_config qwen2vl{.text = {.head_dim = 128, .rope_theta = 1e6},
//                                        .mrope_section = {16, 24, 24}};
//   rope::fill_mrope_table<float>(qwen2vl, positions, cos, sin);  // positions: 3 x tokens, t row first
//
// Pair j (0 <= j < D/2, D = rotary_dim(text)) keeps the text config's frequency theta_j (HF: "the
// frequency index is not reset per section") and rotates by the position of one stream:
//   sections          t for j < s_t, h for j < s_t + s_h, w after (HF Qwen2VLRotaryEmbedding +
//                     apply_multimodal_rotary_pos_emb: cos split by mrope_section * 2; ggml MROPE);
//   interleaved_hf    h where j % 3 == 1 and j < 3 s_h, w where j % 3 == 2 and j < 3 s_w, t
//                     elsewhere (HF Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope; vLLM's
//                     Triton kernel is the same map);
//   interleaved_ggml  h and w as above, t where j % 3 == 0 and j < 3 s_t, and every other pair the
//                     fourth stream, which llama.cpp feeds 0 for every token (ggml IMROPE,
//                     ggml_mrope_cache_init). For Qwen3-VL's [24, 20, 20] the two maps part at
//                     pairs 61 and 62 (HF: t; ggml: position 0); for Qwen3.5's [11, 11, 10] they agree.
// (../shared/reference/pe-formulas-more.md section 1.) The entry of token i, pair j is the 1D entry
// rope::sincos<T>(text, position of token i in stream s(j), j) bit for bit (times the attention
// factor when folded), so a text token (t = h = w = p) has exactly the 1D row at p: the law of
// laws/rope/mrope_text_rows.hpp. The table's element layout is the text model's: half-split for
// Qwen-VL (rotate_half) and ggml's M-RoPE.
// Positions are stream-major, as HF's position_ids (3, seq): positions[s * tokens + i], s = 0 (t),
// 1 (h), 2 (w); each at most max_table_position (2^21). rope::mrope_positions.hpp builds them for
// text, image and video tokens (HF get_rope_index).
// Errors: domain_error with the sentence of validate(cfg) (section sum, negative section, invalid
// text config), or a table shape that does not match; in constant evaluation a compile error naming
// it (rope::invalid_rope_config / invalid_rope_table).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "posenc/math/detail/sincos_table_entry.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/stream_fill.hpp"
#include "posenc/rope/detail/table_column.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/real_position.hpp"
#include "posenc/rope/seq_len.hpp"
#include "posenc/rope/validate.hpp"
#include "posenc/status.hpp"

namespace posenc::rope {

enum class mrope_layout : unsigned char { sections, interleaved_hf, interleaved_ggml };

struct mrope_config {
  config text{};                       // the 1D RoPE of the text tokens (HF rewrites "mrope" to default)
  std::array<int, 3> mrope_section{};  // pairs of t, h, w; they sum to rotary_dim(text) / 2
  mrope_layout layout = mrope_layout::sections;
};

// The stream of pair j: 0 (t), 1 (h), 2 (w), or -1 for ggml's fourth stream (position 0).
constexpr int mrope_stream(const mrope_config& c, int j) noexcept {
  const auto& s = c.mrope_section;
  if (c.layout == mrope_layout::sections) return j < s[0] ? 0 : (j < s[0] + s[1] ? 1 : 2);
  if (j % 3 == 1 && j < 3 * s[1]) return 1;
  if (j % 3 == 2 && j < 3 * s[2]) return 2;
  if (c.layout == mrope_layout::interleaved_hf) return 0;
  return j % 3 == 0 && j < 3 * s[0] ? 0 : -1;
}

}  // namespace posenc::rope

namespace posenc::rope::detail {

constexpr rope::validation validate_mrope(const rope::mrope_config& c, bool report) noexcept {
  if (const rope::validation v = validate_config(c.text, report); !v) return v;
  for (const int s : c.mrope_section)
    if (s < 0) return bad("mrope_section entries must be non-negative", report);
  if (static_cast<std::int64_t>(c.mrope_section[0]) + c.mrope_section[1] + c.mrope_section[2] !=
      rope::rotary_dim(c.text) / 2)
    return bad("mrope_section must sum to rotary_dim / 2 (the number of pairs)", report);
  return {};
}

// The smallest and largest position a table reads: its positions, and 0 when ggml's fourth stream
// (always at position 0) has a pair. Both the fill and mrope_scratch_size take the range from here.
struct position_range {
  std::uint64_t lo = 0, hi = 0;
};
constexpr position_range mrope_position_range(const rope::mrope_config& c,
                                              std::span<const std::uint64_t> positions) noexcept {
  position_range r{~std::uint64_t{0}, 0};
  for (const std::uint64_t p : positions) r.lo = p < r.lo ? p : r.lo, r.hi = p > r.hi ? p : r.hi;
  for (int j = 0; j < rope::rotary_dim(c.text) / 2; ++j)
    if (rope::mrope_stream(c, j) < 0) r.lo = 0;
  return r;
}

// The expanded or compact table of the M-RoPE of c at the stream-major positions. With scratch
// room for the 1D table of every position from the smallest to the largest (scratch_size), the
// rows of that range come from the 1D engine's row kernels and each token's pairs are gathered from
// them; otherwise each entry is the 1D engine's scalar entry. The same bits either way: both are
// rope::sincos of the text config (fill.hpp).
template <class T>
constexpr posenc::status fill_mrope(const rope::mrope_config& given, std::span<const std::uint64_t> positions,
                                    std::size_t size, std::size_t sin_size, bool fold, table_dest<T> dest,
                                    std::span<math::sincos_result<T>> scratch = {}) noexcept {
  if (const rope::validation v = validate_mrope(given, std::is_constant_evaluated()); !v) return v.error;
  const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(given.text)), pairs = d / 2;
  const std::size_t tokens = positions.size() / 3, width = dest.pairs != nullptr ? pairs : d;
  if (positions.size() % 3 != 0 || tokens == 0)
    return table_failure("M-RoPE positions must be 3 x tokens (t, h, w rows), tokens > 0").error;
  if (size != sin_size) return table_failure("table cos and sin spans differ in size").error;
  if (size != tokens * width) return table_failure("table span size is not tokens times the row width").error;
  const position_range range_of = mrope_position_range(given, positions);
  if (range_of.hi > rope::max_table_position) return table_failure("table positions past 2^21").error;
  const std::uint64_t lo = range_of.lo, hi = range_of.hi;
  // Dynamic NTK and LongRoPE with seq_len unset: HF's max(position_ids) + 1, once for the table.
  rope::mrope_config c = given;
  if (rope::reads_seq_len(c.text) && c.text.seq_len == 0) c.text = rope::with_seq_len_of_positions(c.text, hi);
  dest.stride = width;
  const std::size_t range = static_cast<std::size_t>(hi - lo + 1);
  if (scratch.size() >= range * pairs) {
    const auto rows = scratch.first(range * pairs);
    if (const posenc::status st = rope::fill_pair_table<T>(c.text, rows, {.start = lo, .fold_attention = fold});
        st != posenc::status::ok)
      return st;
    // The gather: each pair's stream once per chunk, each token's four rows (t, h, w and
    // position 0 for ggml's fourth stream) once per token.
    constexpr std::size_t chunk = posenc::detail::sincos_table::chunk_columns;
    for (std::size_t j0 = 0; j0 < pairs; j0 += chunk) {
      const std::size_t n = pairs - j0 < chunk ? pairs - j0 : chunk;
      std::size_t stream_of[chunk] = {};  // 0: position 0 (ggml's fourth stream), 1 + s: stream s
      for (std::size_t jj = 0; jj < n; ++jj)
        stream_of[jj] = static_cast<std::size_t>(rope::mrope_stream(c, static_cast<int>(j0 + jj)) + 1);
      dest.begin_chunk(j0, n);
      for (std::size_t i = 0; i < tokens; ++i) {
        const std::size_t row[4] = {static_cast<std::size_t>(0 - lo) * pairs + j0,
                                    static_cast<std::size_t>(positions[i] - lo) * pairs + j0,
                                    static_cast<std::size_t>(positions[tokens + i] - lo) * pairs + j0,
                                    static_cast<std::size_t>(positions[2 * tokens + i] - lo) * pairs + j0};
        for (std::size_t jj = 0; jj < n; ++jj) dest.store(i, j0, jj, rows[row[stream_of[jj]] + jj]);
      }
    }
    return posenc::status::ok;
  }
  const auto plan = [&c](std::size_t j) {
    return stream_pair{&c.text, static_cast<int>(j), rope::mrope_stream(c, static_cast<int>(j))};
  };
  const auto position = [positions, tokens](int s, std::size_t i) {
    return real_position{positions[static_cast<std::size_t>(s) * tokens + i], 0, false};
  };
  return fill_streams<T>(plan, pairs, tokens, position, fold, dest);
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

// Every precondition of an M-RoPE config, as a value (static_assert(validate(cfg).ok())).
constexpr validation validate(const mrope_config& c) noexcept { return rope::detail::validate_mrope(c, false); }

// The entry of pair j for a token at (t, h, w): rope::sincos of the text config at the stream's position.
template <class T = double>
constexpr posenc::result<math::sincos_result<T>> mrope_sincos(const mrope_config& c,
                                                              const std::array<std::uint64_t, 3>& thw, int j) noexcept {
  if (!validate(c) || j < 0 || j >= rotary_dim(c.text) / 2) return {{}, posenc::status::domain_error};
  const int s = mrope_stream(c, j);
  return rope::sincos<T>(c.text, s < 0 ? 0 : thw[static_cast<std::size_t>(s)], j);
}

// Rows i < tokens (positions.size() / 3), expanded over the rotary dim in layout l:
// cos.size() == sin.size() == tokens * rotary_dim(c.text).
template <storage_type T>
constexpr posenc::status fill_mrope_table(const mrope_config& c, std::span<const std::uint64_t> positions,
                                          std::span<T> cos, std::span<T> sin, layout l = layout::half_split,
                                          bool fold_attention = false) noexcept {
  return rope::detail::fill_mrope<T>(c, positions, cos.size(), sin.size(), fold_attention,
                                     {cos.data(), sin.data(), nullptr, 0, l});
}

// Compact rows {sin, cos} per pair: out.size() == tokens * rotary_dim(c.text) / 2.
template <storage_type T>
constexpr posenc::status fill_mrope_pair_table(const mrope_config& c, std::span<const std::uint64_t> positions,
                                               std::span<math::sincos_result<T>> out,
                                               bool fold_attention = false) noexcept {
  return rope::detail::fill_mrope<T>(c, positions, out.size(), out.size(), fold_attention,
                                     {nullptr, nullptr, out.data(), 0, layout::half_split});
}

// The scratch the fast fills below use: the 1D rows of every position from the smallest to the
// largest of the table (0 with ggml's fourth stream), rotary_dim / 2 pairs each.
constexpr std::size_t mrope_scratch_size(const mrope_config& c, std::span<const std::uint64_t> positions) noexcept {
  const auto r = rope::detail::mrope_position_range(c, positions);
  if (positions.empty() || r.hi > max_table_position) return 0;
  return static_cast<std::size_t>(r.hi - r.lo + 1) * static_cast<std::size_t>(rotary_dim(c.text) / 2);
}

// The same tables, faster at run time: with scratch.size() >= mrope_scratch_size, the rows of the
// positions' range come from the 1D row kernels (a few ns an entry) and are gathered; with less,
// these are the fills above. The same bits either way.
template <storage_type T>
constexpr posenc::status fill_mrope_table(const mrope_config& c, std::span<const std::uint64_t> positions,
                                          std::span<T> cos, std::span<T> sin, std::span<math::sincos_result<T>> scratch,
                                          layout l = layout::half_split, bool fold_attention = false) noexcept {
  return rope::detail::fill_mrope<T>(c, positions, cos.size(), sin.size(), fold_attention,
                                     {cos.data(), sin.data(), nullptr, 0, l}, scratch);
}
template <storage_type T>
constexpr posenc::status fill_mrope_pair_table(const mrope_config& c, std::span<const std::uint64_t> positions,
                                               std::span<math::sincos_result<T>> out,
                                               std::span<math::sincos_result<T>> scratch,
                                               bool fold_attention = false) noexcept {
  return rope::detail::fill_mrope<T>(c, positions, out.size(), out.size(), fold_attention,
                                     {nullptr, nullptr, out.data(), 0, layout::half_split}, scratch);
}

}  // namespace posenc::rope
