// exp_log.hpp: correctly rounded (to nearest, ties to even) exp and log, constexpr.
//
// Each function: the special values of C17 Annex F (F.10.3.1 exp, F.10.3.7 log); a fast path
// with a proven error bound (posenc/math/detail/exp_kernel.hpp, log_kernel.hpp); Ziv's rounding
// test (posenc/math/round.hpp); on failure the multiprecision accurate path
// (posenc/math/detail/mp/exp_log.hpp). Double results use the double-double kernels (error 2^-102 and
// 2^-101, so the test fails about once in 2^45 random arguments); float (and bfloat16/float16,
// through detail::exp_narrow / log_narrow) use the plain-double kernels (error about 2^-58).
// Ranges that the fast path does not cover (double results near overflow or in the subnormal
// range) go to the accurate path; past the thresholds the result is taken from numeric_limits.
#pragma once

#include <limits>

#include "posenc/math/detail/exp_kernel.hpp"
#include "posenc/math/detail/exp_scalar_fast.hpp"
#include "posenc/math/detail/log_kernel.hpp"
#include "posenc/math/detail/mp/exp_log.hpp"
#include "posenc/math/detail/round_test_cheap.hpp"
#include "posenc/math/evaluation.hpp"
#include "posenc/math/round.hpp"

namespace posenc::detail {

// RN_T(e^x) for a T within float's exponent range (float, bfloat16, float16); x not NaN.
// e^x > 2^128 for x > 89 (infinity for every such T) and e^x < 2^-150 for x < -104 (zero).
template <class T>
constexpr T exp_narrow(double x) noexcept {
  if (x > 89.0) return round_dd<T>(std::numeric_limits<double>::infinity(), 0.0);
  if (x < -104.0) return round_dd<T>(0.0, 0.0);
  const exp_parts e = exp_small_eval(x, 0.0);
  const double s = exp2i(e.k);  // -152 <= k <= 129: exact scaling, all doubles stay normal
  const double hi = e.hi * s;
  T out{};
  if (ziv_round<T>(hi, e.lo * s, hi * 0x1.01p-58, out)) return out;
  return mp::exp<T>(x);
}

// RN_T(log x) for a narrow T; x > 0 finite.
template <class T>
constexpr T log_narrow(double x) noexcept {
  const log_small_result r = log_small_eval(x);
  T out{};
  if (ziv_round<T>(r.hi, r.lo, r.err, out)) return out;
  return mp::log<T>(x);
}

}  // namespace posenc::detail

namespace posenc::math {

// e^x rounded to nearest, posenc's own evaluation on every compiler (evaluation.hpp). exp(+-0) = 1,
// exp(-inf) = +0, exp(+inf) = +inf, exp(NaN) = NaN, overflow gives +inf and underflow the correctly
// rounded subnormal or +0.
constexpr double exp(double x, own_evaluation_t) noexcept {
  if (x != x) return x;
  if (x > 709.79) return std::numeric_limits<double>::infinity();  // e^x > DBL_MAX + ulp/2
  if (x < -745.2) return 0.0;                                      // e^x < 2^-1075
  // Outside [-707, 709] the result is subnormal or near overflow: the accurate path rounds it.
  if (x < -707.0 || x > 709.0) return detail::mp::exp<double>(x);
  double fast = 0.0;  // the path written for constant evaluation (detail/exp_scalar_fast.hpp)
  if ((x >= 0x1p-60 || x <= -0x1p-60) && detail::exp_double_fast(x, fast)) return fast;
  const detail::exp_parts e = detail::exp_dd_eval(x, 0.0);
  double out = 0.0;
  // RN(v 2^k) = RN(v) 2^k here: -1021 <= k <= 1022 and v in [0.9999, 2.0002], all normal.
  if (detail::ziv_round<double>(e.hi, e.lo, e.hi * 0x1.01p-102, out)) return out * detail::exp2i(e.k);
  return detail::mp::exp<double>(x);
}

constexpr float exp(float x, own_evaluation_t) noexcept {
  if (x != x) return x;
  float out = 0.0f;  // the path written for constant evaluation (detail/exp_scalar_fast.hpp)
  if (detail::exp_float_fast(static_cast<double>(x), out)) return out;
  return detail::exp_narrow<float>(x);
}

// log x rounded to nearest, posenc's own evaluation on every compiler. log(+-0) = -inf,
// log(x < 0) = NaN, log(1) = +0, log(+inf) = +inf, log(NaN) = NaN.
constexpr double log(double x, own_evaluation_t) noexcept {
  if (x != x) return x;
  if (x < 0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (x == std::numeric_limits<double>::infinity()) return x;
  if (x == 1.0) return 0.0;
  const math::double_double l = detail::dd_log(x);
  double out = 0.0;
  const double a = l.hi < 0 ? -l.hi : l.hi;
  if (detail::ziv_round<double>(l.hi, l.lo, a * 0x1.01p-101, out)) return out;
  return detail::mp::log<double>(x);
}

constexpr float log(float x, own_evaluation_t) noexcept {
  if (x != x) return x;
  if (x < 0) return std::numeric_limits<float>::quiet_NaN();
  if (x == 0) return -std::numeric_limits<float>::infinity();
  if (x == std::numeric_limits<float>::infinity()) return x;
  return detail::log_narrow<float>(x);
}

// e^x and log x rounded to nearest, with the specials above: in constant evaluation on GCC, the
// compiler's correctly rounded fold where it makes one (evaluation.hpp); everywhere else, the own
// evaluation above. The same bits either way.
constexpr double exp(double x) noexcept {
  POSENC_DETAIL_RETURN_FOLD(__builtin_exp(x));
  return math::exp(x, own_evaluation);
}
constexpr float exp(float x) noexcept {
  POSENC_DETAIL_RETURN_FOLD(__builtin_expf(x));
  return math::exp(x, own_evaluation);
}
constexpr double log(double x) noexcept {
  POSENC_DETAIL_RETURN_FOLD(__builtin_log(x));
  return math::log(x, own_evaluation);
}
constexpr float log(float x) noexcept {
  POSENC_DETAIL_RETURN_FOLD(__builtin_logf(x));
  return math::log(x, own_evaluation);
}

}  // namespace posenc::math
