// rope_precision.hpp: how far RoPE cos/sin pipelines are from the exact values, measured against
// MPFR over sampled positions (the measurement behind `posenc report precision` and
// docs/rope-precision.md). Not constexpr; uses std::thread.
//
// Pipelines measured, each against the same exact values:
//   hf_float32    rope::sincos<float>(rope::hf_float32, ...): HF's float32 pipeline, every rope type
//                 (cos/sin times HF's float32 attention factor, as HF returns them); angle error too
//   ggml_float32  rope::sincos<float>(rope::ggml_float32, ...): ggml's float32 recurrence; default and
//                 linear only (otherwise not applicable); angle error too
//   exact_f32, exact_bf16, exact_f16
//                 rope::attention_sincos<T>: posenc's own tables, rounded once from the exact value
//                 (their error is the storage format's rounding, at most half an ulp)
// and, when asked for (precision_options), for the multi-stream reports:
//   ggml_map_f32  posenc's float32 table under ggml's M-RoPE stream map: the pairs that ggml's IMROPE
//                 feeds its fourth stream (position 0) where HF rotates them by the t position are
//                 (af, 0), the others the exact-f32 value; angle error |angle used - m theta_j|
//                 (m theta_j for those pairs, 0 for the others)
//   float64_freq  diffusers' FLUX path (get_1d_rotary_pos_embed, freqs_dtype float64): f = 1.0 /
//                 pow(b, double(2j) / double(d)), angle double(m) * f, cos and sin in double, then
//                 rounded to float32 (default rope_type only); angle error too. Like the float32
//                 policies it uses posenc's correctly rounded pow, cos and sin
//
// Pairs may be put in groups (precision_options::group_of_pair: M-RoPE's streams): each position's
// figures are then kept per group as well as over all pairs.
//
// The exact values do not come from posenc's evaluation: theta_j and the attention factor af are
// rope_oracle.hpp's independent MPFR transcription of HF's formulas at 320 bits, rounded to
// `prec` = 192 bits (relative error < 2^-190); X = m theta_j at 192 bits; exact cos = af cos X and
// sin = af sin X by mpfr_sin_cos. For m < 2^31 the absolute error of X is below 2^-150 and of the
// values below 2^-150: far below every figure reported (the smallest is a float16 half-ulp of a
// tiny value, > 2^-40 here unless the value is 0, which is exact).
//
// Per value: abs = |f - x| (MPFR difference rounded to double), ulp = abs / ulp_T(x), ulp_T(x) =
// 2^(max(e, emin_T) - p_T + 1) for |x| in [2^e, 2^(e+1)) (for x = 0: the smallest subnormal of T).
// Near a zero of cos or sin ulp_T(x) is tiny, so a float32 pipeline's ulp error there is huge; the
// absolute error is the figure to read for those entries. Angle error: |a_f - m theta_j| (float
// pipelines only).
#pragma once

#include <mpfr.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "posenc/math/pow.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/trig.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/rope/angle.hpp"
#include "posenc/rope/checked_config.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/policy.hpp"
#include "posenc/verify/rope_oracle.hpp"

namespace posenc::verify {

enum class precision_pipeline {
  hf_float32,
  ggml_float32,
  exact_f32,
  exact_bf16,
  exact_f16,
  ggml_map_f32,
  float64_freq
};
inline constexpr int precision_pipeline_count = 7;
// The 1D report's pipelines (the two below them need precision_options).
inline constexpr std::array<precision_pipeline, 5> precision_pipelines = {
    precision_pipeline::hf_float32, precision_pipeline::ggml_float32, precision_pipeline::exact_f32,
    precision_pipeline::exact_bf16, precision_pipeline::exact_f16};

inline const char* pipeline_name(precision_pipeline p) {
  switch (p) {
    case precision_pipeline::hf_float32: return "hf-float32";
    case precision_pipeline::ggml_float32: return "ggml-float32";
    case precision_pipeline::exact_f32: return "exact-f32";
    case precision_pipeline::exact_bf16: return "exact-bf16";
    case precision_pipeline::exact_f16: return "exact-f16";
    case precision_pipeline::ggml_map_f32: return "ggml-map-f32";
    case precision_pipeline::float64_freq: return "float64-freq";
  }
  return "?";
}
// Whether the pipeline computes an angle in float32 (the angle error is then measured).
inline bool has_angle(precision_pipeline p) {
  return p == precision_pipeline::hf_float32 || p == precision_pipeline::ggml_float32 ||
         p == precision_pipeline::ggml_map_f32 || p == precision_pipeline::float64_freq;
}
// The storage type whose ulps measure the pipeline.
inline const char* pipeline_type(precision_pipeline p) {
  return p == precision_pipeline::exact_bf16 ? "bf16" : p == precision_pipeline::exact_f16 ? "f16" : "f32";
}

// Max and sum of the errors of a set of values (cos and sin each count once) and of their angles;
// not_rounded counts the values more than half an ulp from the exact value (not correctly rounded).
struct precision_stats {
  double max_abs = 0, sum_abs = 0, max_ulp = 0, sum_ulp = 0, max_angle = 0, sum_angle = 0;
  std::uint64_t values = 0, angles = 0, not_rounded = 0;
  void add_value(double abs, double ulp, bool rounded = true) {
    max_abs = std::max(max_abs, abs), sum_abs += abs;
    max_ulp = std::max(max_ulp, ulp), sum_ulp += ulp;
    ++values;
    not_rounded += rounded ? 0 : 1;
  }
  void add_angle(double e) {
    max_angle = std::max(max_angle, e), sum_angle += e;
    ++angles;
  }
  void merge(const precision_stats& o) {
    max_abs = std::max(max_abs, o.max_abs), sum_abs += o.sum_abs;
    max_ulp = std::max(max_ulp, o.max_ulp), sum_ulp += o.sum_ulp;
    max_angle = std::max(max_angle, o.max_angle), sum_angle += o.sum_angle;
    values += o.values, angles += o.angles, not_rounded += o.not_rounded;
  }
  double mean_abs() const { return values ? sum_abs / static_cast<double>(values) : 0.0; }
  double mean_ulp() const { return values ? sum_ulp / static_cast<double>(values) : 0.0; }
  double mean_angle() const { return angles ? sum_angle / static_cast<double>(angles) : 0.0; }
};

using pipeline_errors = std::array<precision_stats, precision_pipeline_count>;

// One position's figures over its rotary_dim/2 pairs, per pipeline (and per group of pairs when the
// pairs are grouped: by_group[g] over the pairs of group g).
struct position_errors {
  std::uint64_t position = 0;
  pipeline_errors by_pipeline{};
  std::vector<pipeline_errors> by_group{};
};

// One position decade [lo, hi] (inclusive; [0, 9], [10, 99], ..., the last one cut at the maximum).
struct decade_errors {
  std::uint64_t lo = 0, hi = 0, positions = 0;
  pipeline_errors by_pipeline{};
  std::vector<pipeline_errors> by_group{};
};

// The sampled positions: every m < min(dense, max + 1), then, from dense on, the log-spaced grid
// floor(dense * 10^(i / per_decade)), i = 1, 2, ... (per_decade points per decade, duplicates
// dropped), and max itself. Sorted, distinct.
inline std::vector<std::uint64_t> precision_positions(std::uint64_t max_position, std::uint64_t dense,
                                                      std::uint64_t per_decade) {
  std::vector<std::uint64_t> v;
  for (std::uint64_t m = 0; m < dense && m <= max_position; ++m) v.push_back(m);
  if (dense > 0 && per_decade > 0 && max_position >= dense) {
    for (std::uint64_t i = 1;; ++i) {
      const long double x = static_cast<long double>(dense) * std::pow(10.0L, static_cast<long double>(i) / per_decade);
      if (x > static_cast<long double>(max_position)) break;
      const auto m = static_cast<std::uint64_t>(x);
      if (v.empty() || m > v.back()) v.push_back(m);
    }
  }
  if (v.empty() || v.back() < max_position) v.push_back(max_position);
  return v;
}

inline void merge_into(pipeline_errors& to, const pipeline_errors& from) {
  for (std::size_t p = 0; p < to.size(); ++p) to[p].merge(from[p]);
}

// The decades of positions 0..max_position: [0, 9], [10, 99], ..., [10^k, max_position].
inline std::vector<decade_errors> precision_decades(const std::vector<position_errors>& rows,
                                                    std::uint64_t max_position) {
  std::vector<decade_errors> d;
  for (std::uint64_t lo = 0, hi = 9;; lo = hi + 1, hi = hi * 10 + 9) {
    d.push_back({lo, std::min(hi, max_position), 0, {}, {}});
    if (hi >= max_position) break;
  }
  for (const position_errors& r : rows) {
    std::size_t k = 0;
    while (r.position > d[k].hi) ++k;
    ++d[k].positions;
    merge_into(d[k].by_pipeline, r.by_pipeline);
    d[k].by_group.resize(r.by_group.size());
    for (std::size_t g = 0; g < r.by_group.size(); ++g) merge_into(d[k].by_group[g], r.by_group[g]);
  }
  return d;
}

// What a report measures beyond the 1D pipelines.
struct precision_options {
  // Group of each pair (0 .. groups - 1; empty: no groups). M-RoPE: the pair's stream in HF's map.
  std::vector<int> group_of_pair{};
  // Pairs that ggml's stream map rotates by position 0 (its fourth stream) where the reference
  // rotates them by their stream's position; with ggml_map, the ggml_map_f32 pipeline is measured.
  std::vector<bool> ggml_map_zero{};
  bool ggml_map = false;
  bool float64_freq = false;  // the float64_freq pipeline (default rope_type only)
};

// The exact angle m theta_j and the exact (attention-scaled) cos and sin, rounded to double.
struct exact_pair {
  double angle = 0, cos = 0, sin = 0;
};

class rope_precision {
 public:
  static constexpr mpfr_prec_t prec = 192;
  static constexpr std::uint64_t max_position = (std::uint64_t{1} << 31) - 1;  // ggml's int32 positions

  explicit rope_precision(const rope::config& c, precision_options o = {})
      : c_(c), cc_(c), af_(prec), opt_(std::move(o)) {
    if (!cc_.ok()) throw std::invalid_argument("rope_precision: invalid config");
    pairs_ = static_cast<int>(rope::rotary_dim(c) / 2);
    const auto n = static_cast<std::size_t>(pairs_);
    if (!opt_.group_of_pair.empty() && opt_.group_of_pair.size() != n)
      throw std::invalid_argument("rope_precision: group_of_pair needs one group per pair");
    for (const int g : opt_.group_of_pair) {
      if (g < 0) throw std::invalid_argument("rope_precision: negative group");
      groups_ = std::max(groups_, g + 1);
    }
    if (opt_.ggml_map_zero.empty()) opt_.ggml_map_zero.assign(n, false);
    if (opt_.ggml_map_zero.size() != n) throw std::invalid_argument("rope_precision: ggml_map_zero needs every pair");
    if (opt_.float64_freq && (c.rope_type != rope::scaling::default_ || rope::rotary_dim(c) != c.head_dim))
      throw std::invalid_argument("rope_precision: float64_freq covers rope_type default, full rotary dim only");
    const rope_detail::ctx hi{320, c};
    rope_detail::M t(320);
    for (int j = 0; j < pairs_; ++j) {
      hi.inv_freq(t, j);
      theta_.push_back(std::make_unique<rope_detail::M>(prec));
      mpfr_set(theta_.back()->get(), t.get(), MPFR_RNDN);
      if (opt_.float64_freq)  // diffusers: 1.0 / theta ** (arange(0, d, 2, float64) / d)
        f64_.push_back(1.0 / math::pow(c.rope_theta, static_cast<double>(2 * j) / static_cast<double>(c.head_dim)));
    }
    hi.attention(t);
    mpfr_set(af_.get(), t.get(), MPFR_RNDN);
    std::vector<float> row(n);
    ggml_ok_ = rope::angle_row(rope::ggml_float32, cc_, 0, row) == posenc::status::ok;
  }

  int pairs() const { return pairs_; }
  int groups() const { return groups_; }
  const rope::config& config() const { return c_; }
  const precision_options& options() const { return opt_; }
  // ggml_float32 covers rope_type default and linear only (policy.hpp); the last two pipelines are
  // measured when precision_options asks for them.
  bool applicable(precision_pipeline p) const {
    if (p == precision_pipeline::ggml_float32) return ggml_ok_;
    if (p == precision_pipeline::ggml_map_f32) return opt_.ggml_map;
    if (p == precision_pipeline::float64_freq) return opt_.float64_freq;
    return true;
  }
  double attention_factor() const { return mpfr_get_d(af_.get(), MPFR_RNDN); }

  // From MPFR: m theta_j, af cos(m theta_j), af sin(m theta_j), each rounded to double.
  exact_pair exact(std::uint64_t m, int j) const {
    if (m > max_position || j < 0 || j >= pairs_) throw std::invalid_argument("rope_precision: no such entry");
    rope_detail::M x(prec), s(prec), c(prec);
    mpfr_mul_ui(x.get(), theta_[static_cast<std::size_t>(j)]->get(), static_cast<unsigned long>(m), MPFR_RNDN);
    mpfr_sin_cos(s.get(), c.get(), x.get(), MPFR_RNDN);
    mpfr_mul(s.get(), s.get(), af_.get(), MPFR_RNDN);
    mpfr_mul(c.get(), c.get(), af_.get(), MPFR_RNDN);
    return {mpfr_get_d(x.get(), MPFR_RNDN), mpfr_get_d(c.get(), MPFR_RNDN), mpfr_get_d(s.get(), MPFR_RNDN)};
  }

  // The figures of each position (positions <= max_position), on `threads` threads (0: all cores;
  // 1 when MPFR is not thread-safe). The result does not depend on the thread count.
  std::vector<position_errors> measure(const std::vector<std::uint64_t>& positions, unsigned threads = 0) const {
    for (const std::uint64_t m : positions)
      if (m > max_position) throw std::invalid_argument("rope_precision: position above 2^31 - 1");
    std::vector<position_errors> out(positions.size());
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    if (!mpfr_buildopt_tls_p()) threads = 1;
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(positions.size(), 1)));
    std::atomic<std::size_t> next{0};
    std::vector<std::string> failures(threads);
    auto work = [&](unsigned t) {
      try {
        worker w(*this);
        for (;;) {
          const std::size_t i = next.fetch_add(1);
          if (i >= positions.size()) break;
          w.run(positions[i], out[i]);
        }
      } catch (const std::exception& e) {
        failures[t] = e.what();
        next = positions.size();
      }
      mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);  // this thread's caches only: the others may still run
    };
    if (threads == 1) {
      work(0);
    } else {
      std::vector<std::thread> pool;
      for (unsigned t = 0; t < threads; ++t) pool.emplace_back(work, t);
      for (std::thread& th : pool) th.join();
    }
    for (const std::string& f : failures)
      if (!f.empty()) throw std::runtime_error(f);
    return out;
  }

  // ulp_T(x) for the exact value x (see the file comment).
  template <class T>
  static double ulp_of(mpfr_srcptr x) {
    using F = posenc::detail::float_format<T>;
    const long e = mpfr_zero_p(x) ? F::min_exponent : std::max<long>(mpfr_get_exp(x) - 1, F::min_exponent);
    return std::ldexp(1.0, static_cast<int>(e - (F::precision - 1)));
  }

 private:
  // One thread's MPFR scratch values.
  struct worker {
    const rope_precision& rp;
    rope_detail::M x{prec}, s{prec}, c{prec}, d{prec};
    std::vector<float> hf, gg;
    explicit worker(const rope_precision& r)
        : rp(r), hf(static_cast<std::size_t>(r.pairs_)), gg(static_cast<std::size_t>(r.pairs_)) {}

    double abs_err(mpfr_srcptr exact, double v) {
      mpfr_sub_d(d.get(), exact, v, MPFR_RNDN);
      return std::fabs(mpfr_get_d(d.get(), MPFR_RNDN));
    }
    // The value's error, and whether it is RN_T(exact): within half an ulp (compared at 192 bits,
    // where v - exact is exact to far below the ulp; a tie cannot occur for cos or sin of a nonzero
    // rational angle, and a zero angle's values are exact).
    template <class T>
    void value(precision_stats& e, mpfr_srcptr exact, double v) {
      const double a = abs_err(exact, v), u = ulp_of<T>(exact);
      mpfr_abs(d.get(), d.get(), MPFR_RNDN);
      e.add_value(a, a / u, mpfr_cmp_d(d.get(), 0.5 * u) <= 0);
    }
    template <class T>
    void pair(precision_stats& e, math::sincos_result<T> r) {
      value<T>(e, c.get(), to_double(r.cos));
      value<T>(e, s.get(), to_double(r.sin));
    }
    template <class T>
    static double to_double(T v) {
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>)
        return static_cast<double>(v);
      else
        return static_cast<double>(v.to_float());
    }
    template <class T>
    math::sincos_result<T> table(std::uint64_t m, int j) {
      const auto r = rope::attention_sincos<T>(rp.cc_, m, j);
      if (!r.ok())
        throw std::runtime_error("rope_precision: posenc's exact table failed at position " + std::to_string(m));
      return r.value;
    }

    // Every pipeline's figures of pair j at position m into st.
    void run_pair(std::uint64_t m, int j, bool ggml, pipeline_errors& st) {
      const auto at = [&](precision_pipeline p) -> precision_stats& { return st[static_cast<std::size_t>(p)]; };
      const auto uj = static_cast<std::size_t>(j);
      mpfr_mul_ui(x.get(), rp.theta_[uj]->get(), static_cast<unsigned long>(m), MPFR_RNDN);
      at(precision_pipeline::hf_float32).add_angle(abs_err(x.get(), static_cast<double>(hf[uj])));
      if (ggml) at(precision_pipeline::ggml_float32).add_angle(abs_err(x.get(), static_cast<double>(gg[uj])));
      double a64 = 0;
      if (rp.opt_.float64_freq) {
        a64 = static_cast<double>(m) * rp.f64_[uj];
        at(precision_pipeline::float64_freq).add_angle(abs_err(x.get(), a64));
      }
      const bool zero = rp.opt_.ggml_map && rp.opt_.ggml_map_zero[uj];
      if (rp.opt_.ggml_map) at(precision_pipeline::ggml_map_f32).add_angle(zero ? abs_err(x.get(), 0.0) : 0.0);
      mpfr_sin_cos(s.get(), c.get(), x.get(), MPFR_RNDN);
      mpfr_mul(s.get(), s.get(), rp.af_.get(), MPFR_RNDN);
      mpfr_mul(c.get(), c.get(), rp.af_.get(), MPFR_RNDN);
      const auto h = rope::sincos<float>(rope::hf_float32, rp.cc_, m, j);
      if (!h.ok()) throw std::runtime_error("rope_precision: hf_float32 failed at position " + std::to_string(m));
      pair(at(precision_pipeline::hf_float32), h.value);
      if (ggml) pair(at(precision_pipeline::ggml_float32), rope::sincos<float>(rope::ggml_float32, rp.cc_, m, j).value);
      const math::sincos_result<float> f32 = table<float>(m, j);
      pair(at(precision_pipeline::exact_f32), f32);
      pair(at(precision_pipeline::exact_bf16), table<bfloat16>(m, j));
      pair(at(precision_pipeline::exact_f16), table<float16>(m, j));
      if (rp.opt_.ggml_map) pair(at(precision_pipeline::ggml_map_f32), zero ? table<float>(0, j) : f32);
      if (rp.opt_.float64_freq) {
        const math::sincos_result<double> r = math::sincos(a64);  // then .float(), as diffusers
        pair(at(precision_pipeline::float64_freq),
             math::sincos_result<float>{static_cast<float>(r.sin), static_cast<float>(r.cos)});
      }
    }

    void run(std::uint64_t m, position_errors& out) {
      out.position = m;
      out.by_group.assign(static_cast<std::size_t>(rp.groups_ > 0 ? rp.groups_ : 0), pipeline_errors{});
      if (rope::angle_row(rope::hf_float32, rp.cc_, m, hf) != posenc::status::ok)
        throw std::runtime_error("rope_precision: hf_float32 failed at position " + std::to_string(m));
      const bool ggml = rp.ggml_ok_ && rope::angle_row(rope::ggml_float32, rp.cc_, m, gg) == posenc::status::ok;
      for (int j = 0; j < rp.pairs_; ++j) {
        if (rp.groups_ == 0) {
          run_pair(m, j, ggml, out.by_pipeline);
          continue;
        }
        pipeline_errors& g = out.by_group[static_cast<std::size_t>(rp.opt_.group_of_pair[static_cast<std::size_t>(j)])];
        run_pair(m, j, ggml, g);
      }
      for (const pipeline_errors& g : out.by_group) merge_into(out.by_pipeline, g);
    }
  };

  rope::config c_;
  rope::checked_config cc_;
  int pairs_ = 0, groups_ = 0;
  std::vector<std::unique_ptr<rope_detail::M>> theta_;
  std::vector<double> f64_;
  rope_detail::M af_;
  precision_options opt_;
  bool ggml_ok_ = false;
};

}  // namespace posenc::verify
