// sinusoid_oracle.hpp: the exact sinusoidal encodings (Vaswani et al. 2017, and the frameworks'
// variants: XLM/DistilBERT, Marian, fairseq; pe-formulas.md section 5) as MPFR enclosures: which
// angle and function each element of a row is, indexed the way each framework's code indexes it,
// and cos and sin of pos * base^(-num/den). Used by tests/test_sinusoidal.cpp and the verify engine
// (scheme_verify.hpp; Transformer-XL's [sin | cos] rows are the paper exponent in the concat
// layout). Not constexpr; links MPFR (posenc::verify).
#pragma once

#include <mpfr.h>

#include <cstdint>

#include "posenc/sinusoidal/config.hpp"
#include "posenc/verify/mpfr.hpp"

namespace posenc::verify {

// One element as the frameworks index it (pe-formulas.md section 5):
//  interleaved (XLM/DistilBERT create_sinusoidal_embeddings): angle pos / base^(2 (j // 2) / d),
//    sin at even j, cos at odd j;
//  concat + paper (Marian _init_weight): sentinel = d // 2 + d % 2; column c < sentinel is sin of
//    position_enc[:, 2c], column sentinel + c is cos of position_enc[:, 2c + 1];
//  concat + fairseq (get_embedding): half = d // 2, emb_i = exp(-i ln(base) / (half - 1)),
//    [sin(pos emb) | cos(pos emb)], a zero column when d is odd;
//  interleaved + fairseq: sin/cos of emb_{j // 2} at even/odd j.
struct sinusoid_element {
  bool zero = false;
  bool is_sin = true;
  std::int64_t num = 0, den = 1;  // the angle is pos * base^(-num/den)
};
inline sinusoid_element sinusoid_element_of(const sinusoidal::config& c, int j) {
  const int d = c.dim;
  if (c.exponent == sinusoidal::exponent::paper) {
    if (c.layout == sinusoidal::layout::interleaved) return {false, j % 2 == 0, 2 * (j / 2), d};
    const int sentinel = d / 2 + d % 2;
    if (j < sentinel) return {false, true, 2 * ((2 * j) / 2), d};
    const int col = 2 * (j - sentinel) + 1;
    return {false, false, 2 * (col / 2), d};
  }
  const int half = d / 2;
  if (c.layout == sinusoidal::layout::interleaved) return {j / 2 >= half, j % 2 == 0, j / 2, half - 1};
  if (j >= 2 * half) return {true, true, 0, 1};
  return {false, j < half, j < half ? j : j - half, half - 1};
}

// cos and sin of pos * base^(-num/den) (the oracle of test_geometric.cpp's sincos_geometric test).
inline auto sinusoid_angle_value(std::int64_t pos, double base, std::int64_t num, std::int64_t den) {
  return detail::make_value<2>([pos, base, num, den](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    const mpfr_prec_t w = prec + 128;
    detail::mp e(w), l(w), n(64), dd(64), mm(64), x(w + 64);
    mpfr_set_sj(n.get(), num, MPFR_RNDN);
    mpfr_set_sj(dd.get(), den, MPFR_RNDN);
    mpfr_div(e.get(), n.get(), dd.get(), MPFR_RNDN);
    mpfr_set_d(l.get(), base, MPFR_RNDN);
    mpfr_log(l.get(), l.get(), MPFR_RNDN);
    mpfr_mul(e.get(), e.get(), l.get(), MPFR_RNDN);
    mpfr_neg(e.get(), e.get(), MPFR_RNDN);
    mpfr_exp(e.get(), e.get(), MPFR_RNDN);
    mpfr_set_sj(mm.get(), pos, MPFR_RNDN);
    mpfr_mul(x.get(), e.get(), mm.get(), MPFR_RNDN);  // exact
    mpfr_set_prec(y[0], prec);
    mpfr_set_prec(y[1], prec);
    mpfr_sin_cos(y[1], y[0], x.get(), MPFR_RNDN);
    for (int k = 0; k < 2; ++k) {
      mpfr_set_prec(err[k], 64);
      if (pos == 0) {
        mpfr_set_zero(err[k], 1);
        continue;
      }
      detail::mp a(64);
      mpfr_set_ui_2exp(err[k], 1, -prec - 32, MPFR_RNDU);
      if (mpfr_regular_p(y[k])) {
        mpfr_set_ui_2exp(a.get(), 1, mpfr_get_exp(y[k]) + 1 - prec, MPFR_RNDU);
        mpfr_add(err[k], err[k], a.get(), MPFR_RNDU);
      }
    }
  });
}

}  // namespace posenc::verify
