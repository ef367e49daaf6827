// bench/runtime/schemes_bench.cpp: run-time cost of posenc's exact sinusoidal and ALiBi generators
// against the float32 libm pipelines frameworks use for the same tables, timed in the same run and
// reported as ratios (issue 9's goal: the exact generators at least 2x faster, i.e. ratio >= 2).
//  * sinusoidal: posenc::sinusoidal::fill_table<float> (fairseq's exponent and [sin | cos] layout,
//    every entry RN_float of the exact value) against fairseq's get_embedding in float32:
//    freq_i = expf(float(i) * f32(-log(10000) / (d/2 - 1))), angle = float(p) * freq_i, sinf, cosf
//    (the loop of sinusoidal/fairseq_float32.hpp, written out here).
//  * ALiBi: posenc::alibi::fill_symmetric_bias_table<float> (RN_float(-m_h |i - j|)) against BLOOM's
//    float32 slopes (f32 of a double pow, then powf per head) times the float distance, entry by
//    entry: slope * float(|i - j|), negated (build_alibi_tensor's `slopes * arange` made dense).
//  * KERPLE-log / KERPLE-power (issue 10): kerple::fill_log_bias_table / fill_power_bias_table<T>
//    (one head's queries x keys block, every distinct distance correctly rounded once, the rest
//    copied) per head, against chijames/KERPLE's float32 forward: diff = float(|i - j|), then
//    (-p) * logf(1 + a * diff), resp. -(powf(diff, p)) * a, on every element of every head.
//  * Sandwich (issue 10): sandwich::fill_bias_table<T> against NeMo's
//    SandwichRelativePositionEmbedding.forward in float32: inv_freq_i = 1 / powf(10000, 2i / d),
//    i = 1 .. d/2, the sum of cosf(float(m - n) * inv_freq_i) per element (once, it does not
//    depend on the head), then (sum - d/2) / (8 (h + 1) / H) per head.
//  * XPOS (issue 10): xpos::fill_scales<T> (q's scale at torchscale's centred positions
//    -L/2 .. L/2 - 1) against torchscale's XPOS.forward in float32: zeta_j = (float(2j) + 0.4 d) /
//    (1.4 d), then powf(zeta_j, float(n) / scale_base) per element.
//    For bf16 and f16 the baseline is the float32 pipeline followed by the framework's
//    .to(dtype) (round to nearest even); for f64 it is the same float32 pipeline (the frameworks
//    compute these tables in float32).
//    Outside the timing, about 2,000 entries of every posenc table are compared with the scheme's
//    scalar function (log_bias, power_bias, sandwich::bias, xpos::scale): a mismatch exits 1.
// Each side: one untimed call (page faults out of the timing), then the best of 7 passes, each
// repeating the call for at least 30 ms (--min-ms). Results are summed into a printed checksum.
//
// Build (no -ffast-math; -ffp-contract=off as the posenc::posenc target sets):
//   g++ -std=c++20 -O2 -march=x86-64 -ffp-contract=off -Iinclude bench/runtime/schemes_bench.cpp -o schemes_bench
// Run: ./schemes_bench    sinusoidal 1024 x 512; ALiBi, KERPLE, Sandwich 8 heads x 256 x 256
//                         (Sandwich d = 128); XPOS 4096 positions x 64 pairs (head_dim 128)
//      ./schemes_bench --positions N --dim D --heads H --len L --head-dim E --xpos-rows R
//                      [--min-ms M] [--only sinusoidal|alibi|kerple|sandwich|xpos]
// Bad arguments: one line on stderr, exit 2.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <posenc/alibi.hpp>
#include <posenc/kerple.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/sandwich.hpp>
#include <posenc/sinusoidal.hpp>
#include <posenc/xpos.hpp>

#include "framework_storage.hpp"

namespace {

using posenc_bench::bits_of;
using posenc_bench::store_as;

namespace sn = posenc::sinusoidal;
namespace al = posenc::alibi;
namespace kp = posenc::kerple;
namespace sw = posenc::sandwich;
namespace xp = posenc::xpos;
using posenc::bfloat16;
using posenc::float16;

double g_sink = 0;

struct options {
  std::size_t positions = 1024, dim = 512, heads = 8, len = 256, head_dim = 128, xpos_rows = 4096;
  double min_ms = 30;
  std::string only;  // empty: every scheme
};

// Best of 7 passes, each pass the mean of as many calls as fit in min_ms (at least one): ns per call.
template <class F>
double time_ns(F&& f, double min_ms) {
  f();  // untimed: touch every page
  double best = 1e300;
  for (int pass = 0; pass < 7; ++pass) {
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t calls = 0;
    double ms = 0;
    do {
      f();
      ++calls;
      ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    } while (ms < min_ms);
    best = std::min(best, ms * 1e6 / static_cast<double>(calls));
  }
  return best;
}

double checksum(const std::vector<float>& v) {
  double s = 0;
  for (std::size_t i = 0; i < v.size(); i += 61) s += static_cast<double>(v[i]);
  return s;
}

// fairseq get_embedding, float32, rows 0 .. positions - 1 (no padding row).
void fairseq_pipeline(std::size_t positions, std::size_t dim, std::vector<float>& freq, std::vector<float>& out) {
  const std::size_t half = dim / 2;
  const auto neg = static_cast<float>(-(std::log(10000.0) / static_cast<double>(half - 1)));
  for (std::size_t i = 0; i < half; ++i) freq[i] = std::exp(static_cast<float>(i) * neg);
  for (std::size_t p = 0; p < positions; ++p) {
    float* row = out.data() + p * dim;
    const auto pf = static_cast<float>(p);
    for (std::size_t i = 0; i < half; ++i) {
      const float a = pf * freq[i];
      row[i] = std::sin(a);
      row[half + i] = std::cos(a);
    }
  }
}

// BLOOM's slopes (build_alibi_tensor), then -slope * float(|i - j|) for every head, query and key.
void bloom_pipeline(std::size_t heads, std::size_t len, std::vector<float>& slopes, std::vector<float>& out) {
  const int n = static_cast<int>(heads);
  int closest = 1;
  while (2 * closest <= n) closest *= 2;
  const auto base = static_cast<float>(std::pow(2.0, -8.0 / closest));
  for (int h = 0; h < closest; ++h) slopes[static_cast<std::size_t>(h)] = std::pow(base, static_cast<float>(h + 1));
  const auto extra = static_cast<float>(std::pow(2.0, -8.0 / (2 * closest)));
  for (int h = closest; h < n; ++h)
    slopes[static_cast<std::size_t>(h)] = std::pow(extra, static_cast<float>(2 * (h - closest) + 1));
  // The distance as a signed int64 converted to float (torch's int64 -> float32 promotion), the
  // row in two branch-free runs (keys before and after the query) so the compiler can vectorise.
  const auto n_len = static_cast<std::int64_t>(len);
  for (std::size_t h = 0; h < heads; ++h) {
    const float m = slopes[h];
    for (std::int64_t i = 0; i < n_len; ++i) {
      float* row = out.data() + (h * len + static_cast<std::size_t>(i)) * len;
      for (std::int64_t j = 0; j < i; ++j) row[j] = -(m * static_cast<float>(i - j));
      for (std::int64_t j = i; j < n_len; ++j) row[j] = -(m * static_cast<float>(j - i));
    }
  }
}

// ---- issue 10: KERPLE, Sandwich, XPOS -------------------------------------------------------

template <class T>
double sum_of(const std::vector<T>& v) {
  double s = 0;
  for (std::size_t i = 0; i < v.size(); i += 61) s += static_cast<double>(bits_of(v[i]) & 0xFFFF);
  return s;
}

// The learned per-head parameters, float32 as the reference stores them (KERPLE initialises
// p ~ U(0, 2), a ~ U(0, 1), clamped at 0.01; power's p at most 2): a fixed LCG, so every run
// and both compilers see the same heads.
struct kerple_heads {
  std::vector<float> p, a;
};

kerple_heads make_heads(std::size_t heads) {
  kerple_heads k;
  std::uint64_t x = 0x9E3779B97F4A7C15u;
  auto uniform = [&x] {
    x = x * 6364136223846793005u + 1442695040888963407u;
    return static_cast<float>(static_cast<double>(x >> 40) * 0x1p-24);  // [0, 1), 24 bits: exact
  };
  for (std::size_t h = 0; h < heads; ++h) {
    k.p.push_back(std::max(0.01f, 2 * uniform()));
    k.a.push_back(std::max(0.01f, uniform()));
  }
  return k;
}

// KERPLE's forward in float32, every element of every head (the symmetric |i - j|; the reference
// takes tril(i - j), whose upper triangle costs the same log(1 + 0)).
// diff is the reference's cached float distance matrix, built once outside the timing.
template <class T>
void kerple_pipeline(bool power, const kerple_heads& k, std::size_t len, const std::vector<float>& diff,
                     std::vector<T>& out) {
  const std::size_t block = len * len;
  for (std::size_t h = 0; h < k.p.size(); ++h) {
    const float p = k.p[h], a = k.a[h];
    T* o = out.data() + h * block;
    if (power)
      for (std::size_t e = 0; e < block; ++e) o[e] = store_as<T>(-std::pow(diff[e], p) * a);
    else
      for (std::size_t e = 0; e < block; ++e) o[e] = store_as<T>(-p * std::log(1.0f + a * diff[e]));
  }
}

// NeMo's Sandwich forward in float32: the head-independent sum once per element, then each head's
// (sum - d/2) / (8 (h + 1) / H).
template <class T>
void sandwich_pipeline(std::size_t heads, std::size_t len, std::size_t d, std::vector<float>& inv,
                       std::vector<float>& sum, std::vector<T>& out) {
  for (std::size_t i = 1; i <= d / 2; ++i)
    inv[i - 1] = 1.0f / std::pow(10000.0f, (2.0f * static_cast<float>(i)) / static_cast<float>(d));
  for (std::size_t q = 0; q < len; ++q)
    for (std::size_t k = 0; k < len; ++k) {
      const auto rel = static_cast<float>(static_cast<std::int64_t>(k) - static_cast<std::int64_t>(q));
      float s = 0;
      for (std::size_t i = 0; i < d / 2; ++i) s += std::cos(rel * inv[i]);
      sum[q * len + k] = s;
    }
  const float half = static_cast<float>(d / 2);
  for (std::size_t h = 0; h < heads; ++h) {
    const float div = static_cast<float>(8 * (h + 1)) / static_cast<float>(heads);
    T* o = out.data() + h * len * len;
    for (std::size_t e = 0; e < len * len; ++e) o[e] = store_as<T>((sum[e] - half) / div);
  }
}

// torchscale's XPOS scale in float32: zeta_j ** (float(n) / scale_base), n = first .. first + rows - 1.
template <class T>
void xpos_pipeline(std::size_t rows, std::size_t d, int scale_base, std::int64_t first, std::vector<float>& zeta,
                   std::vector<T>& out) {
  const std::size_t pairs = d / 2;
  const auto add = static_cast<float>(0.4 * static_cast<double>(d)),
             div = static_cast<float>(1.4 * static_cast<double>(d));
  for (std::size_t j = 0; j < pairs; ++j) zeta[j] = (static_cast<float>(2 * j) + add) / div;
  const auto sb = static_cast<float>(scale_base);
  for (std::size_t r = 0; r < rows; ++r) {
    const float e = static_cast<float>(first + static_cast<std::int64_t>(r)) / sb;
    T* o = out.data() + r * pairs;
    for (std::size_t j = 0; j < pairs; ++j) o[j] = store_as<T>(std::pow(zeta[j], e));
  }
}

// A fill's status: ok, or overflow (a float16 table of large biases or scales; its entries are
// infinite, as the pipeline's cast makes them); anything else aborts the bench.
void require_filled(posenc::status st) {
  if (st != posenc::status::ok && st != posenc::status::overflow) std::abort();
}

// The scalar function's bits at about 2,000 entries (first and last rows included): exit 1 otherwise.
template <class T, class Scalar>
void check_sample(const char* what, const std::vector<T>& table, std::size_t row_len, Scalar&& scalar) {
  const std::size_t n = table.size(), step = std::max<std::size_t>(1, n / 2000);
  for (std::size_t e = 0; e < n; e = e + step < n ? e + step : (e == n - 1 ? n : n - 1)) {
    const posenc::result<T> r = scalar(e / row_len, e % row_len);
    if (bits_of(r.value) != bits_of(table[e])) {
      std::fprintf(stderr, "schemes_bench: %s entry %zu differs from the scalar function\n", what, e);
      std::exit(1);
    }
  }
}

void report(const char* scheme, const char* dtype, double entries, double t_posenc, double t_fw) {
  std::printf(
      "  %-13s %-4s posenc %10.1f us %7.3f ns/entry | float32 pipeline %10.1f us %7.3f ns/entry | ratio %6.2f\n",
      scheme, dtype, t_posenc / 1e3, t_posenc / entries, t_fw / 1e3, t_fw / entries, t_fw / t_posenc);
}

template <class T>
void bench_kerple(bool power, const options& o, const kerple_heads& k, const char* dtype) {
  const std::size_t block = o.len * o.len;
  std::vector<T> exact(o.heads * block), fw(exact.size());
  std::vector<float> diff(block);
  for (std::size_t i = 0; i < o.len; ++i)
    for (std::size_t j = 0; j < o.len; ++j) diff[i * o.len + j] = static_cast<float>(i >= j ? i - j : j - i);
  std::vector<kp::log_checked_config> logs;
  std::vector<kp::power_checked_config> pows;
  for (std::size_t h = 0; h < o.heads; ++h) {
    logs.emplace_back(kp::log_config{.p = k.p[h], .a = k.a[h]});
    pows.emplace_back(kp::power_config{.a = k.a[h], .p = k.p[h]});
  }
  const double t_exact = time_ns(
      [&] {
        for (std::size_t h = 0; h < o.heads; ++h) {
          const std::span<T> dst(exact.data() + h * block, block);
          const posenc::status st = power ? kp::fill_power_bias_table<T>(pows[h], o.len, o.len, dst)
                                          : kp::fill_log_bias_table<T>(logs[h], o.len, o.len, dst);
          require_filled(st);
        }
      },
      o.min_ms);
  const double t_fw = time_ns([&] { kerple_pipeline<T>(power, k, o.len, diff, fw); }, o.min_ms);
  g_sink += sum_of(exact) + sum_of(fw);
  check_sample<T>(power ? "kerple-power" : "kerple-log", exact, block, [&](std::size_t h, std::size_t e) {
    const std::size_t i = e / o.len, j = e % o.len, dist = i >= j ? i - j : j - i;
    return power ? kp::power_bias<T>(pows[h], dist) : kp::log_bias<T>(logs[h], dist);
  });
  report(power ? "kerple-power" : "kerple-log", dtype, static_cast<double>(exact.size()), t_exact, t_fw);
}

template <class T>
void bench_sandwich(const options& o, const char* dtype) {
  const sw::checked_config cc = sw::config{.dim = static_cast<int>(o.head_dim), .heads = static_cast<int>(o.heads)};
  const std::size_t block = o.len * o.len;
  std::vector<T> exact(o.heads * block), fw(exact.size());
  std::vector<float> inv(o.head_dim / 2), sum(block);
  const double t_exact =
      time_ns([&] { require_filled(sw::fill_bias_table<T>(cc, o.len, o.len, std::span<T>(exact))); }, o.min_ms);
  const double t_fw = time_ns([&] { sandwich_pipeline<T>(o.heads, o.len, o.head_dim, inv, sum, fw); }, o.min_ms);
  g_sink += sum_of(exact) + sum_of(fw);
  check_sample<T>("sandwich", exact, block, [&](std::size_t h, std::size_t e) {
    const auto i = static_cast<std::int64_t>(e / o.len), j = static_cast<std::int64_t>(e % o.len);
    return sw::bias<T>(cc, static_cast<int>(h), i - j);
  });
  report("sandwich", dtype, static_cast<double>(exact.size()), t_exact, t_fw);
}

template <class T>
void bench_xpos(const options& o, const char* dtype) {
  const xp::checked_config cc = xp::config{.head_dim = static_cast<int>(o.head_dim)};
  const std::size_t pairs = o.head_dim / 2;
  const std::int64_t first = -static_cast<std::int64_t>(o.xpos_rows / 2);  // torchscale's min_pos = -L // 2
  std::vector<T> exact(o.xpos_rows * pairs), fw(exact.size());
  std::vector<float> zeta(pairs);
  const double t_exact = time_ns([&] { require_filled(xp::fill_scales<T>(cc, first, std::span<T>(exact))); }, o.min_ms);
  const double t_fw = time_ns([&] { xpos_pipeline<T>(o.xpos_rows, o.head_dim, 512, first, zeta, fw); }, o.min_ms);
  g_sink += sum_of(exact) + sum_of(fw);
  check_sample<T>("xpos", exact, pairs, [&](std::size_t r, std::size_t j) {
    return xp::scale<T>(cc, first + static_cast<std::int64_t>(r), static_cast<int>(j));
  });
  report("xpos", dtype, static_cast<double>(exact.size()), t_exact, t_fw);
}

bool parse(int argc, char** argv, options& o) {
  for (int a = 1; a < argc; a += 2) {  // name value pairs
    const std::string name = argv[a];
    if (a + 1 >= argc) return std::fprintf(stderr, "schemes_bench: %s needs a value\n", argv[a]), false;
    if (name == "--only") {
      o.only = argv[a + 1];
      if (o.only == "sinusoidal" || o.only == "alibi" || o.only == "kerple" || o.only == "sandwich" || o.only == "xpos")
        continue;
      return std::fprintf(stderr, "schemes_bench: bad value for --only: %s\n", argv[a + 1]), false;
    }
    char* end = nullptr;
    const double v = std::strtod(argv[a + 1], &end);
    if (end == argv[a + 1] || *end != '\0' || !(v >= 1) || v > 1e6)
      return std::fprintf(stderr, "schemes_bench: bad value for %s: %s\n", argv[a], argv[a + 1]), false;
    const auto u = static_cast<std::size_t>(v);
    if (name == "--positions" && v <= 65536)
      o.positions = u;
    else if (name == "--dim" && v >= 4 && v <= 4096 && u % 2 == 0)
      o.dim = u;
    else if (name == "--heads" && v <= 256)
      o.heads = u;
    else if (name == "--len" && v <= 4096)
      o.len = u;
    else if (name == "--head-dim" && v >= 2 && v <= 4096 && u % 2 == 0)
      o.head_dim = u;
    else if (name == "--xpos-rows" && v <= 65536)
      o.xpos_rows = u;
    else if (name == "--min-ms" && v <= 10000)
      o.min_ms = v;
    else
      return std::fprintf(stderr, "schemes_bench: bad argument %s %s\n", argv[a], argv[a + 1]), false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  if (!parse(argc, argv, o)) return 2;
  auto run = [&o](const char* scheme) { return o.only.empty() || o.only == scheme; };

  if (run("sinusoidal")) {
    const sn::config fairseq{
        .dim = static_cast<int>(o.dim), .exponent = sn::exponent::fairseq, .layout = sn::layout::concat};
    const sn::checked_config fcc = fairseq;
    std::vector<float> exact(o.positions * o.dim), framework(exact.size()), freq(o.dim / 2);
    const double t_exact = time_ns(
        [&] {
          if (sn::fill_table<float>(fcc, 0, std::span<float>(exact)) != posenc::status::ok) std::abort();
        },
        o.min_ms);
    const double t_fw = time_ns([&] { fairseq_pipeline(o.positions, o.dim, freq, framework); }, o.min_ms);
    g_sink += checksum(exact) + checksum(framework);
    const double entries = static_cast<double>(exact.size());
    std::printf("sinusoidal %zu x %zu float (fairseq layout)\n", o.positions, o.dim);
    std::printf("  posenc exact fill_table     %10.1f us  %6.2f ns/entry\n", t_exact / 1e3, t_exact / entries);
    std::printf("  fairseq float32 libm        %10.1f us  %6.2f ns/entry\n", t_fw / 1e3, t_fw / entries);
    std::printf("  ratio framework / exact     %10.2f   (goal >= 2)\n", t_fw / t_exact);
  }

  if (run("alibi")) {
    const al::config bloom{.heads = static_cast<int>(o.heads)};
    const al::checked_config acc = bloom;
    std::vector<float> a_exact(o.heads * o.len * o.len), a_fw(a_exact.size()), slopes(o.heads);
    const double t_aexact = time_ns(
        [&] {
          if (al::fill_symmetric_bias_table<float>(acc, o.len, o.len, std::span<float>(a_exact)) != posenc::status::ok)
            std::abort();
        },
        o.min_ms);
    const double t_afw = time_ns([&] { bloom_pipeline(o.heads, o.len, slopes, a_fw); }, o.min_ms);
    g_sink += checksum(a_exact) + checksum(a_fw);
    const double a_entries = static_cast<double>(a_exact.size());
    std::printf("alibi %zu heads x %zu x %zu float (symmetric bias)\n", o.heads, o.len, o.len);
    std::printf("  posenc exact symmetric      %10.1f us  %6.3f ns/entry\n", t_aexact / 1e3, t_aexact / a_entries);
    std::printf("  BLOOM float32 slopes * dist %10.1f us  %6.3f ns/entry\n", t_afw / 1e3, t_afw / a_entries);
    std::printf("  ratio framework / exact     %10.2f   (goal >= 2)\n", t_afw / t_aexact);
  }

  // Issue 10: each scheme in the four dtypes, against the float32 pipeline (cast for bf16, f16).
  if (run("kerple")) {
    const kerple_heads k = make_heads(o.heads);
    std::printf("kerple %zu heads x %zu x %zu (symmetric bias)\n", o.heads, o.len, o.len);
    for (const bool power : {false, true}) {
      bench_kerple<double>(power, o, k, "f64");
      bench_kerple<float>(power, o, k, "f32");
      bench_kerple<bfloat16>(power, o, k, "bf16");
      bench_kerple<float16>(power, o, k, "f16");
    }
  }
  if (run("sandwich")) {
    std::printf("sandwich %zu heads x %zu x %zu, d = %zu\n", o.heads, o.len, o.len, o.head_dim);
    bench_sandwich<double>(o, "f64");
    bench_sandwich<float>(o, "f32");
    bench_sandwich<bfloat16>(o, "bf16");
    bench_sandwich<float16>(o, "f16");
  }
  if (run("xpos")) {
    std::printf("xpos %zu positions (from -%zu) x %zu pairs, scale_base 512\n", o.xpos_rows, o.xpos_rows / 2,
                o.head_dim / 2);
    bench_xpos<double>(o, "f64");
    bench_xpos<float>(o, "f32");
    bench_xpos<bfloat16>(o, "bf16");
    bench_xpos<float16>(o, "f16");
  }
  std::printf("checksum %.6g\n", g_sink);
  return 0;
}
