// bench/compile_time/gcc_folded.cpp: baseline (a) of the compile-time benchmark, GCC only.
//
// GCC folds std::pow, std::cos and std::sin in constant expressions with MPFR (correctly rounded at
// the precision of the argument type; the team's notes, shared/reference/constexpr-math.md section
// 3.2); Clang rejects them in constexpr functions. This table has the shape of posenc_rope.cpp's,
// but it computes a LESS ACCURATE thing, the way a float32 framework pipeline does:
//   theta_j = RN_double(10000^(-2j/128)), a = RN_float(RN_double(m * theta_j)),
//   entry   = (RN_float(cos a), RN_float(sin a)),
// i.e. cos and sin of a rounded angle (|a - m*theta_j| up to 2^-12 rad at m ~ 4096, so entries can
// be off by thousands of float ULPs), whereas posenc rounds cos/sin of the exact real
// m*10000^(-2j/128) once. It is the "what the compiler can already do" reference for speed, not for
// accuracy. Built by bench/compile_time/run.sh; see docs/performance.md.
#include <array>
#include <cmath>
#include <cstddef>

#ifndef POSENC_BENCH_ROWS
#define POSENC_BENCH_ROWS 4096
#endif

#if !defined(__GNUC__) || defined(__clang__)
#error "gcc_folded.cpp needs GCC's constant folding of std::sin/std::cos/std::pow"
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
  // theta_j is hoisted out of the row loop: one pow fold per column, as a framework would do.
  std::array<double, pairs_per_row> theta{};
  for (std::size_t j = 0; j < pairs_per_row; ++j) {
    theta[j] = std::pow(10000.0, -2.0 * static_cast<double>(j) / 128.0);
  }
  for (std::size_t m = 0; m < rows; ++m) {
    for (std::size_t j = 0; j < pairs_per_row; ++j) {
      const float a = static_cast<float>(static_cast<double>(m) * theta[j]);
      t[m * pairs_per_row + j] = {std::cos(a), std::sin(a)};  // float overloads: __builtin_cosf/sinf
    }
  }
  return t;
}

constexpr table_type table = make_table();

}  // namespace

// Odr-uses the table so that it is emitted into the object file, as a real table would be.
const float* posenc_bench_table_data();
const float* posenc_bench_table_data() { return &table[0].cos; }
