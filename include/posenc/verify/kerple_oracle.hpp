// kerple_oracle.hpp: KERPLE's biases (Chi et al. 2022, chijames/KERPLE) as MPFR enclosures: the
// logarithmic variant -p log(1 + a k) and the power variant -a k^p of head parameters p, a (exact
// doubles) at distance k. Used by tests/test_kerple.cpp and the verify engine (scheme_verify.hpp).
// Not constexpr; links MPFR (posenc::verify).
#pragma once

#include <mpfr.h>

#include <cstdint>

#include "posenc/verify/mpfr.hpp"

namespace posenc::verify {

// -p log(1 + a k): 1 + a k exact at 400 bits (a has 53 bits, a k < 2^84, a >= 2^-60), its log at
// prec + 64 bits, times p at prec bits: stated 2^(EXP(y) + 1 - prec).
inline auto kerple_log_value(double p, double a, std::uint64_t k) {
  return detail::make_value<1>([p, a, k](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    detail::mp x(400), l(prec + 64), pp(53);
    mpfr_set_d(x.get(), a, MPFR_RNDN);
    mpfr_mul_ui(x.get(), x.get(), k, MPFR_RNDN);  // exact
    mpfr_add_ui(x.get(), x.get(), 1, MPFR_RNDN);  // exact
    mpfr_log(l.get(), x.get(), MPFR_RNDN);
    mpfr_set_d(pp.get(), p, MPFR_RNDN);
    mpfr_set_prec(y[0], prec);
    mpfr_mul(y[0], l.get(), pp.get(), MPFR_RNDN);
    mpfr_neg(y[0], y[0], MPFR_RNDN);
    if (k == 0) mpfr_set_zero(y[0], 1);  // the real 0 has no sign: +0, posenc's convention
    mpfr_set_prec(err[0], 64);
    if (k == 0)
      mpfr_set_zero(err[0], 1);
    else
      mpfr_set_ui_2exp(err[0], 1, mpfr_get_exp(y[0]) + 1 - prec, MPFR_RNDU);
  });
}

// -a k^p: mpfr_pow of the exact k and p at prec + 64 bits (ternary 0 when k^p is exact, as in the
// perfect-power cases), times a: exact when both are, else within 2^(EXP(y) + 1 - prec).
inline auto kerple_power_value(double a, double p, std::uint64_t k) {
  return detail::make_value<1>([a, p, k](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    detail::mp kk(64), pp(53), aa(53), w(prec + 64);
    mpfr_set_ui(kk.get(), k, MPFR_RNDN);
    mpfr_set_d(pp.get(), p, MPFR_RNDN);
    mpfr_set_d(aa.get(), a, MPFR_RNDN);
    const int t1 = mpfr_pow(w.get(), kk.get(), pp.get(), MPFR_RNDN);
    mpfr_set_prec(y[0], prec + 128);
    const int t2 = mpfr_mul(y[0], w.get(), aa.get(), MPFR_RNDN);
    mpfr_neg(y[0], y[0], MPFR_RNDN);
    if (k == 0) mpfr_set_zero(y[0], 1);  // the real 0 has no sign: +0, posenc's convention
    mpfr_set_prec(err[0], 64);
    if (t1 == 0 && t2 == 0)
      mpfr_set_zero(err[0], 1);
    else
      mpfr_set_ui_2exp(err[0], 1, mpfr_get_exp(y[0]) + 1 - prec, MPFR_RNDU);
  });
}

}  // namespace posenc::verify
