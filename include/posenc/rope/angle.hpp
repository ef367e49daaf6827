// angle.hpp: cos and sin of the exact scaled RoPE angle m * theta_j of any scaling, correctly
// rounded into double, float, bfloat16 or float16, optionally times the attention factor.
//
//   rope::sincos<T>(cfg, m, j)            {RN_T(sin(m theta_j)), RN_T(cos(m theta_j))}
//   rope::attention_sincos<T>(cfg, m, j)  {RN_T(af sin(m theta_j)), RN_T(af cos(m theta_j))}:
//                                         HF's cos * attention_scaling, rounded ONCE
// theta_j is the exact real inv_freq[j] of frequencies.hpp (not its rounded value) and af the exact
// real attention_factor(cfg). Errors: status::domain_error when validate(cfg) fails or j is not a
// pair of rotary_dim(cfg); status::overflow when af sin / af cos does not fit T.
//
// Fast path (as math::sincos_geometric): the frequency as a double-double with relative
// error rel_err (frequency_dd), the angle phi = m theta by TwoProduct (|error| <= 2^-103 |phi|,
// posenc::detail::product_angle), plus |phi| rel_err for the frequency, then posenc::detail::trig_fast and Ziv's
// rounding test. With af: the double-double kernel's value times af as a double-double (dd_mul,
// 2^-102 relative, CRlibm Mul22), the errors propagated to first order with a 2^-50 margin.
// Fallback: detail/angle_mp.hpp.
#pragma once

#include <cstdint>

#include "posenc/math/detail/product_angle.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/reduce.hpp"
#include "posenc/math/round.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/sincos_source.hpp"
#include "posenc/math/trig.hpp"
#include "posenc/rope/checked_config.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/angle_mp.hpp"
#include "posenc/rope/detail/dyadic_frequency.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/validate.hpp"
#include "posenc/status.hpp"

namespace posenc::rope::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// The exact attention factor as a double-double with an absolute error bound (ok = false when the
// double-double evaluation could not bound it; the callers then take the accurate path): the
// amplitude the table engine folds in (math/sincos_source.hpp).
using attention_value = math::amplitude;

constexpr attention_value attention_dd(const rope::config& c) noexcept {
  const bool takes_explicit = c.rope_type == rope::scaling::yarn || c.rope_type == rope::scaling::longrope;
  if (takes_explicit && c.attention_factor.has_value()) return {{*c.attention_factor, 0.0}, 0.0, true};
  const eval::dd_val a = rope::detail::attention_eval<eval::dd_num>(c);
  if (eval::dd_num::failed(a) || !(a.v.hi > 0)) return {{}, 0, false};
  return {a.v, a.err == eval::exact_err ? 0.0 : pow2(eval::imax(a.err, -1074)), true};
}

constexpr double dabs(double x) noexcept { return x < 0 ? -x : x; }

// One of sin/cos from the double-double kernel (value a, error a.err + e) times af, rounded once.
template <class T>
constexpr bool fold_round(const trig_approx& a, double sg, double e, const attention_value& af, T& out) noexcept {
  const math::double_double p = dd_mul(math::double_double{sg * a.hi, sg * a.lo}, af.v);
  const double err = ((a.err + e) * dabs(af.v.hi) + dabs(a.hi) * af.err) * (1 + 0x1p-50) + dabs(p.hi) * 0x1p-101;
  return ziv_round<T>(p.hi, p.lo, err, out);
}

// Fast path of attention_sincos: true when both results passed the rounding test.
template <class T>
constexpr bool fold_fast(const product_phase& phi, double xerr, const attention_value& af,
                         math::sincos_result<T>& out) noexcept {
  reduced rd{};
  if (!af.ok || !reduce_pio2(phi.hi, phi.lo, rd)) return false;
  const trig_kernel_out k = trig_kernel_dd(rd.hi, rd.lo, true, true);
  const bool odd = (rd.quadrant & 1) != 0;  // sin/cos(r + q pi/2): see trig.hpp trig_fast
  const double e = rd.err + xerr;
  const double ss = rd.quadrant < 2 ? 1.0 : -1.0, cs = (rd.quadrant == 1 || rd.quadrant == 2) ? -1.0 : 1.0;
  return fold_round<T>(odd ? k.cos_r : k.sin_r, ss, e, af, out.sin) &&
         fold_round<T>(odd ? k.sin_r : k.cos_r, cs, e, af, out.cos);
}

template <class T>
constexpr posenc::result<math::sincos_result<T>> finish_pair(math::sincos_result<T> r, posenc::status s) noexcept {
  if (s == posenc::status::ok && (mp::same_bits(r.cos, mp::special_value<T>(false, false)) ||
                                  mp::same_bits(r.cos, mp::special_value<T>(false, true)) ||
                                  mp::same_bits(r.sin, mp::special_value<T>(false, false)) ||
                                  mp::same_bits(r.sin, mp::special_value<T>(false, true))))
    s = posenc::status::overflow;
  return {r, s};
}

// The scalar entry with the frequency (and af) already evaluated: the tables call this for the
// entries that their cheap test cannot decide. f from frequency_dd(c, j), f.ok(); m >= 0. The
// angle is m 2^scale_exp theta_j: a real position m 2^s (real_position.hpp) scales the frequency's
// double-double by 2^s, exactly unless it would come near the subnormals (then the accurate path).
template <class T>
constexpr posenc::result<math::sincos_result<T>> sincos_with(const rope::config& c, const rope::frequency_value& f,
                                                             const attention_value* af, std::uint64_t m, int j,
                                                             int scale_exp = 0) noexcept {
  const bool fold = af != nullptr;
  if (m == 0 || (f.value.hi == 0 && f.value.lo == 0)) {  // angle exactly 0: {0, 1} or {0, af}
    if (!fold) return {{zero_value<T>(), one_value<T>()}, posenc::status::ok};
    return finish_pair<T>({zero_value<T>(), rope::attention_factor<T>(c).value}, rope::attention_factor<T>(c).error);
  }
  product_phase phi{};
  math::sincos_result<T> r{};
  math::double_double fs = f.value;
  bool scaled_ok = true;
  if (scale_exp != 0) {
    scaled_ok = scale_exp > -900 && scale_exp < 900;
    if (scaled_ok) {
      const double k = pow2(scale_exp);
      fs = {f.value.hi * k, f.value.lo * k};
      scaled_ok = dabs(fs.hi) > 0x1p-900;
    }
  }
  if (scaled_ok && product_angle(m, fs, phi)) {
    const double err = phi.err + dabs(phi.hi) * (f.rel_err * 1.0000001);  // |m theta - phi| bound
    if (!fold) {
      if (trig_fast<T>(phi.hi, phi.lo, err, want_sin | want_cos, r) == (want_sin | want_cos))
        return {r, posenc::status::ok};
    } else if (fold_fast<T>(phi, err, *af, r)) {
      return finish_pair<T>(r, posenc::status::ok);
    }
  }
  // An angle below 2^-600 with a dyadic frequency: exact, and decided without an enclosure
  // (dyadic_frequency.hpp); the multiprecision loop could not decide its midpoints.
  if (!fold && tiny_dyadic_sincos<T>(c, m, scale_exp, j, r)) return {r, posenc::status::ok};
  const auto a = scaled_sincos_mp<T>(c, m, j, fold, scale_exp);
  return finish_pair<T>(a.value, a.error);
}

constexpr bool pair_ok(const rope::checked_config& c, int j) noexcept {
  return c.ok() && j >= 0 && j < rope::rotary_dim(c.get()) / 2;
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

// {RN_T(sin(m theta_j)), RN_T(cos(m theta_j))} for the exact real scaled frequency theta_j of c.
// Any m < 2^64. domain_error: invalid config, j outside [0, rotary_dim(c)/2).
template <class T = double>
constexpr posenc::result<math::sincos_result<T>> sincos(const checked_config& c, std::uint64_t m, int j) noexcept {
  if (!rope::detail::pair_ok(c, j)) return {{}, posenc::status::domain_error};
  const frequency_value f = frequency_dd(c, j);
  if (!f.ok()) return {{}, f.error};
  return rope::detail::sincos_with<T>(c.get(), f, nullptr, m, j);
}

// {RN_T(af sin(m theta_j)), RN_T(af cos(m theta_j))}, af = attention_factor(c) exact: HF's
// cos * attention_scaling (modeling_rope_utils.py dynamic_rope_update / LlamaRotaryEmbedding.forward)
// without its two float32 roundings. overflow when a product does not fit T.
template <class T = double>
constexpr posenc::result<math::sincos_result<T>> attention_sincos(const checked_config& c, std::uint64_t m,
                                                                  int j) noexcept {
  if (!rope::detail::pair_ok(c, j)) return {{}, posenc::status::domain_error};
  const frequency_value f = frequency_dd(c, j);
  if (!f.ok()) return {{}, f.error};
  const rope::detail::attention_value af = rope::detail::attention_dd(c.get());
  return rope::detail::sincos_with<T>(c.get(), f, &af, m, j);
}

}  // namespace posenc::rope
