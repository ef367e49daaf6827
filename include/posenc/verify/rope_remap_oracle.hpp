// rope_remap_oracle.hpp: MPFR reference values of the remapped RoPE tables (rope/rerope.hpp,
// rope/leaky_rerope.hpp, rope/streaming_cache.hpp), for the tests. Not constexpr.
//
// The value of a relative position rel' that is a real number, computed from its definition and
// not from posenc's integer-row form: Leaky ReRoPE's rel' = w + (rel - w) / k for rel >= w is formed
// in MPFR as (rel - w) / k + w at 320 bits, then the angle rel' theta_j with theta_j the plain
// config's exact frequency (rope_oracle.hpp's transcription of HF's formula), then sin and cos. So a
// table that used the wrong row of the scaled table, or the scaled frequency of a config other than
// the plain one divided by k, disagrees here. Each MPFR operation is correctly rounded at 320 bits:
// the absolute error of the values stays below 2^-250 for angles below 2^40, and a value is
// accepted only when mpfr_can_round proves its rounding at 54 bits (rope_table_oracle.hpp's rule,
// which decides RN for double, float, bfloat16 and float16 alike); otherwise it throws.
#pragma once

#include <mpfr.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "posenc/math/sincos_result.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/dims.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/rope_oracle.hpp"

namespace posenc::verify {

// The plain config's exact frequencies, kept at 320 bits, and sin, cos of rel' theta_j.
class leaky_rerope_oracle {
 public:
  static constexpr mpfr_prec_t prec = 320;
  using M = rope_detail::M;

  leaky_rerope_oracle(const rope::config& plain, std::uint64_t window, std::uint64_t scaling_factor)
      : window_(window), k_(scaling_factor) {
    const long pairs = static_cast<long>(posenc::rope::detail::rotary_dim(plain)) / 2;
    for (long j = 0; j < pairs; ++j) {
      theta_.push_back(std::make_unique<M>(prec));
      rope_detail::ctx{prec, plain}.inv_freq(*theta_.back(), j);
    }
  }

  // sin and cos of rel' theta_j at 320 bits (absolute error below 2^-250); rel' from its definition.
  void eval(std::uint64_t rel, int j, M& sin, M& cos) const {
    M x(prec);
    if (rel < window_) {
      mpfr_set_uj(x.get(), rel, MPFR_RNDN);
    } else {
      mpfr_set_uj(x.get(), rel - window_, MPFR_RNDN);
      mpfr_div_ui(x.get(), x.get(), static_cast<unsigned long>(k_), MPFR_RNDN);
      mpfr_add_ui(x.get(), x.get(), static_cast<unsigned long>(window_), MPFR_RNDN);
    }
    mpfr_mul(x.get(), x.get(), theta_.at(static_cast<std::size_t>(j))->get(), MPFR_RNDN);
    mpfr_sin_cos(sin.get(), cos.get(), x.get(), MPFR_RNDN);
  }

  // RN_T(sin(rel' theta_j)), RN_T(cos(rel' theta_j)); throws when the rounding is not proven.
  template <class T>
  math::sincos_result<T> sincos(std::uint64_t rel, int j) const {
    M s(prec), c(prec);
    eval(rel, j, s, c);
    if (rel == 0) return {detail::round_into<T>(s.get()), detail::round_into<T>(c.get())};  // sin 0, cos 0: exact
    for (mpfr_srcptr y : {static_cast<mpfr_srcptr>(s.get()), static_cast<mpfr_srcptr>(c.get())}) {
      const long rel_bits = static_cast<long>(mpfr_get_exp(y)) + 250;  // error 2^-250 = 2^(EXP(y) - rel_bits)
      if (rel_bits < 60 || !mpfr_can_round(y, rel_bits, MPFR_RNDN, MPFR_RNDZ, 54))
        throw std::runtime_error("leaky_rerope_oracle: value too close to a 54-bit number to round");
    }
    return {detail::round_into<T>(s.get()), detail::round_into<T>(c.get())};
  }

 private:
  std::uint64_t window_, k_;
  std::vector<std::unique_ptr<M>> theta_;
};

// RN_T(sin(rel' theta_j)), RN_T(cos(rel' theta_j)), rel' = w + (rel - w) / k if rel >= w else rel.
// k = 1 (or a window past rel) gives the plain RoPE entry at rel.
template <class T>
math::sincos_result<T> cr_leaky_rerope_sincos(const rope::config& plain, std::uint64_t window,
                                              std::uint64_t scaling_factor, std::uint64_t rel, int j) {
  return leaky_rerope_oracle(plain, window, scaling_factor).sincos<T>(rel, j);
}

}  // namespace posenc::verify
