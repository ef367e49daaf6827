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
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "posenc/math/double_double.hpp"
#include "posenc/math/rope_angle.hpp"
#include "posenc/math/trig.hpp"
#include "posenc/rope/policy.hpp"
#include "posenc/verify/mpfr_oracle.hpp"
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

// a - m (hi + lo), in double, with m hi exact (TwoProduct).
double angle_error(float a, std::uint64_t m, posenc::math::double_double th) {
  const double md = static_cast<double>(m);
  const posenc::math::double_double p = posenc::detail::two_prod(md, th.hi);
  return ((static_cast<double>(a) - p.hi) - p.lo) - md * th.lo;
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
  std::printf("| position N | hf_float32 at m = N | hf_float32 max m <= N | ggml_float32 at m = N | ggml_float32 max m <= N |\n");
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
  std::printf("| rows m | hf_float32 abs | hf ulp (x >= 1/2) | hf ulp (all) | ggml_float32 abs | ggml ulp (x >= 1/2) | ggml ulp (all) | exact abs | exact ulp (all) | exact == cr_rope_sincos |\n");
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
        const auto x = posenc::math::rope_sincos<float>(m, base, j, kDim);
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
    std::printf("- base %g, d = %d: HF inv_freq with glibc powf differs from hf_float32 in %d of %d pairs; "
                "ggml theta_scale with glibc powf %s ggml_float32's (%a)\n",
                base, kDim, inv_diff, kPairs,
                ts_glibc == posenc::detail::ropep::ggml_theta_scale(c) ? "equals" : "DIFFERS from",
                static_cast<double>(ts_glibc));
  }
  long diff_hf = 0, diff_gg = 0, glibc_wrong = 0, ours_wrong = 0, total = 0;
  mpnum x(24), r(24);
  auto check = [&](float arg, float ours, float theirs, bool is_cos, long& diff) {
    if (ours == theirs) return;
    ++diff;
    mpfr_set_flt(x.v, arg, MPFR_RNDN);
    if (is_cos) mpfr_cos(r.v, x.v, MPFR_RNDN); else mpfr_sin(r.v, x.v, MPFR_RNDN);
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
  std::printf("- Llama-2 table (base 1e4, d = 128, m < 4096), hf_float32 cos/sin: glibc cosf/sinf differ in %ld of %ld values\n", diff_hf, total);
  std::printf("- same table, ggml_float32 cos/sin: glibc cosf/sinf differ in %ld of %ld values\n", diff_gg, total);
  std::printf("- of the differing values: glibc not correctly rounded %ld, posenc not correctly rounded %ld\n",
              glibc_wrong, ours_wrong);
}

}  // namespace

int main() {
#ifdef __GLIBC__
  std::printf("rope_drift (posenc tools/rope_drift.cpp), glibc %s, MPFR %s\n", gnu_get_libc_version(), mpfr_get_version());
#endif
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
