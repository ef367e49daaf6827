// bench/compile_time/laws_cost.cpp: compile time and compiler memory of the constexpr laws
// (posenc/laws/) on a 2048-position, 64-pair float table (d = 128, base 10000, half-split), beside
// generating that table alone. Issue 8's goal: exactness at most 1.5x the generation, every other
// law at most 1x.
//   -DPOSENC_BENCH_LAW=0   generate the table only (the baseline)
//   -DPOSENC_BENCH_LAW=1   generate, then laws::exactness on every entry
//   -DPOSENC_BENCH_LAW=2   generate, then laws::unit_norm
//   -DPOSENC_BENCH_LAW=3   generate, then laws::pair_copies
//   -DPOSENC_BENCH_LAW=4   generate, then laws::relative_dot (default grid: differences 1 and 1024)
//   -DPOSENC_BENCH_LAW=5   generate, then laws::composition (default grid: factors 1 and 1024)
//   -DPOSENC_BENCH_LAW=6   generate, then laws::norm_preservation (default LCG vector, posenc's kernel)
//   -DPOSENC_BENCH_LAW=7   generate, then laws::pass_through with head_dim 192 (posenc's kernel,
//                          forward out of place and inverse in place)
//   -DPOSENC_BENCH_LAW=8   generate, then laws::monotone_frequencies of the config (64 inv_freq)
//   -DPOSENC_BENCH_LAW=9   generate, then mirror it into a table covering [-1024, 1024) (the
//                          baseline of 10: a copy of every entry)
//   -DPOSENC_BENCH_LAW=10  generate, mirror, then laws::parity on the 1023 rows at +p and -p;
//                          parity's own cost is (10 - 9) / 0
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
#elif POSENC_BENCH_LAW == 4
static_assert(posenc::laws::relative_dot(posenc::laws::view(table.value)).holds, "relative dot");
#elif POSENC_BENCH_LAW == 5
static_assert(posenc::laws::composition(posenc::laws::view(table.value)).holds, "composition");
#elif POSENC_BENCH_LAW == 6
static_assert(posenc::laws::norm_preservation(posenc::laws::view(table.value)).holds, "norm preservation");
#elif POSENC_BENCH_LAW == 7
static_assert(posenc::laws::pass_through(posenc::laws::view(table.value), 192).holds, "pass-through");
#elif POSENC_BENCH_LAW == 8
static_assert(posenc::laws::monotone_frequencies(cfg).holds, "monotone frequencies");
#elif POSENC_BENCH_LAW == 9 || POSENC_BENCH_LAW == 10
// Rows at -1024 .. 1023: row r < 1024 is position r - 1024, the table's row 1024 - r with sin
// negated; row r >= 1024 is the table's row r - 1024.
struct mirrored_table {
  float cos[2048][128];
  float sin[2048][128];
};
constexpr mirrored_table mirror() {
  mirrored_table m{};
  for (std::size_t r = 0; r < 2048; ++r) {
    const std::size_t src = r < 1024 ? 1024 - r : r - 1024;
    const float sign = r < 1024 ? -1.0f : 1.0f;
    for (std::size_t k = 0; k < 128; ++k) {
      m.cos[r][k] = table.value.cos[src * 128 + k];
      m.sin[r][k] = sign * table.value.sin[src * 128 + k];
    }
  }
  return m;
}
[[maybe_unused]] constexpr mirrored_table mirrored = mirror();  // variant 9 only builds it
#if POSENC_BENCH_LAW == 10
static_assert(posenc::laws::parity(posenc::laws::signed_view(mirrored.cos, mirrored.sin,
                                                             posenc::rope::layout::half_split, -1024))
                  .holds,
              "parity");
#endif
#endif

}  // namespace

const void* posenc_bench_table_data();
const void* posenc_bench_table_data() { return &table.value; }
