// bench/compile_time/schemes_cost.cpp: one constexpr table of a bias or absolute scheme, at the
// sizes issue 9 names (a firmware's), or the trivial fill of the same shape and type: the ratio of
// the two, measured in one run by run_schemes.sh, is the cost of the scheme's math.
//   -DPOSENC_BENCH_SCHEME=1  sinusoidal, POSENC_BENCH_ROWS positions x 512 float (paper, interleaved)
//   -DPOSENC_BENCH_SCHEME=2  ALiBi dense symmetric bias, 8 heads x 256 x 256 float
//   -DPOSENC_BENCH_SCHEME=3  T5 buckets of 8193 relative positions (-4096 .. 4096), int
//   -DPOSENC_BENCH_TRIVIAL   the trivial fill of the same array type (float(i) * 0.5f, or i & 31)
#include <array>
#include <cstddef>

#ifndef POSENC_BENCH_ROWS
#define POSENC_BENCH_ROWS 1024
#endif

#if POSENC_BENCH_SCHEME == 1
#include <posenc/sinusoidal.hpp>
using value_type = float;
inline constexpr std::size_t entries = std::size_t{POSENC_BENCH_ROWS} * 512;
#elif POSENC_BENCH_SCHEME == 2
#include <posenc/alibi.hpp>
using value_type = float;
inline constexpr std::size_t entries = std::size_t{8} * 256 * 256;
#elif POSENC_BENCH_SCHEME == 3
#include <posenc/t5.hpp>
using value_type = int;
inline constexpr std::size_t entries = 2 * 4096 + 1;
#else
#error "POSENC_BENCH_SCHEME must be 1, 2 or 3"
#endif

namespace {

constexpr std::array<value_type, entries> make() {
#ifdef POSENC_BENCH_TRIVIAL
  std::array<value_type, entries> t{};
  for (std::size_t i = 0; i < entries; ++i) {
    if constexpr (sizeof(value_type) == sizeof(int) && value_type(1) / 2 == 0)
      t[i] = static_cast<value_type>(i & 31);
    else
      t[i] = static_cast<value_type>(static_cast<float>(i & 0xFFFFFF) * 0.5f);
  }
  return t;
#elif POSENC_BENCH_SCHEME == 1
  return posenc::sinusoidal::make_table<float, POSENC_BENCH_ROWS, 512>(posenc::sinusoidal::config{.dim = 512}).value;
#elif POSENC_BENCH_SCHEME == 2
  return posenc::alibi::make_symmetric_bias_table<float, 8, 256, 256>(posenc::alibi::config{.heads = 8}).value;
#else
  return posenc::t5::make_buckets<4096>(posenc::t5::config{}).value;
#endif
}

constexpr std::array<value_type, entries> table = make();

}  // namespace

// Odr-uses the table so that it is emitted, as a real table would be.
const value_type* posenc_bench_schemes_data();
const value_type* posenc_bench_schemes_data() { return table.data(); }
