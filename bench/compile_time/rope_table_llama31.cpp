// bench/compile_time/rope_table_llama31.cpp: compile time and compiler memory of a constexpr
// Llama-3.1-8B RoPE table (llama3 scaling, factor 8, theta 500000, head_dim 128), built by
// posenc::rope::make_table: POSENC_BENCH_ROWS positions x 128 (half-split, HF's cos/sin cache
// shape), correctly rounded from the exact scaled frequencies.
//   -DPOSENC_BENCH_ROWS=1024|4096   positions (default 4096)
//   -DPOSENC_BENCH_BF16             bfloat16 entries (default float)
//   -DPOSENC_BENCH_PAIRS            the compact pair_table (64 {sin, cos} per row) instead
// Measured with /usr/bin/time -f '%e %M'; figures and the constexpr limit flags in the report
// (docs/rope.md). The table is odr-used so that it is emitted into .rodata.
#include <cstddef>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/rope/table.hpp>

#ifndef POSENC_BENCH_ROWS
#define POSENC_BENCH_ROWS 4096
#endif

namespace {

#ifdef POSENC_BENCH_BF16
using value_type = posenc::bfloat16;
#else
using value_type = float;
#endif

constexpr std::size_t rows = POSENC_BENCH_ROWS;
constexpr posenc::rope::config llama31{.head_dim = 128,
                                       .rope_theta = 500000.0,
                                       .rope_type = posenc::rope::scaling::llama3,
                                       .factor = 8.0,
                                       .original_max_position_embeddings = 8192};

#ifdef POSENC_BENCH_PAIRS
constexpr auto table = posenc::rope::make_pair_table<value_type, rows, 64>(llama31);
#else
constexpr auto table = posenc::rope::make_table<value_type, rows, 128>(llama31);
#endif
static_assert(table.ok(), "Llama-3.1-8B RoPE table");

}  // namespace

const void* posenc_bench_table_data();
const void* posenc_bench_table_data() { return &table.value; }
