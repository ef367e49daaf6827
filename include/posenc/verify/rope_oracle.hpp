// rope_oracle.hpp: MPFR reference values of the RoPE frequencies and attention factors
// (posenc/rope/frequencies.hpp), written independently from HF transformers
// modeling_rope_utils.py's formulas (pe-formulas.md 1.0-1.3), for the tests. Not constexpr.
// Each value is computed at 320 and at 640 bits and must round to the same T (a disagreement
// throws, so a test cannot pass on an undecided value).
#pragma once

#include <mpfr.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/dims.hpp"
#include "posenc/verify/mpfr_oracle.hpp"

namespace posenc::verify {
namespace rope_detail {

using M = posenc::verify::detail::mp;

struct ctx {
  mpfr_prec_t prec;
  const rope::config& c;
  void set_d(M& x, double v) const { mpfr_set_d(x.get(), v, MPFR_RNDN); }  // exact at >= 53 bits
  // log of s: factor, or max_pos / L0 when unset.
  void log_factor(M& out) const {
    if (c.factor != 0.0) {
      set_d(out, c.factor);
    } else {
      mpfr_set_si(out.get(), static_cast<long>(c.max_position_embeddings), MPFR_RNDN);
      mpfr_div_si(out.get(), out.get(), static_cast<long>(c.original_max_position_embeddings), MPFR_RNDN);
    }
    mpfr_log(out.get(), out.get(), MPFR_RNDN);
  }
  bool factor_le_one() const {
    return c.factor != 0.0 ? c.factor <= 1.0 : c.max_position_embeddings <= c.original_max_position_embeddings;
  }
  // theta = b^(-2j/D)
  void theta(M& out, long j) const {
    M e(prec);
    mpfr_set_si(e.get(), -2 * j, MPFR_RNDN);
    mpfr_div_si(e.get(), e.get(), static_cast<long>(posenc::detail::ropef::exponent_dim(c)), MPFR_RNDN);
    set_d(out, c.rope_theta);
    mpfr_pow(out.get(), out.get(), e.get(), MPFR_RNDN);
  }
  // find_correction_dim(n) = d ln(L0 / (n 2 pi)) / (2 ln b)
  void fcd(M& out, double n) const {
    M t(prec), lb(prec);
    mpfr_const_pi(t.get(), MPFR_RNDN);
    mpfr_mul_d(t.get(), t.get(), 2.0 * n, MPFR_RNDN);  // 2n exact in double
    mpfr_set_si(out.get(), static_cast<long>(c.original_max_position_embeddings), MPFR_RNDN);
    mpfr_div(out.get(), out.get(), t.get(), MPFR_RNDN);
    mpfr_log(out.get(), out.get(), MPFR_RNDN);
    mpfr_mul_si(out.get(), out.get(), static_cast<long>(posenc::detail::ropef::rotary_dim(c)), MPFR_RNDN);
    set_d(lb, c.rope_theta);
    mpfr_log(lb.get(), lb.get(), MPFR_RNDN);
    mpfr_mul_2ui(lb.get(), lb.get(), 1, MPFR_RNDN);
    mpfr_div(out.get(), out.get(), lb.get(), MPFR_RNDN);
  }
  // find_correction_range, clamped (and floored/ceiled when truncate).
  void range(M& lo, M& hi) const {
    fcd(lo, c.beta_fast);
    fcd(hi, c.beta_slow);
    if (c.truncate) {
      mpfr_floor(lo.get(), lo.get());
      mpfr_ceil(hi.get(), hi.get());
    }
    if (mpfr_sgn(lo.get()) < 0) mpfr_set_si(lo.get(), 0, MPFR_RNDN);
    const long dm1 = static_cast<long>(posenc::detail::ropef::rotary_dim(c)) - 1;
    if (mpfr_cmp_si(hi.get(), dm1) > 0) mpfr_set_si(hi.get(), dm1, MPFR_RNDN);
  }
  void get_mscale(M& out, const M& ln_s, double m) const {
    mpfr_mul_d(out.get(), ln_s.get(), m, MPFR_RNDN);
    mpfr_div_ui(out.get(), out.get(), 10, MPFR_RNDN);
    mpfr_add_ui(out.get(), out.get(), 1, MPFR_RNDN);
  }
  void inv_freq(M& out, long j) const;
  void attention(M& out) const;
  void softmax(M& out) const;
};

inline void ctx::inv_freq(M& out, long j) const {
  using rope::scaling;
  const long d = static_cast<long>(posenc::detail::ropef::rotary_dim(c));
  if (j >= posenc::detail::ropef::rotating_pairs(c)) {
    mpfr_set_zero(out.get(), 1);
    return;
  }
  theta(out, j);
  M s(prec), t(prec), u(prec);
  switch (c.rope_type) {
    case scaling::default_:
    case scaling::linear:
      if (c.factor != 0.0) mpfr_div_d(out.get(), out.get(), c.factor, MPFR_RNDN);
      return;
    case scaling::ntk:  // (b s^(d/(d-2)))^(-2j/d) = theta * s^(-2j/(d-2))
    case scaling::dynamic: {
      if (c.rope_type == scaling::ntk) {
        set_d(s, c.factor);
      } else {  // q = s*L/M - (s - 1), L = max(seq_len, M)
        const long m = static_cast<long>(c.max_position_embeddings);
        const long len = std::max(static_cast<long>(c.seq_len), m);
        set_d(s, c.factor);
        mpfr_mul_si(t.get(), s.get(), len, MPFR_RNDN);
        mpfr_div_si(t.get(), t.get(), m, MPFR_RNDN);
        mpfr_sub(t.get(), t.get(), s.get(), MPFR_RNDN);
        mpfr_add_ui(s.get(), t.get(), 1, MPFR_RNDN);
      }
      mpfr_set_si(u.get(), -2 * j, MPFR_RNDN);
      mpfr_div_si(u.get(), u.get(), d - 2, MPFR_RNDN);
      mpfr_pow(s.get(), s.get(), u.get(), MPFR_RNDN);
      mpfr_mul(out.get(), out.get(), s.get(), MPFR_RNDN);
      return;
    }
    case scaling::yarn: {  // interp * ramp + extrap * (1 - ramp)
      M lo(prec), hi(prec);
      range(lo, hi);
      if (mpfr_equal_p(lo.get(), hi.get())) mpfr_add_d(hi.get(), hi.get(), 0.001, MPFR_RNDN);
      mpfr_si_sub(t.get(), j, lo.get(), MPFR_RNDN);
      mpfr_sub(u.get(), hi.get(), lo.get(), MPFR_RNDN);
      mpfr_div(t.get(), t.get(), u.get(), MPFR_RNDN);
      if (mpfr_sgn(t.get()) < 0) mpfr_set_si(t.get(), 0, MPFR_RNDN);
      if (mpfr_cmp_si(t.get(), 1) > 0) mpfr_set_si(t.get(), 1, MPFR_RNDN);
      log_factor(s);
      mpfr_neg(s.get(), s.get(), MPFR_RNDN);
      mpfr_exp(s.get(), s.get(), MPFR_RNDN);  // 1/s
      // out * (ramp / s + 1 - ramp)
      mpfr_mul(u.get(), t.get(), s.get(), MPFR_RNDN);
      mpfr_add_ui(u.get(), u.get(), 1, MPFR_RNDN);
      mpfr_sub(u.get(), u.get(), t.get(), MPFR_RNDN);
      mpfr_mul(out.get(), out.get(), u.get(), MPFR_RNDN);
      return;
    }
    case scaling::longrope: {
      const auto f = c.seq_len > c.original_max_position_embeddings ? c.long_factor : c.short_factor;
      mpfr_div_d(out.get(), out.get(), static_cast<double>(f[static_cast<std::size_t>(j)]), MPFR_RNDN);
      return;
    }
    case scaling::llama3: {  // wavelen = 2 pi / inv
      M wl(prec);
      mpfr_const_pi(wl.get(), MPFR_RNDN);
      mpfr_mul_2ui(wl.get(), wl.get(), 1, MPFR_RNDN);
      mpfr_div(wl.get(), wl.get(), out.get(), MPFR_RNDN);
      const double l0 = static_cast<double>(c.original_max_position_embeddings);
      mpfr_set_d(t.get(), l0, MPFR_RNDN);
      mpfr_div_d(t.get(), t.get(), c.high_freq_factor, MPFR_RNDN);  // high_wl
      if (mpfr_less_p(wl.get(), t.get())) return;
      mpfr_set_d(t.get(), l0, MPFR_RNDN);
      mpfr_div_d(t.get(), t.get(), c.low_freq_factor, MPFR_RNDN);  // low_wl
      if (mpfr_greater_p(wl.get(), t.get())) {
        mpfr_div_d(out.get(), out.get(), c.factor, MPFR_RNDN);
        return;
      }
      mpfr_d_div(t.get(), l0, wl.get(), MPFR_RNDN);  // smooth = (L0/wl - lff) / (hff - lff)
      mpfr_sub_d(t.get(), t.get(), c.low_freq_factor, MPFR_RNDN);
      mpfr_set_d(u.get(), c.high_freq_factor, MPFR_RNDN);
      mpfr_sub_d(u.get(), u.get(), c.low_freq_factor, MPFR_RNDN);
      mpfr_div(t.get(), t.get(), u.get(), MPFR_RNDN);
      mpfr_ui_sub(u.get(), 1, t.get(), MPFR_RNDN);  // (1 - smooth) / s + smooth
      mpfr_div_d(u.get(), u.get(), c.factor, MPFR_RNDN);
      mpfr_add(u.get(), u.get(), t.get(), MPFR_RNDN);
      mpfr_mul(out.get(), out.get(), u.get(), MPFR_RNDN);
      return;
    }
  }
}

inline void ctx::attention(M& out) const {
  using rope::scaling;
  const bool expl = (c.rope_type == scaling::yarn || c.rope_type == scaling::longrope) && c.attention_factor;
  if (expl) {
    set_d(out, *c.attention_factor);
    return;
  }
  mpfr_set_ui(out.get(), 1, MPFR_RNDN);
  if (factor_le_one()) return;
  M ls(prec), t(prec);
  log_factor(ls);
  if (c.rope_type == scaling::yarn) {
    if (c.mscale != 0.0 && c.mscale_all_dim != 0.0) {
      get_mscale(out, ls, c.mscale);
      get_mscale(t, ls, c.mscale_all_dim);
      mpfr_div(out.get(), out.get(), t.get(), MPFR_RNDN);
    } else {
      get_mscale(out, ls, 1.0);
    }
  } else if (c.rope_type == scaling::longrope) {
    mpfr_set_si(t.get(), static_cast<long>(c.original_max_position_embeddings), MPFR_RNDN);
    mpfr_log(t.get(), t.get(), MPFR_RNDN);
    mpfr_div(out.get(), ls.get(), t.get(), MPFR_RNDN);
    mpfr_add_ui(out.get(), out.get(), 1, MPFR_RNDN);
    mpfr_sqrt(out.get(), out.get(), MPFR_RNDN);
  }
}

inline void ctx::softmax(M& out) const {
  mpfr_set_ui(out.get(), 1, MPFR_RNDN);
  if (c.mscale_all_dim == 0.0 || factor_le_one()) return;
  M ls(prec);
  log_factor(ls);
  get_mscale(out, ls, c.mscale_all_dim);
  mpfr_sqr(out.get(), out.get(), MPFR_RNDN);
}

template <class T, class F>
T decide(F f) {
  M a(320), b(640);
  f(a, mpfr_prec_t{320});
  f(b, mpfr_prec_t{640});
  const std::uint64_t x = detail::round_into_bits<T>(a.get()), y = detail::round_into_bits<T>(b.get());
  if (x != y) throw std::runtime_error("rope_oracle: 320 and 640 bits disagree");
  return detail::from_bits64<T>(x);
}

}  // namespace rope_detail

// RN_T of inv_freq[j] of the config (validated by the caller).
template <class T>
T cr_rope_inv_freq(const rope::config& c, int j) {
  return rope_detail::decide<T>([&](rope_detail::M& out, mpfr_prec_t p) { rope_detail::ctx{p, c}.inv_freq(out, j); });
}
template <class T>
T cr_rope_attention_factor(const rope::config& c) {
  return rope_detail::decide<T>([&](rope_detail::M& out, mpfr_prec_t p) { rope_detail::ctx{p, c}.attention(out); });
}
template <class T>
T cr_rope_softmax_scale_factor(const rope::config& c) {
  return rope_detail::decide<T>([&](rope_detail::M& out, mpfr_prec_t p) { rope_detail::ctx{p, c}.softmax(out); });
}
// The (clamped, possibly truncated) YaRN correction range in double.
inline void exact_yarn_range(const rope::config& c, double& lo, double& hi) {
  rope_detail::M l(320), h(320);
  rope_detail::ctx{320, c}.range(l, h);
  lo = mpfr_get_d(l.get(), MPFR_RNDN);
  hi = mpfr_get_d(h.get(), MPFR_RNDN);
}

}  // namespace posenc::verify
