// evaluation.hpp: who evaluates posenc::math's scalar sin, cos, sincos, exp and log in constant
// evaluation, and how a caller asks for posenc's own evaluation.
//
// The value never depends on it: every path returns the correctly rounded result (round to
// nearest, ties to even). What differs is the cost inside the compiler.
//   - GCC (and arm-none-eabi-gcc) folds its math builtins in constant expressions with MPFR at the
//     precision of the type, rounding to nearest (gcc/fold-const-call.cc: do_mpfr_arg1 and
//     do_mpfr_ckconv), so each fold it makes is correctly rounded. It declines the results it
//     cannot represent exactly (NaN, infinities, overflow, an inexact subnormal) and, where
//     -frounding-math is given, inexact ones; __builtin_constant_p tells the caller, which then
//     takes posenc's own path. A fold costs about what a trivial fill of the same bytes costs
//     (docs/performance.md 1.1); posenc's own path, 2-8 times that in time and memory, because
//     GCC keeps every value its evaluator creates until the constant is done.
//   - Clang does not fold them in constant expressions (it rejects the builtins there), so it always
//     takes posenc's own path. So does run time, on every compiler: no libm call, ever. The folds
//     sit in branches whose whole condition is __builtin_is_constant_evaluated(), which GCC drops
//     even at -O0, so that no call to sin or exp can reach an object file.
// proofs/gcc_folding.cpp checks, on 65,000 arguments, that posenc's own path (own_evaluation below)
// and GCC's folds give the same bits; the MPFR oracle tests check the own path at 0 ULP.
//
// own_evaluation: math::sin(x, math::own_evaluation) and the like evaluate with posenc's own
// arithmetic on every compiler: for a result that must not depend on the compiler's folding, and
// for the proofs and tests that check posenc's path in constant evaluation.
#pragma once

namespace posenc::math {

struct own_evaluation_t {
  explicit own_evaluation_t() = default;
};
inline constexpr own_evaluation_t own_evaluation{};

}  // namespace posenc::math

// Whether the compiler folds its math builtins in constant expressions (GCC; Clang defines __GNUC__
// too, but does not, and rejects them in a constexpr function even in a branch never taken).
// POSENC_DETAIL_RETURN_FOLD(call): in constant evaluation, return the builtin call's fold when the
// compiler makes one. A macro, not a helper function, so that the builtin call sits in the caller's
// own body behind __builtin_is_constant_evaluated(), which GCC folds to false in run-time code even
// at -O0: no function holding a call of sin or exp is ever compiled (a helper would be one, kept out
// of the object only because nothing emits it; tests/cross/check_no_heap.cmake checks the objects).
#if defined(__GNUC__) && !defined(__clang__)
#define POSENC_DETAIL_FOLDS_MATH_BUILTINS 1
#define POSENC_DETAIL_RETURN_FOLD(call) \
  if (__builtin_is_constant_evaluated() && __builtin_constant_p(call)) return call
#else
#define POSENC_DETAIL_FOLDS_MATH_BUILTINS 0
#define POSENC_DETAIL_RETURN_FOLD(call) static_cast<void>(0)
#endif
