// rational_power_oracle.hpp: (a/b)^(num/den) for integers as an MPFR enclosure, exact when it is
// rational: XPOS's scale zeta_j^(n / scale_base), zeta_j = (2j + 0.4 d) / (1.4 d) (Sun et al. 2022,
// torchscale's XPOS), and math::rational_power under it. Used by tests/test_xpos.cpp and the verify
// engine (scheme_verify.hpp). Not constexpr; links MPFR (posenc::verify).
#pragma once

#include <mpfr.h>

#include <cstdint>
#include <numeric>

#include "posenc/verify/mpfr.hpp"

namespace posenc::verify {

// (a/b)^(num/den), both fractions reduced: when a and b are perfect den-th powers (MPFR's rootn is then exact), the value
// is (s/t)^num, computed exactly (mpfr_pow_si at enough bits; ternary 0) when it fits, with error
// 0; otherwise exp((num/den)(log a - log b)) at w = prec + 128 bits (argument within
// 2^(-w + 64) absolute for |num| < 2^53, |log| < 37), exp at prec bits: stated 2^(EXP(y) + 1 - prec).
inline auto rational_power_value(std::int64_t a0, std::int64_t b0, std::int64_t num0, std::int64_t den0) {
  // Both fractions in lowest terms first: (70/140)^(512/512) is (1/2)^1.
  const std::int64_t h = std::gcd(a0, b0), g = std::gcd(num0 < 0 ? -num0 : num0, den0);
  const std::int64_t a = a0 / h, b = b0 / h, num = num0 / g, den = den0 / g;
  return detail::make_value<1>([a, b, num, den](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    mpfr_set_prec(err[0], 64);
    detail::mp ra(128), rb(128);
    mpfr_set_sj(ra.get(), a, MPFR_RNDN);
    mpfr_set_sj(rb.get(), b, MPFR_RNDN);
    const bool exact_roots = mpfr_rootn_ui(ra.get(), ra.get(), static_cast<unsigned long>(den), MPFR_RNDN) == 0 &&
                             mpfr_rootn_ui(rb.get(), rb.get(), static_cast<unsigned long>(den), MPFR_RNDN) == 0;
    if (exact_roots) {  // (s/t)^num = s^num / t^num, or t^|num| / s^|num|: integer powers, exact if they fit
      const unsigned long k = static_cast<unsigned long>(num < 0 ? -num : num);
      detail::mp top(4096), bottom(4096);
      const int t1 = mpfr_pow_ui(top.get(), num < 0 ? rb.get() : ra.get(), k, MPFR_RNDN);
      const int t2 = mpfr_pow_ui(bottom.get(), num < 0 ? ra.get() : rb.get(), k, MPFR_RNDN);
      mpfr_set_prec(y[0], prec + 4096);
      const int t3 = mpfr_div(y[0], top.get(), bottom.get(), MPFR_RNDN);
      if (t1 == 0 && t2 == 0 && t3 == 0) {
        mpfr_set_zero(err[0], 1);
        return;
      }
    }
    const mpfr_prec_t w = prec + 128;
    detail::mp la(w), lb(w), n(64), d(64), e(w);
    mpfr_set_sj(la.get(), a, MPFR_RNDN);
    mpfr_log(la.get(), la.get(), MPFR_RNDN);
    mpfr_set_sj(lb.get(), b, MPFR_RNDN);
    mpfr_log(lb.get(), lb.get(), MPFR_RNDN);
    mpfr_sub(e.get(), la.get(), lb.get(), MPFR_RNDN);
    mpfr_set_sj(n.get(), num, MPFR_RNDN);
    mpfr_set_sj(d.get(), den, MPFR_RNDN);
    mpfr_mul(e.get(), e.get(), n.get(), MPFR_RNDN);
    mpfr_div(e.get(), e.get(), d.get(), MPFR_RNDN);
    mpfr_set_prec(y[0], prec);
    mpfr_exp(y[0], e.get(), MPFR_RNDN);
    mpfr_set_ui_2exp(err[0], 1, mpfr_get_exp(y[0]) + 1 - prec, MPFR_RNDU);
  });
}

}  // namespace posenc::verify
