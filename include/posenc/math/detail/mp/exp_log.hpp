// exp_log.hpp: exp and log at 64 * L bits with proven error bounds, and the entry points
// mp::exp<T>(double) and mp::log<T>(double).
//
// exp: z = k ln2 + r with |r| <= ln2/2 (Cody and Waite, "Software Manual for the Elementary
// Functions", 1980, ch. 6), then exp(r) = exp(r / 2^h)^(2^h) (argument halving and squaring,
// Brent, "Fast multiple-precision evaluation of elementary functions", JACM 23(2), 1976, sec. 4)
// with a Taylor polynomial at r / 2^h.
// log: y0 = a double approximation of log(x) (atanh series), then
// log(x) = y0 + log1p(x exp(-y0) - 1), where |x exp(-y0) - 1| ~ 2^-45 makes the log1p series
// short (the "one Newton step with exp" form, Brent 1976, sec. 5).
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/constants.hpp"
#include "posenc/math/detail/mp/ziv.hpp"

namespace posenc::detail::mp {

// Halving depth target: |r / 2^h| < 2^-B. B ~ sqrt(64L) balances the Taylor terms (~64L/B)
// against the squarings (B) (Brent 1976, sec. 4).
template <int L>
inline constexpr int exp_halving = L <= 4   ? 16
                                   : L <= 8 ? 22
                                            : 32;

// exp(r) for |r| < 1/2 (top(r) <= -1), with relative error below 2^(h + 8 - 64L), h the number
// of squarings, returned in h_out.
// Error: Horner steps P <- 1 + P r'/i keep P in [0.99, 1.01]; each adds at most 2 ulp(1) = 2^(2-64L)
// from the subtraction plus mul/div errors below 2^(7-64L) |r'| <= 2^(-9-64L), and earlier errors
// shrink by |r'| / i < 2^-16, so |P - Taylor| < 2^(3.2-64L); the Taylor remainder is below
// 2 |r'|^(n+1)/(n+1)! <= 2^(-64L) by the choice of n. Each squaring maps a relative error eps to
// 2 eps + eps^2 + 2^(7-64L), so h squarings give below 2^h (2^(3.5-64L) + 2^(7-64L)) (1.01)
// < 2^(h + 7.3 - 64L).
template <int L>
constexpr bigfloat<L> exp_kernel(const bigfloat<L>& r, int& h_out) noexcept {
  const int t0 = r.top();
  const int h = r.is_zero() ? 0 : max_int(0, t0 + exp_halving<L>);
  h_out = h;
  if (r.is_zero()) return one<L>();
  const bigfloat<L> rr = ldexp(r, -h);
  const int t = t0 - h;  // |rr| < 2^t, t <= -exp_halving or t = t0 <= -1
  // Smallest n with sum_{i<=n+1} (-t + floor(log2 i)) >= 64L + 1, i.e. |rr|^(n+1)/(n+1)! small.
  int n = 0;
  for (int bits = -t; bits < 64 * L + 1; bits += -t + ilog2(static_cast<std::uint64_t>(n) + 1)) ++n;
  bigfloat<L> p = one<L>();
  for (int i = n; i >= 1; --i) p = add(one<L>(), div_small(mul(p, rr), static_cast<std::uint32_t>(i)));
  for (int i = 0; i < h; ++i) p = mul(p, p);
  return p;
}

// exp(z) for |z| < 2^11 given with |z - exact| <= 2^zerr. Error (absolute, in the result):
// k ln2 is formed from ln2 truncated to L limbs (error < 2^-64L each) times |k| < 2^12, plus one
// ulp of a value below 2^12: < 2^(13-64L); the subtraction adds < 2 ulp(2^12) = 2^(13-64L). So
// |r - (z - k ln2)| < 2^(14-64L) + 2^zerr =: delta, and exp(z) = 2^k exp(r_exact) with
// exp(r_exact) = exp(r) (1 + theta), |theta| <= 1.01 delta. Total relative error below
// 1.01 delta + 2^(h + 7.3 - 64L) (1 + 1.01 delta).
template <int L>
constexpr approx<L> exp_approx(const bigfloat<L>& z, int zerr) noexcept {
  const int k = nearest_int(to_double_approx(z) * 1.4426950408889634);
  bigfloat<L> r = z;
  int delta = zerr;
  if (k != 0) {
    const bigfloat<L> kl = mul_small(from_table<L>(ln2_table, 0), static_cast<std::uint64_t>(k < 0 ? -k : k));
    r = sub(z, k < 0 ? negate(kl) : kl);
    delta = max_int(zerr, 14 - 64 * L) + 1;
  }
  int h = 0;
  approx<L> out{exp_kernel(r, h), 0};
  out.v = ldexp(out.v, k);
  const int rel = max_int(delta + 1, h + 8 - 64 * L) + 1;  // relative error exponent
  out.err = out.v.top() + rel + 1;                         // |exact| <= 2 |v| margin
  return out;
}

// log(y) in double for y in [0.7, 1.5], relative error about 2^-50: 2 atanh(s), s = (y-1)/(y+1),
// |s| <= 0.2, odd series to s^23 (Abramowitz-Stegun 4.1.27). Only a starting point: the final
// accuracy does not depend on it (the log1p step below uses its actual residual).
constexpr double log_double_approx(double y) noexcept {
  const double s = (y - 1.0) / (y + 1.0);
  const double s2 = s * s;
  double p = 1.0 / 23.0;
  for (int i = 21; i >= 1; i -= 2) p = 1.0 / i + s2 * p;
  return 2.0 * s * p;
}

// log1p(t) for |t| <= 2^-20: Horner on t (1 - t (1/2 - t (1/3 - ...))) (Mercator series), n terms
// with |t|^n <= 2^(-64L-4). Each step keeps the partial sum near 1/i and adds at most 2^(8-64L)
// in absolute terms, shrunk by |t| at the next step, so the result has absolute error below
// |t| 2^(10-64L) < 2^(-10-64L).
template <int L>
constexpr bigfloat<L> log1p_small(const bigfloat<L>& t) noexcept {
  if (t.is_zero()) return t;
  const int n = (64 * L + 4) / max_int(-t.top(), 1) + 1;
  bigfloat<L> s = div_small(one<L>(), static_cast<std::uint32_t>(n));
  for (int i = n - 1; i >= 1; --i) s = sub(div_small(one<L>(), static_cast<std::uint32_t>(i)), mul(t, s));
  return mul(t, s);
}

// log(x) for a bigfloat x > 0. x = y 2^E with y in [sqrt(1/2), sqrt(2)) exact (a power-of-two
// scaling). Errors (absolute): w = exp(-y0) within 2^w.err (|w| < 2); w*y adds 2^(7.1-64L);
// t = w y - 1 adds 2^(2-64L) (2 ulp of 1) and inherits |y| 2^w.err <= 2^(w.err + 0.5); log1p(t)
// changes by at most 1.01 |dt| and adds 2^(-10-64L); y0 + log1p(t) adds 2 ulp of a value below
// 1/2: 2^(-64L). E ln2: ln2's truncation 2^-64L times |E| < 2^g plus 1 ulp: < 2^(g+1-64L), and the
// last addition 2 ulp of a value below 2^(g+1): 2^(g+2-64L) (g = 11 covers every double). Summed
// and rounded up to powers of two below. y0 is log y from y's leading 53 bits (exact for a double
// argument; for a wider y the truncation only moves the starting point, t stays below 2^-40).
template <int L>
constexpr approx<L> log_approx_big(const bigfloat<L>& x) noexcept {
  int big_e = x.top();
  bigfloat<L> y = ldexp(x, -big_e);        // in [1/2, 1)
  if (y.m[L - 1] < 0xB504F333F9DE6484u) {  // below sqrt(1/2) 2^64: double it
    y = ldexp(y, 1);
    --big_e;
  }
  const double y0 = log_double_approx(to_double_approx(y));
  const approx<L> w = exp_approx<L>(from_double<L>(-y0), exact_err);
  const bigfloat<L> t = sub(mul(w.v, y), one<L>());
  bigfloat<L> ly = add(from_double<L>(y0), log1p_small(t));
  int err = max_int(w.err + 1, 8 - 64 * L) + 2;
  if (big_e != 0) {
    const std::uint64_t ae = static_cast<std::uint64_t>(big_e < 0 ? -big_e : big_e);
    const int g = max_int(11, 64 - std::countl_zero(ae));
    const bigfloat<L> el = mul_small(from_table<L>(ln2_table, 0), ae);
    ly = add(big_e < 0 ? negate(el) : el, ly);
    err = max_int(err, g + 2 - 64 * L) + 1;
  }
  return {ly, err};
}

// log(x) for finite x > 0 (a double: exact as a bigfloat).
template <int L>
constexpr approx<L> log_approx(double x) noexcept {
  return log_approx_big<L>(from_double<L>(x));
}

// RN_T(exp(x)) for finite x. exp(0) = 1 is the only exact case (Lindemann-Weierstrass).
template <class T>
constexpr T exp(double x) noexcept {
  if (x != x) return special_value<T>(true, false);
  if (x == 0) return exact_dyadic<T>(false, 0, 0, 1);
  if (x > 2048.0) return special_value<T>(false, false);    // above every T's range: +inf
  if (x < -2048.0) return exact_dyadic<T>(false, 0, 0, 0);  // below half the least subnormal: +0
  return ziv_loop<T>([x](auto lv) {
    constexpr int L = decltype(lv)::value;
    return exp_approx<L>(from_double<L>(x), exact_err);
  });
}

// RN_T(log(x)) for finite x > 0; log(1) = +0 is the only exact case. NaN for x < 0 or NaN,
// -infinity for x == 0, +infinity for +infinity (C Annex F), for safety.
template <class T>
constexpr T log(double x) noexcept {
  if (!(x >= 0)) return special_value<T>(true, false);
  if (x == 0) return special_value<T>(false, true);
  if (x > 0x1.fffffffffffffp1023) return special_value<T>(false, false);
  if (x == 1.0) return exact_dyadic<T>(false, 0, 0, 0);
  return ziv_loop<T>([x](auto lv) {
    constexpr int L = decltype(lv)::value;
    return log_approx<L>(x);
  });
}

}  // namespace posenc::detail::mp
