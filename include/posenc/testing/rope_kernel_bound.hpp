// rope_kernel_bound.hpp: the per-element error bound B of a RoPE kernel described by its formats,
// as derived in docs/testing-kernels.md ("The tolerance, derived"). Not constexpr (std::frexp).
//
// A kernel computes y_a = a c - b s and y_b = a s + b c for each pair (a, b), with c, s the
// attention-factor-folded cos and sin of its angle. It is described by four things: the format D
// of x and y, the format T its cos/sin entries are held in, the format C its products and sums are
// rounded to, and whether each table entry is c or s rounded once to nearest in T ("correct",
// posenc's tables) or only within one ulp of it ("faithful", torch's or a vendor's cos/sin). For
// y_a the doc's bound is
//   B_a = |a| e_c + |b| e_s + h_1 + h_2 + h_3 + h_4,      e_c = k ulp_T(|c|), k = 1/2 or 1,
//   h_1 = ulp_C(|a|(|c| + e_c))/2, h_2 = ulp_C(|b|(|s| + e_s))/2, h_3 = ulp_C(M)/2 with
//   M = |a|(|c| + e_c) + |b|(|s| + e_s) + h_1 + h_2, h_4 = ulp_D(M + h_3)/2 when C is not D, else 0;
// for y_b the roles of c and s swap. Every term is one rounding's worst case (unit in the last
// place, not u|v|, which is up to twice as loose and would let a kernel one ulp worse pass). B is
// evaluated in double and multiplied by 1 + 2^-40, more than the relative error of those double
// operations, with the arguments of ulp rounded up (element_bound says why). The reference the checks compare with (check_rope_apply.hpp) is MPFR, so the doc's
// reference error R is 0 here.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"

namespace posenc::testing {

// The four formats a RoPE kernel's data, tables and arithmetic are held in.
enum class dtype : unsigned char { float64, float32, bfloat16, float16 };

enum class table_rounding : unsigned char {
  correct,   // each entry is RN_T(c): error at most ulp_T(|c|)/2
  faithful,  // each entry is within ulp_T(|c|) of c (a libm, torch, or HF's float32 product then .to(bf16))
};

// p (significand bits, the implicit one counted) and e_min (least normal exponent) of a format.
struct format_params {
  int precision;
  int min_exponent;
};

constexpr format_params params_of(dtype f) noexcept {
  switch (f) {
    case dtype::float64: return {53, -1022};
    case dtype::float32: return {24, -126};
    case dtype::bfloat16: return {8, -126};
    case dtype::float16: return {11, -14};
  }
  return {24, -126};
}

constexpr const char* name_of(dtype f) noexcept {
  switch (f) {
    case dtype::float64: return "float64";
    case dtype::float32: return "float32";
    case dtype::bfloat16: return "bfloat16";
    case dtype::float16: return "float16";
  }
  return "?";
}

template <class T>
inline constexpr bool is_dtype_v = std::is_same_v<T, double> || std::is_same_v<T, float> ||
                                   std::is_same_v<T, posenc::bfloat16> || std::is_same_v<T, posenc::float16>;

// The dtype of a C++ element type: double, float, posenc::bfloat16, posenc::float16.
template <class T>
constexpr dtype dtype_of() noexcept {
  static_assert(is_dtype_v<T>, "posenc::testing: the element type must be double, float, bfloat16 or float16");
  if constexpr (std::is_same_v<T, double>) return dtype::float64;
  if constexpr (std::is_same_v<T, float>) return dtype::float32;
  if constexpr (std::is_same_v<T, posenc::bfloat16>) return dtype::bfloat16;
  return dtype::float16;
}

// The doc's (dtype, table_dtype, compute_dtype, table_rounding). An unset table or compute format
// is D (the doc's defaults); an unset D is float32, or, in check_rope_apply, the kernel's element type.
struct kernel_model {
  std::optional<dtype> data{};     // D: the format of x and of the result
  std::optional<dtype> table{};    // T: the format of the cos/sin entries
  std::optional<dtype> compute{};  // C: the format products and sums are rounded to
  table_rounding rounding = table_rounding::faithful;
};

// A kernel_model with every format decided.
struct resolved_model {
  dtype d, t, c;
  table_rounding rounding;
};

constexpr resolved_model resolve(const kernel_model& m, dtype default_data = dtype::float32) noexcept {
  const dtype d = m.data.value_or(default_data);
  return {d, m.table.value_or(d), m.compute.value_or(d), m.rounding};
}

// ulp_F(v) = 2^(max(floor(log2 v), e_min) - p + 1) for v > 0, ulp_F(0) = 2^(e_min - p + 1):
// nondecreasing, and rounding v to nearest in F errs by at most ulp_F(v)/2, subnormals included.
inline double ulp(dtype f, double v) noexcept {
  const format_params p = params_of(f);
  int e = p.min_exponent;
  if (v > 0 && std::isfinite(v)) {
    int ex = 0;
    static_cast<void>(std::frexp(v, &ex));  // v = m 2^ex, m in [1/2, 1): floor(log2 v) = ex - 1
    e = std::max(ex - 1, p.min_exponent);
  }
  return std::ldexp(1.0, e - p.precision + 1);
}

inline double next_up(double v) noexcept { return std::nextafter(v, std::numeric_limits<double>::infinity()); }

// B for y = a c - b s (the doc's B_a); for y = a s + b c call element_bound(m, a, b, s, c).
// a, b: the input pair; c, s: the exact folded cos and sin, rounded to double away from zero (a
// magnitude rounded down could fall into the binade below, where ulp_T is half).
inline double element_bound(const resolved_model& m, double a, double b, double c, double s) noexcept {
  const double k = m.rounding == table_rounding::correct ? 0.5 : 1.0;
  a = std::fabs(a);
  b = std::fabs(b);
  c = std::fabs(c);
  s = std::fabs(s);
  const double ec = k * ulp(m.t, c), es = k * ulp(m.t, s);
  // The magnitudes whose ulp is taken are rounded up (next_up after each rounded operation): ulp
  // is a step function, so a magnitude computed a hair below a power of two would halve a term,
  // which the final factor 1 + 2^-40 does not cover. Too large a magnitude only loosens B by a
  // binade's step in the rare case it crosses one.
  const double p1 = next_up(a * next_up(c + ec)), p2 = next_up(b * next_up(s + es));
  const double h1 = ulp(m.c, p1) / 2, h2 = ulp(m.c, p2) / 2;
  const double big_m = next_up(next_up(next_up(p1 + p2) + h1) + h2);
  const double h3 = ulp(m.c, big_m) / 2;
  const double h4 = m.c == m.d ? 0.0 : ulp(m.d, next_up(big_m + h3)) / 2;
  return (a * ec + b * es + h1 + h2 + h3 + h4) * (1 + 0x1p-40);
}

// The bounds of both elements of a rotated pair (a, b) with folded cos c and sin s.
struct pair_bound {
  double a, b;
};

inline pair_bound rope_pair_bound(const resolved_model& m, double a, double b, double c, double s) noexcept {
  return {element_bound(m, a, b, c, s), element_bound(m, a, b, s, c)};
}

}  // namespace posenc::testing
