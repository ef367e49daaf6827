// bench/compile_time/posenc_rope.cpp: the measured table of the compile-time benchmark.
//
// POSENC_BENCH_ROWS rows (positions m) of 64 (cos, sin) float pairs, entry (m, j) being
// posenc::math::sincos_geometric<float>(m, 10000.0, 2 * j, 128).value: cos and sin of the exact real
// m * 10000^(-2j/128), each rounded once to float (docs/internals.md). 4096 x 64 is the size the
// issue asks for (a Llama-style d = 128 head, 4096 positions). Compiles on GCC 12 and Clang 16.
// Built by bench/compile_time/run.sh; see docs/performance.md.
#include <array>
#include <cstddef>
#include <cstdint>
#include <posenc/math/sincos_table.hpp>

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
      const posenc::math::sincos_result<float> r =
          posenc::math::sincos_geometric<float>(static_cast<std::uint64_t>(m), 10000.0, 2 * (static_cast<int>(j)), 128)
              .value;
      t[m * pairs_per_row + j] = {r.cos, r.sin};
    }
  }
  return t;
}

constexpr table_type table = make_table();

}  // namespace

// Odr-uses the table so that it is emitted into the object file, as a real table would be.
const float* posenc_bench_table_data();
const float* posenc_bench_table_data() { return &table[0].cos; }
