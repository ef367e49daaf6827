// alibi_oracle.hpp: the exact ALiBi values as MPFR enclosures: the bias -m_h k of head h at distance
// k, with m_h = 2^(-e_h) and e_h = num/den the head's exact rational exponent
// (alibi::slope_exponent_of); the slope is the bias at k = 1, negated. Used by tests/test_alibi.cpp
// and the verify engine (scheme_verify.hpp). Not constexpr; links MPFR (posenc::verify).
//
//   auto v = posenc::verify::alibi_bias_value(e.num, e.den, k);
//   const float want = v.round<float>();      // RN_float(-k 2^(-num/den))
#pragma once

#include <mpfr.h>

#include <cstdint>

#include "posenc/verify/mpfr.hpp"

namespace posenc::verify {

// -k 2^(-num/den) at precision p: the quotient at p + 64 bits (within 2^-(p+64) relative, times
// ln2 e <= 960 ln2 < 2^10: the exponent within 2^(10-p-64) absolute), exp2 at p bits, times k
// exactly: error below 2^(1-p) |y| + 2^(-p-53) |y|, stated as 2^(EXP(y) + 1 - p). Exact (err 0)
// when den divides num: then the slope is the power of two 2^(-num/den). At k = 0 the value is +0:
// the real 0 has no sign, and posenc writes +0 (alibi/bias.hpp).
inline auto alibi_bias_value(std::int64_t num, std::int64_t den, std::uint64_t k) {
  return detail::make_value<1>([num, den, k](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    mpfr_set_prec(y[0], prec + 64);
    mpfr_set_prec(err[0], 64);
    if (k == 0) {
      mpfr_set_zero(y[0], 1);
      mpfr_set_zero(err[0], 1);
      return;
    }
    if (num % den == 0) {
      mpfr_set_uj(y[0], k, MPFR_RNDN);
      mpfr_div_2ui(y[0], y[0], static_cast<unsigned long>(num / den), MPFR_RNDN);  // exact
      mpfr_neg(y[0], y[0], MPFR_RNDN);
      mpfr_set_zero(err[0], 1);
      return;
    }
    detail::mp e(prec + 64), n(64), d(64), kk(64);
    mpfr_set_sj(n.get(), num, MPFR_RNDN);
    mpfr_set_sj(d.get(), den, MPFR_RNDN);
    mpfr_set_uj(kk.get(), k, MPFR_RNDN);
    mpfr_div(e.get(), n.get(), d.get(), MPFR_RNDN);
    mpfr_neg(e.get(), e.get(), MPFR_RNDN);
    mpfr_exp2(y[0], e.get(), MPFR_RNDN);
    mpfr_mul(y[0], y[0], kk.get(), MPFR_RNDN);  // exact: prec + 64 bits hold the p-bit exp2 times k
    mpfr_neg(y[0], y[0], MPFR_RNDN);
    mpfr_set_ui_2exp(err[0], 1, mpfr_get_exp(y[0]) + 1 - prec, MPFR_RNDU);
  });
}

}  // namespace posenc::verify
