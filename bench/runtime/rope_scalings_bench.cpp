// bench/runtime/rope_scalings_bench.cpp: run-time cost of posenc's exact RoPE tables for every
// scaling (rope::fill_table<T>) against HF's float32 pipeline written in plain C++ with libm, timed
// in the same run and reported as ratios baseline / posenc (issue 10's goal: every scaling's exact
// table at least 2x faster than the float32 pipeline, i.e. ratio >= 2).
//
// For each scaling (default, linear, static NTK, dynamic NTK, YaRN x2, LongRoPE, Llama-3, partial
// rotary, proportional), each table of `rows` positions 0 .. rows - 1 by rotary_dim(cfg) columns:
//  f32        rope::fill_table<float> against HF's float32 pipeline: inv_freq[j] in float as the
//             rope_type's _compute_*_parameters computes it (powf(float(base), float(2j)/float(d)),
//             1.0f / p, then the type's own steps; Python scalars in double with libm), then per
//             position angle = inv_freq[j] * float(m), cosf, sinf, each value stored in both
//             elements of its pair (emb = cat(freqs, freqs)).
//  f32 fold   the same with fold_attention, against the pipeline's cos * f32(attention_scaling).
//  bf16, f16  rope::fill_table<bfloat16 / float16> against the float32 pipeline followed by HF's
//             .to(dtype): float -> bfloat16 / float16 rounded to nearest even.
//  f64        rope::fill_table<double> against the same formulas in double: inv_freq with pow,
//             cos and sin of the double angle inv_freq[j] * double(m) (4096 rows by default:
//             the double table was once the scalar path per entry; now the double-double row
//             kernel, about 3x the float table's cost).
// Dynamic NTK and LongRoPE take their long-context branch (seq_len 32768 > max_position 4096,
// seq_len 131072 > original 4096), as HF does once the positions pass the trained length.
//
// Once per case, outside timing: a sample of every posenc table's entries is checked against
// rope::sincos<T> (rope::attention_sincos<T> when folded) bit for bit, and the fraction of the
// float32 pipeline's values that differ from posenc's exact float table is printed (informative).
// Each timing: one untimed call of each side (page faults out of the timing), then 7 passes of
// each side, alternating, each pass repeating the call for at least 30 ms (--min-ms); the best
// pass of each side counts.
//
// Build (no -ffast-math; -ffp-contract=off as the posenc::posenc target sets):
//   g++ -std=c++20 -O2 -march=x86-64 -ffp-contract=off -Iinclude bench/runtime/rope_scalings_bench.cpp -o rope_scalings_bench
// Run: ./rope_scalings_bench        tables of 4096 and 32768 positions, double tables of 4096
//      ./rope_scalings_bench --rows N[,N...] --double-rows N --min-ms M --only NAME
// Bad arguments: one line on stderr, exit 2. A mismatch in the sanity check: exit 1.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/rope/angle.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/models.hpp>
#include <posenc/rope/policy.hpp>

#include "framework_storage.hpp"

namespace {

using posenc_bench::bits_of;
using posenc_bench::store_as;

namespace rope = posenc::rope;
using posenc::bfloat16;
using posenc::float16;

double g_sink = 0;
bool g_mismatch = false;

struct options {
  std::vector<std::size_t> rows{4096, 32768};
  std::size_t double_rows = 4096;
  double min_ms = 30;
  std::string only;
};

// One pass: the mean of as many calls of f as fit in min_ms (at least one), ns per call.
template <class F>
double pass_ns(F& f, double min_ms) {
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t calls = 0;
  double ms = 0;
  do {
    f();
    ++calls;
    ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  } while (ms < min_ms);
  return ms * 1e6 / static_cast<double>(calls);
}

// posenc's side and the baseline's, passes alternating (7 each, the best of each counted), so that
// a burst of load from other processes on the shared cores falls on both sides alike. One untimed
// call of each first (page faults out of the timing).
struct timing {
  double a = 1e300, b = 1e300;
};
template <class FA, class FB>
timing time_pair(FA&& fa, FB&& fb, double min_ms) {
  fa();
  fb();
  timing t;
  for (int pass = 0; pass < 7; ++pass) {
    t.a = std::min(t.a, pass_ns(fa, min_ms));
    t.b = std::min(t.b, pass_ns(fb, min_ms));
  }
  return t;
}

// ---------------------------------------------------------------------------------------------
// HF's pipeline in plain C++ (transformers modeling_rope_utils.py, v5). F = float: the float32
// tensors of HF; F = double: the same formulas in double (the double baseline). Python scalars
// (math.log, math.pow, math.sqrt, the attention factor) are doubles with libm.

constexpr double py_pi = 3.141592653589793;

double get_mscale(double scale, double m) { return scale <= 1 ? 1.0 : 0.1 * m * std::log(scale) + 1.0; }

double correction_dim(double n_rot, double dim, double base, double l0) {
  return (dim * std::log(l0 / (n_rot * 2 * py_pi))) / (2 * std::log(base));
}

double factor_or_ratio(const rope::config& c) {
  if (c.factor != 0.0) return c.factor;
  return static_cast<double>(c.max_position_embeddings) / static_cast<double>(c.original_max_position_embeddings);
}

// The attention_scaling HF returns next to inv_freq (1.0 except YaRN and LongRoPE).
double hf_attention(const rope::config& c) {
  const bool explicit_af = c.rope_type == rope::scaling::yarn || c.rope_type == rope::scaling::longrope;
  if (explicit_af && c.attention_factor) return *c.attention_factor;
  const double s = factor_or_ratio(c);
  if (c.rope_type == rope::scaling::yarn) {
    if (c.mscale != 0.0 && c.mscale_all_dim != 0.0) return get_mscale(s, c.mscale) / get_mscale(s, c.mscale_all_dim);
    return get_mscale(s, 1.0);
  }
  if (c.rope_type == rope::scaling::longrope) {
    const double l0 = static_cast<double>(c.original_max_position_embeddings);
    return s <= 1.0 ? 1.0 : std::sqrt(1 + std::log(s) / std::log(l0));
  }
  return 1.0;
}

// The base fed to base ** (arange / dim), in F.
template <class F>
F hf_base(const rope::config& c, int dim) {
  const double e = static_cast<double>(dim) / static_cast<double>(dim - 2);
  if (c.rope_type == rope::scaling::ntk) return static_cast<F>(c.rope_theta * std::pow(c.factor, e));
  if (c.rope_type == rope::scaling::dynamic && c.seq_len > c.max_position_embeddings) {
    // dynamic_rope_update: factor * seq_len / max_pos - (factor - 1) on tensors, then ** (d/(d-2)).
    F x = static_cast<F>(c.factor) * static_cast<F>(c.seq_len);
    x = x / static_cast<F>(c.max_position_embeddings);
    x = x - static_cast<F>(c.factor - 1);
    const F y = static_cast<F>(std::pow(static_cast<double>(x), e));
    return static_cast<F>(c.rope_theta) * y;
  }
  return static_cast<F>(c.rope_theta);
}

// inv_freq[j], j < dim/2 (dim: the rotary dim, or head_dim for proportional), as the rope_type's
// _compute_*_parameters computes it in F.
template <class F>
void hf_inv_freq(const rope::config& c, std::vector<F>& inv) {
  const int dim = c.proportional ? c.head_dim : rope::rotary_dim(c);
  const std::size_t half = static_cast<std::size_t>(dim / 2);
  const std::size_t rotating =
      c.proportional ? static_cast<std::size_t>(c.partial_rotary_factor * c.head_dim) / 2 : half;
  const F base = hf_base<F>(c, dim), d = static_cast<F>(dim), one = 1;
  F factor = 1;
  if (c.rope_type == rope::scaling::linear || c.rope_type == rope::scaling::llama3 ||
      c.rope_type == rope::scaling::yarn)
    factor = static_cast<F>(factor_or_ratio(c));
  if (c.proportional && c.factor != 0.0) factor = static_cast<F>(c.factor);
  // YaRN's correction range and ramp, Llama-3's wavelength bounds.
  double low = 0, high = 1;
  if (c.rope_type == rope::scaling::yarn) {
    const double l0 = static_cast<double>(c.original_max_position_embeddings), dd = dim;
    low = correction_dim(c.beta_fast, dd, c.rope_theta, l0);
    high = correction_dim(c.beta_slow, dd, c.rope_theta, l0);
    if (c.truncate) low = std::floor(low), high = std::ceil(high);
    low = std::max(low, 0.0);
    high = std::min(high, dd - 1);
    if (low == high) high += 0.001;
  }
  const double l0 = static_cast<double>(c.original_max_position_embeddings);
  const F low_wl = static_cast<F>(l0 / c.low_freq_factor), high_wl = static_cast<F>(l0 / c.high_freq_factor);
  const F lff = static_cast<F>(c.low_freq_factor), hml = static_cast<F>(c.high_freq_factor - c.low_freq_factor);
  const F two_pi = static_cast<F>(2 * py_pi), fl0 = static_cast<F>(l0);
  const std::span<const double> ext = c.seq_len > c.original_max_position_embeddings ? c.long_factor : c.short_factor;
  inv.assign(half, F{0});
  for (std::size_t j = 0; j < rotating; ++j) {
    const F pw = std::pow(base, static_cast<F>(2 * j) / d);
    switch (c.rope_type) {
      case rope::scaling::yarn: {
        const F extrap = one / pw, interp = one / (factor * pw);
        F r = (static_cast<F>(j) - static_cast<F>(low)) / static_cast<F>(high - low);
        r = std::clamp(r, F{0}, one);
        const F w = one - r;
        const F a = interp * (one - w);
        const F b = extrap * w;
        inv[j] = a + b;
        break;
      }
      case rope::scaling::longrope: inv[j] = one / (static_cast<F>(ext[j]) * pw); break;
      case rope::scaling::llama3: {
        const F f = one / pw;
        const F wl = (one / f) * two_pi;
        const F llama = wl > low_wl ? f / factor : f;
        const F q = (one / wl) * fl0;
        const F sf = (q - lff) / hml;
        const F a = (one - sf) * llama / factor;
        const F b = sf * llama;
        const F smoothed = a + b;
        inv[j] = !(wl < high_wl) && !(wl > low_wl) ? smoothed : llama;
        break;
      }
      default: inv[j] = (one / pw) / factor; break;
    }
  }
}

// The whole table: inv_freq once, then rows 0 .. rows - 1, cos/sin per pair in F (float: cosf,
// sinf of the float angle; double: cos, sin of the double angle), optionally times the attention
// factor in F, each value stored to both elements of its pair in the layout.
template <class T, class F>
void hf_table(const rope::config& c, std::size_t rows, rope::layout lay, bool fold, std::vector<F>& inv,
              std::vector<T>& cos_t, std::vector<T>& sin_t) {
  hf_inv_freq<F>(c, inv);
  const F att = static_cast<F>(hf_attention(c));
  const std::size_t half = inv.size(), width = 2 * half;
  const bool split = lay == rope::layout::half_split;
  for (std::size_t m = 0; m < rows; ++m) {
    const F mf = static_cast<F>(m);
    T* const cr = cos_t.data() + m * width;
    T* const sr = sin_t.data() + m * width;
    for (std::size_t j = 0; j < half; ++j) {
      const F a = inv[j] * mf;
      F cv = std::cos(a), sv = std::sin(a);
      if (fold) cv = cv * att, sv = sv * att;
      const T ct = store_as<T>(cv), st = store_as<T>(sv);
      const std::size_t k0 = split ? j : 2 * j, k1 = split ? j + half : 2 * j + 1;
      cr[k0] = ct, cr[k1] = ct;
      sr[k0] = st, sr[k1] = st;
    }
  }
}

// ---------------------------------------------------------------------------------------------

template <class T>
double value_of(T v) {
  if constexpr (std::is_same_v<T, bfloat16>)
    return static_cast<double>(v.to_float());
  else if constexpr (std::is_same_v<T, float16>)
    return static_cast<double>(v.bits);  // checksum only
  else
    return static_cast<double>(v);
}

template <class T>
double checksum(const std::vector<T>& v) {
  double s = 0;
  for (std::size_t i = 0; i < v.size(); i += 61) s += value_of(v[i]);
  return s;
}

// A sample of entries (about 2000, always row 0, the last row and every column of a few rows)
// against rope::sincos<T> / rope::attention_sincos<T>, both elements of each pair.
template <class T>
std::size_t sanity(const rope::config& c, std::size_t rows, rope::layout lay, bool fold, const std::vector<T>& cos_t,
                   const std::vector<T>& sin_t) {
  const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(c)), half = d / 2;
  std::size_t checked = 0;
  auto check = [&](std::size_t m, std::size_t j) {
    const int jj = static_cast<int>(j);
    const auto r = fold ? rope::attention_sincos<T>(c, m, jj) : rope::sincos<T>(c, m, jj);
    for (int t = 0; t < 2; ++t) {
      const std::size_t k = m * d + rope::pair_index(lay, j, t, d);
      if (!r.ok() || bits_of(cos_t[k]) != bits_of(r.value.cos) || bits_of(sin_t[k]) != bits_of(r.value.sin)) {
        if (!g_mismatch)
          std::fprintf(stderr, "rope_scalings_bench: entry (%zu, %zu) differs from rope::sincos\n", m, j);
        g_mismatch = true;
      }
    }
    ++checked;
  };
  for (std::size_t j = 0; j < half; ++j) check(0, j), check(rows - 1, j), check(rows / 2 + 1, j);
  for (std::size_t n = 0; n < 1500; ++n) check((n * 7919 + 13) % rows, (n * 31 + n / 7) % half);
  return checked;
}

// The pipeline port itself, on the same sample: the fraction of its float32 values (folded, as HF
// always multiplies by attention_scaling) that differ from rope::hf_float32's, the library's
// statement of HF's pipeline with correctly rounded powf, cosf and sinf (informative: libm's
// powf/cosf/sinf are not correctly rounded everywhere).
double policy_differ(const rope::config& c, std::size_t rows, rope::layout lay, const std::vector<float>& cos_t,
                     const std::vector<float>& sin_t) {
  const rope::checked_config cc = c;
  const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(c)), half = d / 2;
  std::size_t diff = 0, n = 0;
  for (std::size_t s = 0; s < 4000; ++s) {
    const std::size_t m = (s * 7919 + 13) % rows, j = (s * 31 + s / 7) % half;
    const auto r = rope::sincos<float>(rope::hf_float32, cc, m, static_cast<int>(j));
    const std::size_t k = m * d + rope::pair_index(lay, j, 0, d);
    diff += (!r.ok() || bits_of(cos_t[k]) != bits_of(r.value.cos)) ? 1u : 0u;
    diff += (!r.ok() || bits_of(sin_t[k]) != bits_of(r.value.sin)) ? 1u : 0u;
    n += 2;
  }
  return static_cast<double>(diff) / static_cast<double>(n);
}

// Fraction of the pipeline's values (cos and sin of each pair) that differ from the exact table's.
template <class T>
double differ_fraction(const std::vector<T>& a, const std::vector<T>& b, std::size_t d, rope::layout lay) {
  std::size_t diff = 0, n = 0;
  for (std::size_t row = 0; row * d < a.size(); ++row)
    for (std::size_t j = 0; j < d / 2; ++j, ++n) {
      const std::size_t k = row * d + rope::pair_index(lay, j, 0, d);
      diff += bits_of(a[k]) != bits_of(b[k]) ? 1u : 0u;
    }
  return static_cast<double>(diff) / static_cast<double>(n);
}

struct scaling_case {
  const char* name;
  rope::config cfg;
  rope::layout lay;
};

// One measurement: posenc's fill_table<T> against the pipeline in F, tables of `rows` positions.
template <class T, class F>
void measure(const scaling_case& sc, std::size_t rows, bool fold, const char* label, const options& o,
             std::vector<T>* exact_out = nullptr, std::vector<T>* hf_out = nullptr,
             std::vector<T>* hf_sin_out = nullptr) {
  const rope::config& c = sc.cfg;
  const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(c)), pairs = rows * d / 2;
  std::vector<T> pc(rows * d), ps(rows * d), hc(rows * d), hs(rows * d);
  std::vector<F> inv;
  const rope::table_options opt{.start = 0, .fold_attention = fold};
  const timing t = time_pair(
      [&] {
        if (rope::fill_table<T>(c, std::span<T>(pc), std::span<T>(ps), sc.lay, opt) != posenc::status::ok) std::abort();
      },
      [&] { hf_table<T, F>(c, rows, sc.lay, fold, inv, hc, hs); }, o.min_ms);
  const double t_posenc = t.a, t_hf = t.b;
  const std::size_t sampled = sanity<T>(c, rows, sc.lay, fold, pc, ps);
  g_sink += checksum(pc) + checksum(ps) + checksum(hc) + checksum(hs);
  const double np = static_cast<double>(pairs);
  std::printf("  %-14s %6zu x %3zu  %-9s posenc %7.2f ns/pair  hf %7.2f ns/pair  ratio %6.2f  (%zu sampled ok)\n",
              sc.name, rows, d, label, t_posenc / np, t_hf / np, t_hf / t_posenc, sampled);
  if (exact_out != nullptr) *exact_out = std::move(pc);
  if (hf_out != nullptr) *hf_out = std::move(hc);
  if (hf_sin_out != nullptr) *hf_sin_out = std::move(hs);
}

bool parse_size(const char* s, std::size_t lo, std::size_t hi, std::size_t& out) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s || *end != '\0' || v < lo || v > hi) return false;
  out = static_cast<std::size_t>(v);
  return true;
}

bool parse(int argc, char** argv, options& o) {
  for (int a = 1; a < argc; a += 2) {  // name value pairs
    const std::string name = argv[a];
    if (a + 1 >= argc) return std::fprintf(stderr, "rope_scalings_bench: %s needs a value\n", argv[a]), false;
    const std::string val = argv[a + 1];
    bool ok = true;
    if (name == "--rows") {
      o.rows.clear();
      std::size_t pos = 0;
      while (ok && pos <= val.size()) {
        const std::size_t comma = std::min(val.find(',', pos), val.size());
        std::size_t r = 0;
        ok = parse_size(val.substr(pos, comma - pos).c_str(), 1, std::size_t{1} << 21, r);
        o.rows.push_back(r);
        pos = comma + 1;
      }
    } else if (name == "--double-rows") {
      ok = parse_size(val.c_str(), 0, std::size_t{1} << 21, o.double_rows);
    } else if (name == "--min-ms") {
      std::size_t ms = 0;
      ok = parse_size(val.c_str(), 1, 10000, ms);
      o.min_ms = static_cast<double>(ms);
    } else if (name == "--only") {
      o.only = val;
    } else {
      ok = false;
    }
    if (!ok) return std::fprintf(stderr, "rope_scalings_bench: bad argument %s %s\n", argv[a], argv[a + 1]), false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  if (!parse(argc, argv, o)) return 2;
  namespace md = rope::models;
  using rope::scaling;
  const rope::layout hs = rope::layout::half_split;
  const scaling_case cases[] = {
      {"default", md::llama2_7b, hs},
      {"linear", {.head_dim = 128, .rope_type = scaling::linear, .factor = 4.0}, hs},
      {"ntk", {.head_dim = 128, .rope_type = scaling::ntk, .factor = 2.0}, hs},
      {"dynamic",
       {.head_dim = 128,
        .rope_type = scaling::dynamic,
        .factor = 2.0,
        .max_position_embeddings = 4096,
        .seq_len = 32768},
       hs},
      {"yarn-qwen2.5", md::qwen2_5_7b_yarn, hs},
      {"yarn-dsv3", md::deepseek_v3, rope::layout::interleaved},
      {"longrope-phi35", md::phi3_5_mini_long, hs},
      {"llama3-3.1-8b", md::llama3_1_8b, hs},
      {"partial-neox", md::pythia, hs},
      {"proportional", {.head_dim = 256, .partial_rotary_factor = 0.25, .proportional = true}, hs},
  };
  std::printf("rope_scalings_bench: ns per (cos, sin) pair of the table, ratio = hf / posenc (goal >= 2)\n");
  for (const scaling_case& sc : cases) {
    if (!o.only.empty() && o.only != sc.name) continue;
    const double af = hf_attention(sc.cfg);
    std::printf("%s (attention factor %.6f)\n", sc.name, af);
    for (const std::size_t rows : o.rows) {
      std::vector<float> exact, hf, exact_fold, hf_fold, hf_sin_fold;
      measure<float, float>(sc, rows, false, "f32", o, &exact, &hf);
      measure<float, float>(sc, rows, true, "f32 fold", o, &exact_fold, &hf_fold, &hf_sin_fold);
      measure<bfloat16, float>(sc, rows, false, "bf16", o);
      measure<float16, float>(sc, rows, false, "f16", o);
      const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(sc.cfg));
      std::printf("  %-14s %6zu x %3zu  hf float32 values differing from exact: %.4f plain, %.4f folded\n", sc.name,
                  rows, d, differ_fraction(exact, hf, d, sc.lay), differ_fraction(exact_fold, hf_fold, d, sc.lay));
      std::printf("  %-14s %6zu x %3zu  this port's folded values differing from rope::hf_float32 (sample): %.4f\n",
                  sc.name, rows, d, policy_differ(sc.cfg, rows, sc.lay, hf_fold, hf_sin_fold));
    }
    if (o.double_rows != 0) measure<double, double>(sc, o.double_rows, false, "f64", o);
  }
  std::printf("checksum %.6g\n", g_sink);
  if (g_mismatch) {
    std::fprintf(stderr, "rope_scalings_bench: posenc tables differ from rope::sincos (see above)\n");
    return 1;
  }
  return 0;
}
