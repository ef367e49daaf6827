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
//
// The definitions live in the core, constexpr (posenc/laws/bounds.hpp): the constexpr laws and these
// checkers measure the same laws, so they share one derivation. This header names them in
// posenc::verify::law_measures, where the checkers and tests/test_law_checkers.cpp use them.

#include "posenc/laws/bounds.hpp"

namespace posenc::verify::law_measures {

using ::posenc::laws::apply_bounds;
using ::posenc::laws::derive_apply_bounds;
using ::posenc::laws::orthogonality_bound;  // |c~^2 + s~^2 - 1| (proofs/rope_table.cpp law 3)
using ::posenc::laws::table_block_error;    // u_t, + 2^-25 for float16
using ::posenc::laws::unit_roundoff;        // 2^-p

}  // namespace posenc::verify::law_measures
