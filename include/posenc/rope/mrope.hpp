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
#include "posenc/math/detail/sincos_table_rows_constexpr.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/frequency_cache.hpp"
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

// Tokens [first, first + count) of stream-major positions (positions[s * tokens + i]): the whole
// table, or one block of it (fill_mrope splits a table at its text runs).
struct mrope_tokens {
  const std::uint64_t* positions = nullptr;
  std::size_t tokens = 0, first = 0, count = 0;
  constexpr std::uint64_t at(std::size_t s, std::size_t i) const noexcept { return positions[s * tokens + first + i]; }
  // Stream s's positions of the tokens, for loops over every token: in constant evaluation a call
  // a position (at) costs GCC's evaluator about what an entry of the table does.
  constexpr const std::uint64_t* stream(std::size_t s) const noexcept { return positions + s * tokens + first; }
};
constexpr mrope_tokens all_tokens(std::span<const std::uint64_t> positions) noexcept {
  return {positions.data(), positions.size() / 3, 0, positions.size() / 3};
}

// Whether a pair reads ggml's fourth stream (position 0 for every token, whatever its t, h, w).
constexpr bool has_fourth_stream(const rope::mrope_config& c) noexcept {
  for (int j = 0; j < rope::rotary_dim(c.text) / 2; ++j)
    if (rope::mrope_stream(c, j) < 0) return true;
  return false;
}

// The smallest and largest position the tokens read: their positions, and 0 when ggml's fourth
// stream (always at position 0) has a pair.
struct position_range {
  std::uint64_t lo = 0, hi = 0;
};
constexpr position_range mrope_position_range(const rope::mrope_config& c, const mrope_tokens& tk) noexcept {
  position_range r{~std::uint64_t{0}, 0};
  for (std::size_t s = 0; s < 3; ++s) {
    const std::uint64_t* const at = tk.stream(s);
    for (std::size_t i = 0; i < tk.count; ++i) r.lo = at[i] < r.lo ? at[i] : r.lo, r.hi = at[i] > r.hi ? at[i] : r.hi;
  }
  if (has_fourth_stream(c)) r.lo = 0;
  return r;
}
constexpr position_range mrope_position_range(const rope::mrope_config& c,
                                              std::span<const std::uint64_t> positions) noexcept {
  return mrope_position_range(c, all_tokens(positions));
}

// In constant evaluation the scratch fill may compute, for each stream, only its own pairs over its
// own positions' range: slot s = 0 (t), 1 (h), 2 (w) and 3 (ggml's fourth stream, position 0
// alone). Its rows are the 1D rows lo[s] .. hi[s] of the slot's pairs (the k-th pair of the slot
// in pair order), compact, at scratch offset offset[s]. No more entries than the 1D rows of the whole range, and fewer where
// the streams' ranges differ (a vision block's h and w span its grid, t one frame).
constexpr int mrope_slot(const rope::mrope_config& c, int j) noexcept {
  const int s = rope::mrope_stream(c, j);
  return s < 0 ? 3 : s;
}
struct mrope_stream_rows {
  std::uint64_t lo[4] = {}, hi[4] = {};
  std::size_t pairs[4] = {}, offset[4] = {};
  std::size_t size = 0;  // the scratch they need; 0 when the table has no valid shape
};
constexpr mrope_stream_rows mrope_stream_plan(const rope::mrope_config& c, const mrope_tokens& tk) noexcept {
  mrope_stream_rows r{};
  const int pairs = rope::rotary_dim(c.text) / 2;
  if (tk.count == 0 || pairs <= 0) return r;
  for (std::size_t s = 0; s < 3; ++s) {
    r.lo[s] = ~std::uint64_t{0};
    const std::uint64_t* const at = tk.stream(s);
    for (std::size_t i = 0; i < tk.count; ++i)
      r.lo[s] = at[i] < r.lo[s] ? at[i] : r.lo[s], r.hi[s] = at[i] > r.hi[s] ? at[i] : r.hi[s];
    if (r.hi[s] > rope::max_table_position) return {};
  }
  for (int j = 0; j < pairs; ++j) ++r.pairs[mrope_slot(c, j)];
  std::uint64_t total = 0;
  for (std::size_t s = 0; s < 4; ++s) {
    r.offset[s] = static_cast<std::size_t>(total);
    if (r.pairs[s] != 0) total += (r.hi[s] - r.lo[s] + 1) * r.pairs[s];  // < 2^22 x 2^31: no wrap
  }
  if (total > static_cast<std::uint64_t>(~std::size_t{0})) return {};  // a 32-bit size_t cannot hold it
  r.size = static_cast<std::size_t>(total);
  return r;
}
constexpr mrope_stream_rows mrope_stream_plan(const rope::mrope_config& c,
                                              std::span<const std::uint64_t> positions) noexcept {
  if (positions.size() % 3 != 0) return {};
  return mrope_stream_plan(c, all_tokens(positions));
}

// The text run at token i: how many tokens from i have t = h = w, each one past the one before.
// Such rows are the 1D rows of those positions (the law mrope_text_rows), unless a pair reads
// ggml's fourth stream (the caller checks).
constexpr std::size_t text_run(const mrope_tokens& tk, std::size_t i) noexcept {
  const std::uint64_t *t = tk.stream(0) + i, *h = tk.stream(1) + i, *w = tk.stream(2) + i;
  std::size_t n = 0;
  while (i + n < tk.count && h[n] == t[n] && w[n] == t[n] && t[n] == t[0] + n) ++n;
  return n;
}

// A text run at least this long is filled as the 1D table it equals, straight into the table's
// rows; shorter ones stay in the block around them (each fill of rows has a fixed set-up, about
// 3 us at run time once the frequencies are cached, the gather of 16 rows' worth).
inline constexpr std::size_t mrope_min_text_run = 16;

// The 1D source (rope_source) restricted to one slot's pairs: its column k is the k-th pair of the
// slot, with that pair's frequency of the text config (the index is not reset per section).
struct mrope_slot_source {
  const rope::mrope_config* m;  // its text config already resolved (seq_len)
  int slot;
  const math::frequency_value* frequencies = nullptr;  // the text config's, evaluated once, or nullptr
  const std::size_t* pairs_of = nullptr;               // the slot's pairs in order, or nullptr: found by a pass
  constexpr int pair_of(int k) const noexcept {
    if (pairs_of != nullptr) return static_cast<int>(pairs_of[k]);
    const int pairs = rope::rotary_dim(m->text) / 2;
    for (int j = 0, seen = 0; j < pairs; ++j)
      if (mrope_slot(*m, j) == slot && seen++ == k) return j;
    return pairs;  // not reached: k < the slot's pair count
  }
  constexpr math::frequency_value frequency(int k) const noexcept {
    const int j = pair_of(k);
    return frequencies != nullptr ? frequencies[j] : rope::frequency_dd(m->text, j);
  }
  constexpr math::frequency_value frequency_accurate(int k) const noexcept {
    return rope::frequency_dd_accurate(m->text, pair_of(k));
  }
  template <class T>
  constexpr posenc::result<math::sincos_result<T>> entry(const math::frequency_value& f, const math::amplitude* af,
                                                         std::uint64_t p, int k) const noexcept {
    return sincos_with<T>(m->text, f, af, p, pair_of(k));
  }
};

// Constant evaluation, compact float rows, no folded factor: a block whose streams move by small
// steps from token to token (t = i, h = i / 2, w = i / 3; text with an image token here and there)
// is written token by token, with no rows to gather from. In GCC's evaluator a gathered entry
// (a read of the rows, a pair store) costs about three quarters of a computed one, so a block that
// is one wide gather cost up to 2x a 1D entry (docs/performance.md section 7). Here each pair keeps
// the value of its stream's position, V = cis(p theta_j): a step of d positions is d products by
// E_1 (the row walk's, sincos_table_rows_constexpr.hpp), a position that stays keeps its state
// (and the same test gives the same floats), and a jump (back, or more than mrope_walk_step_max) takes a fresh accurate anchor.
// The walk's bound after b products is walk_bounds' eb[b], as for the rows; an entry the float
// test leaves undecided is the 1D engine's scalar entry, as everywhere. The same bits as every
// other path (test_rope_streams checks them against the run-time fill).
inline constexpr std::uint64_t mrope_walk_step_max = 4;
// GCC only: in Clang's evaluator, which pays for each array read, the walk's per-pair state cost
// more than the gather it saves (t = i, h = i / 2, w = i / 3: 1.38x a 1D entry against 1.10x).
inline constexpr bool mrope_constexpr_walk = !posenc::detail::sincos_table::clang_evaluator;

// Whether the walk pays: an anchor costs each of its stream's pairs about a dozen entries, so at
// most one jump per 64 tokens in all the streams together. The same pass finds the largest
// position the block reads (the walk's bound needs it): in GCC's evaluator a pass over the
// positions costs about half an entry a token.
struct mrope_walk_plan {
  bool pays = false;
  std::uint64_t top = 0;
};
constexpr mrope_walk_plan mrope_walk_pays(const rope::mrope_config& c, const mrope_tokens& tk) noexcept {
  const int pairs = rope::rotary_dim(c.text) / 2;
  bool used[3] = {};
  for (int j = 0; j < pairs; ++j)
    if (const int s = rope::mrope_stream(c, j); s >= 0) used[s] = true;
  std::size_t jumps = 0;
  std::uint64_t top = 0;
  for (std::size_t s = 0; s < 3; ++s) {
    const std::uint64_t* const at = tk.stream(s);
    top = tk.count > 0 && at[0] > top ? at[0] : top;
    if (!used[s]) {
      for (std::size_t i = 1; i < tk.count; ++i) top = at[i] > top ? at[i] : top;
      continue;
    }
    for (std::size_t i = 1; i < tk.count; ++i) {
      jumps += at[i] < at[i - 1] || at[i] - at[i - 1] > mrope_walk_step_max;
      top = at[i] > top ? at[i] : top;
    }
  }
  return {jumps * 64 <= tk.count, top};
}

// top: the largest position of the block (mrope_walk_plan), or any larger one.
constexpr posenc::status fill_mrope_block_walk(const rope::mrope_config& c, const mrope_tokens& tk, std::uint64_t top,
                                               math::sincos_result<float>* out, std::size_t stride,
                                               const math::frequency_value* theta) noexcept {
  namespace st = posenc::detail::sincos_table;
  const std::size_t pairs = static_cast<std::size_t>(rope::rotary_dim(c.text)) / 2;  // <= constexpr_columns_max
  math::frequency_value f[st::constexpr_columns_max] = {};
  double c1[st::constexpr_columns_max] = {}, s1[st::constexpr_columns_max] = {};
  double vc[st::constexpr_columns_max] = {}, vs[st::constexpr_columns_max] = {};
  bool slow[st::constexpr_columns_max] = {}, any_slow = false;
  // Runs of consecutive pairs that read one stream (a section is one run; an interleaved map, runs
  // of one): the stream's values for the token are read into locals once a run, not once a pair.
  std::size_t run_stream[st::constexpr_columns_max] = {}, run_end[st::constexpr_columns_max] = {}, runs = 0;
  std::size_t pair_slot[st::constexpr_columns_max] = {};  // the stream of each pair (3: ggml's fourth)
  bool has_run[4] = {};
  double eb[st::constexpr_block_max] = {};
  st::walk_bounds(eb, st::constexpr_block_max);
  const std::uint64_t* const at[3] = {tk.stream(0), tk.stream(1), tk.stream(2)};
  const double end = static_cast<double>(top + 1);
  double ferr = 0;
  for (std::size_t j = 0; j < pairs; ++j) {
    f[j] = theta != nullptr ? theta[j] : rope::frequency_dd(c.text, static_cast<int>(j));
    if (!f[j].ok()) return f[j].error;
    const auto s = static_cast<std::size_t>(mrope_slot(c, static_cast<int>(j)));
    pair_slot[j] = s, has_run[s] = true;
    if (runs == 0 || run_stream[runs - 1] != s) run_stream[runs++] = s;
    run_end[runs - 1] = j + 1;
    slow[j] = f[j].value.hi == 0 || !st::cis_anchor(1, f[j].value, c1[j], s1[j]);
    any_slow = any_slow || slow[j];
    const double fe = end * st::dabs(f[j].value.hi) * (f[j].rel_err * 1.0000001);
    ferr = fe > ferr ? fe : ferr;
  }
  posenc::status status = posenc::status::ok;
  const rope_source text{&c.text};  // an undecided entry: the 1D engine's scalar entry (undecided_entry)
  // The streams the pairs read, and per stream: its position now, products since its anchor, this
  // token's products, whether it jumped, its bound.
  std::size_t used[4] = {}, n_used = 0;
  for (std::size_t s = 0; s < 4; ++s)
    if (has_run[s]) used[n_used++] = s;
  std::uint64_t cur[4] = {}, steps[4] = {}, walked[4] = {};
  bool anchor[4] = {};
  double bound[4] = {};
  // A run of text tokens (every stream one past the previous token's position): each such token's
  // row is one loop over all the pairs, as a 1D row is, and the streams' positions and products
  // since their anchors are brought up to date after it (lag tokens late), not once a token: in
  // GCC's evaluator that bookkeeping, done for each stream, cost about four entries a token.
  // The test takes the largest of the streams' bounds (eb grows with the products; a larger bound
  // only leaves more entries to the scalar path, and a decided entry is correctly rounded either way).
  const std::uint64_t* by_stream[3] = {};  // the used streams' positions, ggml's fourth excluded
  std::size_t n_moving = 0;
  for (std::size_t u = 0; u < n_used; ++u)
    if (used[u] < 3) by_stream[n_moving++] = at[used[u]];
  const bool all_move = !has_run[3];  // ggml's fourth stream never moves
  std::uint64_t lag = 0, most_steps = 0;
  // Locals assigned, not declared, an entry (Clang allocates each declaration:
  // sincos_table_rows_constexpr.hpp).
  double cs = 0, sn = 0, t = 0, k1 = 0, k2 = 0, e = 0;
  float sv = 0, cv = 0;
  bool one_step = false;
  for (std::size_t i = 0; i < tk.count; ++i) {
    math::sincos_result<float>* const row = out + i * stride;
    one_step = all_move && !any_slow && i > 0 && most_steps + lag + 1 < st::constexpr_block_max;
    for (std::size_t u = 0; u < n_moving && one_step; ++u) one_step = by_stream[u][i] == by_stream[u][i - 1] + 1;
    if (one_step) {
      ++lag;
      e = (eb[most_steps + lag] + ferr) * (1 + 0x1p-50);
      math::sincos_result<float>* q = row;
      for (std::size_t j = 0; j < pairs; ++j, ++q) {
        cs = vc[j] * c1[j] - vs[j] * s1[j];
        sn = vs[j] * c1[j] + vc[j] * s1[j];
        vc[j] = cs, vs[j] = sn;
        sv = static_cast<float>(sn - e), cv = static_cast<float>(cs - e);
        if (sv != static_cast<float>(sn + e) || cv != static_cast<float>(cs + e)) {
          *q = st::undecided_entry(text, f[j], cur[pair_slot[j]] + lag, j, status);
        } else {
          q->sin = sv, q->cos = cv;  // two scalar stores, not a braced pair
        }
      }
      continue;
    }
    most_steps = 0;
    for (std::size_t u = 0; u < n_used; ++u) {
      const std::size_t s = used[u];
      cur[s] += lag, steps[s] += lag;  // the text run's tokens
      const std::uint64_t to = s == 3 ? 0 : at[s][i];
      const std::uint64_t d = to - cur[s];  // wraps when to < cur[s]: then a jump
      anchor[s] = i == 0 || to < cur[s] || d > mrope_walk_step_max || steps[s] + d >= st::constexpr_block_max;
      walked[s] = anchor[s] ? 0 : d;
      steps[s] = anchor[s] ? 0 : steps[s] + d;
      cur[s] = to;
      bound[s] = (eb[steps[s]] + ferr) * (1 + 0x1p-50);
      most_steps = steps[s] > most_steps ? steps[s] : most_steps;
    }
    lag = 0;
    for (std::size_t r = 0, j = 0; r < runs; ++r) {
      const std::size_t s = run_stream[r], stop = run_end[r];
      const std::uint64_t p = cur[s], w = walked[s];
      e = bound[s];
      math::sincos_result<float>* q = row + j;
      if (p == 0) {  // cis(0), exact: a walk may start here
        for (; j < stop; ++j, ++q) vc[j] = 1.0, vs[j] = 0.0, q->sin = 0.0f, q->cos = 1.0f;
        continue;
      }
      if (w == 0 && !anchor[s]) {
        // The stream stays: the same state, bound and test as the previous token's, so the same
        // floats (an undecided entry: the same scalar entry). Copied, two scalar stores.
        for (const math::sincos_result<float>* u = q - stride; j < stop; ++j, ++q, ++u)
          q->sin = u->sin, q->cos = u->cos;
        continue;
      }
      if (w == 1 && !any_slow) {  // the common step, the row walk's loop as it is
        for (; j < stop; ++j, ++q) {
          cs = vc[j] * c1[j] - vs[j] * s1[j];
          sn = vs[j] * c1[j] + vc[j] * s1[j];
          vc[j] = cs, vs[j] = sn;
          sv = static_cast<float>(sn - e), cv = static_cast<float>(cs - e);
          if (sv != static_cast<float>(sn + e) || cv != static_cast<float>(cs + e)) {
            *q = st::undecided_entry(text, f[j], p, j, status);
          } else {
            q->sin = sv, q->cos = cv;
          }
        }
        continue;
      }
      if (anchor[s])
        for (std::size_t k = j; k < stop; ++k)
          if (!slow[k] && !st::cis_anchor(p, f[k].value, vc[k], vs[k])) slow[k] = any_slow = true;
      // An anchor (no product), or a step of w products by E_1.
      for (; j < stop; ++j, ++q) {
        cs = vc[j], sn = vs[j], k1 = c1[j], k2 = s1[j];
        for (std::uint64_t k = 0; k < w; ++k) t = cs * k1 - sn * k2, sn = sn * k1 + cs * k2, cs = t;
        vc[j] = cs, vs[j] = sn;
        sv = static_cast<float>(sn - e), cv = static_cast<float>(cs - e);
        if (slow[j] || sv != static_cast<float>(sn + e) || cv != static_cast<float>(cs + e)) {
          *q = st::undecided_entry(text, f[j], p, j, status);
        } else {
          q->sin = sv, q->cos = cv;  // two scalar stores, not a braced pair
        }
      }
    }
  }
  return status;
}

// Constant evaluation on Clang, compact float rows, no folded factor, sections (each stream's pairs
// consecutive, no fourth stream): when each stream's positions never go back from token to token
// (t = i, h = i / 2, w = i / 3; text with an image token here and there), each stream's pairs are
// the 1D rows of its range, and the row kernel (sincos_table_rows_constexpr.hpp) writes them
// straight into the rows of the tokens at that position through mrope_stream_sink: the first
// such token's row in place, the others copied from it; at a position no token holds the walk
// steps on with no test and no store (skips_unread_rows). No rows to gather from: in Clang's evaluator, which pays for each element read and
// written, a gathered entry cost half a computed one, so a block that was one wide gather cost
// up to 1.6x a 1D entry. (GCC walks the block instead: its evaluator inserts a store that lands
// before stored elements in time linear in what follows, and a stream's columns written over all
// the tokens, then the next stream's, land so.)
inline constexpr bool mrope_constexpr_direct = posenc::detail::sincos_table::clang_evaluator;

struct mrope_stream_sink {
  const std::uint64_t* at = nullptr;          // the stream's position of each token, never going back
  std::size_t count = 0;                      // tokens
  std::uint64_t lo = 0;                       // the position of row 0
  math::sincos_result<float>* out = nullptr;  // token 0's row, at the stream's first pair
  std::size_t stride = 0;
  std::size_t next = 0, done = 0;                  // the first token at or past the row last asked for, last ended
  static constexpr bool skips_unread_rows = true;  // a position no token holds: row_pairs is null

  constexpr void begin_chunk(std::size_t, std::size_t) noexcept { next = done = 0; }
  constexpr math::sincos_result<float>* row_pairs(std::size_t i, std::size_t j0, std::size_t) noexcept {
    const std::uint64_t p = lo + i;
    while (next < count && at[next] < p) ++next;
    return next < count && at[next] == p ? out + next * stride + j0 : nullptr;
  }
  // Row i's pairs [j0, j0 + n) are written at its first token: the other tokens at its position.
  constexpr void end_row(std::size_t i, std::size_t j0, std::size_t n) noexcept {
    const std::uint64_t p = lo + i;
    while (done < count && at[done] < p) ++done;
    if (done == count || at[done] != p) return;
    const math::sincos_result<float>* const from = out + done * stride + j0;
    for (std::size_t k = done + 1; k < count && at[k] == p; ++k) {
      math::sincos_result<float>* const to = out + k * stride + j0;
      for (std::size_t j = 0; j < n; ++j) to[j] = from[j];  // one struct copy: fewer evaluator steps than two floats
    }
  }
  // The engine's entry-by-entry path (not taken: a null row_pairs is a skipped row).
  constexpr void store(std::size_t i, std::size_t j0, std::size_t j, const math::sincos_result<float>& r) noexcept {
    const std::uint64_t p = lo + i;
    for (std::size_t k = 0; k < count; ++k)
      if (at[k] == p) out[k * stride + j0 + j] = r;
  }
};

// Whether the direct path applies and computes no more entries than the block has: each stream's
// rows over its range, and the tokens hold them all (a stream that skips positions computes rows
// no token reads).
constexpr bool mrope_direct_pays(const rope::mrope_config& c, const mrope_tokens& tk,
                                 const mrope_stream_rows& plan) noexcept {
  const std::size_t pairs = static_cast<std::size_t>(rope::rotary_dim(c.text)) / 2;
  if (plan.size == 0 || plan.pairs[3] != 0 || plan.size > tk.count * pairs) return false;
  for (std::size_t j = 1; j < pairs; ++j)  // t's pairs, then h's, then w's (sections; not an interleaved map)
    if (mrope_slot(c, static_cast<int>(j)) < mrope_slot(c, static_cast<int>(j - 1))) return false;
  for (std::size_t s = 0; s < 3; ++s) {
    if (plan.pairs[s] == 0) continue;
    const std::uint64_t* const at = tk.stream(s);
    for (std::size_t i = 1; i < tk.count; ++i)
      if (at[i] < at[i - 1]) return false;
  }
  return true;
}

constexpr posenc::status fill_mrope_block_direct(const rope::mrope_config& c, const mrope_tokens& tk,
                                                 const mrope_stream_rows& plan, math::sincos_result<float>* out,
                                                 std::size_t stride, const math::frequency_value* theta) noexcept {
  // Sections: t, h, w in order. A stream whose positions are the next one's (t and h of text
  // tokens) is filled with it, one fill of both sections' pairs: each fill has a cost a row.
  for (std::size_t s = 0, first = 0; s < 3;) {
    std::size_t width = plan.pairs[s], s_end = s + 1;
    for (; s_end < 3 && plan.pairs[s_end] != 0; ++s_end) {
      const std::uint64_t *const a = tk.stream(s), *const b = tk.stream(s_end);
      std::size_t i = 0;
      while (i < tk.count && a[i] == b[i]) ++i;
      if (i < tk.count) break;
      width += plan.pairs[s_end];
    }
    if (width != 0) {
      std::size_t column[posenc::detail::sincos_table::constexpr_columns_max] = {};
      for (std::size_t k = 0; k < width; ++k) column[k] = first + k;
      mrope_stream_sink sink{
          .at = tk.stream(s), .count = tk.count, .lo = plan.lo[s], .out = out + first, .stride = stride};
      const mrope_slot_source src{&c, static_cast<int>(s), theta, column};  // column: the pairs of the fill
      if (const posenc::status st = posenc::detail::sincos_table::fill_rows<float>(
              src, plan.lo[s], static_cast<std::size_t>(plan.hi[s] - plan.lo[s] + 1), width, nullptr, nullptr, sink);
          st != posenc::status::ok)
        return st;
    }
    first += width, s = s_end;
  }
  return posenc::status::ok;
}

// The rows of a block of tokens (dest: the block's first row, stride set). With scratch room for
// the 1D rows of the block's positions' range, the rows come from the 1D engine's row kernels and
// each token's pairs are gathered from them; otherwise, at run time, each stream's rows come in
// windows of a stack buffer (stream_fill.hpp), and where those do not pay each entry is the 1D
// engine's scalar entry (in constant evaluation the fill makes the room, when the rows are worth
// it). The same bits every way: all are rope::sincos of the text config (fill.hpp).
template <class T>
constexpr posenc::status fill_mrope_block(const rope::mrope_config& c, const mrope_tokens& tk, bool fold,
                                          table_dest<T> dest, std::span<math::sincos_result<T>> scratch,
                                          const math::frequency_value* theta) noexcept {
  const std::size_t pairs = static_cast<std::size_t>(rope::rotary_dim(c.text)) / 2;
  // Every pair rotates (no proportional pairs of frequency 0): the per-stream paths need it.
  bool all_rotate = static_cast<std::size_t>(rope::detail::rotating_pairs(c.text)) ==
                    pairs;  // not const: a const bool's initialiser would be tried as a constant expression
  // Constant evaluation, compact float rows, no folded factor: GCC's walk or Clang's direct rows,
  // where they pay.
  if constexpr (std::is_same_v<T, float>)
    if (std::is_constant_evaluated() && !fold && dest.pairs != nullptr &&
        pairs <= posenc::detail::sincos_table::constexpr_columns_max && all_rotate) {
      if (mrope_constexpr_walk)
        if (const mrope_walk_plan walk = mrope_walk_pays(c, tk); walk.pays)
          return fill_mrope_block_walk(c, tk, walk.top, dest.pairs, dest.stride, theta);
      if (mrope_constexpr_direct)
        if (const mrope_stream_rows plan = mrope_stream_plan(c, tk); mrope_direct_pays(c, tk, plan))
          return fill_mrope_block_direct(c, tk, plan, dest.pairs, dest.stride, theta);
    }
  const position_range range_of = mrope_position_range(c, tk);
  // Scratch: the 1D rows of the whole range, one fill of every pair (the row kernels are fastest
  // over all the pairs at once), or in constant evaluation each stream's own pairs over its own
  // range when those are fewer entries (there an entry's copy from scratch costs a third of its
  // evaluation, so fewer evaluated entries pay; at run time three narrower fills were slower).
  const std::uint64_t lo = range_of.lo;
  const std::size_t full = static_cast<std::size_t>(range_of.hi - lo + 1) * pairs;
  // The per-stream plan only in constant evaluation: at run time it would be a pass over the
  // positions whose result no branch reads.
  mrope_stream_rows by_stream{};
  bool per_stream = false;  // not a const bool: its initialiser would be tried as a constant expression
  if (std::is_constant_evaluated()) {
    by_stream = mrope_stream_plan(c, tk);
    per_stream = by_stream.size != 0 && by_stream.size < full && all_rotate;
  }
  const std::size_t need = per_stream ? by_stream.size : full;
  if (__builtin_is_constant_evaluated()) {  // the builtin alone: see rows_worth_allocating
    if (scratch.size() < need && rows_worth_allocating(need, tk.count * pairs)) {
      math::sincos_result<T>* const own = new math::sincos_result<T>[need];
      const posenc::status st = fill_mrope_block<T>(c, tk, fold, dest, {own, need}, theta);
      delete[] own;
      return st;
    }
  }
  if (scratch.size() >= need) {
    // Slot s's row at position p is scratch[base[s] + (p - first[s]) * wide[s]], column column_of.
    std::uint64_t first[4] = {lo, lo, lo, lo};
    std::size_t base[4] = {}, wide[4] = {pairs, pairs, pairs, pairs};
    if (per_stream) {
      const attention_value af = fold ? attention_dd(c.text) : attention_value{};
      for (std::size_t s = 0; s < 4; ++s) {
        first[s] = by_stream.lo[s], base[s] = by_stream.offset[s], wide[s] = by_stream.pairs[s];
        if (wide[s] == 0) continue;
        table_dest<T> rows{nullptr, nullptr, scratch.data() + base[s], wide[s], layout::half_split};
        const posenc::status st = posenc::detail::sincos_table::fill_rows<T>(
            mrope_slot_source{&c, static_cast<int>(s), theta}, first[s],
            static_cast<std::size_t>(by_stream.hi[s] - first[s] + 1), wide[s], nullptr, fold ? &af : nullptr, rows);
        // Clang's diagnostic quotes the source line of the call, so the sentence stays on that line.
        // clang-format off
        if (st == posenc::status::overflow)
          rope::folded_entry_overflows_table_type("attention_factor * cos or * sin exceeds the largest finite value of the table's type");
        // clang-format on
        if (st != posenc::status::ok) return st;
      }
    } else if (const posenc::status st =
                   fill<T>(c.text, {.start = lo,
                                    .size = full,
                                    .sin_size = full,
                                    .fold = fold,
                                    .dest = {nullptr, nullptr, scratch.data(), 0, layout::half_split},
                                    .frequencies = theta});
               st != posenc::status::ok) {
      return st;
    }
    // The gather: each pair's slot and column once per chunk, each token's four rows once per token
    // (slot 3, ggml's fourth stream, always reads position 0). The chunk's pairs are grouped in runs
    // of one slot and consecutive columns (a section is one run; an interleaved map, runs of one), so
    // a compact row is copied run by run, one index a run: in constant evaluation every read of a
    // per-pair index costs about what the copy itself does.
    constexpr std::size_t chunk = posenc::detail::sincos_table::chunk_columns;
    std::size_t seen[4] = {};  // per stream: pairs of the slot before the chunk
    for (std::size_t j0 = 0; j0 < pairs; j0 += chunk) {
      const std::size_t n = pairs - j0 < chunk ? pairs - j0 : chunk;
      std::size_t slot_of[chunk] = {}, column_of[chunk] = {};
      std::size_t runs = 0, run_end[chunk] = {};  // run r: pairs [run_end[r - 1], run_end[r]) of the chunk
      for (std::size_t jj = 0; jj < n; ++jj) {
        slot_of[jj] = static_cast<std::size_t>(mrope_slot(c, static_cast<int>(j0 + jj)));
        column_of[jj] = per_stream ? seen[slot_of[jj]]++ : j0 + jj;
        if (jj > 0 && (slot_of[jj] != slot_of[jj - 1] || column_of[jj] != column_of[jj - 1] + 1)) run_end[runs++] = jj;
      }
      run_end[runs++] = n;
      dest.begin_chunk(j0, n);
      const math::sincos_result<T>* const from = scratch.data();
      const std::uint64_t* const at[3] = {tk.stream(0), tk.stream(1), tk.stream(2)};
      for (std::size_t i = 0; i < tk.count; ++i) {
        std::size_t row[4] = {0, 0, 0, base[3] + static_cast<std::size_t>(0 - first[3]) * wide[3]};
        for (std::size_t s = 0; s < 3; ++s) row[s] = base[s] + static_cast<std::size_t>(at[s][i] - first[s]) * wide[s];
        if (dest.pairs != nullptr) {
          math::sincos_result<T>* const to = dest.pairs + i * dest.stride + j0;
          for (std::size_t r = 0, jj = 0; r < runs; ++r) {
            const std::size_t end = run_end[r];
            for (std::size_t k = row[slot_of[jj]] + column_of[jj]; jj < end; ++jj, ++k) to[jj] = from[k];
          }
        } else {
          for (std::size_t jj = 0; jj < n; ++jj) dest.store(i, j0, jj, from[row[slot_of[jj]] + column_of[jj]]);
        }
      }
    }
    return posenc::status::ok;
  }
  // At run time with too little scratch: each stream's own pairs over its own range, in windows of a
  // stack buffer (stream_fill.hpp), when the windows pay for every stream; else the scalar entries.
  // (pairs <= chunk_columns: the sink's element offsets are set for one chunk of the row.)
  if (!std::is_constant_evaluated() && pairs <= posenc::detail::sincos_table::chunk_columns && all_rotate) {
    const mrope_stream_rows plan = mrope_stream_plan(c, tk);
    bool windows = plan.size != 0;
    for (std::size_t s = 0; s < 4 && windows; ++s)
      windows = plan.pairs[s] == 0 || stream_windows_pay<T>(plan.lo[s], plan.hi[s], plan.pairs[s], tk.count);
    if (windows) {
      const attention_value af = fold ? attention_dd(c.text) : attention_value{};
      dest.begin_chunk(0, pairs);
      for (std::size_t s = 0; s < 4; ++s) {
        const std::size_t wide = plan.pairs[s];
        if (wide == 0) continue;
        std::size_t column[posenc::detail::sincos_table::chunk_columns] = {};
        for (std::size_t j = 0, k = 0; j < pairs; ++j)
          if (static_cast<std::size_t>(mrope_slot(c, static_cast<int>(j))) == s) column[k++] = j;
        const mrope_slot_source src{&c, static_cast<int>(s), theta, column};
        const auto fill_window = [&](std::uint64_t p0, std::size_t rows, math::sincos_result<T>* buffer) {
          table_dest<T> to{nullptr, nullptr, buffer, wide, layout::half_split};
          return posenc::detail::sincos_table::fill_rows<T>(src, p0, rows, wide, nullptr, fold ? &af : nullptr, to);
        };
        const auto position_of = [&tk, s](std::size_t i) { return s == 3 ? std::uint64_t{0} : tk.at(s, i); };
        if (const posenc::status st = fill_stream_windows<T>(plan.lo[s], plan.hi[s], wide, tk.count, fill_window,
                                                             position_of, column, 0, dest);
            st != posenc::status::ok)
          return st;
      }
      return posenc::status::ok;
    }
  }
  const auto plan = [&c](std::size_t j) {
    return stream_pair{&c.text, static_cast<int>(j), rope::mrope_stream(c, static_cast<int>(j))};
  };
  const auto position = [&tk](int s, std::size_t i) {
    return real_position{tk.at(static_cast<std::size_t>(s), i), 0, false};
  };
  return fill_streams<T>(plan, pairs, tk.count, position, fold, dest);
}

// The expanded or compact table of the M-RoPE of c at the stream-major positions. Its text runs
// (t = h = w, consecutive, at least mrope_min_text_run tokens; none when a pair reads ggml's fourth
// stream) are filled as the 1D tables they equal, straight into their rows; the blocks between them
// (vision tokens, short text runs) by fill_mrope_block. The text config's frequencies are evaluated
// once for all of those fills.
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
  const mrope_tokens all = all_tokens(positions);
  const position_range range_of = mrope_position_range(given, all);
  if (range_of.hi > rope::max_table_position) return table_failure("table positions past 2^21").error;
  // Dynamic NTK and LongRoPE with seq_len unset: HF's max(position_ids) + 1, once for the table.
  rope::mrope_config c = given;
  if (rope::reads_seq_len(c.text) && c.text.seq_len == 0) c.text = rope::with_seq_len_of_positions(c.text, range_of.hi);
  const bool text_runs = !has_fourth_stream(c);
  // Text alone: the table is the 1D table of those rows (the law mrope_text_rows), filled as one, so
  // it costs what that table costs at compile time and at run time, with or without scratch.
  if (text_runs && text_run(all, 0) == tokens)
    return fill<T>(c.text, {.start = positions[0], .size = size, .sin_size = sin_size, .fold = fold, .dest = dest});
  dest.stride = width;
  const frequency_cache theta = cache_frequencies(c.text);
  for (std::size_t i = 0; i < tokens;) {
    std::size_t run = text_runs ? text_run(all, i) : 0;
    if (run >= mrope_min_text_run) {
      const std::size_t n = run * width;
      if (const posenc::status st = fill<T>(c.text, {.start = all.at(0, i),
                                                     .size = n,
                                                     .sin_size = n,
                                                     .fold = fold,
                                                     .dest = rows_from(dest, i, width),
                                                     .frequencies = theta.get()});
          st != posenc::status::ok)
        return st;
      i += run;
      continue;
    }
    // A block: from i up to the next long text run (short runs are skipped whole, so each token is
    // looked at once or twice).
    const std::size_t a = i;
    for (i += run > 0 ? run : 1; i<tokens; i += run> 0 ? run : 1) {
      run = text_runs ? text_run(all, i) : 0;
      if (run >= mrope_min_text_run) break;
    }
    if (const posenc::status st = fill_mrope_block<T>(c, {positions.data(), tokens, a, i - a}, fold,
                                                      rows_from(dest, a, width), scratch, theta.get());
        st != posenc::status::ok)
      return st;
  }
  return posenc::status::ok;
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
// cos.size() == sin.size() == tokens * rotary_dim(c.text). Text runs (t = h = w, consecutive, 16
// tokens or more; none when a pair reads ggml's fourth stream) are filled as the 1D rows they
// equal, through the row kernels. At run time the other tokens' entries are gathered from 1D rows
// filled window by window in an 8 KiB stack buffer (about 1 ns an entry; the scalar entries, a few
// dozen ns each, where the windows would not pay: positions far apart, rows wider than 128 pairs);
// in constant evaluation they are gathered from rows the fill allocates for the evaluation, or,
// for compact float blocks whose streams move by small steps, walked token by token (GCC) or
// written from each stream's rows straight into the tokens' rows (Clang). posenc allocates
// nothing at run time. The same bits every way.
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
// largest of the table (0 with ggml's fourth stream), rotary_dim / 2 pairs each; enough for every
// block of the table (the tokens between its text runs take only their own range's rows). 0 for
// positions of no valid shape.
constexpr std::size_t mrope_scratch_size(const mrope_config& c, std::span<const std::uint64_t> positions) noexcept {
  const auto r = rope::detail::mrope_position_range(c, positions);
  if (positions.empty() || positions.size() % 3 != 0 || r.hi > max_table_position) return 0;
  return static_cast<std::size_t>(r.hi - r.lo + 1) * static_cast<std::size_t>(rotary_dim(c.text) / 2);
}

// The scratch of each stream's own pairs over its own positions' range (ggml's fourth stream: one
// row at position 0): at most mrope_scratch_size, and as much as a constant-evaluated fill uses
// (it needs none: without it, it allocates what it uses for the evaluation).
constexpr std::size_t mrope_stream_scratch_size(const mrope_config& c,
                                                std::span<const std::uint64_t> positions) noexcept {
  return rope::detail::mrope_stream_plan(c, positions).size;
}

// The same tables, faster at run time: with scratch.size() >= mrope_scratch_size, the entries
// outside text runs are gathered from the 1D rows of their block's range, which come from the row
// kernels (a few ns an entry) in one fill a block; a block whose rows do not fit takes the stack
// windows of the overloads above. The same bits every way.
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
