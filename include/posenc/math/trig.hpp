// trig.hpp: correctly rounded (round to nearest, ties to even) sin, cos and sincos for double and
// float, usable in constant evaluation.
//
// Structure (CORE-MATH sin.c, CRlibm trigo_fast.c): C Annex F special values (F.10.1.5/F.10.1.6:
// sin(+-0) = +-0, cos(+-0) = 1, sin/cos(+-inf) = NaN, NaN -> NaN); for 2^-27 <= |x| < 2^20 a first
// fast path written for constant evaluation (detail/trig_scalar_fast.hpp: one function, the
// cheap rounding test); then a fast path returning
// (hi, lo, err) with a proven bound (reduce.hpp + detail/trig_kernel.hpp); Ziv's rounding test
// (detail::ziv_round, round.hpp); and when it fails, or |x| >= 0x1.8p30, the accurate path
// posenc::detail::mp (Payne-Hanek reduction, multiprecision Ziv loop).
#pragma once

#include <limits>
#include <type_traits>

#include "posenc/math/detail/mp/trig.hpp"
#include "posenc/math/detail/trig_kernel.hpp"
#include "posenc/math/detail/trig_scalar_fast.hpp"
#include "posenc/math/evaluation.hpp"
#include "posenc/math/reduce.hpp"
#include "posenc/math/round.hpp"
#include "posenc/math/sincos_result.hpp"

namespace posenc::detail {

inline constexpr int want_sin = 1;
inline constexpr int want_cos = 2;

// Small arguments, |xh| < 2^-27 (x = xh + xl, |xl| <= ulp(xh)/2): Taylor (A&S 4.3.65/66).
// sin: xh + (xl - xh^3/6); the omitted x^5/120, xl x^2/2 and the roundings of the cube are all
// below 2^-102 |x| (the cube is dropped below 2^-300, where it is < 2^-600 |x|, so that it never
// underflows); 2^-1074 covers the absolute rounding of a subnormal |x| 2^-100.
// cos: 1 - xh^2/2 - xh xl, omitted x^4/24 < 2^-55 x^2, roundings < 2^-52 x^2.
template <class T>
constexpr int trig_tiny(double xh, double xl, double xerr, int which, math::sincos_result<T>& out) noexcept {
  const double ax = xh < 0 ? -xh : xh;
  int done = 0;
  if (which & want_sin) {
    if (xl == 0 && xerr == 0 && (ax == 0 || std::is_same_v<T, double>)) {
      // sin(+-0) = +-0; for double, |x^3/6| < 2^-54.5 |x| < half an ulp below x: RN(sin x) = x.
      out.sin = round_dd<T>(xh, xh * 0.0);  // xh * 0.0 has xh's sign, so a zero keeps it
      done |= want_sin;
    } else {
      const double c3 = ax > 0x1p-300 ? -(xh * xh) * xh * 0x1.5555555555555p-3 : 0.0;
      if (ziv_round<T>(xh, xl + c3, ax * 0x1p-100 + 0x1p-1074 + xerr, out.sin)) done |= want_sin;
    }
  }
  if (which & want_cos) {
    const double c2 = -0.5 * (xh * xh) - xh * xl;
    if (ziv_round<T>(1.0, c2, xh * xh * 0x1p-49 + 0x1p-1074 + xerr, out.cos)) done |= want_cos;
  }
  return done;
}

// Fast path for sin and/or cos (which = want_sin | want_cos) of x = xh + xl known to within xerr
// (|xl| <= ulp(xh)/2). Returns the set of requested results (want_sin | want_cos) that passed the
// rounding test: out holds the correctly rounded values of the exact x for those; the others go to
// the accurate path.
// Double results use the double-double kernel, narrower ones the fast kernel.
template <class T>
constexpr int trig_fast(double xh, double xl, double xerr, int which, math::sincos_result<T>& out) noexcept {
  if (xh < 0x1p-27 && xh > -0x1p-27) return trig_tiny<T>(xh, xl, xerr, which, out);
  reduced rd{};
  if (!reduce_pio2(xh, xl, rd)) return 0;
  const bool odd = (rd.quadrant & 1) != 0;
  // sin(r + q pi/2) is sin r, cos r, -sin r, -cos r and cos(r + q pi/2) is cos r, -sin r, -cos r,
  // sin r for q = 0, 1, 2, 3: an odd quadrant swaps the kernel results.
  const bool need_sin_r = ((which & want_sin) != 0 && !odd) || ((which & want_cos) != 0 && odd);
  const bool need_cos_r = ((which & want_sin) != 0 && odd) || ((which & want_cos) != 0 && !odd);
  const trig_kernel_out k = std::is_same_v<T, double> ? trig_kernel_dd(rd.hi, rd.lo, need_sin_r, need_cos_r)
                                                      : trig_kernel_fast(rd.hi, rd.lo, need_sin_r, need_cos_r);
  const double e = rd.err + xerr;  // |d sin/dx|, |d cos/dx| <= 1
  int done = 0;
  if (which & want_sin) {
    const trig_approx& a = odd ? k.cos_r : k.sin_r;
    const double sg = rd.quadrant < 2 ? 1.0 : -1.0;
    if (ziv_round<T>(sg * a.hi, sg * a.lo, a.err + e, out.sin)) done |= want_sin;
  }
  if (which & want_cos) {
    const trig_approx& a = odd ? k.sin_r : k.cos_r;
    const double sg = (rd.quadrant == 1 || rd.quadrant == 2) ? -1.0 : 1.0;
    if (ziv_round<T>(sg * a.hi, sg * a.lo, a.err + e, out.cos)) done |= want_cos;
  }
  return done;
}

template <class T>
constexpr bool trig_special(T x) noexcept {  // NaN or infinite
  return x != x || x == std::numeric_limits<T>::infinity() || x == -std::numeric_limits<T>::infinity();
}

template <class T>
constexpr T trig_sin(T x) noexcept {
  if (trig_special(x)) return std::numeric_limits<T>::quiet_NaN();
  if (x == 0) return x;  // keeps the sign of zero
  math::sincos_result<T> r{};
  if (trig_fast<T>(static_cast<double>(x), 0.0, 0.0, want_sin, r) != 0) return r.sin;
  return mp::sin<T>(static_cast<double>(x));
}

template <class T>
constexpr T trig_cos(T x) noexcept {
  if (trig_special(x)) return std::numeric_limits<T>::quiet_NaN();
  if (x == 0) return T(1);
  math::sincos_result<T> r{};
  if (trig_fast<T>(static_cast<double>(x), 0.0, 0.0, want_cos, r) != 0) return r.cos;
  return mp::cos<T>(static_cast<double>(x));
}

// One reduction, both kernels; each result that fails its rounding test alone goes to mp.
template <class T>
constexpr math::sincos_result<T> trig_sincos(T x) noexcept {
  if (trig_special(x)) return {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::quiet_NaN()};
  if (x == 0) return {x, T(1)};
  if constexpr (std::is_same_v<T, float>) {
    math::sincos_result<float> f{};
    if (trig_float_fast(static_cast<double>(x), 0, f.sin) && trig_float_fast(static_cast<double>(x), 1, f.cos))
      return f;
  } else if constexpr (std::is_same_v<T, double>) {
    math::sincos_result<double> f{};
    if (trig_double_fast(x, 0, f.sin) && trig_double_fast(x, 1, f.cos)) return f;
  }
  math::sincos_result<T> r{};
  const int done = trig_fast<T>(static_cast<double>(x), 0.0, 0.0, want_sin | want_cos, r);
  if ((done & want_sin) == 0) r.sin = mp::sin<T>(static_cast<double>(x));
  if ((done & want_cos) == 0) r.cos = mp::cos<T>(static_cast<double>(x));
  return r;
}

}  // namespace posenc::detail

namespace posenc::math {

// RN(sin x), RN(cos x), posenc's own evaluation on every compiler (evaluation.hpp).
// The first path (detail/trig_scalar_fast.hpp) decides most arguments 2^-27 <= |x| < 2^20 in one
// call; the rest, specials included, take the general one. Calls are kept few on purpose: in GCC's
// constant evaluator each one costs time and memory (docs/performance.md 1.1).
constexpr double sin(double x, own_evaluation_t) noexcept {
  double out = 0.0;
  if (detail::trig_double_fast(x, 0, out)) return out;
  return detail::trig_sin<double>(x);
}
constexpr float sin(float x, own_evaluation_t) noexcept {
  float out = 0.0f;
  if (detail::trig_float_fast(static_cast<double>(x), 0, out)) return out;
  return detail::trig_sin<float>(x);
}
constexpr double cos(double x, own_evaluation_t) noexcept {
  double out = 0.0;
  if (detail::trig_double_fast(x, 1, out)) return out;
  return detail::trig_cos<double>(x);
}
constexpr float cos(float x, own_evaluation_t) noexcept {
  float out = 0.0f;
  if (detail::trig_float_fast(static_cast<double>(x), 1, out)) return out;
  return detail::trig_cos<float>(x);
}

// {RN(sin x), RN(cos x)}, bitwise equal to {sin(x), cos(x)}, from one argument reduction.
constexpr sincos_result<double> sincos(double x, own_evaluation_t) noexcept { return detail::trig_sincos<double>(x); }
constexpr sincos_result<float> sincos(float x, own_evaluation_t) noexcept { return detail::trig_sincos<float>(x); }

// RN(sin x), RN(cos x), {RN(sin x), RN(cos x)}: correctly rounded for every finite x; Annex F
// specials. In constant evaluation on GCC, the compiler's correctly rounded fold where it makes
// one (evaluation.hpp); everywhere else, the own evaluation above. The same bits either way.
// (Each fold sits in its function's own body, behind __builtin_is_constant_evaluated():
// POSENC_DETAIL_RETURN_FOLD, evaluation.hpp; sincos's two are written out.)
constexpr double sin(double x) noexcept {
  POSENC_DETAIL_RETURN_FOLD(__builtin_sin(x));
  return math::sin(x, own_evaluation);
}
constexpr float sin(float x) noexcept {
  POSENC_DETAIL_RETURN_FOLD(__builtin_sinf(x));
  return math::sin(x, own_evaluation);
}
constexpr double cos(double x) noexcept {
  POSENC_DETAIL_RETURN_FOLD(__builtin_cos(x));
  return math::cos(x, own_evaluation);
}
constexpr float cos(float x) noexcept {
  POSENC_DETAIL_RETURN_FOLD(__builtin_cosf(x));
  return math::cos(x, own_evaluation);
}
constexpr sincos_result<double> sincos(double x) noexcept {
#if POSENC_DETAIL_FOLDS_MATH_BUILTINS
  if (__builtin_is_constant_evaluated() && __builtin_constant_p(__builtin_sin(x)) &&
      __builtin_constant_p(__builtin_cos(x)))
    return {__builtin_sin(x), __builtin_cos(x)};
#endif
  return math::sincos(x, own_evaluation);
}
constexpr sincos_result<float> sincos(float x) noexcept {
#if POSENC_DETAIL_FOLDS_MATH_BUILTINS
  if (__builtin_is_constant_evaluated() && __builtin_constant_p(__builtin_sinf(x)) &&
      __builtin_constant_p(__builtin_cosf(x)))
    return {__builtin_sinf(x), __builtin_cosf(x)};
#endif
  return math::sincos(x, own_evaluation);
}

}  // namespace posenc::math
