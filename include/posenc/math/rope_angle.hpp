// rope_angle.hpp: cos and sin of the exact RoPE angle m * theta, correctly rounded in double, float,
// bfloat16 or float16 (docs/internals.md, "RoPE entry points").
//
//   sincos_product<T>(m, theta)        cos, sin of the exact real m * (theta.hi + theta.lo)
//   rope_sincos<T>(m, base, j, d)      cos, sin of m * base^(-2j/d), the exact real frequency
//   sincos_product_table / rope_sincos_table: whole tables, far cheaper per entry in constant
//                                      evaluation (detail/rope_table.hpp)
//
// The angle is formed as a double-double, m * theta.hi by TwoProduct (exact) plus m * theta.lo
// (one rounding), and reduced and evaluated by the same fast path as posenc::math::sin/cos
// (trig.hpp), whose rounding test also covers the angle's own error: 2^-103 |m theta| for the
// product, plus |m theta| * rope_theta_max_rel_error for rope_sincos, whose theta is rope_theta's
// double-double approximation of the real base^(-2j/d). When the test fails, the accurate path
// (posenc::detail::mp, exact rational frequency and exact product) decides.
// Domain: any m < 2^64; the fast path takes m < 2^53 and |m theta| < 0x1.8p30, the rest goes to mp.
#pragma once

#include <cstdint>
#include <limits>

#include "posenc/detail/mp/rope.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/rope_theta.hpp"
#include "posenc/math/round.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/trig.hpp"

namespace posenc::detail {

// phi = m * theta as hi + lo with |hi + lo - m (theta.hi + theta.lo)| <= err. false when the fast
// path cannot form it exactly enough: m >= 2^53 (not a double), theta not finite, or |theta.hi|
// outside [2^-900, 2^900] (TwoProduct needs no underflow and no Veltkamp overflow).
// Error: m theta.hi is exact (Dekker); RN(m theta.lo) errs by <= 2^-53 |m theta.lo| <= 2^-106 |phi|
// and the sum p.lo + m theta.lo by <= 2^-53 * 2^-52 |phi|; so err <= 2^-104 |phi| < 2^-103 |hi|.
struct rope_phase {
  double hi;
  double lo;
  double err;
};

constexpr bool rope_angle(std::uint64_t m, math::double_double theta, rope_phase& out) noexcept {
  const double at = theta.hi < 0 ? -theta.hi : theta.hi;
  if (m >= (std::uint64_t{1} << 53) || !(at >= 0x1p-900 && at <= 0x1p900)) return false;
  const double md = static_cast<double>(m);  // exact below 2^53
  const math::double_double p = two_prod(md, theta.hi);
  const math::double_double s = fast_two_sum(p.hi, p.lo + md * theta.lo);  // |p.hi| >= |rest|
  out = {s.hi, s.lo, (s.hi < 0 ? -s.hi : s.hi) * 0x1p-103};
  return true;
}

// The preconditions of rope_sincos (as mp::rope_sincos checks them): NaNs outside.
constexpr bool rope_args_valid(double base, int j, int d) noexcept {
  return base > 1 && base <= std::numeric_limits<double>::max() && d > 0 && d % 2 == 0 && j >= 0 && j < d / 2;
}

template <class T>
constexpr T one_value() noexcept { return round_dd<T>(1.0, 0.0); }
template <class T>
constexpr T zero_value() noexcept { return round_dd<T>(0.0, 0.0); }  // +0
template <class T>
constexpr T nan_value() noexcept { return round_dd<T>(std::numeric_limits<double>::quiet_NaN(), 0.0); }

}  // namespace posenc::detail

namespace posenc::math {

// {RN_T(sin(m theta)), RN_T(cos(m theta))} of the exact real m * (theta.hi + theta.lo).
// m = 0 or theta = 0 gives {+0, 1} (the real angle is 0); a NaN or infinite theta gives NaNs.
template <class T = double>
constexpr sincos_result<T> sincos_product(std::uint64_t m, double_double theta) noexcept {
  if (detail::trig_special(theta.hi) || detail::trig_special(theta.lo))
    return {detail::nan_value<T>(), detail::nan_value<T>()};
  if (m == 0 || (theta.hi == 0 && theta.lo == 0)) return {detail::zero_value<T>(), detail::one_value<T>()};
  detail::rope_phase phi{};
  sincos_result<T> r{};
  if (detail::rope_angle(m, theta, phi) &&
      detail::trig_fast<T>(phi.hi, phi.lo, phi.err, detail::want_sin | detail::want_cos, r) ==
          (detail::want_sin | detail::want_cos))
    return r;
  return detail::mp::sincos_product<T>(m, theta);
}

// {RN_T(sin(m t)), RN_T(cos(m t))}, t = base^(-2j/d) the exact real frequency of RoPE pair j of a
// head of dimension d (Su et al., "RoFormer", eq. 15). base > 1 finite, d > 0 even, 0 <= j < d/2,
// else NaNs. The rounding test includes m t rope_theta_max_rel_error, so a pass proves correct
// rounding of the exact real value.
template <class T = double>
constexpr sincos_result<T> rope_sincos(std::uint64_t m, double base, int j, int d) noexcept {
  if (!detail::rope_args_valid(base, j, d)) return {detail::nan_value<T>(), detail::nan_value<T>()};
  if (m == 0) return {detail::zero_value<T>(), detail::one_value<T>()};
  const double_double theta = rope_theta(base, j, d);
  detail::rope_phase phi{};
  sincos_result<T> r{};
  if (detail::rope_angle(m, theta, phi)) {
    const double aphi = phi.hi < 0 ? -phi.hi : phi.hi;
    const double err = phi.err + aphi * (rope_theta_max_rel_error * 1.0000001);  // |m t - phi| bound
    if (detail::trig_fast<T>(phi.hi, phi.lo, err, detail::want_sin | detail::want_cos, r) ==
        (detail::want_sin | detail::want_cos))
      return r;
  }
  return detail::mp::rope_sincos<T>(m, base, j, d);
}

}  // namespace posenc::math

#include "posenc/math/detail/rope_table.hpp"
