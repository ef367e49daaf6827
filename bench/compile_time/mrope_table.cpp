// bench/compile_time/mrope_table.cpp: compile-time cost of a constexpr M-RoPE table against the 1D
// RoPE table of the same size (docs/performance.md section 7). 256 tokens x 64 float pairs of
// Qwen2-VL's M-RoPE (head 128, theta 1e6, [16, 24, 24]) at t = i, h = i / 2, w = i / 3, built as
//   POSENC_BENCH_VARIANT 0   scalar entries (rope::fill_mrope_pair_table without scratch)
//   POSENC_BENCH_VARIANT 1   with scratch: each stream's rows (t 256 x 16 pairs, h 128 x 24,
//                            w 86 x 24) and a gather
//   POSENC_BENCH_VARIANT 2   the baseline: the 1D table of 256 consecutive rows (rope::fill_pair_table)
//   POSENC_BENCH_VARIANT 3   with scratch, 256 text tokens (t = h = w = i): the 1D fill itself
//   POSENC_BENCH_VARIANT 4   with scratch, 255 text tokens and one image token (254, 254, 255): the
//                            worst case, every stream's range as long as the table, so the 1D rows
//                            of the range and a copy of every entry
// Each variant is timed with /usr/bin/time in one run:
//   for v in 0 1 2 3 4; do /usr/bin/time -f "$v %U s %M KB" g++ -std=c++20 -O2
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

constexpr auto text_then_image = [](bool image) {
  std::array<std::uint64_t, 3 * 256> p{};
  for (std::size_t i = 0; i < 256; ++i) p[i] = i, p[256 + i] = i, p[512 + i] = i;
  if (image) p[255] = 254, p[511] = 254, p[767] = 255;
  return p;
};

constexpr auto table = [] {
  std::array<pair_f, 256 * 64> out{};
#if POSENC_BENCH_VARIANT == 0
  static_cast<void>(rope::fill_mrope_pair_table<float>(qwen, positions, out));
#elif POSENC_BENCH_VARIANT == 1
  std::array<pair_f, 256 * 64> scratch{};
  static_cast<void>(rope::fill_mrope_pair_table<float>(qwen, positions, out, scratch));
#elif POSENC_BENCH_VARIANT == 3 || POSENC_BENCH_VARIANT == 4
  std::array<pair_f, 256 * 64> scratch{};
  static_cast<void>(rope::fill_mrope_pair_table<float>(qwen, text_then_image(POSENC_BENCH_VARIANT == 4), out, scratch));
#else
  static_cast<void>(rope::fill_pair_table<float>(qwen.text, out));
#endif
  return out;
}();

static_assert(table[100].cos == table[100].cos, "the table is a constant");

}  // namespace
