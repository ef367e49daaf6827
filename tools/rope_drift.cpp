// rope_drift: how far the float32 RoPE pipelines of HF and ggml drift from the exact angle, and how
// far their cos/sin entries (and posenc's exact float table) are from the exact cos/sin.
// Output: the markdown tables of docs/rope-precision.md (paste them there with the date).
//
// Reference values (MPFR, independent of posenc's own evaluation):
//   theta_j = base^(-2j/d) by mpfr_pow at 256 bits (the exponent -2j/d is exact in MPFR: d = 128),
//   kept as a double-double hi + lo (relative error < 2^-104), so the angle error
//   a_f - m theta_j is formed with TwoProduct(m, hi) exactly plus m lo: absolute error of the
//   error below 2^-100 m theta, far below every figure printed.
//   cos/sin: mpfr_sin_cos of m * theta_j at 256 bits; error in float ulps of the exact value.
//   Correct rounding of the exact table is also checked against posenc::verify::cr_rope_sincos.
//
// Build: the CMake target rope_drift (links posenc::verify), or by hand:
//   g++ -std=c++20 -O2 -ffp-contract=off -Iinclude tools/rope_drift.cpp -o rope_drift -lmpfr -lgmp
// Run:   ./rope_drift            (about a minute on one core)
//        ./rope_drift --models   hf_float32 vs exact cos/sin for Llama-3.1-8B, Qwen2.5 YaRN,
//                                DeepSeek-V3 YaRN and a Phi-3-style LongRoPE (docs/rope-precision.md)
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "posenc/math/double_double.hpp"
#include "posenc/math/sincos_table.hpp"
#include "posenc/math/trig.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/policy.hpp"
#include "posenc/verify/rope_oracle.hpp"

namespace {

namespace pr = posenc::rope;
constexpr int kDim = 128;
constexpr int kPairs = kDim / 2;
constexpr std::uint64_t kMarks[] = {4096, 32768, 131072, 1048576};
constexpr int kNumMarks = 4;

struct mpnum {
  mpfr_t v;
  explicit mpnum(mpfr_prec_t p = 256) { mpfr_init2(v, p); }
  ~mpnum() { mpfr_clear(v); }
  mpnum(const mpnum&) = delete;
  mpnum& operator=(const mpnum&) = delete;
};

// theta_j = base^(-2j/d), 256 bits.
void theta_mp(mpfr_t out, double base, int j) {
  mpnum e, b;
  mpfr_set_si(e.v, -2 * j, MPFR_RNDN);
  mpfr_div_si(e.v, e.v, kDim, MPFR_RNDN);  // exact: d is a power of two
  mpfr_set_d(b.v, base, MPFR_RNDN);
  mpfr_pow(out, b.v, e.v, MPFR_RNDN);
}

posenc::math::double_double to_dd(const mpfr_t x) {
  mpnum r;
  const double hi = mpfr_get_d(x, MPFR_RNDN);
  mpfr_sub_d(r.v, x, hi, MPFR_RNDN);
  return {hi, mpfr_get_d(r.v, MPFR_RNDN)};
}

// a - m (hi + lo), rounded once to double: the product and difference are exact at 256 bits
// (m < 2^64 times a double-double of at most 2 x 53 significant bits spanning < 2^170).
double angle_error(float a, std::uint64_t m, posenc::math::double_double th) {
  mpnum t;
  mpfr_set_d(t.v, th.hi, MPFR_RNDN);
  mpfr_add_d(t.v, t.v, th.lo, MPFR_RNDN);
  mpfr_mul_ui(t.v, t.v, static_cast<unsigned long>(m), MPFR_RNDN);
  mpfr_d_sub(t.v, static_cast<double>(a), t.v, MPFR_RNDN);
  return mpfr_get_d(t.v, MPFR_RNDN);
}

// |f - x| in float ulps of x (x exact, from MPFR), and absolute.
struct entry_err {
  double ulp = 0;
  double abs = 0;
  bool large = false;  // |x| >= 1/2: ulps there measure relative error; near a zero of cos/sin they explode
};
entry_err float_error(float f, const mpfr_t x) {
  mpnum d;
  mpfr_sub_d(d.v, x, static_cast<double>(f), MPFR_RNDN);
  mpfr_abs(d.v, d.v, MPFR_RNDN);
  const double ad = mpfr_get_d(d.v, MPFR_RNDN);
  long e = mpfr_zero_p(x) ? -126 : std::max<long>(mpfr_get_exp(x) - 1, -126);  // x = 0.1... * 2^exp
  return {std::ldexp(ad, static_cast<int>(23 - e)), ad, e >= -1};
}

struct acc {
  double ulp = 0, abs = 0, ulp_large = 0;
  void add(entry_err e) {
    ulp = std::max(ulp, e.ulp);
    if (e.large) ulp_large = std::max(ulp_large, e.ulp);
    abs = std::max(abs, e.abs);
  }
};

// Max angle error of the two policies, worst over j: at row m = N exactly, and over all m <= N.
void angle_tables(double base, const pr::config& cfg, const std::vector<posenc::math::double_double>& th) {
  double at_hf[kNumMarks] = {}, at_gg[kNumMarks] = {}, up_hf[kNumMarks] = {}, up_gg[kNumMarks] = {};
  double run_hf = 0, run_gg = 0;
  float hf[kPairs], gg[kPairs];
  int mark = 0;
  for (std::uint64_t m = 0; m <= kMarks[kNumMarks - 1]; ++m) {
    pr::angle_row(pr::hf_float32, cfg, m, hf);
    pr::angle_row(pr::ggml_float32, cfg, m, gg);
    double row_hf = 0, row_gg = 0;
    for (int j = 0; j < kPairs; ++j) {
      row_hf = std::max(row_hf, std::fabs(angle_error(hf[j], m, th[static_cast<std::size_t>(j)])));
      row_gg = std::max(row_gg, std::fabs(angle_error(gg[j], m, th[static_cast<std::size_t>(j)])));
    }
    run_hf = std::max(run_hf, row_hf);
    run_gg = std::max(run_gg, row_gg);
    if (m == kMarks[mark]) {
      at_hf[mark] = row_hf, at_gg[mark] = row_gg, up_hf[mark] = run_hf, up_gg[mark] = run_gg;
      ++mark;
    }
  }
  std::printf("\n### Angle error (rad), base %g, d = %d, worst over j\n\n", base, kDim);
  std::printf(
      "| position N | hf_float32 at m = N | hf_float32 max m <= N | ggml_float32 at m = N | ggml_float32 max m <= N "
      "|\n");
  std::printf("|---|---|---|---|---|\n");
  for (int k = 0; k < kNumMarks; ++k)
    std::printf("| %llu | %.3e | %.3e | %.3e | %.3e |\n", static_cast<unsigned long long>(kMarks[k]), at_hf[k],
                up_hf[k], at_gg[k], up_gg[k]);
}

// cos/sin entry errors of hf_float32, ggml_float32 and the exact float table, over the 256 rows
// m in (N - 256, N] for each mark N (and all rows m < 4096 for the first line).
void entry_tables(double base, const pr::config& cfg, const std::vector<posenc::math::double_double>&) {
  std::vector<mpnum> theta(kPairs);
  for (int j = 0; j < kPairs; ++j) theta_mp(theta[static_cast<std::size_t>(j)].v, base, j);
  std::printf("\n### cos/sin entry error vs exact, base %g, d = %d, worst over j and over rows\n\n", base, kDim);
  std::printf(
      "| rows m | hf_float32 abs | hf ulp (x >= 1/2) | hf ulp (all) | ggml_float32 abs | ggml ulp (x >= 1/2) | ggml "
      "ulp (all) | exact abs | exact ulp (all) | exact == cr_rope_sincos |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  mpnum a, s, c;
  for (int k = -1; k < kNumMarks; ++k) {
    const std::uint64_t lo = k < 0 ? 0 : kMarks[k] - 255, hi = k < 0 ? 4095 : kMarks[k];
    acc ahf, agg, aex;
    long mismatches = 0;
    float hf[kPairs], gg[kPairs];
    for (std::uint64_t m = lo; m <= hi; ++m) {
      pr::angle_row(pr::hf_float32, cfg, m, hf);
      pr::angle_row(pr::ggml_float32, cfg, m, gg);
      for (int j = 0; j < kPairs; ++j) {
        mpfr_mul_ui(a.v, theta[static_cast<std::size_t>(j)].v, static_cast<unsigned long>(m), MPFR_RNDN);
        mpfr_sin_cos(s.v, c.v, a.v, MPFR_RNDN);
        const auto h = posenc::math::sincos(hf[j]);
        const auto g = posenc::math::sincos(gg[j]);
        const auto x = posenc::math::sincos_geometric<float>(m, base, 2 * j, kDim).value;
        ahf.add(float_error(h.cos, c.v)), ahf.add(float_error(h.sin, s.v));
        agg.add(float_error(g.cos, c.v)), agg.add(float_error(g.sin, s.v));
        aex.add(float_error(x.cos, c.v)), aex.add(float_error(x.sin, s.v));
        if (k < 0 || m == hi) {  // full oracle check on the first block and the mark rows
          const auto r = posenc::verify::cr_rope_sincos<float>(m, base, j, kDim);
          if (r.cos != x.cos || r.sin != x.sin) ++mismatches;
        }
      }
    }
    std::printf("| %llu..%llu | %.3e | %.3g | %.3g | %.3e | %.3g | %.3g | %.3e | %.3g | %s (%ld mismatches) |\n",
                static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi), ahf.abs, ahf.ulp_large,
                ahf.ulp, agg.abs, agg.ulp_large, agg.ulp, aex.abs, aex.ulp, mismatches == 0 ? "yes" : "NO", mismatches);
  }
}

// The caveat: glibc's powf/cosf/sinf vs posenc's correctly rounded ones on the Llama-2 table
// (base 1e4, d = 128, m < 4096). A differing entry is attributed by MPFR (which one is RN).
// ggml's theta_scale = powf(base, -2/d) as ggml_float32 computes it: its angle of pair 1 at
// position 1 is freq_scale * (1 * theta_scale), and freq_scale is 1 without linear scaling.
float ggml_theta_scale(const pr::config& c) { return pr::angle(pr::ggml_float32, c, 1, 1).value; }

void glibc_table() {
  const pr::config cfg{.head_dim = kDim, .rope_theta = 10000.0};
  std::printf("\n### glibc vs correctly rounded float32 functions\n\n");
  for (const double base : {10000.0, 500000.0, 1000000.0}) {  // the frequencies: powf
    const pr::config c{.head_dim = kDim, .rope_theta = base};
    int inv_diff = 0;
    for (int j = 0; j < kPairs; ++j) {
      const float t = static_cast<float>(2 * j) / static_cast<float>(kDim);
      if (1.0f / powf(static_cast<float>(base), t) != pr::inv_freq(pr::hf_float32, c, j).value) ++inv_diff;
    }
    const float ts_glibc = powf(static_cast<float>(base), -2.0f / static_cast<float>(kDim));
    std::printf(
        "- base %g, d = %d: HF inv_freq with glibc powf differs from hf_float32 in %d of %d pairs; "
        "ggml theta_scale with glibc powf %s ggml_float32's (%a)\n",
        base, kDim, inv_diff, kPairs, ts_glibc == ggml_theta_scale(c) ? "equals" : "DIFFERS from",
        static_cast<double>(ts_glibc));
  }
  long diff_hf = 0, diff_gg = 0, glibc_wrong = 0, ours_wrong = 0, total = 0;
  mpnum x(24), r(24);
  auto check = [&](float arg, float ours, float theirs, bool is_cos, long& diff) {
    if (ours == theirs) return;
    ++diff;
    mpfr_set_flt(x.v, arg, MPFR_RNDN);
    if (is_cos)
      mpfr_cos(r.v, x.v, MPFR_RNDN);
    else
      mpfr_sin(r.v, x.v, MPFR_RNDN);
    const float cr = mpfr_get_flt(r.v, MPFR_RNDN);
    if (cr != theirs) ++glibc_wrong;
    if (cr != ours) ++ours_wrong;
  };
  float hf[kPairs], gg[kPairs];
  for (std::uint64_t m = 0; m < 4096; ++m) {
    pr::angle_row(pr::hf_float32, cfg, m, hf);
    pr::angle_row(pr::ggml_float32, cfg, m, gg);
    for (int j = 0; j < kPairs; ++j) {
      const auto h = posenc::math::sincos(hf[j]);
      const auto g = posenc::math::sincos(gg[j]);
      check(hf[j], h.cos, cosf(hf[j]), true, diff_hf), check(hf[j], h.sin, sinf(hf[j]), false, diff_hf);
      check(gg[j], g.cos, cosf(gg[j]), true, diff_gg), check(gg[j], g.sin, sinf(gg[j]), false, diff_gg);
      total += 2;
    }
  }
  std::printf(
      "- Llama-2 table (base 1e4, d = 128, m < 4096), hf_float32 cos/sin: glibc cosf/sinf differ in %ld of %ld "
      "values\n",
      diff_hf, total);
  std::printf("- same table, ggml_float32 cos/sin: glibc cosf/sinf differ in %ld of %ld values\n", diff_gg, total);
  std::printf("- of the differing values: glibc not correctly rounded %ld, posenc not correctly rounded %ld\n",
              glibc_wrong, ours_wrong);
}

// --models: the scaled rope types. Exact reference (MPFR, 256 bits) of each type's real formula,
// pe-formulas.md 1.1-1.3: theta_j = b^(-2j/d), then the type's blend, times the real attention
// factor; the error is |hf_float32 cos (sin) - exact|, worst over j and the 256 rows (N-256, N].
struct model {
  const char* name;
  pr::config cfg;
};
// Phi-3-style synthetic lists (rising 1 -> top), float32 values held as doubles (the report's
// figures in docs/rope-precision.md were measured with these).
std::vector<double> phi_factors(int n, double top) {
  std::vector<double> v;
  for (int j = 0; j < n; ++j)
    v.push_back(static_cast<float>(1.0 + (top - 1.0) * std::pow(j / (n - 1.0), 2.0) + 0.01 * j));
  return v;
}
// exact inv_freq_j and attention factor of c (MPFR), for the rope types used below.
void exact_inv(const pr::config& c, int j, mpfr_t out, mpfr_t att) {
  const int d = static_cast<int>(pr::rotary_dim(c));
  mpnum e, b, t, u, w;
  mpfr_set_si(e.v, -2 * j, MPFR_RNDN);
  mpfr_div_si(e.v, e.v, d, MPFR_RNDN);
  mpfr_set_d(b.v, c.rope_theta, MPFR_RNDN);
  mpfr_pow(out, b.v, e.v, MPFR_RNDN);  // theta_j
  mpfr_set_ui(att, 1, MPFR_RNDN);
  const double s =
      c.factor != 0 ? c.factor : double(c.max_position_embeddings) / double(c.original_max_position_embeddings);
  const double L0 = double(c.original_max_position_embeddings);
  if (c.rope_type == pr::scaling::llama3) {
    mpfr_const_pi(t.v, MPFR_RNDN);
    mpfr_mul_ui(t.v, t.v, 2, MPFR_RNDN);
    mpfr_div(t.v, t.v, out, MPFR_RNDN);  // wavelen
    if (mpfr_cmp_d(t.v, L0 / c.low_freq_factor) > 0) {
      mpfr_div_d(out, out, s, MPFR_RNDN);
    } else if (mpfr_cmp_d(t.v, L0 / c.high_freq_factor) >= 0) {
      mpfr_d_div(u.v, L0, t.v, MPFR_RNDN);
      mpfr_sub_d(u.v, u.v, c.low_freq_factor, MPFR_RNDN);
      mpfr_div_d(u.v, u.v, c.high_freq_factor - c.low_freq_factor, MPFR_RNDN);  // smooth
      mpfr_ui_sub(w.v, 1, u.v, MPFR_RNDN);
      mpfr_div_d(w.v, w.v, s, MPFR_RNDN);
      mpfr_add(w.v, w.v, u.v, MPFR_RNDN);
      mpfr_mul(out, out, w.v, MPFR_RNDN);
    }
  } else if (c.rope_type == pr::scaling::yarn) {
    auto fcd = [&](double nrot) { return (d * std::log(L0 / (nrot * 2 * M_PI))) / (2 * std::log(c.rope_theta)); };
    const double lo = std::max(std::floor(fcd(c.beta_fast)), 0.0), hi = std::min(std::ceil(fcd(c.beta_slow)), d - 1.0);
    const double ramp = std::clamp((j - lo) / (hi - lo), 0.0, 1.0);  // exact: lo, hi small integers
    mpfr_set_d(u.v, ramp, MPFR_RNDN);                                // interpolation weight
    mpfr_ui_sub(w.v, 1, u.v, MPFR_RNDN);                             // extrapolation weight
    mpfr_div_d(t.v, u.v, s, MPFR_RNDN);
    mpfr_add(t.v, t.v, w.v, MPFR_RNDN);
    mpfr_mul(out, out, t.v, MPFR_RNDN);
    auto ms = [&](double m) {
      mpnum r;
      mpfr_set_d(r.v, s, MPFR_RNDN);
      mpfr_log(r.v, r.v, MPFR_RNDN);
      mpfr_mul_d(r.v, r.v, m, MPFR_RNDN);
      mpfr_div_ui(r.v, r.v, 10, MPFR_RNDN);
      mpfr_add_ui(att, r.v, 1, MPFR_RNDN);
    };
    if (c.mscale != 0 && c.mscale_all_dim != 0) {
      ms(c.mscale_all_dim);
      mpfr_set(u.v, att, MPFR_RNDN);
      ms(c.mscale);
      mpfr_div(att, att, u.v, MPFR_RNDN);
    } else {
      ms(1.0);
    }
  } else if (c.rope_type == pr::scaling::longrope) {
    const auto ext = c.seq_len > c.original_max_position_embeddings ? c.long_factor : c.short_factor;
    mpfr_div_d(out, out, ext[static_cast<std::size_t>(j)], MPFR_RNDN);
    mpfr_set_d(u.v, s, MPFR_RNDN);
    mpfr_log(u.v, u.v, MPFR_RNDN);
    mpfr_set_d(w.v, L0, MPFR_RNDN);
    mpfr_log(w.v, w.v, MPFR_RNDN);
    mpfr_div(u.v, u.v, w.v, MPFR_RNDN);
    mpfr_add_ui(u.v, u.v, 1, MPFR_RNDN);
    mpfr_sqrt(att, u.v, MPFR_RNDN);
  }
}

void model_tables() {
  const std::vector<double> phs = phi_factors(48, 3.0), phl = phi_factors(48, 60.0);
  const model models[] = {
      {"Llama-3.1-8B (llama3 s=8, b=5e5, L0=8192, d=128)",
       {.head_dim = 128,
        .rope_theta = 500000.0,
        .rope_type = pr::scaling::llama3,
        .factor = 8.0,
        .original_max_position_embeddings = 8192}},
      {"Qwen2.5 YaRN (s=4, b=1e6, L0=32768, d=128)",
       {.head_dim = 128,
        .rope_theta = 1000000.0,
        .rope_type = pr::scaling::yarn,
        .factor = 4.0,
        .original_max_position_embeddings = 32768}},
      {"DeepSeek-V3 YaRN (s=40, b=1e4, L0=4096, d=64, mscale=mscale_all_dim=1)",
       {.head_dim = 64,
        .rope_theta = 10000.0,
        .rope_type = pr::scaling::yarn,
        .factor = 40.0,
        .original_max_position_embeddings = 4096,
        .mscale = 1.0,
        .mscale_all_dim = 1.0}},
      {"Phi-3-style LongRoPE (b=1e4, L0=4096, max 131072, d=96, synthetic factors)",
       {.head_dim = 96,
        .rope_theta = 10000.0,
        .rope_type = pr::scaling::longrope,
        .original_max_position_embeddings = 4096,
        .max_position_embeddings = 131072,
        .short_factor = phs,
        .long_factor = phl}},
  };
  constexpr std::uint64_t marks[] = {4096, 32768, 131072};
  std::printf("\n### hf_float32 vs exact cos/sin (absolute), worst over j and rows m in (N-256, N]\n\n");
  std::printf(
      "| model | N | attention (HF, float32) | max abs err cos/sin | max angle err (rad) |\n|---|---|---|---|---|\n");
  for (const model& md : models) {
    const int d = static_cast<int>(pr::rotary_dim(md.cfg));
    for (const std::uint64_t n : marks) {
      pr::config c = md.cfg;
      c.seq_len = static_cast<std::int64_t>(n);  // LongRoPE: long factors iff seq_len > L0
      std::vector<mpnum> th(static_cast<std::size_t>(d / 2));
      mpnum att, a, sn, cs, diff;
      for (int j = 0; j < d / 2; ++j) exact_inv(c, j, th[static_cast<std::size_t>(j)].v, att.v);
      const double hf_att = pr::attention_scaling(pr::hf_float32, c).value;
      double worst = 0, worst_angle = 0;
      for (std::uint64_t m = n - 255; m <= n; ++m) {
        for (int j = 0; j < d / 2; ++j) {
          const auto h = pr::sincos<float>(pr::hf_float32, c, m, j).value;
          const float ang = pr::angle(pr::hf_float32, c, m, j).value;
          mpfr_mul_ui(a.v, th[static_cast<std::size_t>(j)].v, static_cast<unsigned long>(m), MPFR_RNDN);
          mpfr_sub_d(diff.v, a.v, static_cast<double>(ang), MPFR_RNDN);
          worst_angle = std::max(worst_angle, std::fabs(mpfr_get_d(diff.v, MPFR_RNDN)));
          mpfr_sin_cos(sn.v, cs.v, a.v, MPFR_RNDN);
          mpfr_mul(sn.v, sn.v, att.v, MPFR_RNDN);
          mpfr_mul(cs.v, cs.v, att.v, MPFR_RNDN);
          mpfr_sub_d(diff.v, cs.v, static_cast<double>(h.cos), MPFR_RNDN);
          worst = std::max(worst, std::fabs(mpfr_get_d(diff.v, MPFR_RNDN)));
          mpfr_sub_d(diff.v, sn.v, static_cast<double>(h.sin), MPFR_RNDN);
          worst = std::max(worst, std::fabs(mpfr_get_d(diff.v, MPFR_RNDN)));
        }
      }
      std::printf("| %s | %llu | %.7g | %.3e | %.3e |\n", md.name, static_cast<unsigned long long>(n),
                  static_cast<double>(static_cast<float>(hf_att)), worst, worst_angle);
    }
  }
}
}  // namespace

int main(int argc, char** argv) {
#ifdef __GLIBC__
  std::printf("rope_drift (posenc tools/rope_drift.cpp), glibc %s, MPFR %s\n", gnu_get_libc_version(),
              mpfr_get_version());
#endif
  if (argc > 1 && std::strcmp(argv[1], "--models") == 0) {
    model_tables();
    return 0;
  }
  for (const double base : {10000.0, 500000.0}) {
    const pr::config cfg{.head_dim = kDim, .rope_theta = base};
    std::vector<posenc::math::double_double> th(kPairs);
    for (int j = 0; j < kPairs; ++j) {
      mpnum t;
      theta_mp(t.v, base, j);
      th[static_cast<std::size_t>(j)] = to_dd(t.v);
    }
    angle_tables(base, cfg, th);
    entry_tables(base, cfg, th);
    std::fflush(stdout);
  }
  glibc_table();
  return 0;
}
