// bench/compile_time/nd_table.cpp: compile-time cost of a constexpr ND axial RoPE table against
// the 1D RoPE table of the same size (docs/performance.md section 7). N tokens x 64 float pairs,
// N = POSENC_BENCH_TOKENS (a multiple of 64, default 256), built as
//   POSENC_BENCH_VARIANT 0   the baseline: the 1D table of N consecutive rows (head 128, theta 1e4)
//   POSENC_BENCH_VARIANT 1   FLUX.1 ([16, 56, 56], theta 1e4): a 16 x (3N/64) latent grid at
//                            (0, row, col) and N/4 text tokens at (0, 0, 0): each axis's 1D rows
//                            over its range, then a gather
//   POSENC_BENCH_VARIANT 2   EVA-02-like fractional positions (two axes of 32 pairs at i / 2 and
//                            i / 4): grid positions (rope/nd.hpp, grid_axis), so each axis's 1D
//                            rows at n = i with frequencies / 2 and / 4, then a gather (scalar
//                            entries until 2026-11-29)
//   POSENC_BENCH_VARIANT 3   a list baseline: the 1D table at the position list 3 i
//                            (rope::fill_pair_table with positions: scalar entries)
//   POSENC_BENCH_VARIANT 4   EVA-02 at pt / ft = 2 / 3 and a 0.1 pitch, off any grid (i / 24 * 16
//                            and i * 0.1 in doubles): near a progression (rope/nd.hpp,
//                            near_grid_axis), so each axis's rows at step h theta_k, then a gather
//   POSENC_BENCH_VARIANT 5   EVA-02 at pt / ft = 2 / 3 on its grid: (N/16) x 16 tokens at
//                            (r / 24 * 16, c / 24 * 16), each axis's rows read by many tokens
//   POSENC_BENCH_VARIANT 6   the tables variant 2 is made of: two 1D tables of 32 pairs, N rows
//                            each (head 64, linear factors 2 and 4: the axes' grid configs)
//   POSENC_BENCH_VARIANT 7   the tables variant 4 is made of: two one-axis ND tables of 32 pairs
//                            at its axes' positions (the 1D table at real positions)
//   POSENC_BENCH_VARIANT 8   two axes of 32 pairs at i and 3 i / 4 (n = i and 3 i on the grid of
//                            quarters): rows at different steps, each axis a progression
// Variants 2 and 4 give every token its own row on both axes (no model's shape): against 6 and 7
// they show what the ND fill adds to its axes' fills; 6 and 7 against 0 show what the axes' shorter
// rows (and, for 7, positions off any grid) cost the 1D tables themselves.
// Per entry is the difference between N = 1024 and N = 256 (what a variant costs once, GCC's
// first evaluation of each function, drops out). Each variant timed with /usr/bin/time in one run:
//   for n in 256 1024; do for v in 0 1 2 3 4 5 6 7 8; do /usr/bin/time -f "$n $v %U s %M KB" g++ -std=c++20 -O2
//     -fconstexpr-ops-limit=2147483647 -fconstexpr-loop-limit=2147483647 -Iinclude
//     -DPOSENC_BENCH_TOKENS=$n -DPOSENC_BENCH_VARIANT=$v -c bench/compile_time/nd_table.cpp
//     -o /dev/null; done; done
// (one shell line; Clang: clang++-16 -fconstexpr-steps=2147483647).
#include <array>
#include <cstddef>
#include <cstdint>

#include <posenc/rope/fill.hpp>
#include <posenc/rope/nd.hpp>

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

constexpr int flux_axes[] = {16, 56, 56};
constexpr int eva_axes[] = {64, 64};
[[maybe_unused]] constexpr rope::nd_config flux{.axes_dim = flux_axes, .rope_theta = 10000.0};
[[maybe_unused]] constexpr rope::nd_config eva{.axes_dim = eva_axes, .rope_theta = 10000.0};
constexpr int half_axes[] = {64};
[[maybe_unused]] constexpr rope::nd_config half{.axes_dim = half_axes, .rope_theta = 10000.0};

// Axis-major positions: FLUX's grid then its text tokens, or EVA-02's fractions.
[[maybe_unused]] constexpr auto positions = [] {
  std::array<double, 3 * N> p{};
  constexpr std::size_t grid = 3 * N / 4, cols = grid / 16;
  for (std::size_t i = 0; i < N; ++i) {
    if (POSENC_BENCH_VARIANT == 2 || POSENC_BENCH_VARIANT == 6) {
      p[i] = static_cast<double>(i) / 2, p[N + i] = static_cast<double>(i) / 4;
    } else if (POSENC_BENCH_VARIANT == 4 || POSENC_BENCH_VARIANT == 7) {
      p[i] = static_cast<double>(i) / 24 * 16, p[N + i] = static_cast<double>(i) * 0.1;
    } else if (POSENC_BENCH_VARIANT == 8) {
      p[i] = static_cast<double>(i), p[N + i] = static_cast<double>(i) * 3 / 4;
    } else if (POSENC_BENCH_VARIANT == 5) {
      p[i] = static_cast<double>(i / 16) / 24 * 16, p[N + i] = static_cast<double>(i % 16) / 24 * 16;
    } else if (i < grid) {
      p[N + i] = static_cast<double>(i / cols), p[2 * N + i] = static_cast<double>(i % cols);
    }
  }
  return p;
}();

[[maybe_unused]] constexpr auto list = [] {
  std::array<std::uint64_t, N> p{};
  for (std::size_t i = 0; i < N; ++i) p[i] = 3 * i;
  return p;
}();

constexpr auto table = [] {
  std::array<pair_f, N * 64> out{};
#if POSENC_BENCH_VARIANT == 0
  static_cast<void>(rope::fill_pair_table<float>(rope::config{.head_dim = 128, .rope_theta = 10000.0}, out));
#elif POSENC_BENCH_VARIANT == 1
  static_cast<void>(rope::fill_nd_pair_table<float>(flux, positions, out));
#elif POSENC_BENCH_VARIANT == 2 || POSENC_BENCH_VARIANT == 4 || POSENC_BENCH_VARIANT == 5 || POSENC_BENCH_VARIANT == 8
  static_cast<void>(rope::fill_nd_pair_table<float>(eva, std::span(positions).first(2 * N), out));
#elif POSENC_BENCH_VARIANT == 6
  for (std::size_t a = 0; a < 2; ++a)
    static_cast<void>(rope::fill_pair_table<float>(
        rope::config{
            .head_dim = 64, .rope_theta = 10000.0, .rope_type = rope::scaling::linear, .factor = a == 0 ? 2.0 : 4.0},
        std::span(out).subspan(a * N * 32, N * 32)));
#elif POSENC_BENCH_VARIANT == 7
  for (std::size_t a = 0; a < 2; ++a)
    static_cast<void>(rope::fill_nd_pair_table<float>(half, std::span(positions).subspan(a * N, N),
                                                      std::span(out).subspan(a * N * 32, N * 32)));
#else
  static_cast<void>(rope::fill_pair_table<float>(rope::config{.head_dim = 128, .rope_theta = 10000.0}, list, out));
#endif
  return out;
}();

static_assert(table[100].cos == table[100].cos, "the table is a constant");

}  // namespace
