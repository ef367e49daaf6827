// mpfr_oracle.hpp: the independent reference for every correctly rounded function of posenc.
//
// Part of the verify layer (posenc::verify): it MAY use Boost and MPFR, and is never included by
// the core. Tests compare the library's bits against what this header computes.
//
// Why this is a sound oracle
// --------------------------
// 1. MPFR (https://www.mpfr.org, "MPFR: A Multiple-Precision Binary Floating-Point Library with
//    Correct Rounding", Fousse et al., ACM TOMS 33(2), 2007) returns, for mpfr_sin, mpfr_cos,
//    mpfr_sin_cos, mpfr_exp, mpfr_log, mpfr_pow and mpfr_sqrt, the correctly rounded value of the
//    exact real at the requested precision p, with a ternary value that is 0 if and only if the
//    result is exact. So an inexact p-bit result y lies within one ulp_p(y) of the exact value f.
// 2. We evaluate at p = 320 bits (oracle_precision), then round ONCE from y into T (53, 24, 11 or
//    8 bits) with our own round-to-nearest-even that handles T's subnormals and overflow (see
//    detail::round_into). Rounding y instead of f could only be wrong if f and y were on either
//    side of a rounding boundary of T (a midpoint between two T numbers). This is Ziv's strategy
//    (A. Ziv, "Fast evaluation of elementary mathematical functions with correctly rounded last
//    bit", ACM TOMS 17(3), 1991): we round both ends of the enclosure [y - err, y + err]. If they
//    round to the same T, every real in between does too (rounding is monotone), so the answer is
//    RN_T(f). If not, we re-evaluate at 640, 1280, 2560 and 5120 bits; if the enclosure still
//    straddles a boundary we throw std::runtime_error (fail loudly: never guess).
// 3. Exact results (ternary 0: pow(2, k), sqrt of a square, pow midpoints such as x^2 with a
//    27-bit x, exp(0), log(1), sin(0)) have err = 0, so ties are rounded to even from the exact
//    value, which is what RN-even demands.
// 4. Composite values that MPFR does not round as a whole (the RoPE angle m * base^(-2j/d)) carry
//    an explicit, proven absolute error bound (rope_frequency below), and go through the same
//    enclosure test. The exponent -2j/d is never rounded to a double: the frequency is
//    exp((-2j) * log(base) / d) with each step's error bounded.
// 5. The hardest known double cases need about 2^-(53+66) relative accuracy (Lefevre-Muller worst
//    cases, e.g. the sin.wc lists of CORE-MATH); 320 bits leave more than 200 bits of margin, so
//    the refinement step is essentially never taken (exact results have err = 0 and need none).
//    MPFR's default exponent range (+-(2^30 - 1)) is assumed, so no intermediate under/overflows;
//    T's range is applied by our own rounding only.
// 6. Belt and braces: with oracle_config.cross_check = true, every value is also computed at twice
//    the precision and the two rounded results must agree (else std::runtime_error). Tests turn it
//    on for the curated hard cases, where it is cheap.
//
// The Boost.Multiprecision type exact_real (about 333 bits) carries high-precision values to the
// public API (ulp_error); the hot paths use raw MPFR for speed.
#pragma once

#include <mpfr.h>

#include <boost/multiprecision/mpfr.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <memory>
#include <type_traits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "posenc/math/double_double.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/numeric/format.hpp"

namespace posenc::verify {

// First evaluation precision (bits) and the last one Ziv's loop may try before giving up.
inline constexpr mpfr_prec_t oracle_precision = 320;
inline constexpr mpfr_prec_t oracle_max_precision = 5120;

// A high-precision real for the public API: 100 decimal digits, about 333 bits.
using exact_real = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<100>,
                                                 boost::multiprecision::et_off>;

struct oracle_options {
  bool cross_check = false;  // also evaluate at 2x precision and require the same rounded result
};
inline oracle_options oracle_config{};

namespace detail {

// RAII owner of one mpfr_t.
class mp {
 public:
  explicit mp(mpfr_prec_t prec) { mpfr_init2(v_, prec); }
  ~mp() { mpfr_clear(v_); }
  mp(const mp&) = delete;
  mp& operator=(const mp&) = delete;
  mpfr_ptr get() noexcept { return v_; }
  mpfr_srcptr get() const noexcept { return v_; }

 private:
  mpfr_t v_;
};

template <class T>
using fmt = posenc::detail::float_format<T>;

template <class T>
constexpr int storage_bits = static_cast<int>(sizeof(typename fmt<T>::storage) * 8);

// Bits of +infinity: the biased exponent field all ones, fraction zero.
template <class T>
constexpr std::uint64_t inf_bits() {
  return static_cast<std::uint64_t>(fmt<T>::max_exponent - fmt<T>::min_exponent + 2)
         << (fmt<T>::precision - 1);
}

template <class T>
T from_bits64(std::uint64_t b) {
  return fmt<T>::from_bits(static_cast<typename fmt<T>::storage>(b));
}

template <class T>
std::uint64_t to_bits64(T x) {
  return static_cast<std::uint64_t>(fmt<T>::to_bits(x));
}

template <class T>
bool is_nan(T x) {
  const std::uint64_t mag = to_bits64(x) & ~(std::uint64_t{1} << (storage_bits<T> - 1));
  return mag > inf_bits<T>();
}

template <class T>
double to_double(T x) {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    return static_cast<double>(x);
  } else {
    return static_cast<double>(x.to_float());
  }
}

// The exponent of the ulp of T in the binade of y (y finite, nonzero): with E = floor(log2|y|),
// max(E, emin) - (p - 1). Subnormals share the quantum 2^(emin - p + 1).
template <class T>
long ulp_exponent(mpfr_srcptr y) {
  const long e = static_cast<long>(mpfr_get_exp(y)) - 1;  // MPFR: y = 0.1xxx * 2^EXP(y)
  constexpr long emin = fmt<T>::min_exponent;
  constexpr long emax = fmt<T>::max_exponent;
  return std::min(std::max(e, emin), emax) - (fmt<T>::precision - 1);
}

// RN_T(y), ties to even, one rounding from the value y as it is (IEEE 754-2008 4.3.1). Handles
// subnormal results (quantum 2^(emin-p+1)) and overflow (to infinity when |y| >= (2 - 2^-p) *
// 2^emax, which is what rounding the integer N below gives when it carries past the top).
template <class T>
std::uint64_t round_into_bits(mpfr_srcptr y) {
  constexpr int p = fmt<T>::precision;
  const std::uint64_t sign = mpfr_signbit(y) ? std::uint64_t{1} << (storage_bits<T> - 1) : 0;
  if (mpfr_nan_p(y)) return inf_bits<T>() | (std::uint64_t{1} << (p - 2));  // quiet NaN
  if (mpfr_inf_p(y)) return sign | inf_bits<T>();
  if (mpfr_zero_p(y)) return sign;
  if (static_cast<long>(mpfr_get_exp(y)) - 1 > fmt<T>::max_exponent) return sign | inf_bits<T>();
  const long q = ulp_exponent<T>(y);
  mp s(std::max<mpfr_prec_t>(mpfr_get_prec(y), 64));
  mpfr_abs(s.get(), y, MPFR_RNDN);                                      // exact
  mpfr_mul_2si(s.get(), s.get(), -q, MPFR_RNDN);                        // exact: |y| / 2^q
  mpfr_rint(s.get(), s.get(), MPFR_RNDN);                               // nearest, ties to even
  const std::uint64_t n = static_cast<std::uint64_t>(mpfr_get_uj(s.get(), MPFR_RNDN));  // <= 2^p
  // Field arithmetic: the biased exponent (q - q0) lands above the fraction, and an N that
  // carried to 2^p bumps the exponent by itself; subnormals have q == q0 and N < 2^(p-1).
  const long q0 = static_cast<long>(fmt<T>::min_exponent) - (p - 1);
  std::uint64_t bits = (static_cast<std::uint64_t>(q - q0) << (p - 1)) + n;
  if (bits >= inf_bits<T>()) bits = inf_bits<T>();
  return sign | bits;
}

template <class T>
constexpr long qmin() {  // exponent of the subnormal quantum, 2^(emin - p + 1)
  return static_cast<long>(fmt<T>::min_exponent) - (fmt<T>::precision - 1);
}

template <class T>
T round_into(mpfr_srcptr y) {
  return from_bits64<T>(round_into_bits<T>(y));
}

// The exact value of a T (finite or infinite) as an MPFR number (64 bits hold every format).
template <class T>
void set_exact(mpfr_ptr out, T x) {
  mpfr_set_prec(out, 64);
  if constexpr (std::is_same_v<T, double>) {
    mpfr_set_d(out, x, MPFR_RNDN);
  } else if constexpr (std::is_same_v<T, float>) {
    mpfr_set_flt(out, x, MPFR_RNDN);
  } else {
    mpfr_set_flt(out, x.to_float(), MPFR_RNDN);
  }
}

// RN_T of every real in [y - err, y + err], or false when they do not all round alike.
template <class T>
bool round_enclosure(mpfr_srcptr y, mpfr_srcptr err, std::uint64_t& out) {
  if (mpfr_zero_p(err) || !mpfr_number_p(y)) {
    out = round_into_bits<T>(y);
    return true;
  }
  const mpfr_prec_t prec = mpfr_get_prec(y) + 64;
  mp lo(prec), hi(prec);
  mpfr_sub(lo.get(), y, err, MPFR_RNDD);  // outward: lo <= y - err
  mpfr_add(hi.get(), y, err, MPFR_RNDU);  // outward: hi >= y + err
  const std::uint64_t a = round_into_bits<T>(lo.get());
  const std::uint64_t b = round_into_bits<T>(hi.get());
  out = a;
  return a == b;
}

// err = ulp_p(y) if the MPFR ternary says y is inexact, else 0. One ulp is twice MPFR's bound.
inline void ulp_error_bound(mpfr_ptr err, mpfr_srcptr y, int ternary) {
  mpfr_set_prec(err, 64);
  if (ternary == 0 || !mpfr_regular_p(y)) {
    mpfr_set_zero(err, 1);
  } else {
    mpfr_set_ui_2exp(err, 1, mpfr_get_exp(y) - mpfr_get_prec(y), MPFR_RNDU);
  }
}

[[noreturn]] inline void oracle_failure(const char* what) {
  throw std::runtime_error(std::string("posenc::verify MPFR oracle: ") + what);
}

// A value known through an evaluator eval(y, err, prec) that sets, for k < N, y[k] (an
// approximation computed at working precision prec) and err[k] (a proven bound on |y[k] - f_k|,
// zero when y[k] == f_k). The current enclosures are cached and refined (prec doubled) only when
// the rounding into some T needs it. N = 2 lets cos and sin share one evaluation.
template <std::size_t N, class Eval>
class ziv_value {
 public:
  explicit ziv_value(Eval eval) : eval_(std::move(eval)) {
    for (std::size_t k = 0; k < N; ++k) {
      y_[k] = std::make_unique<mp>(oracle_precision);
      err_[k] = std::make_unique<mp>(64);
    }
    evaluate(y_, err_, prec_);
  }

  template <class T>
  T round(std::size_t k = 0) {
    std::uint64_t bits = 0;
    while (!round_enclosure<T>(y_[k]->get(), err_[k]->get(), bits)) {
      if (2 * prec_ > oracle_max_precision) oracle_failure("rounding undecided at the maximum precision");
      prec_ *= 2;
      evaluate(y_, err_, prec_);
    }
    if (oracle_config.cross_check) {
      std::unique_ptr<mp> y2[N], e2[N];
      for (std::size_t i = 0; i < N; ++i) {
        y2[i] = std::make_unique<mp>(2 * prec_);
        e2[i] = std::make_unique<mp>(64);
      }
      evaluate(y2, e2, 2 * prec_);
      std::uint64_t bits2 = 0;
      if (!round_enclosure<T>(y2[k]->get(), e2[k]->get(), bits2) || bits2 != bits)
        oracle_failure("the evaluations at two precisions round differently");
    }
    return from_bits64<T>(bits);
  }

  // The current approximation (at least oracle_precision bits) of f_k.
  mpfr_srcptr approx(std::size_t k = 0) const noexcept { return y_[k]->get(); }
  exact_real value(std::size_t k = 0) const { return exact_real(y_[k]->get()); }

 private:
  void evaluate(std::unique_ptr<mp> (&y)[N], std::unique_ptr<mp> (&err)[N], mpfr_prec_t prec) {
    mpfr_ptr ys[N];
    mpfr_ptr es[N];
    for (std::size_t k = 0; k < N; ++k) {
      ys[k] = y[k]->get();
      es[k] = err[k]->get();
    }
    eval_(ys, es, prec);
  }

  Eval eval_;
  std::unique_ptr<mp> y_[N], err_[N];
  mpfr_prec_t prec_ = oracle_precision;
};

template <std::size_t N, class Eval>
ziv_value<N, Eval> make_value(Eval eval) {
  return ziv_value<N, Eval>(std::move(eval));
}

// Evaluators of MPFR's correctly rounded functions of exact double arguments.
enum class fn { sin, cos, exp, log, sqrt };

inline auto unary(fn f, double x) {
  return [f, x](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    mp a(53);
    mpfr_set_d(a.get(), x, MPFR_RNDN);  // exact
    mpfr_set_prec(y[0], prec);
    int t = 0;
    switch (f) {
      case fn::sin: t = mpfr_sin(y[0], a.get(), MPFR_RNDN); break;
      case fn::cos: t = mpfr_cos(y[0], a.get(), MPFR_RNDN); break;
      case fn::exp: t = mpfr_exp(y[0], a.get(), MPFR_RNDN); break;
      case fn::log: t = mpfr_log(y[0], a.get(), MPFR_RNDN); break;
      case fn::sqrt: t = mpfr_sqrt(y[0], a.get(), MPFR_RNDN); break;
    }
    ulp_error_bound(err[0], y[0], t);
  };
}

inline auto power(double x, double e) {
  return [x, e](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    mp a(53), b(53);
    mpfr_set_d(a.get(), x, MPFR_RNDN);
    mpfr_set_d(b.get(), e, MPFR_RNDN);
    mpfr_set_prec(y[0], prec);
    ulp_error_bound(err[0], y[0], mpfr_pow(y[0], a.get(), b.get(), MPFR_RNDN));
  };
}

// y[0] = cos x, y[1] = sin x, both correctly rounded at prec (mpfr_sin_cos's ternary is s + 4c,
// s and c in {0, 1, 2}, 0 meaning exact).
inline void cos_sin(mpfr_ptr* y, mpfr_ptr* err, mpfr_srcptr x, mpfr_prec_t prec) {
  mpfr_set_prec(y[0], prec);
  mpfr_set_prec(y[1], prec);
  const int t = mpfr_sin_cos(y[1], y[0], x, MPFR_RNDN);
  ulp_error_bound(err[0], y[0], t >> 2);
  ulp_error_bound(err[1], y[1], t & 3);
}

inline auto cos_sin_of_double(double x) {
  return [x](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    mp a(53);
    mpfr_set_d(a.get(), x, MPFR_RNDN);
    cos_sin(y, err, a.get(), prec);
  };
}

// The exact real m * (theta.hi + theta.lo), held with enough bits to be exact.
inline void exact_product(mpfr_ptr x, std::uint64_t m, math::double_double theta) {
  mp hi(53), lo(53), mm(64);
  mpfr_set_d(hi.get(), theta.hi, MPFR_RNDN);
  mpfr_set_d(lo.get(), theta.lo, MPFR_RNDN);
  mpfr_set_uj(mm.get(), m, MPFR_RNDN);
  mpfr_prec_t span = 56;
  if (mpfr_regular_p(hi.get()) && mpfr_regular_p(lo.get()))
    span += std::abs(static_cast<long>(mpfr_get_exp(hi.get()) - mpfr_get_exp(lo.get())));
  mp sum(span);
  if (mpfr_add(sum.get(), hi.get(), lo.get(), MPFR_RNDN) != 0) oracle_failure("inexact hi + lo");
  mpfr_set_prec(x, span + 64);
  if (mpfr_mul(x, sum.get(), mm.get(), MPFR_RNDN) != 0) oracle_failure("inexact m * theta");
  // A real product that is zero has no sign (MPFR would give 0 * -theta the sign -): sin is +0.
  if (mpfr_zero_p(x)) mpfr_set_zero(x, 1);
}

inline auto cos_sin_of_product(std::uint64_t m, math::double_double theta) {
  auto x = std::make_shared<mp>(64);
  exact_product(x->get(), m, theta);
  return [x](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) { cos_sin(y, err, x->get(), prec); };
}

}  // namespace detail

// ---- Correctly rounded values RN_T(f(args)), T in {double, float, bfloat16, float16} ----

template <class T>
T cr_sin(double x) {
  return detail::make_value<1>(detail::unary(detail::fn::sin, x)).template round<T>();
}
template <class T>
T cr_cos(double x) {
  return detail::make_value<1>(detail::unary(detail::fn::cos, x)).template round<T>();
}
template <class T>
T cr_exp(double x) {
  return detail::make_value<1>(detail::unary(detail::fn::exp, x)).template round<T>();
}
template <class T>
T cr_log(double x) {
  return detail::make_value<1>(detail::unary(detail::fn::log, x)).template round<T>();
}
template <class T>
T cr_sqrt(double x) {
  return detail::make_value<1>(detail::unary(detail::fn::sqrt, x)).template round<T>();
}
template <class T>
T cr_pow(double x, double y) {
  return detail::make_value<1>(detail::power(x, y)).template round<T>();
}
template <class T>
math::sincos_result<T> cr_sincos(double x) {
  auto v = detail::make_value<2>(detail::cos_sin_of_double(x));
  const T c = v.template round<T>(0);
  return {v.template round<T>(1), c};
}

// cos and sin of the exact real m * (theta.hi + theta.lo) (the contract of sincos_product).
template <class T>
math::sincos_result<T> cr_sincos_product(std::uint64_t m, math::double_double theta) {
  auto v = detail::make_value<2>(detail::cos_sin_of_product(m, theta));
  const T c = v.template round<T>(0);
  return {v.template round<T>(1), c};
}

// Several formats from one evaluation: oracle values that tests keep and round as they need.
inline auto sincos_value(double x) { return detail::make_value<2>(detail::cos_sin_of_double(x)); }
inline auto sin_value(double x) { return detail::make_value<1>(detail::unary(detail::fn::sin, x)); }
inline auto cos_value(double x) { return detail::make_value<1>(detail::unary(detail::fn::cos, x)); }
inline auto exp_value(double x) { return detail::make_value<1>(detail::unary(detail::fn::exp, x)); }
inline auto log_value(double x) { return detail::make_value<1>(detail::unary(detail::fn::log, x)); }
inline auto sqrt_value(double x) { return detail::make_value<1>(detail::unary(detail::fn::sqrt, x)); }
inline auto pow_value(double x, double y) { return detail::make_value<1>(detail::power(x, y)); }
inline auto sincos_product_value(std::uint64_t m, math::double_double theta) {
  return detail::make_value<2>(detail::cos_sin_of_product(m, theta));
}

// High-precision values (at least oracle_precision bits), for ulp_error and printing.
inline exact_real exact_sin(double x) { return sin_value(x).value(); }
inline exact_real exact_cos(double x) { return cos_value(x).value(); }
inline exact_real exact_exp(double x) { return exp_value(x).value(); }
inline exact_real exact_log(double x) { return log_value(x).value(); }
inline exact_real exact_sqrt(double x) { return sqrt_value(x).value(); }
inline exact_real exact_pow(double x, double y) { return pow_value(x, y).value(); }

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
    if (m == 0) {  // x = 0 exactly: cos = 1, sin = +0
      mpfr_set_prec(y[0], prec);
      mpfr_set_prec(y[1], prec);
      mpfr_set_ui(y[0], 1, MPFR_RNDN);
      mpfr_set_zero(y[1], 1);
      mpfr_set_zero(err[0], 1);
      mpfr_set_zero(err[1], 1);
      return;
    }
    const mpfr_prec_t w = prec + 32;
    detail::mp theta(w), abs_t(64), x(w), mm(64);
    if (w == w_) {
      mpfr_set(theta.get(), theta_.get(), MPFR_RNDN);
      mpfr_set(abs_t.get(), abs_t_.get(), MPFR_RNDN);
    } else {
      compute(theta.get(), abs_t.get(), w);
    }
    mpfr_set_uj(mm.get(), m, MPFR_RNDN);
    mpfr_mul(x.get(), theta.get(), mm.get(), MPFR_RNDN);
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

  // The high-precision theta (for checking rope_theta).
  exact_real theta() const { return exact_real(theta_.get()); }
  mpfr_srcptr theta_mpfr() const noexcept { return theta_.get(); }

 private:
  double base_;
  int j_, d_;
  mpfr_prec_t w_;
  detail::mp theta_{64}, abs_t_{64};
};

// The oracle value pair (cos, sin) of m * theta for a cached frequency; round<T>(0) is cos,
// round<T>(1) is sin. The frequency must outlive the value.
inline auto rope_value(const rope_frequency& f, std::uint64_t m) {
  return detail::make_value<2>([&f, m](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    f.cos_sin(y, err, m, prec);
  });
}

template <class T>
math::sincos_result<T> cr_rope_sincos(std::uint64_t m, double base, int j, int d) {
  const rope_frequency f(base, j, d);
  auto v = rope_value(f, m);
  const T c = v.template round<T>(0);
  return {v.template round<T>(1), c};
}

inline exact_real exact_rope_theta(double base, int j, int d) { return rope_frequency(base, j, d).theta(); }

// RN_T(k * pi / 2): the T nearest a multiple of pi/2, where sin or cos nearly vanishes (the
// arguments that stress argument reduction most; K.C. Ng, "Argument reduction for huge arguments:
// good to the last bit", 1992).
template <class T>
T nearest_multiple_of_half_pi(std::uint64_t k) {
  return detail::make_value<1>([k](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
           detail::mp kk(64);
           mpfr_set_uj(kk.get(), k, MPFR_RNDN);
           mpfr_set_prec(y[0], prec);
           mpfr_const_pi(y[0], MPFR_RNDN);  // error <= ulp/2, times k (exact) then / 2 (exact)
           mpfr_mul(y[0], y[0], kk.get(), MPFR_RNDN);
           mpfr_div_2ui(y[0], y[0], 1, MPFR_RNDN);
           mpfr_set_prec(err[0], 64);  // |y - k pi/2| <= (k/2) ulp(pi) + ulp(y) <= 3 ulp(y)
           mpfr_set_ui_2exp(err[0], 3, mpfr_get_exp(y[0]) - prec, MPFR_RNDU);
           if (k == 0) mpfr_set_zero(err[0], 1);
         })
      .template round<T>();
}

// The value of a library result: the function itself, or .value of a posenc::result<T>.
template <class R>
auto unwrap(const R& r) {
  if constexpr (requires { r.value; r.error; }) {
    return r.value;
  } else {
    return r;
  }
}

// ---- Errors in ULPs ----

// |got - exact| in ULPs of T, the ULP being that of exact's binade in T (the subnormal quantum
// below the normal range, the top binade's ULP above it). A correctly rounded result is <= 0.5.
// Infinite got: 0 if RN_T(exact) is that infinity (got is the correct rounding), else +inf.
// NaN got: 0 if exact is NaN, else +inf.
template <class T>
double ulp_error(T got, mpfr_srcptr exact) {
  const double inf = std::numeric_limits<double>::infinity();
  if (detail::is_nan(got)) return mpfr_nan_p(exact) ? 0.0 : inf;
  if (mpfr_nan_p(exact)) return inf;
  const std::uint64_t gb = detail::to_bits64(got);
  if ((gb & ~(std::uint64_t{1} << (detail::storage_bits<T> - 1))) == detail::inf_bits<T>())
    return detail::round_into_bits<T>(exact) == gb ? 0.0 : inf;
  if (mpfr_inf_p(exact)) return inf;
  detail::mp g(64), diff(mpfr_get_prec(exact) + 64);
  detail::set_exact(g.get(), got);
  mpfr_sub(diff.get(), g.get(), exact, MPFR_RNDN);
  const long q = mpfr_zero_p(exact) ? detail::qmin<T>() : detail::ulp_exponent<T>(exact);
  mpfr_mul_2si(diff.get(), diff.get(), -q, MPFR_RNDN);
  mpfr_abs(diff.get(), diff.get(), MPFR_RNDN);
  return mpfr_get_d(diff.get(), MPFR_RNDU);
}

template <class T>
double ulp_error(T got, const exact_real& exact) {
  return ulp_error(got, exact.backend().data());
}

// Distance in ULPs of T between two T values: the difference of their positions on the ordered
// line of T's values (+0 and -0 share a position; NaNs are at distance 0 from each other).
template <class T>
std::uint64_t ulp_distance(T a, T b) {
  if (detail::is_nan(a) || detail::is_nan(b)) return detail::is_nan(a) && detail::is_nan(b) ? 0 : ~std::uint64_t{0};
  const auto ordered = [](T x) {
    const std::uint64_t bits = detail::to_bits64(x);
    const std::uint64_t sign = std::uint64_t{1} << (detail::storage_bits<T> - 1);
    const auto mag = static_cast<std::int64_t>(bits & ~sign);
    return (bits & sign) != 0 ? -mag : mag;
  };
  const std::int64_t pa = ordered(a), pb = ordered(b);
  return pa > pb ? static_cast<std::uint64_t>(pa - pb) : static_cast<std::uint64_t>(pb - pa);
}

// Same bits, except that all NaNs are equal (the library may pick another NaN payload).
template <class T>
bool same_result(T a, T b) {
  if (detail::is_nan(a) || detail::is_nan(b)) return detail::is_nan(a) && detail::is_nan(b);
  return detail::to_bits64(a) == detail::to_bits64(b);
}

// ---- Statistics of one test: count, mismatches, ULP errors, worst argument ----
class error_stats {
 public:
  explicit error_stats(std::string name) : name_(std::move(name)) {}

  // got: the library's value; expected: the oracle's RN_T; exact: the oracle's high-precision
  // value; args: the arguments (printed with the worst case and with mismatches).
  template <class T>
  void add(T got, T expected, mpfr_srcptr exact, std::initializer_list<double> args) {
    ++count_;
    const double err = ulp_error(got, exact);
    sum_err_ += err;
    if (err > max_err_ || count_ == 1) {
      max_err_ = std::max(err, max_err_);
      worst_args_.assign(args.begin(), args.end());
    }
    if (same_result(got, expected)) return;
    ++mismatches_;
    const std::uint64_t dist = std::max<std::uint64_t>(ulp_distance(got, expected), 1);
    max_dist_ = std::max(max_dist_, dist);
    if (records_.size() < max_records) {
      std::string r = "  MISMATCH " + name_ + "(" + format_args(args) + "): got " + format_value(got) +
                      ", expected " + format_value(expected) + ", exact ";
      char buf[128];
      mpfr_snprintf(buf, sizeof buf, "%.40Re", exact);
      records_.push_back(r + buf);
    }
  }
  template <class T>
  void add(T got, T expected, const exact_real& exact, std::initializer_list<double> args) {
    add(got, expected, exact.backend().data(), args);
  }

  std::uint64_t count() const noexcept { return count_; }
  std::uint64_t mismatches() const noexcept { return mismatches_; }
  std::uint64_t max_ulp() const noexcept { return max_dist_; }  // ULPs away from RN_T; 0 = correct
  double max_error() const noexcept { return max_err_; }      // vs the exact value; <= 0.5 if CR
  double mean_error() const noexcept { return count_ ? sum_err_ / static_cast<double>(count_) : 0.0; }

  // One summary line (plus the first mismatches) on stdout, so that ctest -V shows it.
  void print() const {
    std::printf("[oracle] %-34s count=%llu mismatches=%llu max_ulp_from_CR=%llu | error vs exact: "
                "max=%.4f ulp mean=%.4f ulp, worst at (%s)\n",
                name_.c_str(), static_cast<unsigned long long>(count_),
                static_cast<unsigned long long>(mismatches_), static_cast<unsigned long long>(max_dist_),
                max_err_, mean_error(), format_args(worst_args_).c_str());
    for (const std::string& r : records_) std::printf("%s\n", r.c_str());
    if (mismatches_ > records_.size())
      std::printf("  ... and %llu more mismatches\n",
                  static_cast<unsigned long long>(mismatches_ - records_.size()));
    std::fflush(stdout);
  }

  static constexpr std::size_t max_records = 12;

 private:
  template <class Range>
  static std::string format_args(const Range& args) {
    std::string s;
    char buf[80];
    for (double a : args) {
      std::snprintf(buf, sizeof buf, "%s%.17g [%a]", s.empty() ? "" : ", ", a, a);
      s += buf;
    }
    return s;
  }
  template <class T>
  static std::string format_value(T v) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%a (bits 0x%llx)", detail::to_double(v),
                  static_cast<unsigned long long>(detail::to_bits64(v)));
    return buf;
  }

  std::string name_;
  std::uint64_t count_ = 0, mismatches_ = 0, max_dist_ = 0;
  double max_err_ = 0.0, sum_err_ = 0.0;
  std::vector<double> worst_args_;
  std::vector<std::string> records_;
};

// ---- Reproducible random arguments ----

// The tests' seed: POSENC_SEED from the environment (decimal or 0x-hex), else a fixed default.
inline std::uint64_t test_seed() {
  const char* s = std::getenv("POSENC_SEED");
  if (s != nullptr && *s != '\0') return std::strtoull(s, nullptr, 0);
  return 0x9E3779B97F4A7C15ull;
}

// The seed of one named test: test_seed() mixed with the name (FNV-1a), so that tests are
// independent yet all move together with POSENC_SEED.
inline std::uint64_t seed_for(std::string_view name) {
  std::uint64_t h = test_seed() ^ 0xCBF29CE484222325ull;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ull;
  return h;
}

// One line naming a test's seed and the base it came from, so that a failing run can be replayed
// with POSENC_SEED.
inline void print_seed(const char* name, std::uint64_t seed) {
  std::printf("[oracle] %s: seed 0x%llx (POSENC_SEED=0x%llx)\n", name, static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(test_seed()));
}

// SplitMix64 (G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014): tiny, fast, and good enough to spread test arguments.
class rng {
 public:
  explicit rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }  // bias negligible for test use
  double unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }  // [0, 1)
  double uniform(double a, double b) { return a + (b - a) * unit(); }
  // A random finite double (uniform over bit patterns, so over binades).
  double finite_double() {
    for (;;) {
      const double x = std::bit_cast<double>(next());
      if (x - x == 0.0) return x;
    }
  }
  float finite_float() {
    for (;;) {
      const float x = std::bit_cast<float>(static_cast<std::uint32_t>(next() >> 32));
      if (x - x == 0.0f) return x;
    }
  }
  template <class T>
  T finite() {
    if constexpr (sizeof(T) == 8) {
      return finite_double();
    } else {
      return finite_float();
    }
  }
  // Magnitude log-uniform in [2^lo, 2^hi) (rounded into T, so subnormal below T's normal range),
  // random sign.
  template <class T>
  T log_uniform(int lo, int hi) {
    const int e = lo + static_cast<int>(below(static_cast<std::uint64_t>(hi - lo)));
    const T t = static_cast<T>(std::ldexp(1.0 + unit(), e));
    return (next() & 1) != 0 ? -t : t;
  }

 private:
  std::uint64_t s_;
};

}  // namespace posenc::verify
