// bounds.hpp: the error bounds the RoPE laws are checked against, derived once here.
//
// Moved from tests/test_rope_apply.cpp (its `bounds` / `derive`, same formulas and comments) so
// that every law checker uses one derivation. Notation: u_t = unit roundoff of the table type T
// (2^-p: Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., Thm 2.2), u = that of
// the kernel's compute type, ub = the storage rounding (0 for float/double storage).
//
// Table entry c~ = RN(cos a), s~ = RN(sin a): |c~ - c| <= u_t |c|, |s~ - s| <= u_t |s|, so the 2x2
// block R~ = R + E, ||E||_2 = sqrt(dc^2 + ds^2) <= u_t, and R~^T R~ = (c~^2 + s~^2) I with
//   |c~^2 + s~^2 - 1| <= 2 u_t + u_t^2                                    (proofs/rope_table.cpp law 3)
// plus 2^-26 for float16 (a subnormal sin, |ds| <= 2^-25 absolute: 2 |sin| |ds| + ds^2 < 2^-38).
// The kernel (apply.hpp) x' = fl(fl(x c) - fl(y s)): ||fl(R~ v) - R~ v|| <= kappa ||v||,
//   kappa = sqrt(2) (2u + u^2) (1 + u_t)                                  (test_rope_apply.cpp (K))
#pragma once

#include <cmath>
#include <type_traits>

#include "posenc/numeric/float16.hpp"
#include "posenc/numeric/format.hpp"

namespace posenc::verify::laws {

// Unit roundoff of T, 2^-precision.
template <class T>
double unit_roundoff() {
  return std::ldexp(1.0, -posenc::detail::float_format<T>::precision);
}

// The effective per-entry error of a correctly rounded table of T as a 2x2 block norm: u_t, plus
// 2^-25 for float16 (absolute error of a subnormal sin entry; no other format has subnormal
// cos/sin at the angles of a table).
template <class T>
double table_block_error() {
  return unit_roundoff<T>() + (std::is_same_v<T, posenc::float16> ? 0x1p-25 : 0.0);
}

// |c~^2 + s~^2 - 1| bound of a correctly rounded table entry of T (proofs/rope_table.cpp law 3).
template <class T>
double orthogonality_bound() {
  const double u = unit_roundoff<T>();
  return (2 * u + u * u) * (1 + 0x1p-40) + (std::is_same_v<T, posenc::float16> ? 0x1p-26 : 0.0);
}

// The laws' bounds for storage S computed in C with a correctly rounded table (test_rope_apply.cpp).
struct apply_bounds {
  double table_law;  // ||R~_m R~_n - R~_{m+n}||   (exact arithmetic on the entries): 3 u_t + u_t^2
  double table_dot;  // ||R~_m^T R~_n - R_{n-m}||: 2 u_t + u_t^2
  double inverse;    // ||fl(R~^T fl(R~ v)) - v|| / ||v||
  double norm;       // | ||fl(R~ v)|| - ||v|| | / ||v||: kr + u_t
  double compose;    // two kernel rotations vs exact: a (2 + a), a = kr + u_t   (A)
};

inline apply_bounds derive_apply_bounds(double u_t, double u, double ub) {
  const double kappa = std::sqrt(2.0) * (2 * u + u * u) * (1 + u_t) * (1 + 1e-15);  // (K); sqrt(c~^2+s~^2) <= 1 + u_t
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

}  // namespace posenc::verify::laws
