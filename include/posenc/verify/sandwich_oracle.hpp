// sandwich_oracle.hpp: Sandwich's bias (Chi et al. 2023, "Dissecting Transformer Length
// Extrapolation via the Lens of Receptive Field Analysis"; NeMo's implementation) as an MPFR
// enclosure: (sum_{i=1..d/2} cos(k 10000^(-2i/d)) - d/2) H / (8 (h + 1)) for head h of H at distance
// k. Used by tests/test_sandwich.cpp and the verify engine (scheme_verify.hpp). Not constexpr;
// links MPFR (posenc::verify).
#pragma once

#include <mpfr.h>

#include <cstdint>

#include "posenc/verify/mpfr.hpp"

namespace posenc::verify {

// (sum_{i=1..d/2} cos(k 10000^(-2i/d)) - d/2) H / (8 (h + 1)): each frequency at w = prec + 128
// bits (relative error below 2^(12 - w)), times k < 2^53 exactly, each cos at w bits: every term
// within 2^(66 - w) absolute, the d/2 <= 2^11 terms and the subtractions at w bits within
// 2^(80 - w) = 2^(-prec - 48); the final scaling by H / (8(h+1)) < 2^12 and rounding to prec bits:
// stated 2^(EXP(y) + 1 - prec) + 2^(-prec - 30).
inline auto sandwich_value(int d, int H, int h, std::int64_t k) {
  return detail::make_value<1>([d, H, h, k](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    const mpfr_prec_t w = prec + 128;
    detail::mp sum(w), th(w), x(w + 64), c(w), e(w), kk(64);
    mpfr_set_zero(sum.get(), 1);
    mpfr_set_sj(kk.get(), k, MPFR_RNDN);
    for (int i = 1; i <= d / 2; ++i) {
      mpfr_set_si(e.get(), -2 * i, MPFR_RNDN);
      mpfr_div_si(e.get(), e.get(), d, MPFR_RNDN);
      mpfr_set_si(th.get(), 10000, MPFR_RNDN);
      mpfr_pow(th.get(), th.get(), e.get(), MPFR_RNDN);
      mpfr_mul(x.get(), th.get(), kk.get(), MPFR_RNDN);
      mpfr_cos(c.get(), x.get(), MPFR_RNDN);
      mpfr_sub_ui(c.get(), c.get(), 1, MPFR_RNDN);
      mpfr_add(sum.get(), sum.get(), c.get(), MPFR_RNDN);
    }
    mpfr_mul_si(sum.get(), sum.get(), H, MPFR_RNDN);
    mpfr_set_prec(y[0], prec);
    mpfr_div_si(y[0], sum.get(), 8 * (h + 1), MPFR_RNDN);
    mpfr_set_prec(err[0], 64);
    detail::mp a(64);
    mpfr_set_ui_2exp(err[0], 1, -prec - 30, MPFR_RNDU);
    if (mpfr_regular_p(y[0])) {
      mpfr_set_ui_2exp(a.get(), 1, mpfr_get_exp(y[0]) + 1 - prec, MPFR_RNDU);
      mpfr_add(err[0], err[0], a.get(), MPFR_RNDU);
    }
  });
}

}  // namespace posenc::verify
