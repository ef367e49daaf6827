// generators.hpp: RapidCheck generators for property tests of RoPE kernels (rc::Gen), the ones
// check_rope_apply draws its cases from, for users writing their own properties:
//
//   rope_configs()            the shipped presets (rope/models.hpp, every scaling they have) and
//                             random valid configs of every scaling (random_rope_configs())
//   rope_positions(c)         positions of c: uniform over [0, limit), both ends, positions where
//                             cos of the two highest-frequency pairs is near 0, and large angles
//   element_values(f)         finite values of format f as doubles: varied exponents, both signs,
//                             zeros, powers of two (never NaN or infinity)
//   element_vectors<T>(n)     n such values of T
//
// Integer ranges grow with RapidCheck's size (small values first), and every generator shrinks
// toward small positions, few tokens and simple values, so a failure comes back small.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <vector>

#include "posenc/math/round.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/dims.hpp"
#include "posenc/rope/models.hpp"
#include "posenc/rope/seq_len.hpp"
#include "posenc/rope/validate.hpp"
#include "posenc/testing/rope_kernel_bound.hpp"
#include "posenc/verify/rope_oracle.hpp"

namespace posenc::testing {

namespace detail {

// LongRoPE factor arrays for random configs: a config holds spans, so the storage must outlive
// it. 1 <= short < 3 and 1 <= long < 65, increasing like the published arrays (models.hpp).
inline const std::array<double, 128>& longrope_factors(bool long_factors) {
  static const auto make = [](double top) {
    std::array<double, 128> f{};
    for (std::size_t j = 0; j < f.size(); ++j) f[j] = 1.0 + (top - 1.0) * static_cast<double>(j * j) / (127.0 * 127.0);
    return f;
  };
  static const std::array<double, 128> short_f = make(3.0), long_f = make(64.0);
  return long_factors ? long_f : short_f;
}

// The exclusive upper end of a config's positions: max_position_embeddings, or 2^21 (posenc's
// largest table position plus one) when it is unset.
inline std::int64_t position_limit(const rope::config& c) noexcept {
  return c.max_position_embeddings > 0 ? c.max_position_embeddings : std::int64_t{1} << 21;
}

// Positions m < limit where |cos(m theta_j)| < 1e-3 for the two highest-frequency pairs (j = 0,
// 1): the entries whose float rounding is relatively the largest, and where a kernel with an
// inaccurate angle shows it first. m = round((k + 1/2) pi / theta_j) for each k: the integers
// nearest the zeros of cos; double accuracy is ample for choosing candidates.
inline std::vector<std::int64_t> cos_zero_positions(const rope::config& c, std::int64_t limit) {
  std::vector<std::int64_t> out;
  const rope::config r = rope::with_seq_len_of_positions(c, static_cast<std::uint64_t>(limit - 1));
  for (int j = 0; j < 2 && j < posenc::rope::detail::rotary_dim(r) / 2; ++j) {
    const double theta = verify::cr_rope_inv_freq<double>(r, j);
    if (!(theta > 0)) continue;
    for (double k = 0;; ++k) {
      const double m = std::nearbyint((k + 0.5) * std::numbers::pi / theta);
      if (!(m < static_cast<double>(limit))) break;
      if (m >= 0 && std::fabs(std::cos(m * theta)) < 1e-3) out.push_back(static_cast<std::int64_t>(m));
      if (out.size() >= 4096) break;
    }
  }
  return out;
}

// Every drawn number is one rc::gen::inRange<std::uint64_t> decoded here: RapidCheck's
// combinators (oneOf, apply, suchThat) cost seconds of compile time per use, and a raw integer
// shrinks toward 0, which each decoder maps to the simplest case (position 0, the value 1).

// Positions: raw = payload * 8 + kind; kinds 0-3 uniform in [0, limit), 4 the ends (0, 1,
// limit - 1), 5-6 positions where cos of the two highest-frequency pairs is near 0, 7 large
// angles (the top eighth). The uniform payload is the position itself, so it shrinks toward 0.
class position_decoder {
 public:
  position_decoder(const rope::config& c, std::int64_t limit) : limit_(limit), hard_(cos_zero_positions(c, limit)) {
    if (hard_.empty()) hard_.push_back(limit - 1);
  }
  std::uint64_t raw_end() const noexcept { return static_cast<std::uint64_t>(limit_) * 8; }
  std::int64_t operator()(std::uint64_t raw) const {
    const std::uint64_t kind = raw % 8, payload = raw / 8;
    const auto pick = [payload](std::uint64_t n) { return static_cast<std::int64_t>(payload % n); };
    const std::int64_t top = limit_ - 1, near_top = limit_ - std::max<std::int64_t>(1, limit_ / 8);
    if (kind < 4) return pick(static_cast<std::uint64_t>(limit_));
    if (kind == 4)
      return std::array<std::int64_t, 3>{0, std::min<std::int64_t>(1, top), top}[static_cast<std::size_t>(pick(3))];
    if (kind < 7) return hard_[static_cast<std::size_t>(pick(hard_.size()))];
    return near_top + pick(static_cast<std::uint64_t>(limit_ - near_top));
  }

 private:
  std::int64_t limit_;
  std::vector<std::int64_t> hard_;
};

// Values of format f: raw = ((mantissa * 8 + kind) * 128 + exponent index) * 2 + sign; kinds 0-5
// (1 + mantissa 2^-52) 2^k rounded to f, 6 the power 2^k, 7 zero; the exponent index runs over
// k = 0, -1, 1, -2, 2, ... within [lo, hi]: k in [-30, 30] (float16: [-24, 10], so that a rotation
// times an attention factor of up to 8 cannot overflow it).
class value_decoder {
 public:
  explicit value_decoder(dtype f) : f_(f) {
    const int lo = f == dtype::float16 ? -24 : -30, hi = f == dtype::float16 ? 10 : 30;
    for (int i = 0; static_cast<int>(exps_.size()) < hi - lo + 1; ++i) {
      const int k = i % 2 == 0 ? i / 2 : -(i + 1) / 2;
      if (k >= lo && k <= hi) exps_.push_back(k);
    }
  }
  static constexpr std::uint64_t raw_end() noexcept { return (std::uint64_t{1} << 52) * 8 * 128 * 2; }
  double operator()(std::uint64_t raw) const {
    const bool neg = raw % 2 != 0;
    const int k = exps_[(raw / 2) % 128 % exps_.size()];
    const std::uint64_t kind = raw / 256 % 8, mantissa = raw / 2048;
    if (kind == 7) return neg ? -0.0 : 0.0;
    const double v = (neg ? -1.0 : 1.0) * std::ldexp(1.0, k);
    return kind == 6 ? v : to_format(v * (1.0 + static_cast<double>(mantissa) * 0x1p-52));
  }

 private:
  double to_format(double v) const noexcept {
    switch (f_) {
      case dtype::float64: return v;
      case dtype::float32: return static_cast<double>(static_cast<float>(v));
      case dtype::bfloat16: return static_cast<double>(math::round_to<bfloat16>(v).value.to_float());
      case dtype::float16: return static_cast<double>(math::round_to<float16>(v).value.to_float());
    }
    return v;
  }
  dtype f_;
  std::vector<int> exps_;
};

}  // namespace detail

// Positions for config c in [0, limit) (limit 0: detail::position_limit(c)).
inline rc::Gen<std::int64_t> rope_positions(const rope::config& c, std::int64_t limit = 0) {
  if (limit <= 0) limit = detail::position_limit(c);
  const detail::position_decoder d(c, limit);
  return rc::gen::map(rc::gen::inRange<std::uint64_t>(0, d.raw_end()), d);
}

// Finite values of format f, as the doubles they are: +-0, +-2^k, and +-(1 + r) 2^k rounded to f
// (never NaN or infinity; detail::value_decoder says which k).
inline rc::Gen<double> element_values(dtype f) {
  return rc::gen::map(rc::gen::inRange<std::uint64_t>(0, detail::value_decoder::raw_end()), detail::value_decoder(f));
}

// n values of T (double, float, posenc::bfloat16, posenc::float16).
template <class T>
rc::Gen<std::vector<T>> element_vectors(std::size_t n) {
  return rc::gen::map(rc::gen::container<std::vector<double>>(n, element_values(dtype_of<T>())),
                      [](const std::vector<double>& v) {
                        std::vector<T> out(v.size());
                        for (std::size_t i = 0; i < v.size(); ++i) {
                          if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
                            out[i] = static_cast<T>(v[i]);
                          } else {
                            out[i] = math::round_to<T>(v[i]).value;  // exact: v[i] is a T
                          }
                        }
                        return out;
                      });
}

namespace detail {

// The presets of rope/models.hpp (default, llama3, YaRN, partial rotary, LongRoPE short and long).
inline const std::array<rope::config, 12>& presets() {
  namespace m = rope::models;
  static const std::array<rope::config, 12> all{
      m::llama2_7b,         m::llama3_1_8b,     m::llama3_2_1b, m::qwen2_5_7b_yarn,        m::deepseek_v3,
      m::gpt_oss,           m::pythia,          m::gpt_j,       m::phi3_vision_128k_short, m::phi3_vision_128k_long,
      m::phi3_5_mini_short, m::phi3_5_mini_long};
  return all;
}

// A config of scaling s from a raw integer (digits in mixed radix): half the head dim 1..64 (at
// least 2 for NTK and dynamic, whose exponent d/(d-2) needs d > 2), a partial rotary factor of 1/2
// (head_dim then a multiple of 8), a published base or one from 2 to about 1e7, a factor, an
// original context, and for LongRoPE whether seq_len is unset. Raw 0 is the simplest: head_dim 2,
// base 10000. A config that still fails validation decodes to Llama-2's (the tests check none do).
inline rope::config random_config(rope::scaling s, std::uint64_t raw) {
  using rope::scaling;
  const auto digit = [&raw](std::uint64_t radix) {
    const std::uint64_t d = raw % radix;
    raw /= radix;
    return d;
  };
  const int half = std::max(s == scaling::ntk || s == scaling::dynamic ? 2 : 1, static_cast<int>(digit(64)) + 1);
  const bool partial = digit(2) != 0, unset = digit(2) != 0;
  const std::uint64_t base_kind = digit(6), f_kind = digit(6), l0_kind = digit(4), base_r = digit(1 << 20);
  rope::config c;
  c.rope_type = s;
  c.head_dim = partial ? 8 * std::max(1, half / 4) : 2 * half;
  if (partial) c.partial_rotary_factor = 0.5;
  constexpr std::array<double, 4> bases{10000.0, 500000.0, 1000000.0, 150000.0};
  c.rope_theta = base_kind < 4 ? bases[base_kind] : 2.0 + static_cast<double>(base_r) * 9.5;
  constexpr std::array<double, 6> factors{1.5, 2.0, 4.0, 8.0, 32.0, 40.0};
  c.factor = s == scaling::default_ ? 0.0 : factors[f_kind];
  constexpr std::array<std::int64_t, 4> l0s{2048, 4096, 8192, 32768};
  const std::int64_t l0 = l0s[l0_kind];
  if (s == scaling::dynamic) c.max_position_embeddings = l0;  // seq_len unset: HF's rule
  if (s == scaling::yarn || s == scaling::llama3) c.original_max_position_embeddings = l0;
  if (s == scaling::longrope) {
    const std::size_t pairs = static_cast<std::size_t>(posenc::rope::detail::rotary_dim(c) / 2);
    c.factor = 0.0;  // derived from the two lengths, as Phi-3's config
    c.original_max_position_embeddings = l0;
    c.max_position_embeddings = 32 * l0;
    c.seq_len = unset ? 0 : l0;
    c.short_factor = std::span<const double>(longrope_factors(false).data(), pairs);
    c.long_factor = std::span<const double>(longrope_factors(true).data(), pairs);
  }
  return rope::validate(c).ok() ? c : presets()[0];
}

inline constexpr std::uint64_t config_raw_end = std::uint64_t{64} * 2 * 2 * 6 * 6 * 4 * (1 << 20);

}  // namespace detail

// The presets of rope/models.hpp; shrinks toward Llama-2.
inline rc::Gen<rope::config> rope_presets() {
  return rc::gen::map(rc::gen::inRange<std::size_t>(0, detail::presets().size()),
                      [](std::size_t i) { return detail::presets()[i]; });
}

// Random valid configs of scaling s (detail::random_config says which).
inline rc::Gen<rope::config> random_rope_configs(rope::scaling s) {
  return rc::gen::map(rc::gen::inRange<std::uint64_t>(0, detail::config_raw_end),
                      [s](std::uint64_t raw) { return detail::random_config(s, raw); });
}

// A preset (12 in 19) or a random valid config of any of the seven scalings (1 in 19 each).
inline rc::Gen<rope::config> rope_configs() {
  return rc::gen::map(rc::gen::inRange<std::uint64_t>(0, 19 * detail::config_raw_end), [](std::uint64_t raw) {
    const std::uint64_t pick = raw % 19, rest = raw / 19;
    if (pick < 12) return detail::presets()[pick];
    return detail::random_config(static_cast<rope::scaling>(pick - 12), rest);
  });
}

}  // namespace posenc::testing
