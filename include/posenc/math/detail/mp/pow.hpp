// pow.hpp: mp::pow<T>(x, y) = RN_T(x^y) for finite x > 0 and finite y.
//
// Exact and midpoint cases are found first with integer arithmetic, so that Ziv's loop only sees
// values that are not rounding boundaries. Derivation (the same case split as CORE-MATH's pow,
// src/binary64/pow/pow.c, "exact or midpoint" handling, and Lauter and Lefevre, "An efficient
// rounding boundary test for pow(x, y) in double precision", IEEE TC 58(2), 2009):
// write x = mx 2^ex with mx odd and y = ny 2^-k with ny odd (k = 0 when y is an integer).
// x^y is rational iff x is the 2^k-th power of a rational, i.e. mx = a^(2^k) for an integer a and
// 2^k divides ex (compare the p-adic valuations of q^(2^k) = x^ny). It is then a^ny 2^(ex ny/2^k):
// a dyadic number iff a == 1 or ny > 0. A midpoint or a value of T (even subnormal) is an odd
// integer below 2^54 times a power of two, so when a^ny >= 2^128 the value is neither; when
// a^ny < 2^128 it is handed exactly to round_dyadic. Everything else is irrational or a
// non-dyadic rational, never a rounding boundary.
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/exp_log.hpp"
#include "posenc/math/detail/mp/ziv.hpp"
#include "posenc/math/detail/wide_int.hpp"

namespace posenc::detail::mp {

struct odd_times_pow2 {
  std::uint64_t odd;  // odd, or 0 for a zero input
  int exp;
  bool neg;
};

// A finite double as odd * 2^exp.
constexpr odd_times_pow2 split_odd(double x) noexcept {
  const std::uint64_t b = std::bit_cast<std::uint64_t>(x);
  const int field = static_cast<int>((b >> 52) & 0x7FF);
  const std::uint64_t frac = b & 0x000FFFFFFFFFFFFFu;
  const std::uint64_t mant = field == 0 ? frac : frac | (std::uint64_t{1} << 52);
  if (mant == 0) return {0, 0, (b >> 63) != 0};
  const int tz = std::countr_zero(mant);
  return {mant >> tz, (field == 0 ? 1 : field) - 1075 + tz, (b >> 63) != 0};
}

// floor(sqrt(a)) for a < 2^64 (Newton's iteration on integers from above, Crandall and
// Pomerance, "Prime Numbers", Algorithm 9.2.11).
constexpr std::uint64_t isqrt(std::uint64_t a) noexcept {
  if (a < 2) return a;
  std::uint64_t r = std::uint64_t{1} << ((64 - std::countl_zero(a) + 1) / 2);  // r >= sqrt(a)
  for (;;) {
    const std::uint64_t next = (r + a / r) / 2;
    if (next >= r) return r;
    r = next;
  }
}

// a^n as a 128-bit integer; false if it does not fit.
constexpr bool pow_u128(std::uint64_t a, std::uint64_t n, u128& out) noexcept {
  u128 acc{0, 1};
  for (std::uint64_t i = 0; i < n; ++i) {
    const u128 lo = mul_64x64(acc.lo, a), hi = mul_64x64(acc.hi, a);
    if (hi.hi != 0) return false;
    acc = {lo.hi + hi.lo, lo.lo};
    if (acc.hi < hi.lo) return false;
  }
  out = acc;
  return true;
}

// 2^e clamped to +-5000 (beyond every T's range either way), exactly rounded into T.
template <class T>
constexpr T pow2_clamped(long long e) noexcept {
  const int c = e > 5000 ? 5000 : e < -5000 ? -5000 : static_cast<int>(e);
  return exact_dyadic<T>(false, c, 0, 1);
}

// true if x^y is a dyadic number with an odd part below 2^128 (then out = RN_T(x^y)); false if
// x^y is certainly not a value of T nor a midpoint (see the header comment).
template <class T>
constexpr bool pow_exact(double x, double y, T& out) noexcept {
  const odd_times_pow2 sx = split_odd(x), sy = split_odd(y);
  const int k = sy.exp >= 0 ? 0 : -sy.exp;  // y = +-ny 2^-k (or an integer when k = 0)
  if (sx.odd == 1) {                        // x = 2^ex: x^y = 2^(ex y)
    const double ay = sy.neg ? -y : y;
    if (sx.exp == 0) {
      out = pow2_clamped<T>(0);
      return true;
    }
    if (k > 11 || sx.exp % (1 << k) != 0) return false;  // 2^(non-integer): irrational
    if (ay >= 0x1p20) {
      out = pow2_clamped<T>((sx.exp > 0) != sy.neg ? 5001 : -5001);
      return true;
    }
    const std::uint64_t n = k == 0 ? sy.odd << sy.exp : sy.odd;  // |y| 2^k < 2^(20+k)
    const long long e = static_cast<long long>(sx.exp / (1 << k)) * static_cast<long long>(n);
    out = pow2_clamped<T>(sy.neg ? -e : e);
    return true;
  }
  if (sy.neg || k > 5) return false;  // a^(-ny) with odd a >= 3 is not dyadic; a^(2^k) >= 3^64 > mx
  if (sx.exp % (1 << k) != 0) return false;
  std::uint64_t a = sx.odd;
  for (int i = 0; i < k; ++i) {
    const std::uint64_t r = isqrt(a);
    if (r * r != a) return false;
    a = r;
  }
  // y integer: |y| = ny 2^ey, too big once it passes 128 (3^129 > 2^128).
  const std::uint64_t n = k == 0 ? (sy.exp > 7 ? 1000 : sy.odd << sy.exp) : sy.odd;
  if (n > 128) return false;
  u128 p{};
  if (!pow_u128(a, n, p)) return false;
  const long long e = static_cast<long long>(k == 0 ? sx.exp : sx.exp / (1 << k)) * static_cast<long long>(n);
  out = round_dyadic<T>(dyadic{false, static_cast<int>(e), p.hi, p.lo, false});  // |e| <= 1075 * 128
  return true;
}

// x^y = exp(y log x). |log x - lg| <= 2^lg.err gives |y log x - z| <= |y| 2^lg.err plus the
// product's truncation (relative 2^(7-64L)). When |z| >= 2^11 the result is beyond every T's
// range (overflow above 709.8, underflow to 0 below -745.2), returned as the exact 2^+-5000 so
// that round_dyadic gives +inf or +0.
template <int L>
constexpr approx<L> pow_approx(double x, double y) noexcept {
  const approx<L> lg = log_approx<L>(x);
  const bigfloat<L> yb = from_double<L>(y);
  const bigfloat<L> z = mul(lg.v, yb);
  if (z.top() > 11) return {ldexp(one<L>(), z.neg ? -5001 : 5000), exact_err};
  const int zerr = max_int(lg.err + yb.top(), z.top() + 7 - 64 * L) + 1;
  return exp_approx<L>(z, zerr);
}

// RN_T(x^y) for finite x > 0 and finite y. Outside that domain: C Annex F values for x = +0,
// x = +inf and y = +-inf, NaN for x < 0 and NaN inputs (the public pow handles those itself).
template <class T>
constexpr T pow(double x, double y) noexcept {
  const T one_t = exact_dyadic<T>(false, 0, 0, 1);
  if (x == 1.0 || y == 0) return one_t;
  if (x != x || y != y || x < 0) return special_value<T>(true, false);
  const bool big = !is_finite(x) || !is_finite(y) || x == 0;
  if (big) {  // x^y -> 0 or +inf by the signs of log x and y
    if (x == 0) return y > 0 ? exact_dyadic<T>(false, 0, 0, 0) : special_value<T>(false, false);
    return (x > 1) == (y > 0) ? special_value<T>(false, false) : exact_dyadic<T>(false, 0, 0, 0);
  }
  T out{};
  if (pow_exact<T>(x, y, out)) return out;
  return ziv_loop<T>([x, y](auto lv) { return pow_approx<decltype(lv)::value>(x, y); });
}

}  // namespace posenc::detail::mp
