// bench/compile_time/mrope_table.cpp: compile-time cost of a constexpr M-RoPE table against the 1D
// RoPE table of the same size (docs/performance.md section 7). N tokens x 64 float pairs of
// Qwen2-VL's M-RoPE (head 128, theta 1e6, [16, 24, 24]), N = POSENC_BENCH_TOKENS (a multiple of
// 64, default 256), built as
//   POSENC_BENCH_VARIANT 0   the baseline: the 1D table of N consecutive rows (rope::fill_pair_table)
//   POSENC_BENCH_VARIANT 1   get_rope_index's ids of N/4 text tokens, an (N/32) x 16 image, N/4
//                            text tokens (rope::mrope_positions): two text runs and a vision block
//   POSENC_BENCH_VARIANT 2   t = i, h = i / 2, w = i / 3: one block, each stream's own rows
//                            (N x 16 + N/2 x 24 + N/3 x 24 entries) and a gather
//   POSENC_BENCH_VARIANT 3   the same with the caller's scratch (a zeroed std::array of N x 64 pairs)
//   POSENC_BENCH_VARIANT 4   text alone (t = h = w = i): the 1D fill itself
//   POSENC_BENCH_VARIANT 5   the worst case: text with an image token every 8 tokens, so no text
//                            run is long enough to fill on its own and every stream spans the
//                            table: the 1D rows of the whole range, then a copy of every entry
// The figures that matter are per entry: the difference between N = 1024 and N = 256, which
// leaves out what a variant costs once (GCC prepares each function the evaluation calls for the
// first time; M-RoPE calls more of them). Each variant is timed with /usr/bin/time in one run:
//   for n in 256 1024; do for v in 0 1 2 3 4 5; do /usr/bin/time -f "$n $v %U s %M KB" g++ -std=c++20
//     -O2 -fconstexpr-ops-limit=2147483647 -fconstexpr-loop-limit=2147483647 -Iinclude
//     -DPOSENC_BENCH_TOKENS=$n -DPOSENC_BENCH_VARIANT=$v -c bench/compile_time/mrope_table.cpp
//     -o /dev/null; done; done
// (one shell line; Clang: clang++-16 -fconstexpr-steps=2147483647).
#include <array>
#include <cstddef>
#include <cstdint>

#include <posenc/rope/fill.hpp>
#include <posenc/rope/mrope.hpp>
#include <posenc/rope/mrope_positions.hpp>

#ifndef POSENC_BENCH_VARIANT
#define POSENC_BENCH_VARIANT 1
#endif
#ifndef POSENC_BENCH_TOKENS
#define POSENC_BENCH_TOKENS 256
#endif

namespace {

namespace rope = posenc::rope;
using pair_f = posenc::math::sincos_result<float>;

constexpr std::size_t N = POSENC_BENCH_TOKENS;
static_assert(N % 64 == 0 && N >= 64, "POSENC_BENCH_TOKENS: a multiple of 64");

constexpr rope::mrope_config qwen{.text = {.head_dim = 128, .rope_theta = 1e6}, .mrope_section = {16, 24, 24}};

constexpr auto positions = [] {
  std::array<std::uint64_t, 3 * N> p{};
#if POSENC_BENCH_VARIANT == 1
  const rope::mrope_segment seq[] = {
      {.tokens = N / 4}, {.kind = rope::mrope_segment::image, .grid_h = N / 32, .grid_w = 16}, {.tokens = N / 4}};
  static_cast<void>(rope::mrope_positions(seq, {}, p));
#else
  for (std::size_t i = 0; i < N; ++i) {
    p[i] = i, p[N + i] = i, p[2 * N + i] = i;
    if (POSENC_BENCH_VARIANT == 2 || POSENC_BENCH_VARIANT == 3) p[N + i] = i / 2, p[2 * N + i] = i / 3;
    if (POSENC_BENCH_VARIANT == 5 && i % 8 == 7) p[i] = i - 1, p[N + i] = i - 1;  // (i-1, i-1, i): an image token
  }
#endif
  return p;
}();

constexpr auto table = [] {
  std::array<pair_f, N * 64> out{};
#if POSENC_BENCH_VARIANT == 0
  static_cast<void>(rope::fill_pair_table<float>(qwen.text, out));
#elif POSENC_BENCH_VARIANT == 3
  std::array<pair_f, N * 64> scratch{};
  static_cast<void>(rope::fill_mrope_pair_table<float>(qwen, positions, out, scratch));
#else
  static_cast<void>(rope::fill_mrope_pair_table<float>(qwen, positions, out));
#endif
  return out;
}();

static_assert(table[100].cos == table[100].cos, "the table is a constant");

}  // namespace
