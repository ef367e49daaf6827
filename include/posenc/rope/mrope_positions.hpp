// mrope_positions.hpp: the (t, h, w) position ids of a multimodal sequence, as HF's get_rope_index
// builds them for Qwen2-VL, Qwen2.5-VL and Qwen3-VL (../shared/reference/pe-formulas-more.md 1.3),
// for rope::fill_mrope_table (mrope.hpp).
//
//   const rope::mrope_segment seq[] = {{.tokens = 3},                                  // text
//                                      {.kind = rope::mrope_segment::video, .grid_t = 4,
//                                       .grid_h = 2, .grid_w = 2, .second_per_grid_t = 1.0}};
//   std::uint64_t pos[3 * 19];
//   rope::mrope_positions(seq, {.temporal = rope::mrope_temporal::seconds, .tokens_per_second = 2}, pos);
//   // text 0, 1, 2; the video t in {3, 5, 7, 9}, h and w in {3, 4}; the next text would start at 10
//
// Rules (HF Qwen2VLModel.get_rope_index and its Qwen2.5-VL / Qwen3-VL versions):
//   text run        t = h = w = the running index;
//   vision block    at s = the next start: grid (T, H, W) of LLM tokens (after the spatial merge),
//                   ordered t-major, then h, then w; h = s + row, w = s + col, and
//                   t = s + k                                  (Qwen2-VL: mrope_temporal::index),
//                   t = s + floor(k second_per_grid_t tokens_per_second)   (Qwen2.5-VL: seconds;
//                       the exact real product, truncated after it, as HF after PR #48669; some
//                       v4.5x versions truncated second_per_grid_t first, so 0.5 s gave every
//                       frame t = s);
//                   an image is T = 1; Qwen3-VL splits a video into single-frame image blocks
//                   (its timestamps are text between them), so it needs no video rule;
//   after a block   the next start is the block's largest position (over t, h, w) + 1.
// tokens_per_second: Qwen2.5-VL's released configs say 2, HF's class default is 4, so a config
// without the key gets twice the temporal step: there is no default here, seconds needs it set.
// Returns the next start position (HF's max + 1: the decoding offset rope_deltas is that minus the
// sequence length), or an error: domain_error for an empty grid, an unset or non-positive
// tokens_per_second or second_per_grid_t under seconds, out.size() != 3 x tokens, or a position
// past rope::max_table_position.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/math/detail/wide_int.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/status.hpp"

namespace posenc::rope {

struct mrope_segment {
  enum kind_t : unsigned char { text, image, video };
  kind_t kind = text;
  std::uint64_t tokens = 0;  // text: the run's length
  std::uint64_t grid_t = 1;  // vision: the LLM grid (T, H / merge, W / merge)
  std::uint64_t grid_h = 0, grid_w = 0;
  double second_per_grid_t = 0;  // video under mrope_temporal::seconds
};

enum class mrope_temporal : unsigned char { index, seconds };

struct mrope_position_rules {
  mrope_temporal temporal = mrope_temporal::index;
  double tokens_per_second = 0;  // seconds: required (released Qwen2.5-VL: 2)
};

// The number of tokens of the segments (text runs plus T H W per vision block).
constexpr std::uint64_t mrope_token_count(std::span<const mrope_segment> seq) noexcept {
  std::uint64_t n = 0;
  for (const auto& s : seq) n += s.kind == mrope_segment::text ? s.tokens : s.grid_t * s.grid_h * s.grid_w;
  return n;
}

}  // namespace posenc::rope

namespace posenc::rope::detail {

// floor(k a b) for doubles a, b > 0 and an integer k < 2^22, exactly: a = ma 2^ea, b = mb 2^eb
// with integers below 2^53, so k a b = (k ma mb) 2^(ea + eb), an integer below 2^128 shifted.
// false when the result passes 2^62 (the caller bounds positions far below that).
constexpr bool floor_product(std::uint64_t k, double a, double b, std::uint64_t& out) noexcept {
  const auto split = [](double x, std::uint64_t& m, int& e) {
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
    const int field = static_cast<int>((bits >> 52) & 0x7FF);
    m = (bits & 0xFFFFFFFFFFFFFu) | (field != 0 ? std::uint64_t{1} << 52 : 0);
    e = (field != 0 ? field : 1) - 1075;
  };
  std::uint64_t ma = 0, mb = 0;
  int ea = 0, eb = 0;
  split(a, ma, ea);
  split(b, mb, eb);
  if (k >= (std::uint64_t{1} << 22)) return false;
  const posenc::detail::u128 p = posenc::detail::mul_add2(ma, mb, 0, 0);  // < 2^106
  const posenc::detail::u128 q0 = posenc::detail::mul_add2(p.lo, k, 0, 0);
  const posenc::detail::u128 q1 = posenc::detail::mul_add2(p.hi, k, q0.hi, 0);
  std::uint64_t w0 = q0.lo, w1 = q1.lo, w2 = q1.hi;  // k ma mb, little-endian words
  int e = ea + eb;
  if (e >= 0) {
    if (w1 != 0 || w2 != 0 || e > 62 || w0 > ((std::uint64_t{1} << 62) >> e)) return false;
    out = w0 << e;
    return true;
  }
  for (int sh = -e; sh > 0;) {  // shift right, dropping the fraction: the floor
    const int t = sh < 63 ? sh : 63;
    w0 = (w0 >> t) | (w1 << (64 - t));
    w1 = (w1 >> t) | (w2 << (64 - t));
    w2 >>= t;
    sh -= t;
  }
  if (w1 != 0 || w2 != 0 || w0 > (std::uint64_t{1} << 62)) return false;
  out = w0;
  return true;
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

// Writes the stream-major positions (out[s * tokens + i]) of the segments; returns the next start.
constexpr posenc::result<std::uint64_t> mrope_positions(std::span<const mrope_segment> seq, mrope_position_rules rules,
                                                        std::span<std::uint64_t> out) noexcept {
  const std::uint64_t n = mrope_token_count(seq);
  if (n == 0 || out.size() != 3 * n) return {0, posenc::status::domain_error};
  std::uint64_t next = 0;
  std::size_t i = 0;
  const std::size_t tokens = out.size() / 3;
  const auto put = [&](std::uint64_t t, std::uint64_t h, std::uint64_t w) {
    out[i] = t;
    out[tokens + i] = h;
    out[2 * tokens + i] = w;
    ++i;
  };
  for (const auto& s : seq) {
    if (s.kind == mrope_segment::text) {
      for (std::uint64_t k = 0; k < s.tokens; ++k) put(next + k, next + k, next + k);
      next += s.tokens;
      continue;
    }
    if (s.grid_t == 0 || s.grid_h == 0 || s.grid_w == 0) return {0, posenc::status::domain_error};
    const bool seconds = s.kind == mrope_segment::video && rules.temporal == mrope_temporal::seconds;
    if (seconds && !(rules.tokens_per_second > 0 && s.second_per_grid_t > 0)) return {0, posenc::status::domain_error};
    std::uint64_t top = 0;
    for (std::uint64_t k = 0; k < s.grid_t; ++k) {
      std::uint64_t dt = k;
      if (seconds && !detail::floor_product(k, s.second_per_grid_t, rules.tokens_per_second, dt))
        return {0, posenc::status::domain_error};
      if (dt > max_table_position) return {0, posenc::status::domain_error};
      top = dt > top ? dt : top;
      for (std::uint64_t r = 0; r < s.grid_h; ++r)
        for (std::uint64_t c = 0; c < s.grid_w; ++c) put(next + dt, next + r, next + c);
    }
    top = top > s.grid_h - 1 ? top : s.grid_h - 1;
    top = top > s.grid_w - 1 ? top : s.grid_w - 1;
    next += top + 1;
    if (next > max_table_position + 1) return {0, posenc::status::domain_error};
  }
  return {next, posenc::status::ok};
}

}  // namespace posenc::rope
