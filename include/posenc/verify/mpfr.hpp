// mpfr.hpp: the MPFR machinery under the verify layer's oracles: an owner of one mpfr_t, the
// precision constants, the bits of T, and the one rounding from an MPFR enclosure
// into T (ziv_value: Ziv's test, refined until it decides). What is evaluated is elsewhere: the
// correctly rounded functions in oracle.hpp, the RoPE values in rope_oracle.hpp; comparisons with
// the library's results in stats.hpp.
//
// Part of the verify layer (posenc::verify): it MAY use Boost and MPFR, and is never included by
// the core. Tests compare the library's bits against what the oracles built on this header compute.
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
//    an explicit, proven absolute error bound (rope_frequency in rope_oracle.hpp), and go through
//    the same enclosure test. The exponent -2j/d is never rounded to a double: the frequency is
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
// The Boost.Multiprecision type exact_real (about 333 bits, exact_real.hpp) carries high-precision
// values to the public API (ulp_error in stats.hpp, exact_sin and the others); everything here and
// in the oracles is raw MPFR, for speed and so that they do not include Boost.Multiprecision.
#pragma once

// <cstdint> before <mpfr.h>: MPFR declares its intmax_t functions (mpfr_set_uj, mpfr_get_sj, ...,
// which the oracles use) only when <stdint.h> came first. That part of mpfr.h sits outside its
// include guard, so including it here also serves a file that included <mpfr.h> before <cstdint>
// and then this header (Boost.Multiprecision's MPFR backend used to do it for them, when it was
// included here; it is in exact_real.hpp now).
#include <cstdint>

#include <mpfr.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "posenc/numeric/fixed_point.hpp"
#include "posenc/numeric/format.hpp"

namespace posenc::verify {

// First evaluation precision (bits) and the last one Ziv's loop may try before giving up.
inline constexpr mpfr_prec_t oracle_precision = 320;
inline constexpr mpfr_prec_t oracle_max_precision = 5120;

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
constexpr int storage_bits = [] {
  if constexpr (fixed_point_type<T>)
    return static_cast<int>(sizeof(typename fixed_format<T>::storage) * 8);
  else
    return static_cast<int>(sizeof(typename fmt<T>::storage) * 8);
}();

// Bits of +infinity: the biased exponent field all ones, fraction zero.
template <class T>
constexpr std::uint64_t inf_bits() {
  return static_cast<std::uint64_t>(fmt<T>::max_exponent - fmt<T>::min_exponent + 2) << (fmt<T>::precision - 1);
}

template <class T>
T from_bits64(std::uint64_t b) {
  if constexpr (fixed_point_type<T>) {  // the raw two's complement bits in the low bits of b
    using R = typename fixed_format<T>::storage;
    return T::from_bits(static_cast<R>(static_cast<std::make_unsigned_t<R>>(b)));
  } else {
    return fmt<T>::from_bits(static_cast<typename fmt<T>::storage>(b));
  }
}

// q15/q31 (numeric/fixed_point.hpp): RN_even(y 2^F), ties to even, then CMSIS's saturation to
// [-2^F, 2^F - 1], as the raw integer's two's complement bits. Written from the definition, apart
// from posenc's own rounding: scale by 2^F (exact), mpfr_rint to nearest-even, clamp.
template <class Q>
std::uint64_t round_into_fixed_bits(mpfr_srcptr y) {
  using F = fixed_format<Q>;
  if (mpfr_nan_p(y)) throw std::domain_error("posenc::verify: NaN has no fixed-point value");
  std::int64_t k = 0;
  if (mpfr_inf_p(y)) {
    k = mpfr_signbit(y) ? F::min_raw : F::max_raw;
  } else {
    mp s(std::max<mpfr_prec_t>(mpfr_get_prec(y), 64));
    mpfr_mul_2si(s.get(), y, F::fraction_bits, MPFR_RNDN);  // exact
    mpfr_rint(s.get(), s.get(), MPFR_RNDN);                 // nearest, ties to even
    if (mpfr_cmp_si(s.get(), static_cast<long>(F::max_raw)) > 0) {
      k = F::max_raw;
    } else if (mpfr_cmp_si(s.get(), static_cast<long>(F::min_raw)) < 0) {
      k = F::min_raw;
    } else {
      k = static_cast<std::int64_t>(mpfr_get_sj(s.get(), MPFR_RNDN));
    }
  }
  using U = std::make_unsigned_t<typename F::storage>;
  return static_cast<std::uint64_t>(static_cast<U>(static_cast<typename F::storage>(k)));
}

template <class T>
std::uint64_t to_bits64(T x) {
  if constexpr (fixed_point_type<T>)  // the raw integer's two's complement bits, as round_into_fixed_bits
    return static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<decltype(x.bits)>>(x.bits));
  else
    return static_cast<std::uint64_t>(fmt<T>::to_bits(x));
}

template <class T>
bool is_nan(T x) {
  if constexpr (fixed_point_type<T>) {
    return false;  // every bit pattern is a number
  } else {
    const std::uint64_t mag = to_bits64(x) & ~(std::uint64_t{1} << (storage_bits<T> - 1));
    return mag > inf_bits<T>();
  }
}

template <class T>
double to_double(T x) {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    return static_cast<double>(x);
  } else if constexpr (fixed_point_type<T>) {
    return x.to_double();
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
std::uint64_t round_into_float_bits(mpfr_srcptr y) {
  constexpr int p = fmt<T>::precision;
  const std::uint64_t sign = mpfr_signbit(y) ? std::uint64_t{1} << (storage_bits<T> - 1) : 0;
  if (mpfr_nan_p(y)) return inf_bits<T>() | (std::uint64_t{1} << (p - 2));  // quiet NaN
  if (mpfr_inf_p(y)) return sign | inf_bits<T>();
  if (mpfr_zero_p(y)) return sign;
  if (static_cast<long>(mpfr_get_exp(y)) - 1 > fmt<T>::max_exponent) return sign | inf_bits<T>();
  const long q = ulp_exponent<T>(y);
  mp s(std::max<mpfr_prec_t>(mpfr_get_prec(y), 64));
  mpfr_abs(s.get(), y, MPFR_RNDN);                                                      // exact
  mpfr_mul_2si(s.get(), s.get(), -q, MPFR_RNDN);                                        // exact: |y| / 2^q
  mpfr_rint(s.get(), s.get(), MPFR_RNDN);                                               // nearest, ties to even
  const std::uint64_t n = static_cast<std::uint64_t>(mpfr_get_uj(s.get(), MPFR_RNDN));  // <= 2^p
  // Field arithmetic: the biased exponent (q - q0) lands above the fraction, and an N that
  // carried to 2^p bumps the exponent by itself; subnormals have q == q0 and N < 2^(p-1).
  const long q0 = static_cast<long>(fmt<T>::min_exponent) - (p - 1);
  std::uint64_t bits = (static_cast<std::uint64_t>(q - q0) << (p - 1)) + n;
  if (bits >= inf_bits<T>()) bits = inf_bits<T>();
  return sign | bits;
}

// RN_T(y) for every T the oracle rounds into: the four floating formats and q15/q31.
template <class T>
std::uint64_t round_into_bits(mpfr_srcptr y) {
  if constexpr (fixed_point_type<T>) {
    return round_into_fixed_bits<T>(y);
  } else {
    return round_into_float_bits<T>(y);
  }
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

}  // namespace detail

}  // namespace posenc::verify
