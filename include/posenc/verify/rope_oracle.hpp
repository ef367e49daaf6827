// rope_oracle.hpp: MPFR reference values of RoPE, for the tests. Not constexpr.
//
// The scaled frequencies and attention factors (posenc/rope/frequencies.hpp), written
// independently from HF transformers modeling_rope_utils.py's formulas (pe-formulas.md 1.0-1.3):
// cr_rope_inv_freq, cr_rope_attention_factor, cr_rope_softmax_scale_factor, exact_yarn_range.
// Each value is computed at 320 and at 640 bits and must round to the same T (a disagreement
// throws, so a test cannot pass on an undecided value).
//
// The default frequency theta_j = base^(-2j/d) and cos/sin of the exact angle m * theta_j:
// rope_frequency, rope_value, cr_rope_sincos (at the end of this file; exact_rope_theta, the
// frequency as an exact_real, is in exact_real.hpp). These carry a proven error bound and are
// rounded by mpfr.hpp's Ziv test, like oracle.hpp's values.
#pragma once

#include <mpfr.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "posenc/math/sincos_result.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/dims.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/oracle.hpp"

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
    mpfr_div_si(e.get(), e.get(), static_cast<long>(posenc::rope::detail::exponent_dim(c)), MPFR_RNDN);
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
    mpfr_mul_si(out.get(), out.get(), static_cast<long>(posenc::rope::detail::rotary_dim(c)), MPFR_RNDN);
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
    const long dm1 = static_cast<long>(posenc::rope::detail::rotary_dim(c)) - 1;
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
  const long d = static_cast<long>(posenc::rope::detail::rotary_dim(c));
  if (j >= posenc::rope::detail::rotating_pairs(c)) {
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
      mpfr_div_d(out.get(), out.get(), f[static_cast<std::size_t>(j)], MPFR_RNDN);
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

// ---- RoPE: theta_j = base^(-2j/d) and cos/sin(m * theta_j), all exact reals ----
//
// theta = exp(t), t = (-2j) * log(base) / d, evaluated at w bits with round-to-nearest: each of
// the 3 steps of t has relative error <= 2^-w, so |t~ - t| <= 3.02 * 2^-w * |t~|; exp adds a
// relative 2^-w, and |exp(t~ - t) - 1| <= 3.1 |t~| 2^-w while that is below 2^-10 (always, as
// |t| <= 2^42 for int j and finite base). x = RN(m * theta~) adds 2^-w. So
//   |x~ - m*theta| <= B = |x~| * (4 |t~| + 4) * 2^-w            (generous),
// and, sin and cos being 1-Lipschitz, a correctly rounded sin(x~) at prec bits is within
// B + ulp_prec of sin(m*theta). That is the enclosure Ziv's test uses (requires base > 0, d != 0).
class rope_frequency {
 public:
  rope_frequency(double base, int j, int d) : base_(base), j_(j), d_(d), w_(oracle_precision + 32) {
    if (!(base > 0.0) || d == 0) detail::oracle_failure("rope_frequency needs base > 0, d != 0");
    compute(theta_.get(), abs_t_.get(), w_);
  }

  // theta at w bits into theta (its precision is set), |t~| (rounded up, 64 bits) into abs_t.
  void compute(mpfr_ptr theta, mpfr_ptr abs_t, mpfr_prec_t w) const {
    detail::mp b(53), t(w);
    mpfr_set_d(b.get(), base_, MPFR_RNDN);
    mpfr_log(t.get(), b.get(), MPFR_RNDN);
    mpfr_mul_si(t.get(), t.get(), -2L * j_, MPFR_RNDN);
    mpfr_div_si(t.get(), t.get(), d_, MPFR_RNDN);
    mpfr_set_prec(theta, w);
    mpfr_exp(theta, t.get(), MPFR_RNDN);
    mpfr_set_prec(abs_t, 64);
    mpfr_abs(abs_t, t.get(), MPFR_RNDU);
  }

  // y[0] = cos, y[1] = sin of m * theta, with error bounds, at output precision prec.
  void cos_sin(mpfr_ptr* y, mpfr_ptr* err, std::uint64_t m, mpfr_prec_t prec) const {
    detail::mp mm(64);
    mpfr_set_uj(mm.get(), m, MPFR_RNDN);
    cos_sin_at(y, err, mm.get(), prec);
  }

  // The same at a real position p (a double, exactly: rope/real_position.hpp). The bound B below
  // holds for any real p: |x~ - p theta| <= |p| |theta~ - theta| + 2^-w |x~|, as for an integer.
  void cos_sin_real(mpfr_ptr* y, mpfr_ptr* err, double p, mpfr_prec_t prec) const {
    detail::mp mm(64);
    mpfr_set_d(mm.get(), p, MPFR_RNDN);  // 53 bits: exact
    cos_sin_at(y, err, mm.get(), prec);
  }

  // y[0] = cos, y[1] = sin of 2 pi p theta (the angle in turns: DINOv3, rope/turns.hpp), p a double.
  // x~ = RN_w(p theta~) is within B (above) of p theta; its fraction u = x~ - round(x~) (mpfr_frac
  // of x~ - n is exact) is within B of p theta - n; y = RN_w(RN_w(2 pi) u), with mpfr_const_pi, is
  // within 2 pi B + 2^(2-w) |y| of 2 pi (p theta - n), whose cos and sin are the wanted ones
  // (n an integer). Exact cases: theta is exactly 1 only for j = 0 (t = 0, exp(0) = 1 exactly),
  // and then 4 p an integer gives cos, sin in {0, +-1} exactly (mpfr_sin_cos of an exact y would
  // never be: pi is irrational), so they are set, with error 0.
  void cos_sin_turns(mpfr_ptr* y, mpfr_ptr* err, double p, mpfr_prec_t prec) const {
    mpfr_set_prec(y[0], prec);
    mpfr_set_prec(y[1], prec);
    const mpfr_prec_t w = prec + 32;
    detail::mp theta(w), abs_t(64), x(w), pi2(w), u(w);
    if (w == w_) {
      mpfr_set(theta.get(), theta_.get(), MPFR_RNDN);
      mpfr_set(abs_t.get(), abs_t_.get(), MPFR_RNDN);
    } else {
      compute(theta.get(), abs_t.get(), w);
    }
    const bool exact_theta = j_ == 0;
    if (exact_theta) {
      detail::mp q(w);
      mpfr_set_d(q.get(), p, MPFR_RNDN);
      mpfr_mul_2ui(q.get(), q.get(), 2, MPFR_RNDN);  // 4 p, exact
      if (mpfr_integer_p(q.get())) {
        if (!mpfr_fits_slong_p(q.get(), MPFR_RNDN)) detail::oracle_failure("cos_sin_turns: |4 p| too large");
        long k = mpfr_get_si(q.get(), MPFR_RNDN);  // exact: an integer that fits
        k = ((k % 4) + 4) % 4;
        const long cs[4] = {1, 0, -1, 0}, sn[4] = {0, 1, 0, -1};
        mpfr_set_si(y[0], cs[k], MPFR_RNDN);
        mpfr_set_si(y[1], sn[k], MPFR_RNDN);
        if (mpfr_zero_p(y[0])) mpfr_set_zero(y[0], 1);
        if (mpfr_zero_p(y[1])) mpfr_set_zero(y[1], 1);
        mpfr_set_zero(err[0], 1);
        mpfr_set_zero(err[1], 1);
        return;
      }
    }
    detail::mp pos(64);
    mpfr_set_d(pos.get(), p, MPFR_RNDN);  // exact
    mpfr_mul(x.get(), theta.get(), pos.get(), MPFR_RNDN);
    detail::mp bound(64);  // B = |x| * (4|t| + 4) * 2^-w, rounded up
    mpfr_mul_ui(bound.get(), abs_t.get(), 4, MPFR_RNDU);
    mpfr_add_ui(bound.get(), bound.get(), 4, MPFR_RNDU);
    mpfr_mul(bound.get(), bound.get(), x.get(), MPFR_RNDU);
    mpfr_abs(bound.get(), bound.get(), MPFR_RNDU);
    mpfr_mul_2si(bound.get(), bound.get(), -w, MPFR_RNDU);
    if (exact_theta) mpfr_set_zero(bound.get(), 1);  // x = p exactly
    detail::mp n(w);
    mpfr_rint(n.get(), x.get(), MPFR_RNDN);
    mpfr_sub(u.get(), x.get(), n.get(), MPFR_RNDN);  // exact (Sterbenz-like: same binade or smaller)
    mpfr_const_pi(pi2.get(), MPFR_RNDN);
    mpfr_mul_2ui(pi2.get(), pi2.get(), 1, MPFR_RNDN);
    detail::mp angle(w);
    mpfr_mul(angle.get(), pi2.get(), u.get(), MPFR_RNDN);
    detail::mp ab(64), rel(64);  // 7 B + 2^(2-w) |y|
    mpfr_mul_ui(ab.get(), bound.get(), 7, MPFR_RNDU);
    mpfr_abs(rel.get(), angle.get(), MPFR_RNDU);
    mpfr_mul_2si(rel.get(), rel.get(), 2 - w, MPFR_RNDU);
    mpfr_add(ab.get(), ab.get(), rel.get(), MPFR_RNDU);
    detail::cos_sin(y, err, angle.get(), prec);
    for (std::size_t k = 0; k < 2; ++k) mpfr_add(err[k], err[k], ab.get(), MPFR_RNDU);
  }

  // The high-precision theta (for checking rope_theta: exact_rope_theta in exact_real.hpp).
  mpfr_srcptr theta_mpfr() const noexcept { return theta_.get(); }

 private:
  void cos_sin_at(mpfr_ptr* y, mpfr_ptr* err, mpfr_srcptr position, mpfr_prec_t prec) const {
    if (mpfr_zero_p(position)) {  // x = 0 exactly: cos = 1, sin = +0
      mpfr_set_prec(y[0], prec);
      mpfr_set_prec(y[1], prec);
      mpfr_set_ui(y[0], 1, MPFR_RNDN);
      mpfr_set_zero(y[1], 1);
      mpfr_set_zero(err[0], 1);
      mpfr_set_zero(err[1], 1);
      return;
    }
    const mpfr_prec_t w = prec + 32;
    detail::mp theta(w), abs_t(64), x(w);
    if (w == w_) {
      mpfr_set(theta.get(), theta_.get(), MPFR_RNDN);
      mpfr_set(abs_t.get(), abs_t_.get(), MPFR_RNDN);
    } else {
      compute(theta.get(), abs_t.get(), w);
    }
    mpfr_mul(x.get(), theta.get(), position, MPFR_RNDN);
    detail::mp bound(64);  // B = |x| * (4|t| + 4) * 2^-w, rounded up
    mpfr_mul_ui(bound.get(), abs_t.get(), 4, MPFR_RNDU);
    mpfr_add_ui(bound.get(), bound.get(), 4, MPFR_RNDU);
    mpfr_mul(bound.get(), bound.get(), x.get(), MPFR_RNDU);
    mpfr_abs(bound.get(), bound.get(), MPFR_RNDU);
    mpfr_mul_2si(bound.get(), bound.get(), -w, MPFR_RNDU);
    detail::cos_sin(y, err, x.get(), prec);
    for (std::size_t k = 0; k < 2; ++k) {
      detail::mp ulp(64);
      if (mpfr_regular_p(y[k])) {
        mpfr_set_ui_2exp(ulp.get(), 1, mpfr_get_exp(y[k]) - prec, MPFR_RNDU);
      } else {
        mpfr_set_zero(ulp.get(), 1);
      }
      mpfr_add(err[k], bound.get(), ulp.get(), MPFR_RNDU);
    }
  }

  double base_;
  int j_, d_;
  mpfr_prec_t w_;
  detail::mp theta_{64}, abs_t_{64};
};

// The oracle value pair (cos, sin) of m * theta for a cached frequency; round<T>(0) is cos,
// round<T>(1) is sin. The frequency must outlive the value.
inline auto rope_value(const rope_frequency& f, std::uint64_t m) {
  return detail::make_value<2>([&f, m](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) { f.cos_sin(y, err, m, prec); });
}

// At a real position p (a double).
inline auto rope_value_at(const rope_frequency& f, double p) {
  return detail::make_value<2>(
      [&f, p](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) { f.cos_sin_real(y, err, p, prec); });
}

template <class T>
math::sincos_result<T> cr_rope_sincos_at(double p, double base, int j, int d) {
  const rope_frequency f(base, j, d);
  auto v = rope_value_at(f, p);
  const T c = v.template round<T>(0);
  return {v.template round<T>(1), c};
}

// cos/sin(2 pi p theta_j): the angle in turns (DINOv3's 2 pi coord / period, rope/turns.hpp).
inline auto rope_turns_value_at(const rope_frequency& f, double p) {
  return detail::make_value<2>(
      [&f, p](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) { f.cos_sin_turns(y, err, p, prec); });
}

template <class T>
math::sincos_result<T> cr_rope_turns_sincos_at(double p, double base, int j, int d) {
  const rope_frequency f(base, j, d);
  auto v = rope_turns_value_at(f, p);
  const T c = v.template round<T>(0);
  return {v.template round<T>(1), c};
}

template <class T>
math::sincos_result<T> cr_rope_sincos(std::uint64_t m, double base, int j, int d) {
  const rope_frequency f(base, j, d);
  auto v = rope_value(f, m);
  const T c = v.template round<T>(0);
  return {v.template round<T>(1), c};
}

}  // namespace posenc::verify
