// num_mp.hpp: the interface of num_dd.hpp at 64 L bits on posenc::detail::mp::bigfloat, the
// accurate path of the RoPE frequencies. Bounds from bigfloat.hpp (u = 2^(1-64L)): add/sub
// 2 ulp of the largest of operands and result; mul (2L+1) ulp <= 2^(7-64L) relative; mul_small
// 1 ulp; div_small 2 ulp; exp_approx / log1p_small as stated in exp_log.hpp. Propagated errors
// as in num_dd.hpp.
#pragma once

#include <cstdint>

#include "posenc/math/detail/eval/num_dd.hpp"
#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/constants.hpp"
#include "posenc/math/detail/mp/exp_log.hpp"

namespace posenc::detail::eval {

template <int L>
struct mp_num {
  using value = mp::approx<L>;
  using big = mp::bigfloat<L>;
  static constexpr int top(const value& a) noexcept { return a.v.is_zero() ? -100000 : a.v.top(); }
  static constexpr int bot(const value& a) noexcept { return a.v.top() - 1; }
  static constexpr bool failed(const value& a) noexcept { return a.err >= fail_err / 2; }
  static constexpr value fail() noexcept { return {big{}, fail_err}; }
  static constexpr bool separated(const value& a) noexcept { return !a.v.is_zero() && a.err <= bot(a) - 2; }

  static constexpr value of(double x) noexcept { return {mp::from_double<L>(x), exact_err}; }
  static constexpr value of_int(std::int64_t n) noexcept {
    const std::uint64_t m = static_cast<std::uint64_t>(n < 0 ? -n : n);
    return {mp::from_limbs<L>(&m, 1, 0, n < 0), exact_err};
  }
  static constexpr value two_pi() noexcept {  // pi/2 table truncated: error < 2^(1-64L), times 4
    return {mp::ldexp(mp::from_table<L>(mp::pio2_table, 1), 2), 3 - 64 * L};
  }
  static constexpr value neg(const value& a) noexcept { return {mp::negate(a.v), a.err}; }
  static constexpr value add(const value& a, const value& b) noexcept {
    value r{mp::add(a.v, b.v), 0};
    // Exact when both are exact and the sum fits L limbs; the bound below covers the rest.
    r.err = imax(a.err, b.err, imax(top(a), top(b), top(r)) - 64 * L + 2) + 2;
    return r;
  }
  static constexpr value sub(const value& a, const value& b) noexcept { return add(a, neg(b)); }
  static constexpr value mul(const value& a, const value& b) noexcept {
    if (failed(a) || failed(b)) return fail();
    value r{mp::mul(a.v, b.v), 0};
    r.err = imax(imax(top(a) + b.err, top(b) + a.err, a.err + b.err), top(r) + 7 - 64 * L) + 2;
    return r;
  }
  static constexpr value mul_int(const value& a, std::int64_t k) noexcept {
    if (failed(a)) return fail();
    const std::uint64_t m = static_cast<std::uint64_t>(k < 0 ? -k : k);
    value r{mp::mul_small(k < 0 ? mp::negate(a.v) : a.v, m), 0};
    r.err = imax(a.err + ilog2u(m) + 1, top(r) - 64 * L) + 1;
    return r;
  }
  static constexpr value div_int(const value& a, std::int64_t k) noexcept {  // 0 < k < 2^32
    if (failed(a)) return fail();
    value r{mp::div_small(a.v, static_cast<std::uint32_t>(k)), 0};
    r.err = imax(a.err - ilog2u(static_cast<std::uint64_t>(k)), top(r) - 64 * L + 1) + 1;
    return r;
  }
  // 1/a by Newton's iteration y <- y + y (1 - a y) from a double, then a rigorous bound from the
  // final residual: 1/a - y = (1 - a y) / a, and the computed residual e differs from 1 - a y by
  // the product's 2^(7-64L) |a y| <= 2^(8-64L) and the subtraction's 2 ulp(1) = 2^(2-64L).
  static constexpr value recip(const value& a) noexcept {
    if (failed(a) || !separated(a)) return fail();
    big y = mp::from_double<L>(1.0 / mp::to_double_approx(a.v));
    big e{};
    for (int bits = 50;; bits *= 2) {
      e = mp::sub(mp::one<L>(), mp::mul(a.v, y));
      if (bits >= 64 * L) break;
      y = mp::add(y, mp::mul(y, e));
    }
    const int res = imax(e.is_zero() ? -100000 : e.top(), 9 - 64 * L) + 1;
    value r{y, 0};
    r.err = imax(a.err - 2 * bot(a) + 1, top(r) + res) + 1;
    return r;
  }
  // ln a = y0 + log1p(a e^-y0 - 1), y0 a double near ln a (the scheme of mp::log_approx, for a
  // bigfloat argument). |t| ~ 2^-50 << 2^-20 as log1p_small requires.
  static constexpr value log(const value& a) noexcept {
    if (failed(a) || !separated(a) || a.v.neg) return fail();
    const double y0 = dd_log(mp::to_double_approx(a.v)).hi;
    const value w = mp::exp_approx<L>(mp::from_double<L>(-y0), mp::exact_err);
    const big t = mp::sub(mp::mul(w.v, a.v), mp::one<L>());
    const big l = mp::add(mp::from_double<L>(y0), mp::log1p_small(t));
    const int ty = y0 == 0 ? -64 * L : ilogb(y0) + 1;
    const int round = imax(w.err + top(a) + 1, 10 - 64 * L, imax(ty, top(value{l, 0})) - 64 * L + 3) + 2;
    return {l, imax(a.err - bot(a) + 1, round) + 1};
  }
  static constexpr value exp(const value& a) noexcept {
    if (failed(a) || a.err > -2 || top(a) > 10) return fail();
    return mp::exp_approx<L>(a.v, a.err);
  }
  static constexpr int sign(const value& a) noexcept {
    if (failed(a)) return 2;
    if (a.v.is_zero()) return a.err == exact_err ? 0 : 2;
    if (bot(a) <= a.err + 1) return 2;
    return a.v.neg ? -1 : 1;
  }
  static constexpr double approx(const value& a) noexcept { return mp::to_double_approx(a.v); }
};

}  // namespace posenc::detail::eval
