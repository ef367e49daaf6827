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
#include <vector>

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

enum class precision_pipeline { hf_float32, ggml_float32, exact_f32, exact_bf16, exact_f16 };
inline constexpr int precision_pipeline_count = 5;
inline constexpr std::array<precision_pipeline, precision_pipeline_count> precision_pipelines = {
    precision_pipeline::hf_float32, precision_pipeline::ggml_float32, precision_pipeline::exact_f32,
    precision_pipeline::exact_bf16, precision_pipeline::exact_f16};

inline const char* pipeline_name(precision_pipeline p) {
  switch (p) {
    case precision_pipeline::hf_float32: return "hf-float32";
    case precision_pipeline::ggml_float32: return "ggml-float32";
    case precision_pipeline::exact_f32: return "exact-f32";
    case precision_pipeline::exact_bf16: return "exact-bf16";
    case precision_pipeline::exact_f16: return "exact-f16";
  }
  return "?";
}
// Whether the pipeline computes an angle in float32 (the angle error is then measured).
inline bool has_angle(precision_pipeline p) {
  return p == precision_pipeline::hf_float32 || p == precision_pipeline::ggml_float32;
}
// The storage type whose ulps measure the pipeline.
inline const char* pipeline_type(precision_pipeline p) {
  return p == precision_pipeline::exact_bf16 ? "bf16" : p == precision_pipeline::exact_f16 ? "f16" : "f32";
}

// Max and sum of the errors of a set of values (cos and sin each count once) and of their angles.
struct error_stats {
  double max_abs = 0, sum_abs = 0, max_ulp = 0, sum_ulp = 0, max_angle = 0, sum_angle = 0;
  std::uint64_t values = 0, angles = 0;
  void add_value(double abs, double ulp) {
    max_abs = std::max(max_abs, abs), sum_abs += abs;
    max_ulp = std::max(max_ulp, ulp), sum_ulp += ulp;
    ++values;
  }
  void add_angle(double e) {
    max_angle = std::max(max_angle, e), sum_angle += e;
    ++angles;
  }
  void merge(const error_stats& o) {
    max_abs = std::max(max_abs, o.max_abs), sum_abs += o.sum_abs;
    max_ulp = std::max(max_ulp, o.max_ulp), sum_ulp += o.sum_ulp;
    max_angle = std::max(max_angle, o.max_angle), sum_angle += o.sum_angle;
    values += o.values, angles += o.angles;
  }
  double mean_abs() const { return values ? sum_abs / static_cast<double>(values) : 0.0; }
  double mean_ulp() const { return values ? sum_ulp / static_cast<double>(values) : 0.0; }
  double mean_angle() const { return angles ? sum_angle / static_cast<double>(angles) : 0.0; }
};

// One position's figures over its rotary_dim/2 pairs, per pipeline.
struct position_errors {
  std::uint64_t position = 0;
  std::array<error_stats, precision_pipeline_count> by_pipeline{};
};

// One position decade [lo, hi] (inclusive; [0, 9], [10, 99], ..., the last one cut at the maximum).
struct decade_errors {
  std::uint64_t lo = 0, hi = 0, positions = 0;
  std::array<error_stats, precision_pipeline_count> by_pipeline{};
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

// The decades of positions 0..max_position: [0, 9], [10, 99], ..., [10^k, max_position].
inline std::vector<decade_errors> precision_decades(const std::vector<position_errors>& rows,
                                                    std::uint64_t max_position) {
  std::vector<decade_errors> d;
  for (std::uint64_t lo = 0, hi = 9;; lo = hi + 1, hi = hi * 10 + 9) {
    d.push_back({lo, std::min(hi, max_position), 0, {}});
    if (hi >= max_position) break;
  }
  for (const position_errors& r : rows) {
    std::size_t k = 0;
    while (r.position > d[k].hi) ++k;
    ++d[k].positions;
    for (int p = 0; p < precision_pipeline_count; ++p)
      d[k].by_pipeline[static_cast<std::size_t>(p)].merge(r.by_pipeline[static_cast<std::size_t>(p)]);
  }
  return d;
}

class rope_precision {
 public:
  static constexpr mpfr_prec_t prec = 192;
  static constexpr std::uint64_t max_position = (std::uint64_t{1} << 31) - 1;  // ggml's int32 positions

  explicit rope_precision(const rope::config& c) : c_(c), cc_(c), af_(prec) {
    if (!cc_.ok()) throw std::invalid_argument("rope_precision: invalid config");
    pairs_ = static_cast<int>(rope::rotary_dim(c) / 2);
    const rope_detail::ctx hi{320, c};
    rope_detail::M t(320);
    for (int j = 0; j < pairs_; ++j) {
      hi.inv_freq(t, j);
      theta_.push_back(std::make_unique<rope_detail::M>(prec));
      mpfr_set(theta_.back()->get(), t.get(), MPFR_RNDN);
    }
    hi.attention(t);
    mpfr_set(af_.get(), t.get(), MPFR_RNDN);
    std::vector<float> row(static_cast<std::size_t>(pairs_));
    ggml_ok_ = rope::angle_row(rope::ggml_float32, cc_, 0, row) == posenc::status::ok;
  }

  int pairs() const { return pairs_; }
  const rope::config& config() const { return c_; }
  // ggml_float32 covers rope_type default and linear only (policy.hpp).
  bool applicable(precision_pipeline p) const { return p != precision_pipeline::ggml_float32 || ggml_ok_; }
  double attention_factor() const { return mpfr_get_d(af_.get(), MPFR_RNDN); }

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
    template <class T>
    void value(error_stats& e, mpfr_srcptr exact, double v) {
      const double a = abs_err(exact, v);
      e.add_value(a, a / ulp_of<T>(exact));
    }
    template <class T>
    void pair(error_stats& e, math::sincos_result<T> r) {
      value<T>(e, c.get(), to_double(r.cos));
      value<T>(e, s.get(), to_double(r.sin));
    }
    template <class T>
    static double to_double(T v) {
      if constexpr (std::is_same_v<T, float>)
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

    void run(std::uint64_t m, position_errors& out) {
      out.position = m;
      auto& st = out.by_pipeline;
      const auto at = [&](precision_pipeline p) -> error_stats& { return st[static_cast<std::size_t>(p)]; };
      if (rope::angle_row(rope::hf_float32, rp.cc_, m, hf) != posenc::status::ok)
        throw std::runtime_error("rope_precision: hf_float32 failed at position " + std::to_string(m));
      const bool ggml = rp.ggml_ok_ && rope::angle_row(rope::ggml_float32, rp.cc_, m, gg) == posenc::status::ok;
      for (int j = 0; j < rp.pairs_; ++j) {
        const auto uj = static_cast<std::size_t>(j);
        mpfr_mul_ui(x.get(), rp.theta_[uj]->get(), static_cast<unsigned long>(m), MPFR_RNDN);
        at(precision_pipeline::hf_float32).add_angle(abs_err(x.get(), static_cast<double>(hf[uj])));
        if (ggml) at(precision_pipeline::ggml_float32).add_angle(abs_err(x.get(), static_cast<double>(gg[uj])));
        mpfr_sin_cos(s.get(), c.get(), x.get(), MPFR_RNDN);
        mpfr_mul(s.get(), s.get(), rp.af_.get(), MPFR_RNDN);
        mpfr_mul(c.get(), c.get(), rp.af_.get(), MPFR_RNDN);
        const auto h = rope::sincos<float>(rope::hf_float32, rp.cc_, m, j);
        if (!h.ok()) throw std::runtime_error("rope_precision: hf_float32 failed at position " + std::to_string(m));
        pair(at(precision_pipeline::hf_float32), h.value);
        if (ggml)
          pair(at(precision_pipeline::ggml_float32), rope::sincos<float>(rope::ggml_float32, rp.cc_, m, j).value);
        pair(at(precision_pipeline::exact_f32), table<float>(m, j));
        pair(at(precision_pipeline::exact_bf16), table<bfloat16>(m, j));
        pair(at(precision_pipeline::exact_f16), table<float16>(m, j));
      }
    }
  };

  rope::config c_;
  rope::checked_config cc_;
  int pairs_ = 0;
  std::vector<std::unique_ptr<rope_detail::M>> theta_;
  rope_detail::M af_;
  bool ggml_ok_ = false;
};

}  // namespace posenc::verify
