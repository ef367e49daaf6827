// attn_temperature_oracle.hpp: Llama-4's attention temperature 1 + a ln(1 + k), k = floor((p + 1) /
// floor_scale), as an MPFR enclosure (HF Llama4TextAttention.forward; attn_temperature/scale.hpp).
// Used by tests/test_attn_temperature.cpp and the verify engine (attn_temperature_verify.hpp). Not
// constexpr; links MPFR (posenc::verify).
#pragma once

#include <mpfr.h>

#include <cstdint>

#include "posenc/verify/mpfr.hpp"

namespace posenc::verify {

// The step of 0-based position p: floor((p + 1) / floor_scale), in integers, as HF's floor of the
// quotient (p + 1 < 2^63 and floor_scale >= 1).
inline std::int64_t attn_temperature_step(std::int64_t p, std::int64_t floor_scale) { return (p + 1) / floor_scale; }

// 1 + a ln(1 + k) for the exact double a >= 0 and the integer k >= 0: exactly 1 when k = 0 or
// a = 0; otherwise ln(1 + k) at prec + 64 bits, its product with a at prec + 64 (a relative error
// below 2^-(prec + 62) of a ln(1 + k) <= y), plus 1 rounded to prec bits: within 2^(EXP(y) + 1 - prec).
inline auto attn_temperature_value(double a, std::int64_t k) {
  return detail::make_value<1>([a, k](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    mpfr_set_prec(y[0], prec);
    mpfr_set_prec(err[0], 64);
    if (k == 0 || a == 0.0) {
      mpfr_set_ui(y[0], 1, MPFR_RNDN);
      mpfr_set_zero(err[0], 1);
      return;
    }
    detail::mp l(prec + 64), aa(53);
    mpfr_set_sj(l.get(), k, MPFR_RNDN);           // exact: k < 2^63 fits prec + 64 >= 64 bits
    mpfr_add_ui(l.get(), l.get(), 1, MPFR_RNDN);  // exact
    mpfr_log(l.get(), l.get(), MPFR_RNDN);
    mpfr_set_d(aa.get(), a, MPFR_RNDN);
    mpfr_mul(l.get(), l.get(), aa.get(), MPFR_RNDN);
    mpfr_add_ui(y[0], l.get(), 1, MPFR_RNDN);
    mpfr_set_ui_2exp(err[0], 1, mpfr_get_exp(y[0]) + 1 - prec, MPFR_RNDU);
  });
}

}  // namespace posenc::verify
