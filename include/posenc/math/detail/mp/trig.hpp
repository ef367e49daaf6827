// trig.hpp: sin and cos at 64 * L bits with proven error bounds, and the entry points
// mp::sin<T>(double), mp::cos<T>(double) for any finite double.
//
// Reduction modulo pi/2 by Payne-Hanek (payne_hanek.hpp) beyond pi/4; then r / 2^h, Taylor
// series of sin and cos there, and h doublings sin 2a = 2 sin a cos a, cos 2a = 1 - 2 sin^2 a
// (Brent, "Fast multiple-precision evaluation of elementary functions", JACM 23(2), 1976, sec. 4;
// MPFR's mpfr_sin_cos uses the same halving idea).
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/payne_hanek.hpp"
#include "posenc/math/detail/mp/ziv.hpp"

namespace posenc::detail::mp {

// Halving target |r / 2^h| < 2^-B: B ~ (sqrt(2 * 64L) - 4) / 2 minimises 2 series of ~64L/(2B)
// terms plus 2B products of the doublings.
template <int L>
inline constexpr int trig_halving = L <= 4   ? 9
                                    : L <= 8 ? 14
                                             : 20;

template <int L>
struct sincos_big {
  bigfloat<L> s, c;
  int rel;  // |s - sin r| <= 2^rel |sin r|, same for c and cos r
};

// sin r and cos r for |r| < 1.
// Error (u-style bounds from bigfloat.hpp): the Horner sums S, C of the series in r'^2 stay in
// [0.99, 1]; each step adds below 2^(2.1-64L) (2 ulp of 1 in the subtraction, tiny mul/div
// errors) and the earlier error shrinks by r'^2/((2i)(2i+1)) < 2^-18, truncation of the series
// < 2^(-64L-2): |S - sin(r')/r'| and |C - cos r'| < 2^(2.4-64L), so s0 = r' S has relative error
// < 2^(7.3-64L). Doubling: with a_k an absolute bound for both s_k and c_k,
// a_(k+1) <= 2 (1 + |s_k|) a_k + 2^(8.1-64L); with |s_k| <= 2^(k-h), prod (1 + |s_k|) <= e^2,
// so a_h < 2^(h + 12.5 - 64L). Since |r| >= 2^(h - B - 1) when h > 0, |sin r| >= 0.84 |r| and
// |cos r| >= 0.54, the relative error is below 2^(B + 14 - 64L); with h = 0 below 2^(8-64L).
template <int L>
constexpr sincos_big<L> sincos_kernel(const bigfloat<L>& r) noexcept {
  constexpr int B = trig_halving<L>;
  if (r.is_zero()) return {r, one<L>(), exact_err};
  const int h = max_int(0, r.top() + B);
  const bigfloat<L> rr = ldexp(r, -h);
  const bigfloat<L> r2 = mul(rr, rr);
  const int t = 2 * (r.top() - h);  // |r'^2| < 2^t
  // Terms: smallest n with |r'|^(2n) / (2n)! below 2^(-64L-2) (counted with floor(log2)); the
  // series are alternating with decreasing terms, so the remainder is below that term.
  int n = 0;
  for (int bits = 0; bits < 64 * L + 2;) {
    ++n;
    bits += -t + ilog2(static_cast<std::uint64_t>((2 * n - 1) * (2 * n)));
  }
  bigfloat<L> s = one<L>(), c = one<L>();
  for (int i = n; i >= 1; --i) {
    s = sub(one<L>(), div_small(mul(s, r2), static_cast<std::uint32_t>((2 * i) * (2 * i + 1))));
    c = sub(one<L>(), div_small(mul(c, r2), static_cast<std::uint32_t>((2 * i - 1) * (2 * i))));
  }
  s = mul(rr, s);
  for (int k = 0; k < h; ++k) {
    const bigfloat<L> s2 = ldexp(mul(s, c), 1);
    c = sub(one<L>(), ldexp(mul(s, s), 1));
    s = s2;
  }
  return {s, c, h > 0 ? B + 14 - 64 * L : 8 - 64 * L};
}

template <int L>
struct sincos_approx {
  approx<L> sin, cos;
};

// sin X and cos X from X = q pi/2 + r, |r - exact| <= 2^red.err: the kernel's relative error on
// its own result, plus |d sin/dr|, |d cos/dr| <= 1 times the reduction error.
template <int L>
constexpr sincos_approx<L> sincos_from_reduced(const reduced<L>& red) noexcept {
  const sincos_big<L> k = sincos_kernel(red.r);
  const int q = red.q & 3;
  approx<L> s{(q & 1) ? k.c : k.s, 0}, c{(q & 1) ? k.s : k.c, 0};
  if (q == 2 || q == 3) s.v = negate(s.v);
  if (q == 1 || q == 2) c.v = negate(c.v);
  s.err = max_int(s.v.top() + k.rel + 1, red.err) + 1;
  c.err = max_int(c.v.top() + k.rel + 1, red.err) + 1;
  return {s, c};
}

// X = |x| reduced: directly below 0.78 < pi/4, else Payne-Hanek on the 53-bit significand with
// FW = L + 2 fixed-point limbs (error 2^(3 - 64FW) quarter turns, far below what cancellation can
// cost: no double is closer to a multiple of pi/2 than 2^-62 (Muller, "Elementary Functions",
// 3rd ed., table 11.1: the worst case 6381956970095103 * 2^797).
template <int L>
constexpr reduced<L> reduce_double(double ax) noexcept {
  if (ax < 0.78) return {0, from_double<L>(ax), exact_err};
  constexpr int FW = L + 2;
  const std::uint64_t b = std::bit_cast<std::uint64_t>(ax);
  const std::uint64_t n[1] = {(b & 0x000FFFFFFFFFFFFFu) | (std::uint64_t{1} << 52)};
  std::uint64_t f[sz<FW>] = {};
  payne_hanek(n, static_cast<int>(b >> 52) - 1075, f);  // ax >= 0.78 is normal
  return fixed_to_reduced<L>(f, 3 - 64 * FW);
}

template <int L>
constexpr sincos_approx<L> sincos_double(double x) noexcept {
  const bool neg = std::bit_cast<std::uint64_t>(x) >> 63 != 0;
  sincos_approx<L> a = sincos_from_reduced(reduce_double<L>(neg ? -x : x));
  if (neg) a.sin.v = negate(a.sin.v);
  return a;
}

// RN_T(sin x) for finite x: sin(+-0) = +-0 is the only exact case (Lindemann-Weierstrass).
template <class T>
constexpr T sin(double x) noexcept {
  if (x == 0) return exact_dyadic<T>(std::bit_cast<std::uint64_t>(x) >> 63 != 0, 0, 0, 0);
  if (!is_finite(x)) return special_value<T>(true, false);  // NaN or infinity
  return ziv_loop<T>([x](auto lv) { return sincos_double<decltype(lv)::value>(x).sin; });
}

// RN_T(cos x) for finite x: cos(0) = 1 is the only exact case.
template <class T>
constexpr T cos(double x) noexcept {
  if (x == 0) return exact_dyadic<T>(false, 0, 0, 1);
  if (!is_finite(x)) return special_value<T>(true, false);
  return ziv_loop<T>([x](auto lv) { return sincos_double<decltype(lv)::value>(x).cos; });
}

}  // namespace posenc::detail::mp
