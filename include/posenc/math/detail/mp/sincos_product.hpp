// sincos_product.hpp: cos and sin of an exact product angle, correctly rounded (the accurate path
// of math/sincos_product.hpp, math/sincos_geometric.hpp and the table engine).
//
// sincos_product(m, theta): the exact real X = m (theta.hi + theta.lo). m * significand is an
// exact 117-bit integer, so each part is reduced modulo pi/2 by exact Payne-Hanek and the two
// fixed-point results are added modulo 4 quarter turns.
// sincos_geometric(m, base, num, den): theta = base^(-num/den) = exp(-(num/den) log(base)) with
// the exponent an exact rational, at 64L bits with a proven error bound (geometric.hpp), then
// X = m theta and the same reduction.
// Both go through Ziv's loop (ziv_pair below); sin and cos of a nonzero algebraic X are
// transcendental (Lindemann-Weierstrass), so only X = 0 is exact.
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/exp_log.hpp"
#include "posenc/math/detail/mp/geometric.hpp"
#include "posenc/math/detail/mp/payne_hanek.hpp"
#include "posenc/math/detail/mp/trig.hpp"
#include "posenc/math/detail/mp/ziv.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/sincos_result.hpp"

namespace posenc::detail::mp {

// A level's pair of approximations that must not be rounded (an error bound round_checked refuses).
inline constexpr int undecided_err = 1 << 20;

// Ziv's loop for a pair at 4, 8 and 16 limbs: each of sin and cos is accepted at the first level
// that decides it (an approximation with err >= undecided_err / 2 never decides). Returns whether
// both were decided; out holds what was. The one pair loop of the library: its callers choose
// what an undecided pair becomes (ziv_pair_or_nearest below, or an error: rope/detail/angle_mp.hpp).
template <class T, class Eval>
constexpr bool ziv_pair(Eval eval, math::sincos_result<T>& out, bool& ok_s, bool& ok_c) noexcept {
  ok_s = ok_c = false;
  const auto step = [&](const auto& a) {
    if (!ok_s) ok_s = a.sin.err < undecided_err / 2 && round_checked<T>(a.sin.v, a.sin.err, out.sin);
    if (!ok_c) ok_c = a.cos.err < undecided_err / 2 && round_checked<T>(a.cos.v, a.cos.err, out.cos);
    return ok_s && ok_c;
  };
  if (step(eval(level<4>{}))) return true;
  if (step(eval(level<8>{}))) return true;
  return step(eval(level<16>{}));
}

// As ziv_loop (ziv.hpp) for a pair: after 1024 bits, RN_T of the best approximation. Only for
// exact transcendental values (never a T value or a midpoint), where that last resort is reached
// only by an X closer to a midpoint than about 2^-900 relative (ziv.hpp).
template <class T, class Eval>
constexpr math::sincos_result<T> ziv_pair_or_nearest(Eval eval) noexcept {
  math::sincos_result<T> out{};
  bool ok_s = false, ok_c = false;
  if (ziv_pair<T>(eval, out, ok_s, ok_c)) return out;
  const auto a = eval(level<16>{});
  if (!ok_s) out.sin = round_value<T>(a.sin.v);
  if (!ok_c) out.cos = round_value<T>(a.cos.v);
  return out;
}

// One part m * p of the product (p a finite double): m times p's significand exactly, as limbs.
struct product_part {
  std::uint64_t n[2];
  int e;
  bool neg;
};

constexpr product_part product_of(std::uint64_t m, double p) noexcept {
  const std::uint64_t b = std::bit_cast<std::uint64_t>(p);
  const int field = static_cast<int>((b >> 52) & 0x7FF);
  const std::uint64_t frac = b & 0x000FFFFFFFFFFFFFu;
  const u128 n = mul_64x64(m, field == 0 ? frac : frac | (std::uint64_t{1} << 52));
  return {{n.lo, n.hi}, (field == 0 ? 1 : field) - 1075, (b >> 63) != 0};
}

// X = m (hi + lo) reduced. Below 1/2 directly (the sum of the two exact parts truncated: < 2 ulp
// of the larger, 2^(top + 2 - 64L)); else each part by Payne-Hanek (error < 2^(3-64FW) quarter
// turns each) and the fixed-point sum modulo 4.
template <int L>
constexpr sincos_approx<L> sincos_product_approx(std::uint64_t m, math::double_double theta) noexcept {
  const product_part ph = product_of(m, theta.hi), pl = product_of(m, theta.lo);
  const bigfloat<L> xh = from_limbs<L>(ph.n, 2, ph.e, ph.neg), xl = from_limbs<L>(pl.n, 2, pl.e, pl.neg);
  const bigfloat<L> x = add(xh, xl);
  if (x.top() <= -1) {
    const int err = (xh.is_zero() || xl.is_zero()) ? exact_err : max_int(xh.top(), xl.top()) + 2 - 64 * L;
    return sincos_from_reduced(reduced<L>{0, x, err});
  }
  constexpr int FW = L + 2;
  std::uint64_t f[sz<FW>] = {}, g[sz<FW>] = {};
  payne_hanek(ph.n, ph.e, f);
  if (ph.neg) negate_fixed(f);
  payne_hanek(pl.n, pl.e, g);
  if (pl.neg) negate_fixed(g);
  add_fixed(f, g);
  return sincos_from_reduced(fixed_to_reduced<L>(f, 4 - 64 * FW));
}

// theta = base^(-num/den) (geometric.hpp, with its error bound) and X = m theta reduced. X = m
// theta multiplies the absolute error by m < 2^(64 - clz m) and truncates (< 2 ulp). The
// reduction of the computed X then adds its own error (payne_hanek.hpp), and the distance between
// the computed and exact X moves r by at most as much.
template <int L>
constexpr sincos_approx<L> geometric_sincos_approx(std::uint64_t m, double base, std::uint64_t num,
                                                   std::uint32_t den) noexcept {
  const approx<L> th = geometric_approx<L>(base, num, den);
  const bigfloat<L> x = mul_small(th.v, m);
  const int xerr = max_int(th.err + 64 - std::countl_zero(m), x.top() + 2 - 64 * L) + 1;
  if (x.top() <= -1) return sincos_from_reduced(reduced<L>{0, x, xerr});
  constexpr int FW = L + 2;
  std::uint64_t f[sz<FW>] = {};
  payne_hanek(x.m, x.e, f);  // X < 2^64: the window starts at limb 0 (constants.hpp)
  reduced<L> red = fixed_to_reduced<L>(f, 3 - 64 * FW);
  red.err = max_int(red.err, xerr) + 1;
  return sincos_from_reduced(red);
}

// cos and sin of the exact real m (theta.hi + theta.lo), RN_T each. theta finite (the caller checks).
template <class T>
constexpr math::sincos_result<T> sincos_product(std::uint64_t m, math::double_double theta) noexcept {
  if (m == 0 || theta.hi == -theta.lo) {  // X == 0 exactly (covers hi == lo == 0)
    return {exact_dyadic<T>(false, 0, 0, 0), exact_dyadic<T>(false, 0, 0, 1)};
  }
  return ziv_pair_or_nearest<T>([m, theta](auto lv) { return sincos_product_approx<decltype(lv)::value>(m, theta); });
}

// cos and sin of m base^(-num/den), all exact reals, RN_T each. Preconditions (the caller checks:
// math::geometric_frequency_args_valid): theta = base^(-num/den) >= 2^-960, num < 2^53, den < 2^32.
// theta is irrational or a dyadic (geometric_frequency.hpp), so X = m theta is 0 or transcendental's
// argument: only m = 0 (or num = 0 with m = 0) is exact.
template <class T>
constexpr math::sincos_result<T> sincos_geometric(std::uint64_t m, double base, std::uint64_t num,
                                                  std::uint32_t den) noexcept {
  if (num == 0) return mp::sincos_product<T>(m, math::double_double{1.0, 0.0});  // theta = 1 exactly
  if (m == 0) return {exact_dyadic<T>(false, 0, 0, 0), exact_dyadic<T>(false, 0, 0, 1)};
  return ziv_pair_or_nearest<T>(
      [m, base, num, den](auto lv) { return geometric_sincos_approx<decltype(lv)::value>(m, base, num, den); });
}

}  // namespace posenc::detail::mp
