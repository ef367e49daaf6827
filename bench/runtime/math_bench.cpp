// bench/runtime/math_bench.cpp: run-time cost of posenc::math's functions against the C library's,
// measured in the same run (ratios cancel the machine's speed).
//
// For each function: 4096 arguments drawn once from a fixed-seed generator in the ranges a
// positional-encoding table uses; a plain std::chrono loop calls the function on the whole array
// repeatedly (at least 0.2 s per function), and the result bits are folded into a sink that is
// printed, so the calls cannot be removed as dead code. Reported: ns per call, and posenc / libm.
// posenc is correctly rounded (0 ulp) and constexpr; glibc's functions are not all correctly
// rounded (reference/constexpr-math.md 3.2), so the ratio is the price of correct rounding at run
// time.
//
// Build (see docs/performance.md):
//   g++ -std=c++20 -O2 -ffp-contract=off -Iinclude bench/runtime/math_bench.cpp -o math_bench
//   clang++-16 -std=c++20 -O2 -ffp-contract=off -Iinclude bench/runtime/math_bench.cpp -o
//   math_bench
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <posenc/math/exp_log.hpp>
#include <posenc/math/pow.hpp>
#include <posenc/math/sincos_table.hpp>
#include <posenc/math/sqrt.hpp>
#include <posenc/math/trig.hpp>
#include <vector>

namespace {

std::uint64_t g_state = 0x243f6a8885a308d3u;  // fixed seed: the same arguments every run

// xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift generators", 2016).
std::uint64_t next_u64() {
  g_state ^= g_state >> 12;
  g_state ^= g_state << 25;
  g_state ^= g_state >> 27;
  return g_state * 0x2545f4914f6cdd1du;
}
double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next_u64() >> 11) * 0x1p-53; }
double log_uniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }

constexpr std::size_t n_args = 4096;
std::uint64_t g_sink = 0;

inline void sink(double x) { g_sink += std::bit_cast<std::uint64_t>(x); }
inline void sink(float x) { g_sink += std::bit_cast<std::uint32_t>(x); }

// ns per call of f over args: one timed pass repeats the array until min_seconds have passed.
template <class Arg, class F>
double one_pass(const std::vector<Arg>& args, F f) {
  constexpr double min_seconds = 0.03;
  using clock = std::chrono::steady_clock;
  std::size_t calls = 0;
  const auto t0 = clock::now();
  double elapsed = 0;
  do {
    for (const Arg& a : args) f(a);
    calls += args.size();
    elapsed = std::chrono::duration<double>(clock::now() - t0).count();
  } while (elapsed < min_seconds);
  return elapsed * 1e9 / static_cast<double>(calls);
}

struct timing {
  double posenc_ns;
  double libm_ns;
};

// posenc and libm passes alternate, 7 each, and the fastest pass of each counts: the minimum is
// the least disturbed by other processes (this machine has 2 cores shared with compilers).
template <class Arg, class F, class G>
timing compare(const std::vector<Arg>& args, F posenc_f, G libm_f) {
  for (const Arg& a : args) posenc_f(a);  // warm-up: caches, branch predictors, lazy binding
  for (const Arg& a : args) libm_f(a);
  timing best{1e30, 1e30};
  for (int round = 0; round < 7; ++round) {
    const double p = one_pass(args, posenc_f);
    const double l = one_pass(args, libm_f);
    best.posenc_ns = p < best.posenc_ns ? p : best.posenc_ns;
    best.libm_ns = l < best.libm_ns ? l : best.libm_ns;
  }
  return best;
}

struct pair_d {
  double x, y;
};
struct pair_f {
  float x, y;
};
struct rope_arg {
  std::uint64_t m;
  int j;
};

void row(const char* name, const char* range, timing t) {
  std::printf("| %-24s | %-31s | %9.1f | %9.1f | %6.2f |\n", name, range, t.posenc_ns, t.libm_ns,
              t.posenc_ns / t.libm_ns);
}

}  // namespace

int main() {
  namespace pm = posenc::math;
  std::vector<double> trig_d(n_args), exp_d(n_args), log_d(n_args), sqrt_d(n_args);
  std::vector<float> trig_f(n_args), exp_f(n_args), log_f(n_args), sqrt_f(n_args);
  std::vector<pair_d> pow_d(n_args);
  std::vector<pair_f> pow_f(n_args);
  std::vector<rope_arg> rope(n_args);
  for (std::size_t i = 0; i < n_args; ++i) {
    trig_d[i] = uniform(-4096.0, 4096.0);
    exp_d[i] = uniform(-700.0, 700.0);
    log_d[i] = log_uniform(1e-300, 1e300);
    sqrt_d[i] = log_uniform(1e-300, 1e300);
    pow_d[i] = {uniform(0.5, 1e4), uniform(-2.0, 2.0)};
    trig_f[i] = static_cast<float>(uniform(-4096.0, 4096.0));
    exp_f[i] = static_cast<float>(uniform(-87.0, 88.0));
    log_f[i] = static_cast<float>(log_uniform(1e-37, 1e37));
    sqrt_f[i] = static_cast<float>(log_uniform(1e-37, 1e37));
    pow_f[i] = {static_cast<float>(uniform(0.5, 1e4)), static_cast<float>(uniform(-2.0, 2.0))};
    rope[i] = {next_u64() % 4096, static_cast<int>(next_u64() % 64)};
  }

  std::printf(
      "| function                 | arguments                       | posenc ns | libm ns   | "
      "ratio  |\n");
  std::printf(
      "|--------------------------|---------------------------------|-----------|-----------|------"
      "--|\n");
  const auto d1 = [](auto f) { return [f](double x) { sink(f(x)); }; };
  const auto f1 = [](auto f) { return [f](float x) { sink(f(x)); }; };
  row("sin(double)", "[-4096, 4096]",
      compare(trig_d, d1([](double x) { return pm::sin(x); }), d1([](double x) { return std::sin(x); })));
  row("cos(double)", "[-4096, 4096]",
      compare(trig_d, d1([](double x) { return pm::cos(x); }), d1([](double x) { return std::cos(x); })));
  row("sincos(double)", "[-4096, 4096] (libm: sin+cos)",
      compare(
          trig_d,
          [](double x) {
            const auto r = pm::sincos(x);
            sink(r.sin);
            sink(r.cos);
          },
          [](double x) {
            sink(std::sin(x));
            sink(std::cos(x));
          }));
  row("exp(double)", "[-700, 700]",
      compare(exp_d, d1([](double x) { return pm::exp(x); }), d1([](double x) { return std::exp(x); })));
  row("log(double)", "1e-300 .. 1e300 log-unif.",
      compare(log_d, d1([](double x) { return pm::log(x); }), d1([](double x) { return std::log(x); })));
  row("pow(double, double)", "x in [0.5,1e4], y in [-2,2]",
      compare(
          pow_d, [](pair_d a) { sink(pm::pow(a.x, a.y)); }, [](pair_d a) { sink(std::pow(a.x, a.y)); }));
  row("sqrt(double)", "1e-300 .. 1e300 log-unif.",
      compare(sqrt_d, d1([](double x) { return pm::sqrt(x); }), d1([](double x) { return std::sqrt(x); })));
  row("sin(float)", "[-4096, 4096]",
      compare(trig_f, f1([](float x) { return pm::sin(x); }), f1([](float x) { return std::sin(x); })));
  row("cos(float)", "[-4096, 4096]",
      compare(trig_f, f1([](float x) { return pm::cos(x); }), f1([](float x) { return std::cos(x); })));
  row("sincos(float)", "[-4096, 4096] (libm: sin+cos)",
      compare(
          trig_f,
          [](float x) {
            const auto r = pm::sincos(x);
            sink(r.sin);
            sink(r.cos);
          },
          [](float x) {
            sink(std::sin(x));
            sink(std::cos(x));
          }));
  row("exp(float)", "[-87, 88]",
      compare(exp_f, f1([](float x) { return pm::exp(x); }), f1([](float x) { return std::exp(x); })));
  row("log(float)", "1e-37 .. 1e37 log-unif.",
      compare(log_f, f1([](float x) { return pm::log(x); }), f1([](float x) { return std::log(x); })));
  row("pow(float, float)", "x in [0.5,1e4], y in [-2,2]",
      compare(
          pow_f, [](pair_f a) { sink(pm::pow(a.x, a.y)); }, [](pair_f a) { sink(std::pow(a.x, a.y)); }));
  row("sqrt(float)", "1e-37 .. 1e37 log-unif.",
      compare(sqrt_f, f1([](float x) { return pm::sqrt(x); }), f1([](float x) { return std::sqrt(x); })));
  // RoPE entry: posenc rounds cos/sin of the exact m * 10000^(-2j/128); the libm column is the
  // float32 framework pipeline (theta = powf, angle = float(m) * theta, cosf, sinf), less accurate.
  row("rope_sincos<float>", "m < 4096, j < 64, d = 128",
      compare(
          rope,
          [](rope_arg a) {
            const auto r = pm::sincos_geometric<float>(a.m, 10000.0, 2 * a.j, 128).value;
            sink(r.sin);
            sink(r.cos);
          },
          [](rope_arg a) {
            const float theta = std::pow(10000.0f, -2.0f * static_cast<float>(a.j) / 128.0f);
            const float angle = static_cast<float>(a.m) * theta;
            sink(std::sin(angle));
            sink(std::cos(angle));
          }));
  // The whole 4096 x 64 table: posenc's table API (same bits as rope_sincos) against the same
  // framework pipeline filling the same table; ns per entry (one entry = one cos and one sin).
  {
    constexpr std::size_t rows = 4096, pairs = 64;
    std::vector<pm::sincos_result<float>> table(rows * pairs);
    const std::vector<int> one_fill{0};
    const timing t = compare(
        one_fill,
        [&table](int) {
          pm::sincos_geometric_table<float>({10000.0, 2, 128}, pairs, std::span(table));
          sink(table[rows * pairs - 1].sin);
        },
        [&table](int) {
          for (std::size_t j = 0; j < pairs; ++j) {
            const float theta = std::pow(10000.0f, -2.0f * static_cast<float>(j) / 128.0f);
            for (std::size_t m = 0; m < rows; ++m) {
              const float angle = static_cast<float>(m) * theta;
              table[m * pairs + j] = {std::sin(angle), std::cos(angle)};
            }
          }
          sink(table[rows * pairs - 1].sin);
        });
    const auto per_entry = static_cast<double>(rows * pairs);
    row("sincos_geometric_table<float>", "4096 x 64 table, per entry",
        {t.posenc_ns / per_entry, t.libm_ns / per_entry});
  }
  std::printf("\nsink: %llu (printed so that no call is optimised away)\n", static_cast<unsigned long long>(g_sink));
  return 0;
}
