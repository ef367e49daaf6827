// turns.hpp: RoPE whose angle counts turns, 2 pi p theta_j, correctly rounded: DINOv3's
// `angle = 2 pi coord / period` (facebookresearch/dinov3 dinov3/layers/rope_position_encoding.py,
// HF transformers models/dinov3_vit/modeling_dinov3_vit.py; ../shared/reference/pe-formulas-more.md
// 6.2), whose period_k = base^(2k / (D/2)) is 1 / theta_k of a RoPE axis of dim D/2.
//
//   rope::sincos_turns_at<T>(cfg, p, j)  {RN_T(sin(2 pi p theta_j)), RN_T(cos(2 pi p theta_j))}
//   rope::sincos_turns<T>(cfg, m, j)     the same at an integer m < 2^64
//
// 2 pi is the exact real constant: giving 2 pi p as a position rounds the angle twice (the double
// 2 pi p, then the entry) and misses the exact entry at some entries (docs/rope-streams.md).
// Method: the phase t = p theta_j in turns, from the frequency's double-double scaled by 2^e (as
// sincos_at, real_position.hpp); t - n, n the nearest integer, exactly; times 2 pi as a
// double-double (math/detail/turn_angle.hpp, with the error argument); then the trig kernel and
// Ziv's rounding test (math/trig.hpp trig_fast). Fallback: detail/angle_mp.hpp with X's fraction
// taken exactly (math/detail/mp/turns.hpp).
// Exact entries: cos or sin is a dyadic only when t is rational (2 pi t for an algebraic
// irrational t has transcendental cos and sin: Gelfond-Schneider on e^(2 pi i t) = (-1)^(2t)), and
// then only 0, +-1/2, +-1 (Niven). When theta_j is a dyadic (exact_dyadic_frequency, rope/detail/dyadic_frequency.hpp: theta_0 = 1,
// or a power-of-two base), t is a dyadic and the exact cases are the quarter turns, detected by
// integer arithmetic (exact_quarter_turns): sin/cos in {0, +-1}, zeros +0. When theta_j is a rational that is not a
// dyadic (base 100, theta = 1/10 at k = D/8) and p theta_j is a multiple of 1/4 or 1/12 (p = 2.5,
// outside DINOv3's [-1, 1]), the rounding cannot be decided: status::domain_error, never wrong bits.
#pragma once

#include <cstdint>

#include "posenc/math/detail/product_angle.hpp"
#include "posenc/math/detail/turn_angle.hpp"
#include "posenc/math/geometric_frequency.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/trig.hpp"
#include "posenc/rope/angle.hpp"
#include "posenc/rope/checked_config.hpp"
#include "posenc/rope/detail/angle_mp.hpp"
#include "posenc/rope/detail/dyadic_frequency.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/real_position.hpp"
#include "posenc/status.hpp"

namespace posenc::rope::detail {

// {sin, cos} of q quarter turns, q in 0..3: exact, zeros +0.
template <class T>
constexpr math::sincos_result<T> quarter_turn(int q) noexcept {
  const T z = zero_value<T>(), one = one_value<T>();
  if (q == 0) return {z, one};
  if (q == 1) return {one, z};
  if (q == 2) return {z, negated(one)};
  return {negated(one), z};
}

// The fast path at m 2^s (m >= 1): true when both results passed the rounding test.
template <class T>
constexpr bool turns_fast(const rope::frequency_value& f, std::uint64_t m, int s, math::sincos_result<T>& r) noexcept {
  math::double_double fs = f.value;
  if (s != 0) {
    if (!(s > -900 && s < 900)) return false;
    const double k = pow2(s);
    fs = {f.value.hi * k, f.value.lo * k};  // exact while |fs.hi| > 2^-900 (checked by product_angle)
  }
  product_phase phi{}, a{};
  if (!product_angle(m, fs, phi)) return false;
  const double err = phi.err + dabs(phi.hi) * (f.rel_err * 1.0000001);  // |m 2^s theta - phi| (turns)
  return turns_to_radians(phi, err, a) &&
         trig_fast<T>(a.hi, a.lo, a.err, want_sin | want_cos, r) == (want_sin | want_cos);
}

// The entry at a split position with the frequency f = frequency_dd(c, j) evaluated by the caller.
template <class T>
constexpr posenc::result<math::sincos_result<T>> sincos_turns_split(const rope::config& c,
                                                                    const rope::frequency_value& f,
                                                                    const real_position& p, int j) noexcept {
  if (p.m == 0 || (f.value.hi == 0 && f.value.lo == 0)) return {{zero_value<T>(), one_value<T>()}, posenc::status::ok};
  int q = 0;
  double theta = 0;
  if (exact_dyadic_frequency(c, j, theta) && exact_quarter_turns(p.m, theta, p.scale_exp, q))
    return {quarter_turn<T>(p.negative ? (4 - q) & 3 : q), posenc::status::ok};
  posenc::result<math::sincos_result<T>> r{};
  if (!turns_fast<T>(f, p.m, p.scale_exp, r.value)) r = scaled_sincos_mp<T>(c, p.m, j, false, p.scale_exp, true);
  if (p.negative) r.value.sin = negated(r.value.sin);  // sin(-x) = -sin x, RN(-y) = -RN(y)
  return r;
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

// {RN_T(sin(2 pi p theta_j)), RN_T(cos(2 pi p theta_j))} at the real position p (a double, exactly).
// domain_error: invalid config, j not a pair, p not finite or |p| > max_real_position, or an exact
// entry that cannot be proved (the header comment).
template <class T = double>
constexpr posenc::result<math::sincos_result<T>> sincos_turns_at(const checked_config& c, double p, int j) noexcept {
  if (!rope::detail::pair_ok(c, j)) return {{}, posenc::status::domain_error};
  const real_position rp = split_position(p);
  if (!rp.ok()) return {{}, rp.error};
  const frequency_value f = frequency_dd(c, j);
  if (!f.ok()) return {{}, f.error};
  return rope::detail::sincos_turns_split<T>(c.get(), f, rp, j);
}

// The same at an integer position m < 2^64.
template <class T = double>
constexpr posenc::result<math::sincos_result<T>> sincos_turns(const checked_config& c, std::uint64_t m,
                                                              int j) noexcept {
  if (!rope::detail::pair_ok(c, j)) return {{}, posenc::status::domain_error};
  const frequency_value f = frequency_dd(c, j);
  if (!f.ok()) return {{}, f.error};
  return rope::detail::sincos_turns_split<T>(c.get(), f, {m, 0, false, posenc::status::ok}, j);
}

}  // namespace posenc::rope
