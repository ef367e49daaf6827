// bench/compile_time/remap_table.cpp: compile-time cost of the position-remapping tables of issue 22
// against the 1D RoPE table of the same size (docs/performance.md section 7). N rows x 64 float
// pairs of Llama-3's RoPE (head 128, theta 500000), N = POSENC_BENCH_ROWS (a multiple of 64, at
// least 1024, default 1024), built as
//   POSENC_BENCH_VARIANT 0   the baseline: the 1D table of N consecutive rows (rope::fill_pair_table)
//   POSENC_BENCH_VARIANT 1   Leaky ReRoPE's decode table, w 512, k 16 (plain rows 0 .. 511, then the
//                            k-scaled rows from 8192: two 1D fills)
//   POSENC_BENCH_VARIANT 2   StreamingLLM's rows of a step whose cache holds N slots (4 sinks and
//                            N - 5 recent tokens, plus the new one): the position list of the cache
//                            slots 0 .. N - 1, through rope::fill_pair_table with positions
//   POSENC_BENCH_VARIANT 4   the same step as the fixed-size table, rope::make_streaming_table<float,
//                            N, 128> (expanded: cos and sin [N][128], the slots' tokens)
//   POSENC_BENCH_VARIANT 5   the baseline of variant 4: rope::make_table<float, N, 128>
//   POSENC_BENCH_VARIANT 3   Llama-4's attention temperature at N x 128 positions (as many floats as
//                            the 1D table holds; one value a position, each step evaluated once)
// Per entry is the difference between two sizes (what a variant costs once drops out). Each
// variant timed with /usr/bin/time in one run:
//   for n in 1024 3072; do for v in 0 1 2 3 4 5; do /usr/bin/time -f "$n $v %U s" g++ -std=c++20 -O2
//     -fconstexpr-ops-limit=2147483647 -fconstexpr-loop-limit=2147483647 -Iinclude
//     -DPOSENC_BENCH_ROWS=$n -DPOSENC_BENCH_VARIANT=$v -c bench/compile_time/remap_table.cpp
//     -o /dev/null; done; done
// (one shell line; Clang: clang++-16 -fconstexpr-steps=2147483647).
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include <posenc/attn_temperature.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/leaky_rerope.hpp>
#include <posenc/rope/streaming_cache.hpp>

#ifndef POSENC_BENCH_VARIANT
#define POSENC_BENCH_VARIANT 1
#endif
#ifndef POSENC_BENCH_ROWS
#define POSENC_BENCH_ROWS 1024
#endif

namespace {

namespace rope = posenc::rope;
using pair_f = posenc::math::sincos_result<float>;

constexpr std::size_t N = POSENC_BENCH_ROWS;
static_assert(N % 64 == 0 && N >= 1024, "POSENC_BENCH_ROWS: a multiple of 64, at least 1024 (Leaky's window)");

[[maybe_unused]] constexpr rope::config llama{.head_dim = 128, .rope_theta = 500000.0};

#if POSENC_BENCH_VARIANT == 4
constexpr auto table = [] {
  const rope::checked_streaming_cache_config cache{rope::streaming_cache_config{.start_size = 4, .recent_size = N - 5}};
  return rope::make_streaming_table<float, N, 128>(llama, cache, 100000).value.rows.cos;
}();
static_assert(table[100] == table[100], "the table is a constant");
#elif POSENC_BENCH_VARIANT == 5
constexpr auto table = rope::make_table<float, N, 128>(llama).value.cos;
static_assert(table[100] == table[100], "the table is a constant");
#elif POSENC_BENCH_VARIANT == 3
constexpr auto table = [] {
  std::array<float, N * 128> out{};
  const posenc::attn_temperature::checked_config temp{posenc::attn_temperature::config{}};
  static_cast<void>(posenc::attn_temperature::fill_scales<float>(temp, 0, std::span<float>(out)));
  return out;
}();
static_assert(table[100] == table[100], "the table is a constant");
#else
constexpr auto table = [] {
  std::array<pair_f, N * 64> out{};
#if POSENC_BENCH_VARIANT == 0
  static_cast<void>(rope::fill_pair_table<float>(llama, out));
#elif POSENC_BENCH_VARIANT == 1
  const rope::checked_leaky_rerope_config leaky{rope::leaky_rerope_config{.window = 512, .scaling_factor = 16}};
  static_cast<void>(rope::fill_leaky_rerope_pair_table<float>(llama, leaky, out));
#else
  const rope::checked_streaming_cache_config cache{rope::streaming_cache_config{.start_size = 4, .recent_size = N - 5}};
  std::array<std::uint64_t, N> token{}, slot{};
  static_cast<void>(rope::streaming_step_slots(cache, 100000, token, slot));
  static_cast<void>(rope::fill_pair_table<float>(llama, slot, out));
#endif
  return out;
}();

static_assert(table[100].cos == table[100].cos, "the table is a constant");
#endif

}  // namespace
