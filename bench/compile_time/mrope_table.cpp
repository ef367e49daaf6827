// bench/compile_time/mrope_table.cpp: compile-time cost of a constexpr M-RoPE table against the 1D
// RoPE table of the same size (docs/performance.md section 7). 256 tokens x 64 float pairs of
// Qwen2-VL's M-RoPE (head 128, theta 1e6, [16, 24, 24]) at t = i, h = i / 2, w = i / 3, built as
//   POSENC_BENCH_VARIANT 0   scalar entries (rope::fill_mrope_pair_table without scratch)
//   POSENC_BENCH_VARIANT 1   the 1D rows of the range 0 .. 255 and a gather (with scratch)
//   POSENC_BENCH_VARIANT 2   the baseline: the 1D table of 256 consecutive rows (rope::fill_pair_table)
// Each variant is timed with /usr/bin/time in one run:
//   for v in 0 1 2; do /usr/bin/time -f "$v %e s %M KB" g++ -std=c++20 -O2
//     -fconstexpr-ops-limit=2147483647 -fconstexpr-loop-limit=2147483647 -Iinclude
//     -DPOSENC_BENCH_VARIANT=$v -c bench/compile_time/mrope_table.cpp -o /dev/null; done
// (one shell line).
#include <array>
#include <cstddef>
#include <cstdint>

#include <posenc/rope/fill.hpp>
#include <posenc/rope/mrope.hpp>

#ifndef POSENC_BENCH_VARIANT
#define POSENC_BENCH_VARIANT 1
#endif

namespace {

namespace rope = posenc::rope;
using pair_f = posenc::math::sincos_result<float>;

constexpr rope::mrope_config qwen{.text = {.head_dim = 128, .rope_theta = 1e6}, .mrope_section = {16, 24, 24}};
constexpr auto positions = [] {
  std::array<std::uint64_t, 3 * 256> p{};
  for (std::size_t i = 0; i < 256; ++i) p[i] = i, p[256 + i] = i / 2, p[512 + i] = i / 3;
  return p;
}();

constexpr auto table = [] {
  std::array<pair_f, 256 * 64> out{};
#if POSENC_BENCH_VARIANT == 0
  static_cast<void>(rope::fill_mrope_pair_table<float>(qwen, positions, out));
#elif POSENC_BENCH_VARIANT == 1
  std::array<pair_f, 256 * 64> scratch{};
  static_cast<void>(rope::fill_mrope_pair_table<float>(qwen, positions, out, scratch));
#else
  static_cast<void>(rope::fill_pair_table<float>(qwen.text, out));
#endif
  return out;
}();

static_assert(table[100].cos == table[100].cos, "the table is a constant");

}  // namespace
