// rope_table_oracle.hpp: MPFR reference values of scaled RoPE cos/sin tables (posenc/rope/angle.hpp,
// posenc/rope/table.hpp), for the tests. Not constexpr.
//
// theta_j and the attention factor come from rope_oracle.hpp's independent MPFR transcription of
// HF's formulas at 320 bits (each MPFR operation correctly rounded: a few dozen of them leave a
// relative error far below 2^-300); X = m theta_j exactly-rounded at 320 bits; sin and cos of X by
// mpfr_sin_cos. The absolute error of each value is below 2^-250 for m <= 2^53; a value is accepted
// only if mpfr_can_round proves that every real within 2^-250 rounds toward zero alike at 54 bits,
// i.e. that no number with 54 significant bits (every value and every rounding midpoint of double,
// float, bfloat16 and float16, subnormals included) lies within the error: RN_T is then certain
// for all four formats. Otherwise it throws (a test cannot pass on an undecided value).
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

// One config's exact frequencies and attention factor, kept at 320 bits.
class rope_table_oracle {
 public:
  static constexpr mpfr_prec_t prec = 320;
  static constexpr long err_exp = -250;  // absolute error bound 2^-250 of every value

  explicit rope_table_oracle(const rope::config& c) : c_(c), af_(prec) {
    const long pairs = static_cast<long>(posenc::rope::detail::rotary_dim(c)) / 2;
    rope_detail::ctx ctx{prec, c};
    for (long j = 0; j < pairs; ++j) {
      theta_.push_back(std::make_unique<rope_detail::M>(prec));
      ctx.inv_freq(*theta_.back(), j);
    }
    ctx.attention(af_);
  }

  // cos and sin of m theta_j (times the attention factor when fold), 320 bits, checked roundable.
  struct value {
    rope_detail::M cos{prec}, sin{prec};
    template <class T>
    math::sincos_result<T> round() const {
      return {detail::round_into<T>(sin.get()), detail::round_into<T>(cos.get())};
    }
  };

  void eval(std::uint64_t m, int j, bool fold, value& out) const {
    rope_detail::M x(prec);
    mpfr_mul_ui(x.get(), theta_.at(static_cast<std::size_t>(j))->get(), static_cast<unsigned long>(m), MPFR_RNDN);
    mpfr_sin_cos(out.sin.get(), out.cos.get(), x.get(), MPFR_RNDN);
    if (fold) {
      mpfr_mul(out.sin.get(), out.sin.get(), af_.get(), MPFR_RNDN);
      mpfr_mul(out.cos.get(), out.cos.get(), af_.get(), MPFR_RNDN);
    }
    if (m == 0 || mpfr_zero_p(x.get())) return;  // X = 0: cos and sin are exact
    check(out.sin.get());
    check(out.cos.get());
  }

  // The same at a real position p (a double: rope/real_position.hpp), not folded. X = p theta_j
  // rounded once at 320 bits: the same error bound as an integer m <= 2^53 for |p| <= 2^21.
  void eval_at(double p, int j, value& out) const {
    rope_detail::M x(prec);
    mpfr_mul_d(x.get(), theta_.at(static_cast<std::size_t>(j))->get(), p, MPFR_RNDN);
    mpfr_sin_cos(out.sin.get(), out.cos.get(), x.get(), MPFR_RNDN);
    if (mpfr_zero_p(x.get())) {  // p = +-0: cos 1, sin +0 (as the tables hold it)
      mpfr_set_zero(out.sin.get(), 1);
      return;
    }
    check(out.sin.get());
    check(out.cos.get());
  }

  // cos and sin of 2 pi p theta_j (the angle in turns: DINOv3, rope/turns.hpp), not folded.
  // X = p theta_j rounded once at 320 bits (|X| <= 2^21: error below 2^-298); its fraction
  // u = X - rint(X) is exact; 2 pi u by mpfr_const_pi at 320 bits (error below 2^-316): the angle
  // is within 2^-250 of 2 pi (p theta_j - n), whose cos and sin are the wanted ones. At a
  // default-scaling config's j = 0, theta = 1 exactly and X = p: a quarter turn (4 p an integer)
  // gives cos and sin in {0, +-1} exactly (zeros +0), set without rounding.
  void eval_turns_at(double p, int j, value& out) const {
    rope_detail::M x(prec), n(prec), angle(prec);
    mpfr_mul_d(x.get(), theta_.at(static_cast<std::size_t>(j))->get(), p, MPFR_RNDN);
    if (j == 0 && c_.rope_type == rope::scaling::default_) {
      mpfr_set_d(x.get(), p, MPFR_RNDN);
      rope_detail::M q(prec);
      mpfr_mul_2ui(q.get(), x.get(), 2, MPFR_RNDN);
      if (mpfr_integer_p(q.get())) {
        const long k = ((mpfr_get_si(q.get(), MPFR_RNDN) % 4) + 4) % 4;  // |4 p| <= 2^23
        const long cs[4] = {1, 0, -1, 0}, sn[4] = {0, 1, 0, -1};
        mpfr_set_si(out.cos.get(), cs[k], MPFR_RNDN);
        mpfr_set_si(out.sin.get(), sn[k], MPFR_RNDN);
        if (cs[k] == 0) mpfr_set_zero(out.cos.get(), 1);
        if (sn[k] == 0) mpfr_set_zero(out.sin.get(), 1);
        return;
      }
    }
    mpfr_rint(n.get(), x.get(), MPFR_RNDN);
    mpfr_sub(x.get(), x.get(), n.get(), MPFR_RNDN);  // exact
    mpfr_const_pi(angle.get(), MPFR_RNDN);
    mpfr_mul_2ui(angle.get(), angle.get(), 1, MPFR_RNDN);
    mpfr_mul(angle.get(), angle.get(), x.get(), MPFR_RNDN);
    mpfr_sin_cos(out.sin.get(), out.cos.get(), angle.get(), MPFR_RNDN);
    if (mpfr_zero_p(angle.get())) {  // p = +-0: cos 1, sin +0
      mpfr_set_zero(out.sin.get(), 1);
      return;
    }
    check(out.sin.get());
    check(out.cos.get());
  }

  // out = plain times the attention factor (plain from eval(m, j, false, plain)); x_zero: X was 0.
  void fold(const value& plain, bool x_zero, value& out) const {
    mpfr_mul(out.sin.get(), plain.sin.get(), af_.get(), MPFR_RNDN);
    mpfr_mul(out.cos.get(), plain.cos.get(), af_.get(), MPFR_RNDN);
    if (x_zero) return;
    check(out.sin.get());
    check(out.cos.get());
  }

  template <class T>
  math::sincos_result<T> sincos(std::uint64_t m, int j, bool fold = false) const {
    value v;
    eval(m, j, fold, v);
    return v.template round<T>();
  }

  const rope::config& config() const noexcept { return c_; }

 private:
  static void check(mpfr_srcptr y) {
    if (mpfr_zero_p(y)) return;                                     // sin(0) = 0 exactly (m = 0 or theta = 0)
    const long rel = static_cast<long>(mpfr_get_exp(y)) - err_exp;  // error 2^-250 = 2^(EXP(y) - rel)
    if (rel < 60 || !mpfr_can_round(y, rel, MPFR_RNDN, MPFR_RNDZ, 54))
      throw std::runtime_error("rope_table_oracle: value too close to a 54-bit number to round");
  }

  rope::config c_;
  std::vector<std::unique_ptr<rope_detail::M>> theta_;
  rope_detail::M af_;
};

// RN_T(sin(m theta_j)), RN_T(cos(m theta_j)) (the contract of rope::sincos), and with the
// attention factor folded (rope::attention_sincos).
template <class T>
math::sincos_result<T> cr_rope_scaled_sincos(const rope::config& c, std::uint64_t m, int j) {
  return rope_table_oracle(c).sincos<T>(m, j, false);
}
template <class T>
math::sincos_result<T> cr_rope_attention_sincos(const rope::config& c, std::uint64_t m, int j) {
  return rope_table_oracle(c).sincos<T>(m, j, true);
}

}  // namespace posenc::verify
