// bench/compile_time/posenc_table.cpp: the RoPE table of posenc_rope.cpp built by the table API.
//
// posenc::math::sincos_geometric_table<float>({10000.0, 2, 128}, 64, out) fills out[m * 64 + j] with
// sincos_geometric<float>(m, 10000.0, 2 * j, 128).value, bit for bit (docs/internals.md), but shares work across
// the table: each entry is one complex product of double anchors (angle addition) followed by the
// rounding test, and only entries that fail it call the scalar function. Same shape, same values,
// same storage size as posenc_rope.cpp; this is how a user should build a whole table.
// Built by bench/compile_time/run.sh; see docs/performance.md.
#include <array>
#include <cstddef>
#include <posenc/math/sincos_table.hpp>

#ifndef POSENC_BENCH_ROWS
#define POSENC_BENCH_ROWS 4096
#endif

namespace {

constexpr std::size_t rows = POSENC_BENCH_ROWS;
constexpr std::size_t pairs_per_row = 64;  // d = 128: j < d/2

using table_type = std::array<posenc::math::sincos_result<float>, rows * pairs_per_row>;

constexpr table_type make_table() {
  table_type t{};
  posenc::math::sincos_geometric_table<float>({10000.0, 2, 128}, pairs_per_row, std::span(t));
  return t;
}

constexpr table_type table = make_table();

}  // namespace

// Odr-uses the table so that it is emitted into the object file, as a real table would be.
const float* posenc_bench_table_data();
const float* posenc_bench_table_data() { return &table[0].sin; }
