// geometric_frequency.hpp: theta = base^(-e) for an exact rational exponent e = num / den, the
// frequency of every geometric positional encoding, as a double-double with a stated bound and
// correctly rounded into double, float, bfloat16 or float16.
//
//   geometric_frequency(base, num, den)        double-double, relative error <= 2^-100
//   geometric_value<T>(base, num, den)         RN_T(base^(-num/den)), posenc::result<T>
//
// Who uses it: RoPE's theta_j = base^(-2j/d) (Su et al., "RoFormer", eq. 15: e = 2j/d), the
// sinusoidal encoding's 10000^(-2i/d) (Vaswani et al. 2017, sec. 3.5) and fairseq's
// 10000^(-i/(d/2 - 1)), ALiBi's slopes 2^(-8h/n) (Press et al. 2022, sec. 3). The exponent is
// taken as the exact rational it is (never the double num/den), so the value is the exact real
// base^(-num/den), rounded once.
//
// Method: with log(base) = E ln2 + Lm (log_kernel.hpp, |Lm| < 0.36) and num E = q den + f
// (0 <= f < den, integers), theta = 2^-q exp(-(f ln2 + num Lm) / den), |argument| < ln2 + 0.36
// (num <= den), so the exponent's error is absolute and small whatever the base. Error-free and
// double-word operations: Joldes, Muller, Popescu, "Tight and rigorous error bounds for basic
// building blocks of double-word arithmetic", ACM TOMS 44(2), 2017 (AccurateDWPlusDW = dd_add,
// 3u^2; DWDivFP3, 3.5u^2). The accurate path (detail/mp/geometric.hpp) evaluates the same
// formula at 256 to 1024 bits inside Ziv's loop.
//
// Exact values: base^(-num/den) is a dyadic rational only when base is a power of two 2^k and den
// divides k num (a double base = B 2^t with B odd > 1 would need B^num to equal a power of two
// over an odd number's den-th power). Those are returned exactly; every other value is
// irrational or a non-dyadic rational, so it is neither a T value nor a midpoint and Ziv's test
// always decides it.
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/detail/exp_kernel.hpp"
#include "posenc/math/detail/log_kernel.hpp"
#include "posenc/math/detail/mp/geometric.hpp"
#include "posenc/math/detail/mp/ziv.hpp"
#include "posenc/math/detail/round_once.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/round.hpp"
#include "posenc/status.hpp"

namespace posenc::math {

// Relative error bound of geometric_frequency: |theta - base^(-num/den)| <= 2^-100 base^(-num/den).
// Derivation (u = 2^-53; errors of the numerator n = f ln2 + num Lm, as multiples of den):
//  Lm to 2^-102.3 |Lm| < 2^-103.7 absolute (log_dd_mant, |Lm| < 0.36), times num <= den:
//  2^-103.7 den (Lm = 0 exactly for a power-of-two base, whatever num);
//  B = num Lm by dd_mul(dd, double): TwoProd exact, two roundings < 3u^2 |B|, |B| < 0.36 den:
//  2^-105.9 den; A = f ln2: ln2 to 2^-108 absolute, 3u^2 of |A| < 0.7 den: 2^-104.9 den;
//  n = A + B (AccurateDWPlusDW, 3u^2 of |n| < 1.06 den): 2^-104.3 den; sum 2^-102.5 den. (A and B
//  can cancel; Gappa certifies dd_add's absolute 2^-103 max(|A|, |B|) < 2^-103 x 0.7 den there,
//  proofs/gappa/README.md, which makes the total below 2^-100.93, still inside the constant.)
//  Dividing by den (DWDivFP3, 3.5u^2 of |arg| < 1.06): argument error < 2^-102.1 absolute, so a
//  relative error < 2^-102.1 of the exponential; exp_dd_eval adds 2^-102; the scaling by 2^(k-q)
//  is exact. Total below 2^-101.0; the constant states 2^-100 (measured maximum about 2^-104.5).
//  (Until the Sollya certificate of log_dd_mant's polynomial, proofs/sollya/, this said Lm to
//  2^-103.5 and a total of 2^-101.2.)
inline constexpr double geometric_frequency_max_rel_error = 0x1p-100;

// The largest denominator: num and den are then exact doubles and num E fits in 64 bits.
inline constexpr std::int64_t geometric_exponent_max_den = std::int64_t{1} << 31;

}  // namespace posenc::math

namespace posenc::detail {

// k when base = 2^k exactly (k >= 1), else 0.
constexpr int power_of_two_exponent(double base) noexcept {
  const std::uint64_t b = std::bit_cast<std::uint64_t>(base);
  if ((b & 0x000FFFFFFFFFFFFFu) != 0 || (b >> 63) != 0) return 0;
  const int field = static_cast<int>(b >> 52);
  return field > 1023 && field < 2047 ? field - 1023 : 0;
}

}  // namespace posenc::detail

namespace posenc::math {

// The preconditions: 1 < base < 2^960 finite (theta and its low part stay normal doubles),
// 1 <= den <= 2^31, and 0 <= num <= den (0 <= e <= 1: the frequencies of every encoding). A base
// that is a power of two 2^k also takes any exponent e = num/den with k e <= 960 and num < 2^53
// (ALiBi's slopes 2^(-8h/n) with any max_bias): then Lm = 0, the argument of exp stays
// f ln2 / den < ln2 whatever e is, and the derivation below holds unchanged.
constexpr bool geometric_frequency_args_valid(double base, std::int64_t num, std::int64_t den) noexcept {
  if (!(base > 1 && base < 0x1p960) || den <= 0 || den > geometric_exponent_max_den || num < 0) return false;
  if (num <= den) return true;
  const int k = detail::power_of_two_exponent(base);
  return k != 0 && num < (std::int64_t{1} << 53) / k && num * k <= 960 * den;
}

// theta = base^(-num/den) as a normalised double-double with relative error at most
// geometric_frequency_max_rel_error (exact for the dyadic cases above). theta >= 2^-960 (the
// preconditions ensure it), so a subnormal low part errs by at most 2^-115 relative.
// Preconditions: geometric_frequency_args_valid(base, num, den) (the caller validates).
constexpr double_double geometric_frequency(double base, std::int64_t num, std::int64_t den) noexcept {
  if (num == 0) return {1.0, 0.0};
  constexpr double_double ln2{0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56};
  const detail::log_parts lb = detail::log_dd_mant(base);  // E >= 0 as base > 1
  const std::int64_t n = num * lb.E;
  const std::int64_t q = n / den, f = n % den;
  const double_double a = detail::dd_mul(ln2, static_cast<double>(f));
  const double_double b = detail::dd_mul(lb.Lm, static_cast<double>(num));
  const double_double arg = detail::dd_div(detail::dd_add(a, b), -static_cast<double>(den));
  const detail::exp_parts e = detail::exp_dd_eval(arg.hi, arg.lo);
  const double s = detail::exp2i(e.k - static_cast<int>(q));
  return {e.hi * s, e.lo * s};
}

// RN_T(base^(-num/den)) of the exact real, T in {double, float, bfloat16, float16}.
// domain_error when !geometric_frequency_args_valid(base, num, den); never a NaN.
template <class T = double>
constexpr posenc::result<T> geometric_value(double base, std::int64_t num, std::int64_t den) noexcept {
  if (!geometric_frequency_args_valid(base, num, den)) return {T{}, posenc::status::domain_error};
  if (const int k = detail::power_of_two_exponent(base); k != 0 && (num * k) % den == 0)
    return {detail::round_dd<T>(detail::exp2i(-static_cast<int>(num * k / den)), 0.0), posenc::status::ok};
  const double_double t = geometric_frequency(base, num, den);
  const auto n = static_cast<std::uint64_t>(num);
  const auto d = static_cast<std::uint32_t>(den);
  return {detail::round_once<T>(
              {t.hi, t.lo, t.hi * (geometric_frequency_max_rel_error * 1.0000001)},
              [base, n, d](auto lv) { return detail::mp::geometric_approx<decltype(lv)::value>(base, n, d); }),
          posenc::status::ok};
}

}  // namespace posenc::math
