// round.hpp: one correct rounding (to nearest, ties to even) into double, float, bfloat16, float16.
//
// Everything here works on bit patterns with integer arithmetic, so the same bits come out at
// compile time and at run time, subnormal results are exact, and no double rounding happens (a
// bfloat16 is rounded from the exact value, never through float). Sources: IEEE 754-2008 4.3.1
// (roundTiesToEven) and 7.4 (overflow gives infinity in round-to-nearest); the rounding test is
// Ziv's ("Fast evaluation of elementary mathematical functions with correctly rounded last bit",
// ACM TOMS 17(3), 1991), in CORE-MATH's form: accept when both ends of [y - err, y + err] are
// inside the rounding cell of the same value.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "posenc/math/double_double.hpp"
#include "posenc/math/round_dyadic.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/status.hpp"

namespace posenc::detail {

// Infinity or NaN for a non-finite hi + lo, with IEEE's rules (inf - inf is NaN).
template <class T>
constexpr T nonfinite_sum(double hi, double lo) noexcept {
  using C = round_consts<T>;
  const bool nan =
      hi != hi || lo != lo ||
      (hi == -lo && (hi == std::numeric_limits<double>::infinity() || lo == std::numeric_limits<double>::infinity()));
  const bool neg = (hi == -std::numeric_limits<double>::infinity()) || (lo == -std::numeric_limits<double>::infinity());
  const std::uint64_t quiet = C::inf_bits | (std::uint64_t{1} << (C::P - 2));
  return float_format<T>::from_bits(
      static_cast<typename float_format<T>::storage>(nan ? quiet : C::inf_bits | (neg ? C::sign_bit : 0)));
}

// RN_T(hi + lo) for finite hi + lo in binary64 computed with halved operands: used when an
// operand is >= 2^1022 so that no double operation can overflow. Halving is exact for any
// operand >= 2^-1021; a smaller one is then negligible next to the big one (< 2^-2000 ulp).
template <class T>
constexpr T round_dd_big(double hi, double lo) noexcept {
  const double s = hi * 0.5 + lo * 0.5;  // = RN(x / 2) exactly, |s| <= DBL_MAX
  const bool neg = std::bit_cast<std::uint64_t>(s) >> 63 != 0;
  if (s == 0) return round_encode<T>(false, round_consts<T>::qmin, 0);  // exact cancellation: +0
  if constexpr (std::is_same_v<T, double>) {
    // RN(x) = 2 RN(x/2) in the normal range; 2s >= 2^1024 means x >= 2^1024 - 2^970: infinity.
    const double as = neg ? -s : s;
    if (as >= 0x1p1023) return neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return s * 2.0;
  } else {
    return round_encode<T>(neg, round_consts<T>::qmax + 1, std::uint64_t{1} << round_consts<T>::P);  // |x| >= 2^969
  }
}

// RN_T(hi + lo), one rounding of the exact sum. Any magnitudes, signed zeros as IEEE addition,
// overflow to +-infinity, non-finite inputs as IEEE addition.
// Method: (s, e) = TwoSum(hi, lo), so s = RN_double(x) and x = s + e exactly. For T = double, s is
// the answer. For narrower T every rounding boundary (midpoint or overflow threshold) is a double,
// and RN_double is monotone and fixes doubles, so RN_T(s) = RN_T(x) unless s sits exactly on a
// midpoint, where the sign of e (x above or below it) decides instead of ties-to-even.
template <class T>
constexpr T round_dd(double hi, double lo) noexcept {
  using C = round_consts<T>;
  const std::uint64_t ah = std::bit_cast<std::uint64_t>(hi) & ~round_dbl_sign;
  const std::uint64_t al = std::bit_cast<std::uint64_t>(lo) & ~round_dbl_sign;
  if (ah >= 0x7FF0000000000000u || al >= 0x7FF0000000000000u) return nonfinite_sum<T>(hi, lo);
  if (ah >= 0x7FD0000000000000u || al >= 0x7FD0000000000000u) return round_dd_big<T>(hi, lo);
  if constexpr (std::is_same_v<T, double>) {
    return hi + lo;  // IEEE addition is correctly rounded, subnormals included
  } else {
    const math::double_double se = two_sum(hi, lo);
    const std::uint64_t u = std::bit_cast<std::uint64_t>(se.hi);
    const bool neg = (u >> 63) != 0;
    const int top = static_cast<int>((u & ~round_dbl_sign) >> 52) - 1023;
    if (top < C::qmin - 1) return round_encode<T>(neg, C::qmin, 0);  // |x| < half the min subnormal
    if (top > float_format<T>::max_exponent) return round_encode<T>(neg, C::qmax + 1, std::uint64_t{1} << C::P);
    const int q = top < float_format<T>::min_exponent ? C::qmin : top - C::P + 1;
    const int sh = q + 52 - top;  // 53 - P <= sh <= 53
    const std::uint64_t m = (u & round_dbl_frac) | (std::uint64_t{1} << 52);
    std::uint64_t kept = m >> sh;
    const std::uint64_t rem = m & ((std::uint64_t{1} << sh) - 1);
    const std::uint64_t half = std::uint64_t{1} << (sh - 1);
    const bool beyond = neg ? se.lo < 0 : se.lo > 0;  // x is farther from zero than s
    if (rem > half || (rem == half && (beyond || (se.lo == 0 && (kept & 1u) != 0)))) ++kept;
    return round_encode<T>(neg, q, kept);
  }
}

}  // namespace posenc::detail

namespace posenc::detail {

// One cell test of Ziv's rounding test. Let r = RN_T(|hi|) computed with an unbounded exponent
// range; its rounding cell is (r - hl, r + hu) where hu, hl are half the gaps to its neighbours.
// d = |hi| - r and the gaps hu - d, hl + d are exact doubles (Sterbenz: r and |hi| are within a
// factor 2; all are multiples of ulp(hi)/2 below 2^(55-P) of them). Then RN(lo' + err) < hu - d
// implies lo' + err < hu - d exactly, because RN is monotone and fixes doubles: so the test is
// sound, and exact up to one rounding of lo' + err. Strict inequalities: an end exactly on a
// boundary gives false.
template <class T>
constexpr bool ziv_cell(double hi, double lo, double err, T& out) noexcept {
  using C = round_consts<T>;
  const std::uint64_t u = std::bit_cast<std::uint64_t>(hi);
  const bool neg = (u >> 63) != 0;
  const std::uint64_t a = u & ~round_dbl_sign;
  const int field = static_cast<int>(a >> 52);
  const double lo1 = neg ? -lo : lo;  // orient so that hi > 0
  if constexpr (std::is_same_v<T, double>) {
    // r = hi. Below 2^-1020 an interval of width 2 err >= 2^-1073 never fits a cell.
    if (field < 3 || field > 2046) return false;
    const double hu = pow2(field - 1023 - 53);
    const double hl = (a & round_dbl_frac) == 0 ? hu * 0.5 : hu;  // a power of two: finer grid below
    out = hi;
    return lo1 + err < hu && lo1 - err > -hl;
  } else {
    const double ahi = neg ? -hi : hi;
    if (field > 2000) {  // |hi| >= 2^977: inf if x - err > |hi| / 2 (far above every T)
      out = round_encode<T>(neg, C::qmax + 1, std::uint64_t{1} << C::P);
      return field < 2047 && lo1 - err > -0.5 * ahi;
    }
    const int top = field - 1023;
    if (top < C::qmin - 2) {  // r = 0; hu = 2^(qmin-1) - |hi| > 2^(qmin-2) is the bound used
      out = round_encode<T>(neg, C::qmin, 0);
      return lo1 - err > -ahi && lo1 + err < pow2(C::qmin - 2);
    }
    int q = top < float_format<T>::min_exponent ? C::qmin : top - C::P + 1;
    const int sh = q + 52 - top;  // 53 - P <= sh <= 54
    const std::uint64_t m = (a & round_dbl_frac) | (std::uint64_t{1} << 52);
    std::uint64_t kept = m >> sh;
    const std::uint64_t rem = m & ((std::uint64_t{1} << sh) - 1);
    const std::uint64_t half = std::uint64_t{1} << (sh - 1);
    // On a midpoint, lo decides which cell x is in (ties to even only if lo == 0), as in round_dd.
    if (rem > half || (rem == half && (lo1 > 0 || (lo1 == 0 && (kept & 1u) != 0)))) ++kept;
    const std::uint64_t carry = kept >> C::P;  // 1 when rounding carried into the next binade
    kept >>= carry;
    q += static_cast<int>(carry);
    // hu = 2^(q-1), half the gap above r (q - 1 >= qmin - 1 > -1022: a normal double's bits).
    // Written out rather than through pow2/encode: calls dominate constant-evaluation cost.
    const double hu = std::bit_cast<double>(static_cast<std::uint64_t>(q + 1022) << 52);
    const double r = static_cast<double>(kept) * (hu + hu);
    const double d = ahi - r;
    const double hl = kept == 0 ? 0.0 : (kept == std::uint64_t{1} << (C::P - 1) && q > C::qmin) ? 0.5 * hu : hu;
    if (q > C::qmax) {  // r >= 2^(emax+1): the infinity cell, [th, inf), th = 2^(emax+1) - 2^(emax-P)
      out = round_encode<T>(neg, q, kept);
      const double th =
          static_cast<double>((std::uint64_t{2} << C::P) - 1) * pow2(float_format<T>::max_exponent - C::P);
      const double gap = ahi <= 2 * th ? ahi - th : 0.5 * ahi;  // exact (Sterbenz), or a lower bound
      return lo1 - err > -gap;
    }
    // The encoding of kept * 2^q (see round_encode): kept == 0 only with q == qmin, giving +-0.
    const std::uint64_t bits = (static_cast<std::uint64_t>(q - C::qmin) << (C::P - 1)) + kept;
    out = float_format<T>::from_bits(static_cast<typename float_format<T>::storage>(bits | (neg ? C::sign_bit : 0)));
    return lo1 + err < hu - d && lo1 - err > -(hl + d);
  }
}

// true iff every real in [hi+lo-err, hi+lo+err] rounds (RN-even) to the same T; then out is it.
// Exact for err == 0 (any finite hi, lo). For err > 0 it can answer false in three measure-zero
// ways, which only sends the caller to its accurate path: an end within one rounding of
// lo + err of a cell boundary (or on it); a narrow T with |hi+lo| < 2^(qmin-2) and
// err > 2^(qmin-3); a double result below 2^-1020 or above DBL_MAX.
// Cost: one cell test (about 12 double and 25 integer operations) when hi + lo is normalised
// (|lo| <= ulp(hi)/2); the TwoSum retry runs only after a refusal.
template <class T>
constexpr bool ziv_round(double hi, double lo, double err, T& out) noexcept {
  if (err == 0) {
    const std::uint64_t ah = std::bit_cast<std::uint64_t>(hi) & ~round_dbl_sign;
    const std::uint64_t al = std::bit_cast<std::uint64_t>(lo) & ~round_dbl_sign;
    if (ah >= 0x7FF0000000000000u || al >= 0x7FF0000000000000u) return false;
    out = round_dd<T>(hi, lo);
    return true;
  }
  if (ziv_cell<T>(hi, lo, err, out)) return true;
  // Unnormalised input (|lo| large): renormalise with TwoSum when that cannot overflow, retry.
  // TwoSum stays finite when |hi + lo| cannot round up to 2^1024 (each part < 2^1023, or one part
  // <= 2^1023 and the other < 2^1022). NaN compares false.
  const double a = hi < 0 ? -hi : hi, b = lo < 0 ? -lo : lo;
  if (a <= 0x1p1023 && b <= 0x1p1023 && ((a < 0x1p1023 && b < 0x1p1023) || a < 0x1p1022 || b < 0x1p1022)) {
    const math::double_double s = two_sum(hi, lo);
    return s.hi != hi && ziv_cell<T>(s.hi, s.lo, err, out);
  }
  if constexpr (std::is_same_v<T, double>) {
    // Near DBL_MAX: renormalise x/2 (halving is exact for parts >= 2^-1000); the double cells
    // at x/2 are those at x halved, and err >= err/2 keeps the test sound.
    const double fin = std::numeric_limits<double>::max();
    if (!(a >= 0x1p-1000 && b >= 0x1p-1000 && a <= fin && b <= fin)) return false;
    const math::double_double s = two_sum(hi * 0.5, lo * 0.5);
    double half_out = 0;
    if (s.hi >= 0x1p1023 || s.hi <= -0x1p1023 || !ziv_cell<double>(s.hi, s.lo, err, half_out)) return false;
    out = half_out * 2;
    return true;
  }
  return false;
}

}  // namespace posenc::detail

namespace posenc::math {

// RN_T(v.hi + v.lo). status::overflow when the exact value is finite but rounds to infinity;
// status::invalid_input (value NaN or the infinity) when v has a NaN or infinite part.
template <class T>
constexpr posenc::result<T> round_to(double_double v) noexcept {
  using C = detail::round_consts<T>;
  const T r = detail::round_dd<T>(v.hi, v.lo);
  const std::uint64_t ah = std::bit_cast<std::uint64_t>(v.hi) & ~detail::round_dbl_sign;
  const std::uint64_t al = std::bit_cast<std::uint64_t>(v.lo) & ~detail::round_dbl_sign;
  if (ah >= 0x7FF0000000000000u || al >= 0x7FF0000000000000u) return {r, posenc::status::invalid_input};
  const std::uint64_t b = static_cast<std::uint64_t>(detail::float_format<T>::to_bits(r)) & ~C::sign_bit;
  if (b == C::inf_bits) return {r, posenc::status::overflow};
  return {r, posenc::status::ok};
}

template <class T>
constexpr posenc::result<T> round_to(double v) noexcept {
  // The low part is a zero of v's sign: -0 + +0 would be +0 and lose the sign of a negative zero.
  const bool negative = (std::bit_cast<std::uint64_t>(v) >> 63) != 0;
  return round_to<T>(double_double{v, negative ? -0.0 : 0.0});
}

}  // namespace posenc::math
