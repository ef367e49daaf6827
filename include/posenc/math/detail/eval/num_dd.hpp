// num_dd.hpp: double-double numbers with a running absolute error bound, for writing a formula
// once over a number type (RoPE's frequency formulas, rope/detail/formulas.hpp) and evaluating it
// fast. The same interface at 64 L bits
// is num_mp.hpp; a formula that cannot decide a branch or a floor at this precision reports
// failure, and the caller retries it there (Ziv's strategy, ziv.hpp).
//
// A value {v, err} promises |v - exact| <= 2^err. err = exact_err: exact; err >= fail_err/2:
// failed (propagates through every operation since bounds only grow). Operation bounds (u = 2^-53):
// dd_add 2^-103, dd_mul 2^-102 (CRlibm Add22/Mul22, double_double.hpp), dd_div by a double
// 3.5u^2 (math/geometric_frequency.hpp), dd_log 2^-101 and dd_exp 2^-102 (log_kernel.hpp, exp_kernel.hpp);
// propagated errors: |ab - a'b'| <= |a| eb + |b| ea + ea eb, |1/a - 1/a'| <= ea / (|a| |a'|),
// |ln a - ln a'| <= ea / min(a, a'), |e^a - e^a'| <= e^a (e^ea - 1) <= 2 ea e^a (ea <= 1/2).
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/detail/exp_kernel.hpp"
#include "posenc/math/detail/log_kernel.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/geometric_frequency.hpp"

namespace posenc::detail::eval {

inline constexpr int exact_err = -1000000;
inline constexpr int fail_err = 1 << 20;

constexpr int imax(int a, int b) noexcept { return a > b ? a : b; }
constexpr int imax(int a, int b, int c) noexcept { return imax(imax(a, b), c); }

// floor(log2 |x|) of a finite nonzero double (subnormals: -1075, which only loosens bounds).
constexpr int ilogb(double x) noexcept {
  return static_cast<int>((std::bit_cast<std::uint64_t>(x) >> 52) & 0x7FF) - 1023;
}
constexpr int ilog2u(std::uint64_t n) noexcept { return 63 - std::countl_zero(n); }

struct dd_val {
  math::double_double v;
  int err;
};

struct dd_num {
  using value = dd_val;
  // |v| < 2^top (normalised dd: |v| <= |hi| (1 + 2^-53) < 2^(ilogb(hi) + 2)); |v| >= 2^bot.
  static constexpr int top(const value& a) noexcept { return a.v.hi == 0 ? -1100 : ilogb(a.v.hi) + 2; }
  static constexpr int bot(const value& a) noexcept { return ilogb(a.v.hi) - 1; }
  static constexpr bool failed(const value& a) noexcept { return a.err >= fail_err / 2; }
  static constexpr value fail() noexcept { return {{0.0, 0.0}, fail_err}; }
  // A nonzero value whose error is below a quarter of its magnitude (so its sign is known).
  static constexpr bool separated(const value& a) noexcept { return a.v.hi != 0 && a.err <= bot(a) - 2; }

  static constexpr value of(double x) noexcept { return {{x, 0.0}, exact_err}; }
  static constexpr value of_int(std::int64_t n) noexcept {  // exact for |n| <= 2^53
    return {{static_cast<double>(n), 0.0}, exact_err};
  }
  static constexpr value two_pi() noexcept {  // 2 pi to 2^-104 absolute
    return {{0x1.921fb54442d18p+2, 0x1.1a62633145c07p-52}, -104};
  }
  static constexpr value neg(const value& a) noexcept { return {{-a.v.hi, -a.v.lo}, a.err}; }
  static constexpr value add(const value& a, const value& b) noexcept {
    value r{dd_add(a.v, b.v), 0};
    // Two exact doubles: dd_add is then TwoSum, exact.
    if (a.err == exact_err && b.err == exact_err && a.v.lo == 0 && b.v.lo == 0) return {r.v, exact_err};
    r.err = imax(a.err, b.err, imax(top(a), top(b), top(r)) - 103) + 2;
    return r;
  }
  static constexpr value sub(const value& a, const value& b) noexcept { return add(a, neg(b)); }
  static constexpr value mul(const value& a, const value& b) noexcept {
    if (failed(a) || failed(b)) return fail();
    if ((a.v.hi == 0 && a.err == exact_err) || (b.v.hi == 0 && b.err == exact_err)) return of(0.0);
    value r{dd_mul(a.v, b.v), 0};
    if (!(ilogb(r.v.hi) > -900 && ilogb(r.v.hi) < 900)) return fail();  // TwoProd's range
    r.err = imax(imax(top(a) + b.err, top(b) + a.err, a.err + b.err), top(r) - 102) + 2;
    return r;
  }
  static constexpr value mul_int(const value& a, std::int64_t k) noexcept { return mul(a, of_int(k)); }
  static constexpr value div_int(const value& a, std::int64_t k) noexcept {  // 0 < k <= 2^53
    if (failed(a)) return fail();
    value r{dd_div(a.v, static_cast<double>(k)), 0};
    r.err = imax(a.err - ilog2u(static_cast<std::uint64_t>(k)), r.v.hi == 0 ? exact_err : top(r) - 103) + 1;
    return r;
  }
  // 1/a by one Newton step from 1/hi: e = 1 - a q1 (|e| <= 2^-52), q = q1 + q1 e; the truncation
  // e^2 <= 2^-104 plus Mul22 (2^-102) and three roundings of tiny terms: below 2^-100 relative.
  static constexpr value recip(const value& a) noexcept {
    if (failed(a) || !separated(a) || ilogb(a.v.hi) > 900 || ilogb(a.v.hi) < -900) return fail();
    const double q1 = 1.0 / a.v.hi;
    const math::double_double p = dd_mul(a.v, q1);
    const double e = (1.0 - p.hi) - p.lo;
    value r{fast_two_sum(q1, q1 * e), 0};
    r.err = imax(a.err - 2 * bot(a) + 1, top(r) - 100) + 1;
    return r;
  }
  // ln a = ln hi + ln(1 + lo/hi); ln(1 + t) = t - t^2/2 + ..., |t| <= 2^-53: error <= 2^-106.
  static constexpr value log(const value& a) noexcept {
    if (failed(a) || !separated(a) || a.v.hi < 0) return fail();
    value r{dd_add(dd_log(a.v.hi), {a.v.lo / a.v.hi, 0.0}), 0};
    r.err = imax(a.err - bot(a) + 1, imax(top(r) - 100, -104)) + 1;
    return r;
  }
  static constexpr value exp(const value& a) noexcept {
    if (failed(a) || a.err > -2 || !(a.v.hi >= -670.0 && a.v.hi <= 709.0)) return fail();
    value r{dd_exp(a.v), 0};
    r.err = imax(top(r) + a.err + 1, top(r) - 102) + 1;
    return r;
  }
  // -1, 0, +1, or 2 when the sign is not decided at this precision.
  static constexpr int sign(const value& a) noexcept {
    if (failed(a)) return 2;
    if (a.v.hi == 0 && a.err == exact_err) return 0;
    if (a.v.hi == 0 || bot(a) <= a.err + 1) return 2;
    return a.v.hi > 0 ? 1 : -1;
  }
  static constexpr double approx(const value& a) noexcept { return a.v.hi; }
};

}  // namespace posenc::detail::eval
