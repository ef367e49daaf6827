// inv_freq_formula.hpp: inv_freq[j] and the attention factors of every rope_type, over a number
// type P (formulas.hpp). Each function names the HF transformers modeling_rope_utils.py function
// whose semantics it computes exactly.
#pragma once

#include <cstdint>

#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/dims.hpp"
#include "posenc/rope/detail/formulas.hpp"

namespace posenc::rope::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// _compute_yarn_parameters: inv = interp * ramp + extrap * (1 - ramp), extrap = b^(-2j/d),
// interp = extrap / s (HF writes interp * (1 - w_ext) + extrap * w_ext, w_ext = 1 - ramp).
template <class P>
constexpr typename P::value yarn_inv_freq(const rope::config& c, std::int64_t j, const typename P::value& lt) noexcept {
  const yarn_bounds<P> b = yarn_range<P>(c);
  if (!b.ok) return P::fail();
  const ramp_value<P> r = yarn_ramp<P>(b, j, c.truncate);
  if (r.whole == 2) return P::fail();
  if (r.whole == 0) return P::exp(lt);
  const auto interp = P::exp(P::sub(lt, log_factor<P>(c)));
  if (r.whole == 1) return interp;
  return P::add(P::mul(interp, r.v), P::mul(P::exp(lt), P::sub(P::of(1.0), r.v)));
}

// _compute_llama3_parameters: wavelen = 2 pi / inv; wavelen < L0/hff keeps inv, wavelen > L0/lff
// divides it by s, and in between (both ends included) inv = (1 - smooth) inv / s + smooth inv
// with smooth = (L0 / wavelen - lff) / (hff - lff). The band tests are 2 pi hff < L0 inv and
// 2 pi lff > L0 inv, decided exactly (never ties: pi is transcendental). hff == lff (Llama-4) leaves
// the smoothed band empty.
template <class P>
constexpr int llama3_band_eval(const rope::config& c, const typename P::value& theta) noexcept {
  const auto x = P::mul_int(theta, c.original_max_position_embeddings);
  const int keep = P::sign(P::sub(x, P::mul(P::two_pi(), P::of(c.high_freq_factor))));
  const int divide = P::sign(P::sub(P::mul(P::two_pi(), P::of(c.low_freq_factor)), x));
  if (keep == 2 || divide == 2) return 3;
  return keep > 0 ? 0 : divide > 0 ? 2 : 1;  // 0 keep, 1 smoothed, 2 divided, 3 undecided
}

template <class P>
constexpr typename P::value llama3_inv_freq(const rope::config& c, const typename P::value& lt) noexcept {
  const auto theta = P::exp(lt);
  const int band = llama3_band_eval<P>(c, theta);
  if (band == 3) return P::fail();
  if (band == 0) return theta;
  const auto interp = P::exp(P::sub(lt, P::log(P::of(c.factor))));
  if (band == 2) return interp;
  // high_freq_factor == low_freq_factor (Llama-4): the smoothed band is empty, band 1 is never
  // decided (that would need L0 theta == 2 pi hff exactly), and smooth would divide by zero.
  if (c.high_freq_factor == c.low_freq_factor) return P::fail();
  const auto ratio = P::mul(P::mul_int(theta, c.original_max_position_embeddings), P::recip(P::two_pi()));
  const auto smooth = P::mul(P::sub(ratio, P::of(c.low_freq_factor)),
                             P::recip(P::sub(P::of(c.high_freq_factor), P::of(c.low_freq_factor))));
  return P::add(P::mul(interp, P::sub(P::of(1.0), smooth)), P::mul(theta, smooth));
}

// inv_freq[j] for 0 <= j < rotating_pairs(c), any rope_type.
template <class P>
constexpr typename P::value inv_freq_eval(const rope::config& c, std::int64_t j) noexcept {
  using rope::scaling;
  const auto lt = log_theta<P>(c, j);
  const std::int64_t d = rotary_dim(c);
  switch (c.rope_type) {
    case scaling::default_:  // compute_default_rope_parameters (proportional: / factor if set)
      return (c.proportional && c.factor != 0.0) ? P::exp(P::sub(lt, P::log(P::of(c.factor)))) : P::exp(lt);
    case scaling::linear:  // _compute_linear_scaling_rope_parameters: inv_freq / factor
      return P::exp(P::sub(lt, P::log(P::of(c.factor))));
    case scaling::ntk:  // _compute_ntk_parameters (0044e3b3): (b s^(d/(d-2)))^(-2j/d)
      return P::exp(P::sub(lt, P::div_int(P::mul_int(P::log(P::of(c.factor)), 2 * j), d - 2)));
    case scaling::dynamic: {  // _compute_dynamic_ntk_parameters: b' = b q^(d/(d-2))
      const std::int64_t m = c.max_position_embeddings;
      const std::int64_t len = c.seq_len > m ? c.seq_len : m;  // seq_len = max(seq_len, max_pos)
      // q = s len / m - (s - 1) = (s (len - m) + m) / m, exactly.
      const auto num = P::add(P::mul_int(P::of(c.factor), len - m), P::of_int(m));
      const auto ln_q = P::sub(P::log(num), P::log(P::of_int(m)));
      return P::exp(P::sub(lt, P::div_int(P::mul_int(ln_q, 2 * j), d - 2)));
    }
    case scaling::yarn: return yarn_inv_freq<P>(c, j, lt);
    case scaling::longrope: {  // _compute_longrope_parameters: 1 / (ext[j] b^(2j/d))
      const bool long_ext = c.seq_len > c.original_max_position_embeddings;
      const double e = (long_ext ? c.long_factor : c.short_factor)[static_cast<std::size_t>(j)];
      return P::exp(P::sub(lt, P::log(P::of(e))));
    }
    case scaling::llama3: return llama3_inv_freq<P>(c, lt);
  }
  return P::fail();
}

// The cos/sin attention factor. yarn (_compute_yarn_parameters): get_mscale(s, mscale) /
// get_mscale(s, mscale_all_dim) when both are set, else get_mscale(s); longrope
// (_compute_longrope_parameters): sqrt(1 + ln s / ln L0) for s > 1. 1 otherwise and for the other
// types. An explicit attention_factor is handled by the caller (it is a double, rounded once).
template <class P>
constexpr typename P::value attention_eval(const rope::config& c) noexcept {
  using rope::scaling;
  if (factor_at_most_one(c)) return P::of(1.0);
  if (c.rope_type == scaling::yarn) {
    const auto ln_s = log_factor<P>(c);
    if (c.mscale != 0.0 && c.mscale_all_dim != 0.0) {
      if (c.mscale == c.mscale_all_dim) return P::of(1.0);
      return P::mul(get_mscale<P>(ln_s, c.mscale), P::recip(get_mscale<P>(ln_s, c.mscale_all_dim)));
    }
    return get_mscale<P>(ln_s, 1.0);
  }
  if (c.rope_type == scaling::longrope) {
    const auto q = P::mul(log_factor<P>(c), P::recip(P::log(P::of_int(c.original_max_position_embeddings))));
    return P::exp(P::div_int(P::log(P::add(P::of(1.0), q)), 2));
  }
  return P::of(1.0);
}

// DeepSeek-V2/V3's softmax-scale multiplier mscale^2, mscale = get_mscale(s, mscale_all_dim)
// (modeling_deepseek_v3 DeepseekV3Attention.__init__: scaling *= mscale * mscale), 1 when
// mscale_all_dim is unset or s <= 1.
template <class P>
constexpr typename P::value softmax_eval(const rope::config& c) noexcept {
  if (c.mscale_all_dim == 0.0 || factor_at_most_one(c)) return P::of(1.0);
  const auto g = get_mscale<P>(log_factor<P>(c), c.mscale_all_dim);
  return P::mul(g, g);
}

}  // namespace posenc::rope::detail
