// bench/compile_time/trivial_fill.cpp: baseline (b) of the compile-time benchmark.
//
// The cheapest constexpr table of the same shape as the RoPE table: POSENC_BENCH_ROWS rows of 64
// (cos, sin) float pairs, each float an exact multiple of 0.5 (float(i) * 0.5f, i < 2^24). It
// measures what the compiler spends on the loop, the stores and emitting the data, with no math,
// so posenc's time divided by this one is the cost of the math per entry. Same loop structure as
// posenc_rope.cpp (m outer, j inner), so both meet the same per-loop iteration limit.
// Built by bench/compile_time/run.sh; see docs/performance.md.
#include <array>
#include <cstddef>

#ifndef POSENC_BENCH_ROWS
#define POSENC_BENCH_ROWS 4096
#endif

namespace {

constexpr std::size_t rows = POSENC_BENCH_ROWS;
constexpr std::size_t pairs_per_row = 64;  // d = 128: j < d/2

struct cos_sin {
  float cos;
  float sin;
};
using table_type = std::array<cos_sin, rows * pairs_per_row>;

constexpr table_type make_table() {
  table_type t{};
  for (std::size_t m = 0; m < rows; ++m) {
    for (std::size_t j = 0; j < pairs_per_row; ++j) {
      const std::size_t i = 2 * (m * pairs_per_row + j);
      t[m * pairs_per_row + j] = {static_cast<float>(i) * 0.5f, static_cast<float>(i + 1) * 0.5f};
    }
  }
  return t;
}

constexpr table_type table = make_table();

}  // namespace

// Odr-uses the table so that it is emitted into the object file, as a real table would be.
const float* posenc_bench_table_data();
const float* posenc_bench_table_data() { return &table[0].cos; }
