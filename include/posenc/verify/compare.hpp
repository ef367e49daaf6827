// compare.hpp: how a value of a storage type T is compared with the exact real it stands for, one
// definition for the verify engines (rope_verify.hpp, scheme_verify_core.hpp) and the oracle tests'
// statistics (stats.hpp): the dtype of T, the exact value split into a double-double with its
// binade, RN_T of it as bits, the ordered key of T's bits, the distance in representable steps
// between two values, and the ULP error of an entry against a double-double exact value.
//
// The ordered key maps sign-magnitude bits onto a line of integers (-0 and +0 both to 0), so the
// step distance between two values is a difference of keys. It is taken in unsigned arithmetic: a
// NaN's key minus a negative value's passes 2^63 (signed overflow, found by UBSan in bd4e5a5).
// Not constexpr; links MPFR (posenc::verify).
#pragma once

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/report.hpp"

namespace posenc::verify {

// The dtype of a table of T (table_dtype is in report.hpp, which the JSON reader of
// posenc::io shares without MPFR).
template <class T>
constexpr table_dtype dtype_of() noexcept {
  if constexpr (std::is_same_v<T, double>) return table_dtype::f64;
  if constexpr (std::is_same_v<T, float>) return table_dtype::f32;
  if constexpr (std::is_same_v<T, posenc::bfloat16>) return table_dtype::bf16;
  if constexpr (std::is_same_v<T, posenc::q15>) return table_dtype::q15;
  if constexpr (std::is_same_v<T, posenc::q31>) return table_dtype::q31;
  return table_dtype::f16;
}

namespace detail {

// T's slot in the per-dtype arrays of exact values (RN_T bits indexed by dtype).
template <class T>
constexpr int dtype_index() noexcept {
  return static_cast<int>(dtype_of<T>());
}

// Calls f(std::type_identity<T>{}) with T the dtype's type. The fixed-point dtypes are verified by
// the engines that take them (FixedToo = true: RoPE, sinusoidal, XPOS, ALiBi's slopes); every other
// engine refuses them with one line (std::invalid_argument), without instantiating f for them.
template <bool FixedToo = false, class F>
decltype(auto) with_dtype(table_dtype t, F&& f) {
  switch (t) {
    case table_dtype::f64: break;
    case table_dtype::f32: return f(std::type_identity<float>{});
    case table_dtype::bf16: return f(std::type_identity<posenc::bfloat16>{});
    case table_dtype::f16: return f(std::type_identity<posenc::float16>{});
    case table_dtype::q15:
    case table_dtype::q31:
      if constexpr (FixedToo) {
        if (t == table_dtype::q15) return f(std::type_identity<posenc::q15>{});
        return f(std::type_identity<posenc::q31>{});
      } else {
        throw std::invalid_argument("q15/q31 tables are verified for rope, sinusoidal, xpos and alibi (slopes) only");
      }
  }
  return f(std::type_identity<double>{});
}

// The binade of an exact value that is 0 (split_exact): it has none; the ULP is then T's smallest.
inline constexpr long zero_binade = std::numeric_limits<long>::min();

// y as an unevaluated sum hi + lo of doubles (relative error below 2^-105 for a y of at least 106
// bits), and its binade floor(log2 |y|) (zero_binade for 0). tmp: scratch of y's precision.
inline void split_exact(mpfr_srcptr y, mpfr_ptr tmp, double& hi, double& lo, long& binade) {
  hi = mpfr_get_d(y, MPFR_RNDN);
  mpfr_sub_d(tmp, y, hi, MPFR_RNDN);  // exact: tmp has y's precision and hi is y's leading 53 bits
  lo = mpfr_get_d(tmp, MPFR_RNDN);
  binade = mpfr_zero_p(y) ? zero_binade : static_cast<long>(mpfr_get_exp(y)) - 1;
}

// RN_T(y) as T's bits: the one rounding of mpfr.hpp (ties to even, subnormals, overflow).
template <class T>
std::uint64_t rn_bits(mpfr_srcptr y) {
  return round_into_bits<T>(y);
}

// The bits of -x from the bits of x: RN_T(-y) = -RN_T(y), round to nearest even being symmetric.
template <class T>
std::uint64_t negated_bits(std::uint64_t bits) noexcept {
  return bits ^ (std::uint64_t{1} << (storage_bits<T> - 1));
}

// T's bits ordered like the values they encode: sign-magnitude to a signed line, -0 and +0 at 0,
// NaNs beyond the infinities (at their payload).
template <class T>
std::int64_t ordered_key(std::uint64_t bits) noexcept {
  if constexpr (fixed_point_type<T>) {  // two's complement: the raw integer itself
    using R = typename fixed_format<T>::storage;
    return static_cast<std::int64_t>(static_cast<R>(static_cast<std::make_unsigned_t<R>>(bits)));
  } else {
    constexpr std::uint64_t sign = std::uint64_t{1} << (storage_bits<T> - 1);
    const std::int64_t mag = static_cast<std::int64_t>(bits & ~sign);
    return (bits & sign) != 0 ? -mag : mag;
  }
}

// The distance between the ordered keys of two bit patterns of T, NaNs included as their keys
// place them. Keys lie in (-2^63, 2^63), so the distance fits in 64 unsigned bits; computed there.
template <class T>
std::uint64_t key_distance(std::uint64_t a_bits, std::uint64_t b_bits) noexcept {
  const std::int64_t a = ordered_key<T>(a_bits), b = ordered_key<T>(b_bits);
  const std::uint64_t ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
  return a > b ? ua - ub : ub - ua;
}

// |got - exact| in ULPs of T in the exact value's binade (verify::ulp_error's definition in
// stats.hpp), from the double-double exact value hi + lo: got - hi is exact when they are within a
// factor 2 (Sterbenz), so the error carries a relative error of about 2^-52, far below any figure
// reported. NaN and infinite errors come back as +inf.
template <class T>
double ulp_error_from_double_double(double got, double hi, double lo, long binade) noexcept {
  if constexpr (fixed_point_type<T>) {  // q15/q31: in units of the grid step 2^-F, every binade alike
    return std::ldexp(std::fabs((got - hi) - lo), fixed_format<T>::fraction_bits);
  } else {
    using F = fmt<T>;
    const long e = binade == zero_binade ? static_cast<long>(F::min_exponent) : binade;
    const long q = std::min(std::max(e, static_cast<long>(F::min_exponent)), static_cast<long>(F::max_exponent)) -
                   (F::precision - 1);
    const double err = std::fabs((got - hi) - lo);
    const double ulp = std::ldexp(std::fabs(err), static_cast<int>(-q));
    return ulp <= std::numeric_limits<double>::max() ? ulp : std::numeric_limits<double>::infinity();  // NaN, inf
  }
}

// Whether the exact value hi + lo of a q15/q31 entry is clamped by CMSIS's saturation
// (docs/fixed-point.md): RN_even(x 2^F) > 2^F - 1, i.e. x >= 1 - 2^-(F+1) (the tie rounds to the
// even 2^F), or RN_even(x 2^F) < -2^F, i.e. x < -1 - 2^-(F+1) (the tie rounds to the even -2^F).
// Both thresholds are doubles; hi + lo decides against them, hi being x rounded to nearest.
template <class Q>
bool saturates(double hi, double lo) noexcept {
  constexpr double half_step = 1.0 / static_cast<double>(std::int64_t{1} << (fixed_format<Q>::fraction_bits + 1));
  constexpr double top = 1.0 - half_step, bottom = -1.0 - half_step;
  return hi > top || (hi == top && lo >= 0) || hi < bottom || (hi == bottom && lo < 0);
}

// One entry of a verified table into its dtype's findings: got against want (RN_T of the exact
// value hi + lo of binade binade). An entry that is not want counts as not correctly rounded (-0
// for +0 too); beyond the tolerance when it is a NaN or more than max_ulp steps from want.
template <class T>
void compare_entry(dtype_findings& f, T got, std::uint64_t want, double hi, double lo, long binade,
                   const table_entry& at, std::uint64_t max_ulp) {
  const std::uint64_t bits = to_bits64(got);
  ++f.entries;
  if (bits != want) {
    ++f.not_correctly_rounded;
    if ((is_nan(got) || key_distance<T>(bits, want) > max_ulp) && f.beyond_tolerance++ == 0) {
      f.has_first_failure = true;
      f.first_failure = at;
    }
  }
  const double g = to_double(got);
  f.add_error(ulp_error_from_double_double<T>(g, hi, lo, binade), at, g, hi);
}

}  // namespace detail

// Distance in ULPs of T between two T values: the difference of their positions on the ordered
// line of T's values (+0 and -0 share a position; NaNs are at distance 0 from each other and at the
// largest distance from everything else).
template <class T>
std::uint64_t ulp_distance(T a, T b) {
  if (detail::is_nan(a) || detail::is_nan(b)) return detail::is_nan(a) && detail::is_nan(b) ? 0 : ~std::uint64_t{0};
  return detail::key_distance<T>(detail::to_bits64(a), detail::to_bits64(b));
}

}  // namespace posenc::verify
