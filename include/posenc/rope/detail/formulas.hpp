// formulas.hpp: every RoPE frequency formula, written once over a number type P (num_dd.hpp,
// num_mp.hpp) that carries an error bound. Branches, clamps, floors and ceils of transcendental
// values are decided only when the bound decides them; otherwise the result is P::fail() and the
// caller retries at a higher precision. Semantics: HF transformers modeling_rope_utils.py, the
// function named at each formula (pe-formulas.md sections 1.0-1.3).
#pragma once

#include <cstdint>

#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/dims.hpp"

namespace posenc::rope::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// floor(x) of a value whose floor is decidable at P's precision; false otherwise.
template <class P>
constexpr bool floor_of(const typename P::value& x, std::int64_t& out) noexcept {
  const double a = P::approx(x);
  if (!(a > -0x1p52 && a < 0x1p52)) return false;
  std::int64_t k = static_cast<std::int64_t>(a);
  if (static_cast<double>(k) > a) --k;
  for (int tries = 0; tries < 3; ++tries) {
    const int lo = P::sign(P::sub(x, P::of_int(k)));
    const int hi = P::sign(P::sub(x, P::of_int(k + 1)));
    if (lo == 2 || hi == 2) return false;
    if (lo >= 0 && hi < 0) {
      out = k;
      return true;
    }
    k += lo < 0 ? -1 : 1;
  }
  return false;
}

// The factor s and ln s: the given factor, or max_position_embeddings / L0 when unset (HF yarn
// and longrope), taken as the exact rational.
template <class P>
constexpr typename P::value log_factor(const rope::config& c) noexcept {
  if (c.factor != 0.0) return P::log(P::of(c.factor));
  return P::sub(P::log(P::of_int(c.max_position_embeddings)), P::log(P::of_int(c.original_max_position_embeddings)));
}
constexpr bool factor_at_most_one(const rope::config& c) noexcept {
  return c.factor != 0.0 ? c.factor <= 1.0 : c.max_position_embeddings <= c.original_max_position_embeddings;
}

// -(2j/D) ln b: the log of the default frequency b^(-2j/D) (compute_default_rope_parameters).
template <class P>
constexpr typename P::value log_theta(const rope::config& c, std::int64_t j) noexcept {
  return P::div_int(P::mul_int(P::log(P::of(c.rope_theta)), -2 * j), exponent_dim(c));
}

// YaRN's find_correction_dim(n) = d ln(L0 / (n 2 pi)) / (2 ln b) (_compute_yarn_parameters).
template <class P>
constexpr typename P::value correction_dim(const rope::config& c, double n) noexcept {
  const auto num = P::sub(P::log(P::of_int(c.original_max_position_embeddings)), P::log(P::mul(P::of(n), P::two_pi())));
  return P::mul(P::mul_int(num, rotary_dim(c)), P::recip(P::mul_int(P::log(P::of(c.rope_theta)), 2)));
}

// find_correction_range: low = fcd(beta_fast), high = fcd(beta_slow); with truncate, floor and
// ceil; then low = max(low, 0), high = min(high, d - 1). In the truncated case the bounds are
// exact integers (lo_i, hi_i).
template <class P>
struct yarn_bounds {
  typename P::value low, high;
  std::int64_t lo_i = 0, hi_i = 0;
  bool ok = false;
};

template <class P>
constexpr yarn_bounds<P> yarn_range(const rope::config& c) noexcept {
  yarn_bounds<P> r{P::fail(), P::fail()};
  const std::int64_t d = rotary_dim(c);
  const auto lo = correction_dim<P>(c, c.beta_fast), hi = correction_dim<P>(c, c.beta_slow);
  if (c.truncate) {
    std::int64_t fl = 0, fh = 0;
    if (!floor_of<P>(lo, fl) || !floor_of<P>(P::neg(hi), fh)) return r;
    r.lo_i = fl < 0 ? 0 : fl;
    r.hi_i = -fh > d - 1 ? d - 1 : -fh;  // ceil(x) = -floor(-x)
    r.low = P::of_int(r.lo_i);
    r.high = P::of_int(r.hi_i);
    r.ok = true;
    return r;
  }
  const int sl = P::sign(lo), sh = P::sign(P::sub(hi, P::of_int(d - 1)));
  if (sl == 2 || sh == 2) return r;
  r.low = sl < 0 ? P::of_int(0) : lo;
  r.high = sh > 0 ? P::of_int(d - 1) : hi;
  r.ok = true;
  return r;
}

// linear_ramp_factor(low, high, d/2) at j: clamp((j - low) / (high - low), 0, 1), with
// high += 0.001 when low == high. Returns 0 or 1 in `whole` (exact) or the value in `v`.
template <class P>
struct ramp_value {
  typename P::value v;
  int whole = -1;  // 0 or 1 when the clamp decided it, -1 when v holds the ramp, 2 on failure
};

template <class P>
constexpr ramp_value<P> yarn_ramp(const yarn_bounds<P>& b, std::int64_t j, bool truncated) noexcept {
  ramp_value<P> r{P::fail(), 2};
  if (truncated) {  // exact integers: the ramp is the rational (j - lo) / (hi - lo)
    std::int64_t num = j - b.lo_i, den = b.hi_i - b.lo_i;
    if (den == 0) return {P::fail(), j > b.lo_i ? 1 : 0};  // (j - lo) / 0.001 is 0 or >= 1000
    if (den < 0) num = -num, den = -den;
    if (num <= 0) return {P::fail(), 0};
    if (num >= den) return {P::fail(), 1};
    return {P::div_int(P::of_int(num), den), -1};
  }
  const auto num = P::sub(P::of_int(j), b.low), den = P::sub(b.high, b.low);
  const int sn = P::sign(num), sd = P::sign(den), s1 = P::sign(P::sub(num, den));
  if (sn == 2 || sd == 2 || sd == 0 || s1 == 2) return r;
  if (sn == 0 || sn != sd) return {P::fail(), 0};
  if (s1 == 0 || s1 == sd) return {P::fail(), 1};  // num/den >= 1
  return {P::mul(num, P::recip(den)), -1};
}

// 0.1 m ln s + 1 (get_mscale, for s > 1; the constant 0.1 is the real 1/10 of the formula).
template <class P>
constexpr typename P::value get_mscale(const typename P::value& ln_s, double m) noexcept {
  return P::add(P::div_int(P::mul(P::of(m), ln_s), 10), P::of(1.0));
}

}  // namespace posenc::rope::detail
