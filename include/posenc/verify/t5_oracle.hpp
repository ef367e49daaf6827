// t5_oracle.hpp: T5's relative-position bucket from its published definition (HF transformers'
// T5Attention._relative_position_bucket, Raffel et al. 2020), with the log term evaluated exactly
// in MPFR instead of float32. Used by tests/test_t5.cpp and the verify engine (scheme_verify.hpp).
// Not constexpr; links MPFR (posenc::verify).
#pragma once

#include <mpfr.h>

#include <cstdint>

#include "posenc/t5/config.hpp"
#include "posenc/verify/mpfr.hpp"

namespace posenc::verify {

// The bucket of relative position rel = key - query: t = K log(n/me) / log(md/me) in MPFR at 256
// bits; floor(t). When t is within 2^-240 of an integer, it is recomputed at 16384 bits: a term
// that is not an integer differs from every integer by more than 2^-12000 here (t = k means
// (n/me)^K = (md/me)^k; otherwise |K log(n/me) - k log(md/me)| = |log(A/B)| >= 1/max(A, B) for the
// distinct integers A = n^K me^k, B = md^k me^K below 2^(80 K) <= 2^10240 for K <= 128 and n, me,
// md < 2^40).
inline int t5_oracle_bucket(const t5::config& c, std::int64_t rel) {
  const std::int64_t nb = c.bidirectional ? c.relative_attention_num_buckets / 2 : c.relative_attention_num_buckets;
  const std::int64_t me = nb / 2, K = nb - me, md = c.relative_attention_max_distance;
  std::int64_t offset = 0, n = 0;
  if (c.bidirectional) {
    offset = rel > 0 ? nb : 0;
    n = rel < 0 ? -rel : rel;
  } else {
    n = rel < 0 ? -rel : 0;
  }
  if (n < me) return static_cast<int>(offset + n);
  const auto term_floor = [&](mpfr_prec_t prec, bool& near_integer) {
    detail::mp a(prec), b(prec), r(prec);
    mpfr_set_sj(a.get(), n, MPFR_RNDN);
    mpfr_div_si(a.get(), a.get(), static_cast<long>(me), MPFR_RNDN);
    mpfr_log(a.get(), a.get(), MPFR_RNDN);
    mpfr_mul_si(a.get(), a.get(), static_cast<long>(K), MPFR_RNDN);
    mpfr_set_sj(b.get(), md, MPFR_RNDN);
    mpfr_div_si(b.get(), b.get(), static_cast<long>(me), MPFR_RNDN);
    mpfr_log(b.get(), b.get(), MPFR_RNDN);
    mpfr_div(r.get(), a.get(), b.get(), MPFR_RNDN);
    detail::mp nearest(prec), gap(prec);
    mpfr_round(nearest.get(), r.get());
    mpfr_sub(gap.get(), r.get(), nearest.get(), MPFR_RNDN);
    near_integer = mpfr_zero_p(gap.get()) || mpfr_get_exp(gap.get()) < -(prec - 16);
    if (near_integer) return static_cast<std::int64_t>(mpfr_get_sj(nearest.get(), MPFR_RNDN));
    return static_cast<std::int64_t>(mpfr_get_sj(r.get(), MPFR_RNDD));
  };
  bool near = false;
  std::int64_t k = term_floor(256, near);
  if (near) k = term_floor(16384, near);  // near at 16384 bits too: an exact tie, t = k
  const std::int64_t b = me + k;
  return static_cast<int>(offset + (b < nb - 1 ? b : nb - 1));
}

}  // namespace posenc::verify
