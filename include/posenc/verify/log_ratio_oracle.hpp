// log_ratio_oracle.hpp: log_b(n) = log n / log b for integers n, b as an MPFR enclosure, exact
// when it is rational: the log-n attention scaling's factor (Su 2021, log_512 n; Qwen's logn,
// log_L(i) past the training length L). Used by tests/test_logn.cpp and the verify engine
// (scheme_verify.hpp). Not constexpr; links MPFR (posenc::verify).
#pragma once

#include <mpfr.h>

#include <cstdint>

#include "posenc/verify/mpfr.hpp"

namespace posenc::verify {

// log n / log b. Exact case (found here independently, by MPFR's exact integer powers): n^a = b^c
// for some 1 <= a <= 64, c >= 0 means the value is c/a, computed at prec bits with its rounding
// error; otherwise the quotient of two prec + 64-bit logs (each within 2^-(prec+64) relative),
// stated within 2^(EXP(y) + 1 - prec).
inline auto log_ratio_value(std::int64_t n, std::int64_t b) {
  return detail::make_value<1>([n, b](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    mpfr_set_prec(err[0], 64);
    mpfr_set_prec(y[0], prec);
    detail::mp ln(prec + 64), lb(prec + 64);
    mpfr_set_sj(ln.get(), n, MPFR_RNDN);
    mpfr_log(ln.get(), ln.get(), MPFR_RNDN);
    mpfr_set_sj(lb.get(), b, MPFR_RNDN);
    mpfr_log(lb.get(), lb.get(), MPFR_RNDN);
    detail::mp q(prec + 64);
    mpfr_div(q.get(), ln.get(), lb.get(), MPFR_RNDN);
    for (long a = 1; a <= 64; ++a) {  // is q * a an integer c with n^a = b^c exactly?
      detail::mp qa(prec + 64);
      mpfr_mul_si(qa.get(), q.get(), a, MPFR_RNDN);
      const long c = mpfr_get_si(qa.get(), MPFR_RNDN);
      detail::mp lhs(64 * 64 + 64), rhs(64 * 64 + 64), nn(64), bb(64);
      mpfr_set_sj(nn.get(), n, MPFR_RNDN);
      mpfr_set_sj(bb.get(), b, MPFR_RNDN);
      if (c < 0 || c > 4000) continue;
      const int t1 = mpfr_pow_ui(lhs.get(), nn.get(), static_cast<unsigned long>(a), MPFR_RNDN);
      const int t2 = mpfr_pow_ui(rhs.get(), bb.get(), static_cast<unsigned long>(c), MPFR_RNDN);
      if (t1 == 0 && t2 == 0 && mpfr_equal_p(lhs.get(), rhs.get())) {
        const int t = mpfr_set_si(y[0], c, MPFR_RNDN) | mpfr_div_si(y[0], y[0], a, MPFR_RNDN);
        if (t == 0)
          mpfr_set_zero(err[0], 1);
        else
          mpfr_set_ui_2exp(err[0], 1, mpfr_get_exp(y[0]) - prec, MPFR_RNDU);
        return;
      }
    }
    mpfr_set(y[0], q.get(), MPFR_RNDN);
    mpfr_set_ui_2exp(err[0], 1, mpfr_get_exp(y[0]) + 1 - prec, MPFR_RNDU);
  });
}

}  // namespace posenc::verify
