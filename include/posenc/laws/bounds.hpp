// bounds.hpp: every error bound of the RoPE laws, derived once, constexpr (core: standard library
// only). The constexpr laws of posenc/laws/ and the MPFR checkers of posenc/verify/law_measures/ both take
// their bounds from here (verify/law_measures/bounds.hpp re-exports them), so that a law measured in
// constant evaluation and the same law measured exactly at run time are held to one number.
// Derivations: docs/laws.md section 3.
//
// Notation: u_t = unit roundoff of the table type T (2^-p: Higham, "Accuracy and Stability of
// Numerical Algorithms", 2nd ed., Thm 2.2), u = that of the apply kernel's compute type, ub = the
// storage rounding of the kernel (0 for float/double storage).
//
// A correctly rounded entry is c~ = RN(cos a) = cos a + dc, s~ = RN(sin a) = sin a + ds with
// |dc| <= u_t |cos a|, |ds| <= u_t |sin a|, so the 2x2 block is R~ = R + E with
// ||E||_2 = sqrt(dc^2 + ds^2) <= u_t (plus 2^-25 for float16: a subnormal sin entry has that
// absolute error; no other format has subnormal cos/sin at the angles of a table).
//
// A q15/q31 table (numeric/fixed_point.hpp, F = 15 or 31 fraction bits) errs absolutely: each entry
// within 2^-(F+1) of the exact value, or 2^-F when it saturated (x <= 1 stored as 1 - 2^-F). A cos
// and the sin of the same angle never both saturate (c^2 + s^2 = 1), so ||E||_2 = sqrt(dc^2 + ds^2)
// <= sqrt(1 + 1/4) 2^-F = (sqrt(5)/2) 2^-F: table_block_error, from which the rotary bounds below
// follow by the same algebra (docs/fixed-point.md derives them).
#pragma once

#include <cstddef>
#include <type_traits>

#include "posenc/math/round_dyadic.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/numeric/format.hpp"

namespace posenc::laws {

// Unit roundoff of T, 2^-precision.
template <class T>
constexpr double unit_roundoff() noexcept {
  return posenc::detail::pow2(-posenc::detail::float_format<T>::precision);
}

// RN(sqrt(5)/2) rounded up by the factor 1 + 2^-50 (sqrt is not constexpr in C++20): above sqrt(5)/2.
inline constexpr double half_sqrt5_up = 0x1.1e3779b97f4a8p+0 * (1 + 0x1p-50);

// ||E||_2 of one correctly rounded 2x2 block of T: u_t, plus 2^-25 for float16; for q15/q31
// (sqrt(5)/2) 2^-F (a saturated entry errs by up to 2^-F, its partner by 2^-(F+1)).
template <class T>
constexpr double table_block_error() noexcept {
  if constexpr (posenc::fixed_point_type<T>)
    return half_sqrt5_up * posenc::detail::pow2(-posenc::fixed_format<T>::fraction_bits);
  else
    return unit_roundoff<T>() + (std::is_same_v<T, posenc::float16> ? 0x1p-25 : 0.0);
}

// What the laws' own evaluation in double can add for a q15/q31 table: a q31 product has 62
// significant bits and rounds (q15's 30 are exact). unit_norm: two squares and a sum, each rounding
// below 2^-53: below 2^-51. relative_dot, composition: each entry of a 2x2 product is two products
// and a sum (3 roundings) minus the reference entry's (3 more) and a subtraction, below 7 x 2^-53 <
// 2^-50, and the 2-norm of two such differences below sqrt(2) times that: below 2^-49. Rounded up
// to one slack, 2^-48.
inline constexpr double fixed_point_evaluation_slack = 0x1p-48;

// |c~^2 + s~^2 - 1| of a correctly rounded entry of T: 2 u_t + u_t^2, times 1 + 2^-40 (room for an
// evaluation in double-double), plus 2^-26 for float16 (2 |sin| |ds| + ds^2 < 2^-38 for a subnormal
// sin, rounded up to a bound that also covers the u_t^2 cross terms). proofs/rope_table.cpp law 3.
template <class T>
constexpr double orthogonality_bound() noexcept {
  if constexpr (posenc::fixed_point_type<T>) {  // 2 ||E|| + ||E||^2 (Cauchy-Schwarz), absolute errors
    const double b = table_block_error<T>();
    return (2 * b + b * b) * (1 + 0x1p-40);
  } else {
    const double u = unit_roundoff<T>();
    return (2 * u + u * u) * (1 + 0x1p-40) + (std::is_same_v<T, posenc::float16> ? 0x1p-26 : 0.0);
  }
}

// ||R~_m^T R~_n - R_{n-m}||_2 <= 2 u_t + u_t^2: R~_m^T R~_n - R_m^T R_n = E_m^T R_n + R_m^T E_n +
// E_m^T E_n, and R_m^T R_n = R_{n-m} (the rotations commute).
template <class T>
constexpr double table_dot_bound() noexcept {
  const double u = table_block_error<T>();
  return 2 * u + u * u;
}

// ||R~_m R~_n - R~_{m+n}||_2 <= 3 u_t + u_t^2: R~_m R~_n - R~_{m+n} = E_m R_n + R_m E_n + E_m E_n -
// E_{m+n}.
template <class T>
constexpr double table_law_bound() noexcept {
  const double u = table_block_error<T>();
  return 3 * u + u * u;
}

// RN(sqrt 2). The bounds must be constexpr, and std::sqrt is not in C++20; IEEE sqrt is correctly
// rounded, so std::sqrt(2.0) is this same double at run time.
inline constexpr double sqrt2 = 0x1.6a09e667f3bcdp+0;

// The apply kernel's bounds for storage S computed in C with a correctly rounded table
// (rope/apply.hpp; the derivation is tests/test_rope_apply.cpp's, moved here).
struct apply_bounds {
  double table_law;  // ||R~_m R~_n - R~_{m+n}||   (exact arithmetic on the entries): 3 u_t + u_t^2
  double table_dot;  // ||R~_m^T R~_n - R_{n-m}||: 2 u_t + u_t^2
  double inverse;    // ||fl(R~^T fl(R~ v)) - v|| / ||v||
  double norm;       // | ||fl(R~ v)|| - ||v|| | / ||v||: kr + u_t
  double compose;    // two kernel rotations vs exact: a (2 + a), a = kr + u_t   (A)
};

// The kernel x' = fl(fl(x c) - fl(y s)), y' = fl(fl(x s) + fl(y c)) per pair: each component errs
// by at most (2u + u^2) (|x c| + |y s|) (two products and a sum, each rounded once), so
// ||fl(R~ v) - R~ v|| <= kappa ||v||, kappa = sqrt(2) (2u + u^2) (1 + u_t) (Cauchy-Schwarz over the
// pair, sqrt(c~^2 + s~^2) <= 1 + u_t), times 1 + 1e-15 for the evaluation of kappa itself.
constexpr apply_bounds derive_apply_bounds(double u_t, double u, double ub) noexcept {
  const double kappa = sqrt2 * (2 * u + u * u) * (1 + u_t) * (1 + 1e-15);  // (K)
  // One kernel rotation with the storage rounding: ||w - R~ v|| <= kappa||v|| + ub ||fl(R~ v)||.
  const double kr = kappa + ub * (1 + u_t + kappa);
  apply_bounds b{};
  b.table_law = 3 * u_t + u_t * u_t;
  b.table_dot = 2 * u_t + u_t * u_t;
  // w = fl(R~ v), v'' = fl(R~^T w): ||v'' - v|| <= kr ||w|| (second rotation) + (1 + u_t) kr ||v||
  // (first, carried through R~^T) + (2 u_t + u_t^2) ||v|| (R~^T R~ = (c~^2 + s~^2) I).
  b.inverse = kr * (1 + u_t + kr) + (1 + u_t) * kr + 2 * u_t + u_t * u_t;
  b.norm = kr + u_t;  // | ||w|| - ||v|| | <= ||w - R~ v|| + | ||R~ v|| - ||v|| |
  const double a = kr + u_t;
  b.compose = a * (2 + a);
  return b;
}

// The bounds of a kernel rotation of storage S (compute type C: double for double, float otherwise,
// rope::compute_t) with a correctly rounded table of TT.
template <class S, class TT>
constexpr apply_bounds apply_kernel_bounds() noexcept {
  using C = std::conditional_t<std::is_same_v<S, double>, double, float>;
  const double ub = std::is_same_v<S, C> ? 0.0 : unit_roundoff<S>();
  return derive_apply_bounds(table_block_error<TT>(), unit_roundoff<C>(), ub);
}

// ---- the bounds of the constexpr laws: the rounding bound above plus what their own evaluation in
// double (or double-double) can add. docs/laws.md section 3 derives each slack term. ----

// unit_norm: the square sum of a double table is evaluated in double-double (error below 2^-100,
// covered by the 2^-40 factor); for the narrower types the squares (at most 2 x 24 bits) are exact
// in double and their sum errs by at most 2^-52, added.
template <class T>
constexpr double unit_norm_bound() noexcept {
  if constexpr (posenc::fixed_point_type<T>)
    return orthogonality_bound<T>() + fixed_point_evaluation_slack;
  else
    return orthogonality_bound<T>() + (std::is_same_v<T, double> ? 0.0 : 0x1p-52);
}

// relative_dot: two blocks R~_m^T R~_n and R~_m'^T R~_n' with n - m = n' - m' are each within
// table_dot_bound of R_{n-m}, so they differ by at most twice it (2-norm of the difference).
// Narrower types: each of the four entries a = c c' + s s', b = c s' - s c' is one rounding in double
// (the products are exact), |a|, |b| <= (1 + u_t)^2, so the two differences err by at most
// 2 x 1.01 x 2^-53 each and their 2-norm by sqrt(2) times that: below 2^-51, added. Double tables:
// double-double products (error ~2^-104), covered by the 1 + 2^-40 factor.
template <class T>
constexpr double relative_dot_bound() noexcept {
  if constexpr (posenc::fixed_point_type<T>)
    return 2 * table_dot_bound<T>() * (1 + 0x1p-40) + fixed_point_evaluation_slack;
  else
    return 2 * table_dot_bound<T>() * (1 + 0x1p-40) + (std::is_same_v<T, double> ? 0.0 : 0x1p-51);
}

// composition: ||R~_m R~_n - R~_{m+n}|| <= table_law_bound. Narrower types: the two entries of
// R~_m R~_n are one rounding each (<= 1.01 x 2^-53), the table's entries are exact: below 2^-52,
// added. Double: double-double, covered by 1 + 2^-40.
template <class T>
constexpr double composition_bound() noexcept {
  if constexpr (posenc::fixed_point_type<T>)
    return table_law_bound<T>() * (1 + 0x1p-40) + fixed_point_evaluation_slack;
  else
    return table_law_bound<T>() * (1 + 0x1p-40) + (std::is_same_v<T, double> ? 0.0 : 0x1p-52);
}

// norm_preservation of a vector of d elements of storage S rotated by the kernel with a table of TT:
// | ||fl(R~ v)|| / ||v|| - 1 | <= apply_kernel_bounds<S, TT>().norm. The law evaluates both squared
// norms by recursive summation (double for S narrower than double, double-double for double), each
// within gamma_d = d u_d of its value (Higham Thm 3.1 / 4.1), the ratio and the square root add two
// roundings: | computed - exact | <= (d + 2) u_d (1 + bound), u_d = 2^-53 (2^-104 for
// double-double), added.
template <class S, class TT>
constexpr double norm_preservation_bound(std::size_t d) noexcept {
  const double b = apply_kernel_bounds<S, TT>().norm;
  const double ud = std::is_same_v<S, double> ? 0x1p-104 : 0x1p-53;
  return b * (1 + 0x1p-40) + static_cast<double>(d + 2) * ud * (1 + b);
}

// monotone_frequencies: the measured value of step j is f[j] / f[j-1] (in double, 1 rounding), the
// law holds when it is below 1, i.e. at most 1 - 2^-53, the largest double below 1 (equality
// fails). Two positive doubles with f[j] < f[j-1] have f[j]/f[j-1] <= 1 - 2^-53 - 2^-106 at most,
// which rounds to 1 - 2^-53, never to 1.
inline constexpr double decreasing_ratio_bound = 1.0 - 0x1p-53;

namespace detail {

// The measured value of one step of a frequency array: next / prev when both are positive, else 2
// (past the bound: a zero, a negative or a NaN frequency is not part of a decreasing geometric
// series).
constexpr double decreasing_ratio(double prev, double next) noexcept {
  return prev > 0 && next > 0 ? next / prev : 2.0;
}

}  // namespace detail

}  // namespace posenc::laws
