// bias.hpp: Sandwich's relative bias (Chi, Fan, Rudnicky, Ramadge, "Dissecting Transformer Length
// Extrapolation via the Lens of Receptive Field Analysis", ACL 2023; NVIDIA NeMo
// sandwich_relative_position_embedding.py SandwichRelativePositionEmbedding.forward), exact then
// rounded once into T:
//
//   bias_h(k) = (sum_{i=1..d/2} cos(k 10000^(-2i/d)) - d/2) / (8 (h + 1) / H),   h = 0 .. H-1
//
// k = m - n the distance (the causal version takes k >= 0; the bias is even in k), d the per-head
// size NeMo passes (hidden size per head), H the heads. Note i starts at 1 (NeMo's arange(1, d/2+1)).
//
// Exactness: for k != 0 the sum is a nontrivial combination of e^(+-i k theta_i) with distinct
// nonzero algebraic exponents and e^0, so by Lindemann-Weierstrass it is transcendental (never a
// T value nor a midpoint); k = 0 gives exactly 0 (+0). Method: cos x - 1 = -2 sin^2(x/2), so the
// sum is -2 sum sin^2(k theta_i / 2) with every term of one sign (no cancellation near k = 0):
// each sin from the double-double kernel (2^-84 relative, plus the angle's and the reduction's
// errors), squared and summed in double-double with their error bounds carried, times -H/(4 (h+1));
// Ziv's test; then 256 to 1024 bits (sum of cos - 1 from the geometric angle kernel).
// bias takes a sandwich::checked_config (validate.hpp: 2 <= d <= 4096 even, 1 <= H <= 4096), made
// from a config where it is passed: a broken precondition is a compile error naming it in constant
// evaluation, domain_error at run time. Per call: domain_error outside 0 <= h < H, |k| < 2^53.
#pragma once

#include <cstdint>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/sincos_product.hpp"
#include "posenc/math/detail/mp/ziv.hpp"
#include "posenc/math/detail/product_angle.hpp"
#include "posenc/math/detail/round_once.hpp"
#include "posenc/math/detail/trig_kernel.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/geometric_frequency.hpp"
#include "posenc/math/reduce.hpp"
#include "posenc/math/round.hpp"
#include "posenc/sandwich/config.hpp"
#include "posenc/sandwich/validate.hpp"
#include "posenc/status.hpp"

namespace posenc::sandwich::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

constexpr double dabs(double x) noexcept { return x < 0 ? -x : x; }

// The accurate path: sum (cos(k theta_i) - 1) at 64L bits, times H / (8 (h + 1)). Each cos within
// 2^err_i (the geometric kernel), minus 1 exact, summed with one truncation (2 ulp) per addition:
// the sum errs by at most d/2 (2^max_err + 2^(top + 2 - 64L)); times H (< 2^13) and / 8(h+1).
template <int L>
constexpr mp::approx<L> sum_approx(std::uint64_t k, int d, int H, int h) noexcept {
  mp::bigfloat<L> s{};
  int worst = -64 * L * 4;
  for (int i = 1; i <= d / 2; ++i) {
    const mp::sincos_approx<L> a =
        mp::geometric_sincos_approx<L>(k, 10000.0, static_cast<std::uint64_t>(2 * i), static_cast<std::uint32_t>(d));
    s = mp::add(s, mp::sub(a.cos.v, mp::one<L>()));
    worst = mp::max_int(worst, mp::max_int(a.cos.err, 2 - 64 * L));
  }
  const int terms = mp::ilog2(static_cast<std::uint64_t>(d)) + 1;  // d/2 terms < 2^terms / 2
  const mp::bigfloat<L> r =
      mp::div_small(mp::mul_small(s, static_cast<std::uint64_t>(H)), static_cast<std::uint32_t>(8 * (h + 1)));
  return {r, mp::max_int(worst + terms + 13, r.top() + 4 - 64 * L) + 1};
}

}  // namespace posenc::sandwich::detail

namespace posenc::sandwich::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// The head-independent part of bias_h(k): sum sin^2(k theta_i / 2), i = 1 .. d/2, in
// double-double with its absolute error bound; fast = false when a term left the fast path.
struct half_angle_sum {
  math::double_double sum{0.0, 0.0};
  double err = 0;
  bool fast = true;
};

// theta_i / 2 = 10000^(-2i/d) / 2 as geometric_frequency's double-double (halving is exact).
constexpr math::double_double half_theta(int dim, int i) noexcept {
  const math::double_double theta = math::geometric_frequency(10000.0, 2 * std::int64_t{i}, dim);
  return {theta.hi * 0.5, theta.lo * 0.5};
}

// half(i) gives half_theta(dim, i): bias computes it in place, a table once for all its distances
// (the same values, so the same bits).
template <class Half>
constexpr half_angle_sum sum_fast(int dim, std::uint64_t k, Half&& half_of) noexcept {
  half_angle_sum out{};
  for (int i = 1; i <= dim / 2; ++i) {
    const math::double_double half = half_of(i);
    posenc::detail::product_phase phi{};
    posenc::detail::reduced rd{};
    if (!posenc::detail::product_angle(k, half, phi) || !posenc::detail::reduce_pio2(phi.hi, phi.lo, rd)) {
      out.fast = false;
      return out;
    }
    const double xerr = phi.err + dabs(phi.hi) * (math::geometric_frequency_max_rel_error * 1.0000001);
    const posenc::detail::trig_kernel_out ko = posenc::detail::trig_kernel_dd(rd.hi, rd.lo, true, true);
    const bool odd = (rd.quadrant & 1) != 0;
    const posenc::detail::trig_approx a = odd ? ko.cos_r : ko.sin_r;  // |sin x| = |sin r| or |cos r|
    const double es = a.err + rd.err + xerr;                          // |s - sin(k theta/2)| (sign irrelevant)
    const math::double_double s2 = posenc::detail::dd_mul({a.hi, a.lo}, {a.hi, a.lo});
    const double as = dabs(a.hi) * (1 + 0x1p-50);
    out.err += 2 * as * es + es * es + s2.hi * 0x1p-102;  // the square's error, and dd_mul's
    out.sum = posenc::detail::dd_add(out.sum, s2);
    out.err += dabs(out.sum.hi) * 0x1p-104;  // AccurateDWPlusDW: 3u^2 of the sum
  }
  return out;
}

// RN_T(bias_h(k)) for a valid head and distance, from the sum (sum_fast(d, k), which does not
// depend on h: a table forms it once per distance for all its heads).
template <class T>
constexpr T head_value(const sandwich::config& c, int h, std::uint64_t k, const half_angle_sum& s) noexcept {
  if (k == 0) return posenc::detail::round_dd<T>(0.0, 0.0);  // the real 0: +0
  posenc::detail::fast_value fast{};
  if (s.fast) {
    // bias = -2 sum H / (8 (h + 1)) = sum * (-H) / (4 (h + 1)): the product and quotient by small
    // integers (exact doubles) add 2^-104 each, relative.
    const math::double_double r =
        posenc::detail::dd_div(posenc::detail::dd_mul(s.sum, -static_cast<double>(c.heads)), 4.0 * (h + 1));
    const double scale = static_cast<double>(c.heads) / (4.0 * (h + 1));
    const double rerr = (s.err * scale) * (1 + 0x1p-50) + dabs(r.hi) * 0x1p-102;
    fast = {r.hi, r.lo, rerr};
  }
  const int d = c.dim, H = c.heads;
  return posenc::detail::round_once<T>(fast,
                                       [k, d, H, h](auto lv) { return sum_approx<decltype(lv)::value>(k, d, H, h); });
}

}  // namespace posenc::sandwich::detail

namespace posenc::sandwich {

// RN_T(bias_h(k)); status overflow when that is infinite (float16 and a large d H).
template <class T = double>
constexpr posenc::result<T> bias(const checked_config& cc, int h, std::int64_t distance) noexcept {
  if (!cc.ok()) return {T{}, cc.check().error};
  const config& c = cc.get();
  if (h < 0 || h >= c.heads || distance <= -(std::int64_t{1} << 53) || distance >= (std::int64_t{1} << 53))
    return {T{}, posenc::status::domain_error};
  const auto k = static_cast<std::uint64_t>(distance < 0 ? -distance : distance);
  const sandwich::detail::half_angle_sum s =
      k == 0 ? sandwich::detail::half_angle_sum{}
             : sandwich::detail::sum_fast(c.dim, k, [&c](int i) { return sandwich::detail::half_theta(c.dim, i); });
  const T v = sandwich::detail::head_value<T>(c, h, k, s);
  // |bias| reaches d H / 8: past float16's 65504 for d H above 2^19, status overflow, never a
  // silent infinity.
  return posenc::detail::rounded_result(v);
}

// The same from a plain config (a braced {.dim = d, .heads = H} binds here).
template <class T = double>
constexpr posenc::result<T> bias(const config& c, int h, std::int64_t distance) noexcept {
  return bias<T>(checked_config{c}, h, distance);
}

}  // namespace posenc::sandwich
