// rope_remap.cpp: ReRoPE, Leaky ReRoPE and StreamingLLM positions, proved by compiling
// (static_assert walls; docs/rope-remap.md).
//  1. the maps: ReRoPE's min(i - j, w), Leaky's exact (k w + rel - w) / k (the references'
//     definitions at the published defaults w = 512, k = 16), and their laws;
//  2. Leaky's decode row w + k t is bit for bit the plain RoPE row w + t: both hold RN of
//     cos/sin((w + t) theta_j), one as row k (w + t) of the table scaled by k (correct rounding makes
//     the two routes agree; a float32 pipeline that rounds p / k and p theta would not promise it);
//  3. the score laws on constexpr tables, and a mutant each fails;
//  4. StreamingLLM's kept tokens and cache positions (kv_cache.py's [0, S) + [n - R, n)).
#include <array>
#include <cstdint>

#include <posenc/laws/require.hpp>
#include <posenc/laws/rope/relative_map.hpp>
#include <posenc/laws/rope/remapped_scores.hpp>
#include <posenc/laws/rope/table_view.hpp>
#include <posenc/rope/leaky_rerope.hpp>
#include <posenc/rope/rerope.hpp>
#include <posenc/rope/streaming_cache.hpp>
#include <posenc/rope/table.hpp>

namespace {

namespace rope = posenc::rope;
namespace laws = posenc::laws;

constexpr rope::config cfg{.head_dim = 8, .rope_theta = 10000.0};

// 1.
constexpr rope::rerope_config rerope512{};
static_assert(rope::rerope_relative_position(rerope512, 4000, 3700).value == 300, "inside the window: i - j");
static_assert(rope::rerope_relative_position(rerope512, 4000, 3488).value == 512, "rel = w: w");
static_assert(rope::rerope_relative_position(rerope512, 4000, 0).value == 512, "past the window: w");
constexpr rope::leaky_rerope_config leaky512{};
constexpr auto past = rope::leaky_rerope_relative_position(leaky512, 1000, 0).value;
static_assert(past.position == 16 * 512 + 488 && past.divisor == 16, "rel 1000: 512 + 488/16 = 542.5");
static_assert(past.value() == 542.5);
static_assert(rope::leaky_rerope_relative_position(leaky512, 511, 0).value.divisor == 1, "rel < w: plain");

constexpr auto leaky_map = [](std::uint64_t rel) {
  return rope::leaky_rerope_relative_position(rope::leaky_rerope_config{.window = 8, .scaling_factor = 3}, rel, 0)
      .value;
};
static_assert(laws::relative_map_window(leaky_map, 8, 64).holds, "leaky: rel' = rel up to w");
static_assert(laws::relative_map_monotone(leaky_map, 64, true).holds, "leaky: strictly increasing");
static_assert(laws::relative_map_slope(leaky_map, 8, 64, 3, 1).holds, "leaky: slope 1/k past w");
constexpr auto rerope_map = [](std::uint64_t rel) {
  return rope::remapped_position{rope::rerope_relative_position(rope::rerope_config{.window = 8}, rel, 0).value, 1};
};
static_assert(laws::relative_map_slope(rerope_map, 8, 64, 1, 0).holds, "rerope: constant past w");
static_assert(!laws::relative_map_monotone(rerope_map, 64, true).holds, "rerope: not strictly increasing");

// 2. w = 4, k = 3: decode rows 4 + 3t against plain rows 4 + t.
constexpr rope::leaky_rerope_config small{.window = 4, .scaling_factor = 3};
constexpr auto decode = [] {
  std::array<float, 20 * 8> c{}, s{};
  static_cast<void>(rope::fill_leaky_rerope_table<float>(cfg, small, c, s));
  return std::array<std::array<float, 20 * 8>, 2>{c, s};
}();
constexpr auto plain12 = rope::make_table<float, 12, 8>(cfg);
static_assert(plain12.ok());
constexpr bool leaky_rows_are_plain_rows() {
  for (std::size_t t = 0; 4 + 3 * t < 20; ++t)
    for (std::size_t k = 0; k < 8; ++k)
      if (decode[0][(4 + 3 * t) * 8 + k] != plain12.value.cos[(4 + t) * 8 + k] ||
          decode[1][(4 + 3 * t) * 8 + k] != plain12.value.sin[(4 + t) * 8 + k])
        return false;
  return true;
}
static_assert(leaky_rows_are_plain_rows(), "leaky decode row w + k t = plain row w + t, bit for bit");

// 3. ReRoPE: plain rows 0 .. 11, decode rows 0 .. w = 4.
constexpr auto rerope_decode = rope::make_rerope_table<float, 4, 8>(cfg);
static_assert(rerope_decode.ok());
static_assert(laws::require(laws::rerope_scores(laws::view(plain12.value), laws::view(rerope_decode.value), 4)),
              "ReRoPE: prefill score = q^T R_-min(i-j,w) k");
constexpr auto rerope_decode_late = rope::make_table<float, 5, 8>(cfg, {.start = 1});
static_assert(!laws::rerope_scores(laws::view(plain12.value), laws::view(rerope_decode_late.value), 4).holds,
              "a decode table one row late fails");
// Leaky: plain rows 0 .. 11, scaled rows 0 .. 11 + 4 (3 - 1), decode rows 0 .. 11.
constexpr auto scaled_cfg = rope::leaky_rerope_scaled_config(cfg, small);
static_assert(scaled_cfg.ok() && scaled_cfg.value.factor == 3.0);
constexpr auto scaled20 = rope::make_table<float, 20, 8>(scaled_cfg.value);
constexpr laws::span_table<float> decode_view{decode[0], decode[1], 8, posenc::rotary_layout::half_split, 0};
static_assert(laws::require(laws::leaky_rerope_scores(laws::view(plain12.value), laws::view(scaled20.value),
                                                      decode_view, 4, 3)),
              "Leaky ReRoPE: prefill score = q^T R_-rel' k");
static_assert(!laws::leaky_rerope_scores(laws::view(plain12.value), laws::view(plain12.value), decode_view, 4, 3).holds,
              "the plain table in place of the scaled one fails");

// 4. S = 2, R = 4, token 9: the cache of 9 tokens keeps 0, 1 and 5 .. 8, then 9 at slot 6.
constexpr rope::streaming_cache_config stream{.start_size = 2, .recent_size = 4};
constexpr auto step9 = rope::make_streaming_table<float, 7, 8>(cfg, stream, 9);
static_assert(step9.ok());
static_assert(step9.value.token == std::array<std::uint64_t, 7>{0, 1, 5, 6, 7, 8, 9}, "kept tokens");
static_assert(step9.value.rows.position == std::array<std::uint32_t, 7>{0, 1, 2, 3, 4, 5, 6}, "cache positions");
static_assert(rope::streaming_attention_step(stream, 9).value.query_position == 6, "query at the cache length");
constexpr auto first7 = rope::make_table<float, 7, 8>(cfg);
static_assert(laws::require(laws::streaming_scores(laws::view(step9.value.rows), laws::view(first7.value))),
              "StreamingLLM: scores = q^T R_-(slot difference) k");
constexpr std::array<std::uint64_t, 7> text_positions{0, 1, 5, 6, 7, 8, 9};
constexpr auto text_rows = rope::make_table<float, 7, 8>(cfg, text_positions);
static_assert(!laws::streaming_scores(laws::view(text_rows.value), laws::view(first7.value)).holds,
              "keys rotated at their text positions fail");

}  // namespace
