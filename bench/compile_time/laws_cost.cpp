// bench/compile_time/laws_cost.cpp: compile time and compiler memory of the constexpr laws
// (posenc/laws/) on a 2048-position, 64-pair float table (d = 128, base 10000, half-split), beside
// generating that table alone. Issue 8's goal: exactness at most 1.5x the generation, every other
// law at most 1x.
//   -DPOSENC_BENCH_LAW=0   generate the table only (the baseline)
//   -DPOSENC_BENCH_LAW=1   generate, then laws::exactness on every entry
//   -DPOSENC_BENCH_LAW=2   generate, then laws::unit_norm
//   -DPOSENC_BENCH_LAW=3   generate, then laws::pair_copies
// bash bench/compile_time/run_laws.sh compiles each with g++ and clang++ and prints the ratios.
#include <cstddef>
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

#ifndef POSENC_BENCH_LAW
#define POSENC_BENCH_LAW 0
#endif

namespace {

constexpr posenc::rope::config cfg{.head_dim = 128, .rope_theta = 10000.0};
constexpr auto table = posenc::rope::make_table<float, 2048, 128>(cfg);
static_assert(table.ok(), "the table");
#if POSENC_BENCH_LAW == 1
static_assert(posenc::laws::exactness(posenc::laws::view(table.value), cfg).holds, "exactness");
#elif POSENC_BENCH_LAW == 2
static_assert(posenc::laws::unit_norm(posenc::laws::view(table.value)).holds, "unit norm");
#elif POSENC_BENCH_LAW == 3
static_assert(posenc::laws::pair_copies(posenc::laws::view(table.value)).holds, "pair copies");
#endif

}  // namespace

const void* posenc_bench_table_data();
const void* posenc_bench_table_data() { return &table.value; }
