// bias.hpp: KERPLE's kernelized relative position biases (Chi, Fan, Ramadge, Rudnicky, "KERPLE:
// Kernelized Relative Positional Embedding for Length Extrapolation", NeurIPS 2022;
// chijames/KERPLE megatron/mpu/layers.py ParallelKerpleLog / ParallelKerplePower), per head, exact
// then rounded once into T:
//
//   kerple::log_bias<T>(log_config{.p, .a}, k)     -p log(1 + a k)     (KERPLE-log; one head)
//   kerple::power_bias<T>(power_config{.a, .p}, k) -a k^p              (KERPLE-power; p in (0, 2])
//   kerple::log_bias<T>(p, a, k), power_bias<T>(a, p, k)               the same, parameters loose
//   kerple::fill_log_bias<T>(cfg, span), fill_power_bias<T>(cfg, span) out[k], k < out.size()
//
// k = |m - n| >= 0 is the distance. The parameters are learned doubles (KERPLE initialises p, a
// from U(0, 2), U(0, 1) and clamps them at 0.01); they are taken as the exact binary values given.
//
// Exactness. log: 1 + a k is an exact rational other than 1 for k > 0, so its log is transcendental
// (Lindemann) and the product with p is never a T value nor a midpoint; k = 0 gives +0. power:
// with p = P 2^-q (P odd), k^p is rational iff k = t^(2^q), and then it is the integer t^P; the
// product a t^P is then formed exactly (TwoProduct) and rounded once. Otherwise k^p is irrational.
// Method: double-double (dd_log, dd_exp, TwoProduct) with a stated bound and Ziv's test; then
// 256 to 1024 bits (detail/mp/exp_log.hpp log_approx_big for the log of the exact 1 + a k).
// The head is a kerple::log_checked_config / power_checked_config (validate.hpp: finite positive
// parameters; log: a >= 2^-60; power: p <= 2), made from a config where it is passed: a broken
// precondition is a compile error naming it in constant evaluation, domain_error at run time.
// Per call: domain_error for log: a k >= 2^84 or k >= 2^53 (1 + a k exact in 256 bits); power:
// k >= 2^26 (k^p < 2^52).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/kerple/config.hpp"
#include "posenc/kerple/validate.hpp"
#include "posenc/math/detail/exp_kernel.hpp"
#include "posenc/math/detail/log_kernel.hpp"
#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/exp_log.hpp"
#include "posenc/math/detail/mp/ziv.hpp"
#include "posenc/math/detail/round_once.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/rational_power.hpp"
#include "posenc/math/round.hpp"
#include "posenc/status.hpp"

namespace posenc::kerple::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

constexpr double dabs(double x) noexcept { return x < 0 ? -x : x; }

// -p log(1 + a k) at 64L bits: 1 + a k exact (a's 53 bits times k, plus 1, within 4L >= 256 bits
// under the preconditions), its log within 2^err (exp_log.hpp log_approx_big), times p: the error times |p| <
// 2^g plus the product's (2L + 1) ulp.
template <int L>
constexpr mp::approx<L> log_bias_approx(double p, double a, std::uint64_t k) noexcept {
  const mp::bigfloat<L> v = mp::add(mp::one<L>(), mp::mul_small(mp::from_double<L>(a), k));
  const mp::approx<L> lv = mp::log_approx_big<L>(v);
  const mp::bigfloat<L> r = mp::negate(mp::mul(lv.v, mp::from_double<L>(p)));
  const int g = mp::ilog2(static_cast<std::uint64_t>(p) + 1) + 1;
  return {r, mp::max_int(lv.err + g, r.top() + 6 - 64 * L) + 1};
}

// -a k^p = -a exp(p log k) at 64L bits: log k within 2^e1; times p (|p| <= 2: the error doubles,
// plus (2L + 1) ulp); exp_approx; times a (the error times a < 2^ga, plus (2L + 1) ulp).
template <int L>
constexpr mp::approx<L> power_bias_approx(double a, double p, std::uint64_t k) noexcept {
  const mp::approx<L> lk = mp::log_approx<L>(static_cast<double>(k));
  const mp::bigfloat<L> z = mp::mul(lk.v, mp::from_double<L>(p));
  const mp::approx<L> e = mp::exp_approx<L>(z, mp::max_int(lk.err + 1, z.top() + 6 - 64 * L) + 1);
  const mp::bigfloat<L> r = mp::negate(mp::mul(e.v, mp::from_double<L>(a)));
  const int ga = mp::ilog2(static_cast<std::uint64_t>(a) + 1) + 1;
  return {r, mp::max_int(e.err + ga, r.top() + 6 - 64 * L) + 1};
}

}  // namespace posenc::kerple::detail

namespace posenc::kerple {

// RN_T(-p log(1 + a k)).
template <class T = double>
constexpr posenc::result<T> log_bias(const log_checked_config& cc, std::uint64_t k) noexcept {
  using namespace kerple::detail;
  if (!cc.ok()) return {T{}, cc.check().error};
  const double p = cc.get().p, a = cc.get().a;
  if (k >= (std::uint64_t{1} << 53) || a * static_cast<double>(k) >= 0x1p84) return {T{}, posenc::status::domain_error};
  if (k == 0) return {posenc::detail::round_dd<T>(0.0, 0.0), posenc::status::ok};
  const math::double_double t = posenc::detail::two_prod(a, static_cast<double>(k));  // a k exactly
  const math::double_double v = posenc::detail::dd_add({1.0, 0.0}, t);                // 1 + a k, within 3u^2
  const math::double_double lh = posenc::detail::dd_log(v.hi);
  const math::double_double lv = posenc::detail::dd_add(lh, {v.lo / v.hi, 0.0});  // log(hi + lo) = log hi + lo/hi - ...
  const math::double_double r = posenc::detail::dd_mul(lv, -p);
  // |log v - lv| <= 2^-101 |lh| (dd_log) + (lo/hi)^2 / 2 + the rounding of lo/hi (2^-106) + the
  // 3u^2 of 1 + a k (2^-104.4 absolute after the log): below |lv| 2^-100.9 + 2^-104; times p with
  // dd_mul's 2^-104 of |r|: err below |p| (|lv| 2^-100 + 2^-103).
  const double err = p * (dabs(lv.hi) * 0x1p-100 + 0x1p-103);
  return posenc::detail::rounded_result(posenc::detail::round_once<T>(
      {r.hi, r.lo, err}, [p, a, k](auto level) { return log_bias_approx<decltype(level)::value>(p, a, k); }));
}

// RN_T(-a k^p).
template <class T = double>
constexpr posenc::result<T> power_bias(const power_checked_config& cc, std::uint64_t k) noexcept {
  using namespace kerple::detail;
  if (!cc.ok()) return {T{}, cc.check().error};
  const double a = cc.get().a, p = cc.get().p;
  if (k >= (std::uint64_t{1} << 26)) return {T{}, posenc::status::domain_error};
  if (k == 0) return {posenc::detail::round_dd<T>(0.0, 0.0), posenc::status::ok};
  // Exact case: p = P 2^-q with P odd; k = t^(2^q) makes k^p = t^P, an integer below 2^52.
  const std::uint64_t pbits = std::bit_cast<std::uint64_t>(p);
  const int pexp = static_cast<int>((pbits >> 52) & 0x7FF) - 1075;  // p = (mantissa) 2^pexp
  std::uint64_t pm = (pbits & 0x000FFFFFFFFFFFFFu) | (std::uint64_t{1} << 52);
  int q = -pexp;
  while (q > 0 && (pm & 1) == 0) pm >>= 1, --q;  // p = pm 2^-q, pm odd (q <= 0: p an integer times 2^-q)
  if (q <= 6) {
    const std::int64_t root = q <= 0 ? 1 : (std::int64_t{1} << q);
    const std::uint64_t t = q <= 0 ? k : posenc::detail::exact_root(k, root);
    const std::uint64_t P = q <= 0 ? (pm << (-q)) : pm;
    const std::uint64_t power = t == 0 ? 0 : posenc::detail::power_below_2_54(t, static_cast<std::int64_t>(P));
    if (power != 0) {
      const math::double_double prod = posenc::detail::two_prod(a, static_cast<double>(power));  // exact
      return posenc::detail::rounded_result(posenc::detail::round_dd<T>(-prod.hi, -prod.lo));
    }
  }
  const math::double_double x = posenc::detail::dd_mul(posenc::detail::dd_log(static_cast<double>(k)), p);
  const math::double_double e = posenc::detail::dd_exp(x);
  const math::double_double r = posenc::detail::dd_mul(e, -a);
  // x within 2^-101 |log k| |p| + 2^-104 |x| absolute (so e within that relative, plus dd_exp's
  // 2^-102), and the product 2^-104: below |r| (|x| 2^-100 + 2^-100).
  const double err = dabs(r.hi) * (dabs(x.hi) * 0x1p-100 + 0x1p-100);
  return posenc::detail::rounded_result(posenc::detail::round_once<T>(
      {r.hi, r.lo, err}, [a, p, k](auto lv) { return power_bias_approx<decltype(lv)::value>(a, p, k); }));
}

// The same from a plain head (a braced {.p = .., .a = ..} binds here) and from loose parameters.
template <class T = double>
constexpr posenc::result<T> log_bias(const log_config& c, std::uint64_t k) noexcept {
  return log_bias<T>(log_checked_config{c}, k);
}
template <class T = double>
constexpr posenc::result<T> log_bias(double p, double a, std::uint64_t k) noexcept {
  return log_bias<T>(log_checked_config{log_config{.p = p, .a = a}}, k);
}
template <class T = double>
constexpr posenc::result<T> power_bias(const power_config& c, std::uint64_t k) noexcept {
  return power_bias<T>(power_checked_config{c}, k);
}
template <class T = double>
constexpr posenc::result<T> power_bias(double a, double p, std::uint64_t k) noexcept {
  return power_bias<T>(power_checked_config{power_config{.a = a, .p = p}}, k);
}

// out[k] = the head's bias at distance k, k < out.size(), the head validated once. The first
// error is returned (overflow leaves its entry infinite and goes on; domain_error stops).
template <class T = double>
constexpr posenc::status fill_log_bias(const log_checked_config& cc, std::span<T> out) noexcept {
  if (!cc.ok()) return cc.check().error;
  posenc::status st = posenc::status::ok;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const posenc::result<T> r = log_bias<T>(cc, k);
    if (r.error == posenc::status::domain_error) return r.error;
    if (st == posenc::status::ok) st = r.error;
    out[k] = r.value;
  }
  return st;
}
template <class T = double>
constexpr posenc::status fill_power_bias(const power_checked_config& cc, std::span<T> out) noexcept {
  if (!cc.ok()) return cc.check().error;
  posenc::status st = posenc::status::ok;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const posenc::result<T> r = power_bias<T>(cc, k);
    if (r.error == posenc::status::domain_error) return r.error;
    if (st == posenc::status::ok) st = r.error;
    out[k] = r.value;
  }
  return st;
}

}  // namespace posenc::kerple
