// oracle.hpp: the independent reference for every correctly rounded function of posenc: RN_T of
// sin, cos, sincos, exp, log, sqrt, pow of exact double arguments, of cos/sin of an exact product
// m * theta, and of the multiples of pi/2 (cr_*); the same evaluations kept for rounding into
// several formats (*_value); exact_real.hpp reads them at high precision (exact_*). Not constexpr.
//
// Each value is an MPFR evaluation with an error bound, rounded once into T by mpfr.hpp's ziv_value;
// mpfr.hpp explains why that makes a sound oracle. The RoPE frequencies and angles are in
// rope_oracle.hpp, the errors in ULPs of a library result in stats.hpp.
#pragma once

#include <mpfr.h>

#include <cstdint>
#include <cstdlib>
#include <memory>

#include "posenc/math/double_double.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/verify/mpfr.hpp"

namespace posenc::verify {

namespace detail {

// Evaluators of MPFR's correctly rounded functions of exact double arguments.
enum class fn { sin, cos, exp, log, sqrt };

inline auto unary(fn f, double x) {
  return [f, x](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    mp a(53);
    mpfr_set_d(a.get(), x, MPFR_RNDN);  // exact
    mpfr_set_prec(y[0], prec);
    int t = 0;
    switch (f) {
      case fn::sin: t = mpfr_sin(y[0], a.get(), MPFR_RNDN); break;
      case fn::cos: t = mpfr_cos(y[0], a.get(), MPFR_RNDN); break;
      case fn::exp: t = mpfr_exp(y[0], a.get(), MPFR_RNDN); break;
      case fn::log: t = mpfr_log(y[0], a.get(), MPFR_RNDN); break;
      case fn::sqrt: t = mpfr_sqrt(y[0], a.get(), MPFR_RNDN); break;
    }
    ulp_error_bound(err[0], y[0], t);
  };
}

inline auto power(double x, double e) {
  return [x, e](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    mp a(53), b(53);
    mpfr_set_d(a.get(), x, MPFR_RNDN);
    mpfr_set_d(b.get(), e, MPFR_RNDN);
    mpfr_set_prec(y[0], prec);
    ulp_error_bound(err[0], y[0], mpfr_pow(y[0], a.get(), b.get(), MPFR_RNDN));
  };
}

// y[0] = cos x, y[1] = sin x, both correctly rounded at prec (mpfr_sin_cos's ternary is s + 4c,
// s and c in {0, 1, 2}, 0 meaning exact).
inline void cos_sin(mpfr_ptr* y, mpfr_ptr* err, mpfr_srcptr x, mpfr_prec_t prec) {
  mpfr_set_prec(y[0], prec);
  mpfr_set_prec(y[1], prec);
  const int t = mpfr_sin_cos(y[1], y[0], x, MPFR_RNDN);
  ulp_error_bound(err[0], y[0], t >> 2);
  ulp_error_bound(err[1], y[1], t & 3);
}

inline auto cos_sin_of_double(double x) {
  return [x](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    mp a(53);
    mpfr_set_d(a.get(), x, MPFR_RNDN);
    cos_sin(y, err, a.get(), prec);
  };
}

// The exact real m * (theta.hi + theta.lo), held with enough bits to be exact.
inline void exact_product(mpfr_ptr x, std::uint64_t m, math::double_double theta) {
  mp hi(53), lo(53), mm(64);
  mpfr_set_d(hi.get(), theta.hi, MPFR_RNDN);
  mpfr_set_d(lo.get(), theta.lo, MPFR_RNDN);
  mpfr_set_uj(mm.get(), m, MPFR_RNDN);
  mpfr_prec_t span = 56;
  if (mpfr_regular_p(hi.get()) && mpfr_regular_p(lo.get()))
    span += std::abs(static_cast<long>(mpfr_get_exp(hi.get()) - mpfr_get_exp(lo.get())));
  mp sum(span);
  if (mpfr_add(sum.get(), hi.get(), lo.get(), MPFR_RNDN) != 0) oracle_failure("inexact hi + lo");
  mpfr_set_prec(x, span + 64);
  if (mpfr_mul(x, sum.get(), mm.get(), MPFR_RNDN) != 0) oracle_failure("inexact m * theta");
  // A real product that is zero has no sign (MPFR would give 0 * -theta the sign -): sin is +0.
  if (mpfr_zero_p(x)) mpfr_set_zero(x, 1);
}

inline auto cos_sin_of_product(std::uint64_t m, math::double_double theta) {
  auto x = std::make_shared<mp>(64);
  exact_product(x->get(), m, theta);
  return [x](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) { cos_sin(y, err, x->get(), prec); };
}

}  // namespace detail

// ---- Correctly rounded values RN_T(f(args)), T in {double, float, bfloat16, float16} ----

template <class T>
T cr_sin(double x) {
  return detail::make_value<1>(detail::unary(detail::fn::sin, x)).template round<T>();
}
template <class T>
T cr_cos(double x) {
  return detail::make_value<1>(detail::unary(detail::fn::cos, x)).template round<T>();
}
template <class T>
T cr_exp(double x) {
  return detail::make_value<1>(detail::unary(detail::fn::exp, x)).template round<T>();
}
template <class T>
T cr_log(double x) {
  return detail::make_value<1>(detail::unary(detail::fn::log, x)).template round<T>();
}
template <class T>
T cr_sqrt(double x) {
  return detail::make_value<1>(detail::unary(detail::fn::sqrt, x)).template round<T>();
}
template <class T>
T cr_pow(double x, double y) {
  return detail::make_value<1>(detail::power(x, y)).template round<T>();
}
template <class T>
math::sincos_result<T> cr_sincos(double x) {
  auto v = detail::make_value<2>(detail::cos_sin_of_double(x));
  const T c = v.template round<T>(0);
  return {v.template round<T>(1), c};
}

// cos and sin of the exact real m * (theta.hi + theta.lo) (the contract of sincos_product).
template <class T>
math::sincos_result<T> cr_sincos_product(std::uint64_t m, math::double_double theta) {
  auto v = detail::make_value<2>(detail::cos_sin_of_product(m, theta));
  const T c = v.template round<T>(0);
  return {v.template round<T>(1), c};
}

// Several formats from one evaluation: oracle values that tests keep and round as they need.
inline auto sincos_value(double x) { return detail::make_value<2>(detail::cos_sin_of_double(x)); }
inline auto sin_value(double x) { return detail::make_value<1>(detail::unary(detail::fn::sin, x)); }
inline auto cos_value(double x) { return detail::make_value<1>(detail::unary(detail::fn::cos, x)); }
inline auto exp_value(double x) { return detail::make_value<1>(detail::unary(detail::fn::exp, x)); }
inline auto log_value(double x) { return detail::make_value<1>(detail::unary(detail::fn::log, x)); }
inline auto sqrt_value(double x) { return detail::make_value<1>(detail::unary(detail::fn::sqrt, x)); }
inline auto pow_value(double x, double y) { return detail::make_value<1>(detail::power(x, y)); }
inline auto sincos_product_value(std::uint64_t m, math::double_double theta) {
  return detail::make_value<2>(detail::cos_sin_of_product(m, theta));
}

// RN_T(k * pi / 2): the T nearest a multiple of pi/2, where sin or cos nearly vanishes (the
// arguments that stress argument reduction most; K.C. Ng, "Argument reduction for huge arguments:
// good to the last bit", 1992).
template <class T>
T nearest_multiple_of_half_pi(std::uint64_t k) {
  return detail::make_value<1>([k](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
           detail::mp kk(64);
           mpfr_set_uj(kk.get(), k, MPFR_RNDN);
           mpfr_set_prec(y[0], prec);
           mpfr_const_pi(y[0], MPFR_RNDN);  // error <= ulp/2, times k (exact) then / 2 (exact)
           mpfr_mul(y[0], y[0], kk.get(), MPFR_RNDN);
           mpfr_div_2ui(y[0], y[0], 1, MPFR_RNDN);
           mpfr_set_prec(err[0], 64);  // |y - k pi/2| <= (k/2) ulp(pi) + ulp(y) <= 3 ulp(y)
           mpfr_set_ui_2exp(err[0], 3, mpfr_get_exp(y[0]) - prec, MPFR_RNDU);
           if (k == 0) mpfr_set_zero(err[0], 1);
         })
      .template round<T>();
}

}  // namespace posenc::verify
