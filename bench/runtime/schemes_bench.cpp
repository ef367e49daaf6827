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
// Each side: one untimed call (page faults out of the timing), then the best of 7 passes, each
// repeating the call for at least 30 ms (--min-ms). Results are summed into a printed checksum.
//
// Build (no -ffast-math; -ffp-contract=off as the posenc::posenc target sets):
//   g++ -std=c++20 -O2 -march=x86-64 -ffp-contract=off -Iinclude bench/runtime/schemes_bench.cpp -o schemes_bench
// Run: ./schemes_bench                  sinusoidal 1024 x 512, ALiBi 8 heads x 256 x 256
//      ./schemes_bench --positions N --dim D --heads H --len L [--min-ms M]   other sizes
// Bad arguments: one line on stderr, exit 2.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <posenc/alibi.hpp>
#include <posenc/sinusoidal.hpp>

namespace {

namespace sn = posenc::sinusoidal;
namespace al = posenc::alibi;

double g_sink = 0;

struct options {
  std::size_t positions = 1024, dim = 512, heads = 8, len = 256;
  double min_ms = 30;
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

bool parse(int argc, char** argv, options& o) {
  for (int a = 1; a < argc; a += 2) {  // name value pairs
    const std::string name = argv[a];
    if (a + 1 >= argc) return std::fprintf(stderr, "schemes_bench: %s needs a value\n", argv[a]), false;
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

  // Sinusoidal.
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

  // ALiBi.
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
  std::printf("checksum %.6g\n", g_sink);
  return 0;
}
