// bench/compile_time/scalar_math.cpp: what one call of the public scalar functions costs the compiler
// (issue 23), against GCC's own folding of the same std:: calls and a trivial fill, same shape.
//
// POSENC_BENCH_ROWS rows of 64 pairs; entry (m, j) is a pair computed from the double argument
// a = m * theta_j + 0.5, theta_j = 0.8659643233600653^j (about 10000^(-j/64), a product of doubles,
// the same in every variant, so arguments run from 0.5 to about 4096 rad: every quadrant, the
// reduction always at work). POSENC_SCALAR_IMPL picks who computes the pair:
//   1 posenc:  {posenc::math::cos(T(a)), posenc::math::sin(T(a))}, correctly rounded
//   2 folded:  {std::cos(T(a)), std::sin(T(a))}: GCC folds them with MPFR (GCC only; Clang rejects)
//   0 trivial: {T(i) * 0.5, T(i + 1) * 0.5}: no math, the loops, the stores and the emitted bytes
// POSENC_SCALAR_FN: 0 cos/sin, 1 exp: the pair is {exp(T(a / 128)), exp(T(-a / 128))} (|a / 128| <=
// 32). POSENC_SCALAR_TYPE: float or double. Per-call figures come from the difference between two
// sizes (bench/compile_time/run_scalar.sh), so that what a TU costs once drops out.
#include <array>
#include <cstddef>

#ifndef POSENC_BENCH_ROWS
#define POSENC_BENCH_ROWS 1024
#endif
#ifndef POSENC_SCALAR_IMPL
#define POSENC_SCALAR_IMPL 1
#endif
#ifndef POSENC_SCALAR_FN
#define POSENC_SCALAR_FN 0
#endif
#ifndef POSENC_SCALAR_TYPE
#define POSENC_SCALAR_TYPE double
#endif

#if POSENC_SCALAR_IMPL == 1
#include <posenc/math/exp_log.hpp>
#include <posenc/math/trig.hpp>
namespace fn = posenc::math;
#elif POSENC_SCALAR_IMPL == 2
#if !defined(__GNUC__) || defined(__clang__)
#error "the folded variant needs GCC's constant folding of std::sin/std::cos/std::exp"
#endif
#include <cmath>
namespace fn = std;
#endif

namespace {

using value_type = POSENC_SCALAR_TYPE;
constexpr std::size_t rows = POSENC_BENCH_ROWS;
constexpr std::size_t pairs_per_row = 64;

struct pair {
  value_type first;
  value_type second;
};
using table_type = std::array<pair, rows * pairs_per_row>;

constexpr table_type make_table() {
  table_type t{};
  std::array<double, pairs_per_row> theta{};
  theta[0] = 1.0;
  for (std::size_t j = 1; j < pairs_per_row; ++j) theta[j] = theta[j - 1] * 0.8659643233600653;
  for (std::size_t m = 0; m < rows; ++m) {
    for (std::size_t j = 0; j < pairs_per_row; ++j) {
      const std::size_t i = m * pairs_per_row + j;
#if POSENC_SCALAR_IMPL == 0
      t[i] = {static_cast<value_type>(2 * i) * value_type(0.5), static_cast<value_type>(2 * i + 1) * value_type(0.5)};
#else
      const double a = static_cast<double>(m) * theta[j] + 0.5;
#if POSENC_SCALAR_FN == 0
      const value_type x = static_cast<value_type>(a);
      t[i] = {fn::cos(x), fn::sin(x)};
#else
      t[i] = {fn::exp(static_cast<value_type>(a / 128.0)), fn::exp(static_cast<value_type>(-a / 128.0))};
#endif
#endif
    }
  }
  return t;
}

constexpr table_type table = make_table();

}  // namespace

// Odr-uses the table so that it is emitted into the object file, as a real table would be.
const void* posenc_bench_table_data();
const void* posenc_bench_table_data() { return &table[0].first; }
