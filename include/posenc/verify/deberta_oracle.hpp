// deberta_oracle.hpp: DeBERTa's log-bucket position (He et al. 2021; HF transformers'
// make_log_bucket_position, DeBERTa-v2/v3) from its published definition, with the log term
// evaluated exactly in MPFR instead of float32. Used by tests/test_deberta.cpp and the verify engine
// (deberta_verify.hpp). Not constexpr; links MPFR (posenc::verify).
#pragma once

#include <mpfr.h>

#include <climits>
#include <cmath>
#include <cstdint>

#include "posenc/deberta/config.hpp"
#include "posenc/verify/mpfr.hpp"

namespace posenc::verify {

// The term t = (mid - 1) log(a/mid) / log((M-1)/mid) in MPFR at prec bits, and its distance to the
// nearest integer.
struct deberta_term_value {
  std::int64_t nearest;
  std::int64_t ceiling;
  double gap;         // |t - nearest|, rounded to double (0 when below 2^-1074)
  long gap_exponent;  // its binary exponent, exact (LONG_MIN when the gap is 0)
};
inline deberta_term_value deberta_term(std::int64_t a, std::int64_t mid, std::int64_t top, mpfr_prec_t prec) {
  detail::mp x(prec), y(prec), t(prec), n(prec), g(prec);
  mpfr_set_sj(x.get(), a, MPFR_RNDN);
  mpfr_div_si(x.get(), x.get(), static_cast<long>(mid), MPFR_RNDN);
  mpfr_log(x.get(), x.get(), MPFR_RNDN);
  mpfr_mul_si(x.get(), x.get(), static_cast<long>(mid - 1), MPFR_RNDN);
  mpfr_set_sj(y.get(), top, MPFR_RNDN);
  mpfr_div_si(y.get(), y.get(), static_cast<long>(mid), MPFR_RNDN);
  mpfr_log(y.get(), y.get(), MPFR_RNDN);
  mpfr_div(t.get(), x.get(), y.get(), MPFR_RNDN);
  mpfr_round(n.get(), t.get());
  mpfr_sub(g.get(), t.get(), n.get(), MPFR_RNDN);
  return {static_cast<std::int64_t>(mpfr_get_sj(n.get(), MPFR_RNDN)),
          static_cast<std::int64_t>(mpfr_get_sj(t.get(), MPFR_RNDU)), std::fabs(mpfr_get_d(g.get(), MPFR_RNDN)),
          mpfr_zero_p(g.get()) ? LONG_MIN : static_cast<long>(mpfr_get_exp(g.get()))};
}

// The oracle bucket (make_log_bucket_position with the term exact). Within 2^-240 of an integer the
// term is recomputed at 16384 bits; a term that is not an integer differs from every integer by
// more than that here (t = k iff (a/mid)^(mid-1) = ((M-1)/mid)^k; otherwise the gap is at least
// 1/max(A, B) for distinct integers A, B below 2^(32 (mid - 1 + k)) <= 2^12000 for these configs).
inline std::int64_t deberta_oracle_bucket(const deberta::config& c, std::int64_t rel) {
  const std::int64_t mid = c.position_buckets / 2, top = c.max_relative_positions - 1;
  const std::int64_t a = rel < 0 ? -rel : rel;
  if (a <= mid) return rel;
  deberta_term_value t = deberta_term(a, mid, top, 256);
  std::int64_t ceiling = t.ceiling;
  if (t.gap < 0x1p-240) {
    t = deberta_term(a, mid, top, 16384);
    ceiling = t.gap_exponent < -16000 ? t.nearest : t.ceiling;
  }
  return rel < 0 ? -(mid + ceiling) : mid + ceiling;
}

}  // namespace posenc::verify
