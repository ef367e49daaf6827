// ct_rt_cases.hpp: the argument sets and functions of the compile-time-equals-run-time tests, and
// their evaluation by the compiler, shared by tests/test_ct_rt.cpp (the host, with Catch2) and
// tests/cross/qemu_m4.cpp (a Cortex-M4F under QEMU, with neither Catch2 nor MPFR). Each argument
// set is a constexpr std::array: curated hard cases, then a constexpr SplitMix64 stream over the
// ranges that matter. ct_results<Args, F> is F over Args evaluated in constant expressions, in
// chunks of 8 per constexpr lambda so that each constant evaluation stays well inside GCC's and
// Clang's step limits. The callers evaluate F again at run time and compare bits.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "posenc/math/double_double.hpp"
#include "posenc/math/exp_log.hpp"
#include "posenc/math/pow.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/sincos_table.hpp"
#include "posenc/math/sleef_powf.hpp"
#include "posenc/math/sqrt.hpp"
#include "posenc/math/trig.hpp"

namespace posenc_tests::ct_rt {

namespace pm = posenc::math;

constexpr std::size_t chunk = 8;
constexpr std::size_t count = 200;  // a multiple of chunk

// ---- constexpr argument generation ----

constexpr std::uint64_t splitmix(std::uint64_t& s) {  // Steele, Lea, Flood, OOPSLA 2014
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
constexpr double unit(std::uint64_t& s) { return static_cast<double>(splitmix(s) >> 11) * 0x1p-53; }
constexpr double uniform(std::uint64_t& s, double a, double b) { return a + (b - a) * unit(s); }
// |x| = 1.f * 2^e with e uniform in [lo, hi) (normal doubles only), random sign.
constexpr double log_uniform(std::uint64_t& s, int lo, int hi) {
  const std::uint64_t r = splitmix(s);
  const auto e =
      static_cast<std::uint64_t>(lo + static_cast<int>((r >> 53) % static_cast<std::uint64_t>(hi - lo)) + 1023);
  return std::bit_cast<double>(((r & 1) << 63) | (e << 52) | (splitmix(s) >> 12));
}

template <std::size_t N, class T>
constexpr std::array<T, count> with_curated(const std::array<T, N>& curated, std::uint64_t seed,
                                            T (*gen)(std::uint64_t&, std::size_t)) {
  std::array<T, count> a{};
  for (std::size_t i = 0; i < count; ++i) a[i] = i < N ? curated[i] : gen(seed, i);
  return a;
}

// Trig: hard cases (CORE-MATH sin.wc worst cases, the worst-reduction double 6381956970095103 *
// 2^797, specials), then |x| < 4, |x| < 2^21, huge and tiny magnitudes.
constexpr std::array<double, 16> trig_curated = {0.0,
                                                 -0.0,
                                                 1.0,
                                                 -1.0,
                                                 0x1.005023d32fee5p+1,
                                                 0x1.0102947e7003bp-3,
                                                 0x1.184a0aa58191dp-24,
                                                 6381956970095103.0 * 0x1p797,
                                                 -6381956970095103.0 * 0x1p797,
                                                 1.5707963267948966,
                                                 3.141592653589793,
                                                 0x1p21,
                                                 1e22,
                                                 0x1p-1074,
                                                 0x1.fffffffffffffp+1023,
                                                 0x1p-30};
constexpr double trig_gen(std::uint64_t& s, std::size_t i) {
  switch (i % 4) {
    case 0: return uniform(s, -4.0, 4.0);
    case 1: return uniform(s, -0x1p21, 0x1p21);
    case 2: return log_uniform(s, 21, 1023);
    default: return log_uniform(s, -1022, 0);
  }
}
constexpr auto trig_d = with_curated<16, double>(trig_curated, 1, trig_gen);

constexpr std::array<float, 12> trigf_curated = {
    0.0f,           -0.0f,         1.0f,           0x1.33333p+13f,   0x1.75b8a2p-1f, 0x1.4f0654p+0f,
    0x1.2d97c8p+3f, 0x1.4555p+51f, 0x1.3170fp+63f, 0x1.96344ep+117f, 0x1p-149f,      3.4028235e38f};
constexpr float trigf_gen(std::uint64_t& s, std::size_t i) {
  switch (i % 4) {
    case 0: return static_cast<float>(uniform(s, -4.0, 4.0));
    case 1: return static_cast<float>(uniform(s, -0x1p21, 0x1p21));
    case 2: return static_cast<float>(log_uniform(s, 21, 127));
    default: return static_cast<float>(log_uniform(s, -126, 0));
  }
}
constexpr auto trig_f = with_curated<12, float>(trigf_curated, 2, trigf_gen);

// exp: exact exp(0), thresholds of overflow and underflow, CORE-MATH exp.wc cases, then ranges.
constexpr std::array<double, 12> exp_curated = {0.0,
                                                -0.0,
                                                1.0,
                                                -1.0,
                                                709.782712893384,
                                                709.79,
                                                -708.3964185322641,
                                                -745.1332191019411,
                                                -745.2,
                                                0x1.0122ef37212ebp-1,
                                                0x1p-54,
                                                -0x1p-54};
constexpr double exp_gen(std::uint64_t& s, std::size_t i) {
  switch (i % 3) {
    case 0: return uniform(s, -746.0, 710.0);
    case 1: return uniform(s, -4.0, 4.0);
    default: return log_uniform(s, -60, 0);
  }
}
constexpr auto exp_d = with_curated<12, double>(exp_curated, 3, exp_gen);
constexpr std::array<float, 8> expf_curated = {0.0f,         88.72283f, 88.7229f,        -87.33655f,
                                               -103.972084f, -104.0f,   -0x1.d2259ap+3f, 0x1.fdff02p-17f};
constexpr float expf_gen(std::uint64_t& s, std::size_t i) {
  return i % 2 == 0 ? static_cast<float>(uniform(s, -104.0, 89.0)) : static_cast<float>(uniform(s, -4.0, 4.0));
}
constexpr auto exp_f = with_curated<8, float>(expf_curated, 4, expf_gen);

// log: log(1) = 0, powers of two, subnormals, CORE-MATH log.wc cases, then positive ranges.
constexpr std::array<double, 10> log_curated = {1.0,
                                                2.0,
                                                0.5,
                                                0x1p-1074,
                                                0x1p-1022,
                                                0x1.fffffffffffffp+1023,
                                                0x1.a6ae5142326b5p+0,
                                                0x1.15956b273c365p+8,
                                                0x1.0000000000001p+0,
                                                0x1.fffffffffffffp-1};
constexpr double log_gen(std::uint64_t& s, std::size_t i) {
  const double x = i % 2 == 0 ? log_uniform(s, -1022, 1023) : uniform(s, 0.5, 2.0);
  return x < 0 ? -x : x;
}
constexpr auto log_d = with_curated<10, double>(log_curated, 5, log_gen);
constexpr std::array<float, 6> logf_curated = {1.0f,           0x1p-149f,    0x1.b121a6p+76f, 0x1.bacb4ap+25f,
                                               0x1.000002p+0f, 3.4028235e38f};
constexpr float logf_gen(std::uint64_t& s, std::size_t i) {
  const double x = i % 2 == 0 ? log_uniform(s, -126, 127) : uniform(s, 0.5, 2.0);
  return static_cast<float>(x < 0 ? -x : x);
}
constexpr auto log_f = with_curated<6, float>(logf_curated, 6, logf_gen);

// sqrt: squares, powers of two, subnormals, then positive ranges.
constexpr double sqrt_gen(std::uint64_t& s, std::size_t i) { return log_gen(s, i); }
constexpr std::array<double, 6> sqrt_curated = {
    0.0, 4.0, 2.0, 0x1p-1074, 0x1.fffffffffffffp+1023, 152415787532388367504942236884722304.0};
constexpr auto sqrt_d = with_curated<6, double>(sqrt_curated, 7, sqrt_gen);
constexpr std::array<float, 4> sqrtf_curated = {0.0f, 4.0f, 0x1p-149f, 3.4028235e38f};
constexpr auto sqrt_f = with_curated<4, float>(sqrtf_curated, 8, logf_gen);

// pow: exact powers of two, a midpoint (27-bit odd x, y = 2), square roots, then ranges.
template <class T>
struct xy {
  T x, y;
};
constexpr std::array<xy<double>, 8> pow_curated = {{{2.0, -1074.0},
                                                    {2.0, 1023.0},
                                                    {2.0, 0.5},
                                                    {4.0, 0.5},
                                                    {134217729.0, 2.0},
                                                    {1.0000001, 1e9},
                                                    {10.0, -50.0},
                                                    {0.5, 3.0}}};
constexpr xy<double> pow_gen(std::uint64_t& s, std::size_t i) {
  if (i % 3 == 2) return {1.0 + uniform(s, -0x1p-20, 0x1p-20), uniform(s, -1e7, 1e7)};
  return {uniform(s, 0x1p-20, 10.0), uniform(s, -50.0, 50.0)};
}
constexpr auto pow_d = with_curated<8, xy<double>>(pow_curated, 9, pow_gen);
constexpr std::array<xy<float>, 4> powf_curated = {{{2.0f, -149.0f}, {2.0f, 127.0f}, {8193.0f, 2.0f}, {4.0f, 0.5f}}};
constexpr xy<float> powf_gen(std::uint64_t& s, std::size_t) {
  return {static_cast<float>(uniform(s, 0x1p-20, 10.0)), static_cast<float>(uniform(s, -50.0, 50.0))};
}
constexpr auto pow_f = with_curated<4, xy<float>>(powf_curated, 10, powf_gen);

// SLEEF's powf (rope::hf_float32's power) on RoPE's arguments: float bases, exponents 2j/d. The
// first case is torch's pair 37 of d = 128 at 1e6; pow_f's arguments are run through it too.
constexpr std::array<xy<float>, 4> sleef_curated = {
    {{1e6f, 74.0f / 128.0f}, {1e4f, 222.0f / 256.0f}, {150000.0f, 12.0f / 64.0f}, {1e4f, 40.0f / 96.0f}}};
constexpr xy<float> sleef_gen(std::uint64_t& s, std::size_t) {
  constexpr float bases[5] = {1e4f, 1e5f, 1.5e5f, 5e5f, 1e6f};
  const auto d = static_cast<int>(16 + 2 * (splitmix(s) % 249));  // 16 .. 512, even
  const auto j = static_cast<int>(splitmix(s) % static_cast<std::uint64_t>(d / 2));
  return {bases[splitmix(s) % 5], static_cast<float>(2 * j) / static_cast<float>(d)};
}
constexpr auto sleef_pow_f = with_curated<4, xy<float>>(sleef_curated, 12, sleef_gen);

// RoPE: positions up to 2^21, pairs j < 64 of d = 128, the usual bases.
struct rope_arg {
  std::uint64_t m;
  double base;
  int j;
};
constexpr std::array<rope_arg, 4> rope_curated = {{{0, 1e4, 0}, {1, 1e4, 1}, {8191, 5e5, 63}, {2097151, 1e6, 31}}};
constexpr rope_arg rope_gen(std::uint64_t& s, std::size_t i) {
  constexpr double bases[3] = {1e4, 5e5, 1e6};
  const std::uint64_t m = splitmix(s) % (i % 2 == 0 ? 8192u : (1u << 21));
  return {m, bases[splitmix(s) % 3], static_cast<int>(splitmix(s) % 64)};
}
constexpr auto rope_args = with_curated<4, rope_arg>(rope_curated, 11, rope_gen);

// ---- the functions under test, as constexpr function pointers ----

constexpr double f_sin_d(const double& x) { return pm::sin(x); }
constexpr double f_cos_d(const double& x) { return pm::cos(x); }
constexpr pm::sincos_result<double> f_sincos_d(const double& x) { return pm::sincos(x); }
constexpr float f_sin_f(const float& x) { return pm::sin(x); }
constexpr float f_cos_f(const float& x) { return pm::cos(x); }
constexpr pm::sincos_result<float> f_sincos_f(const float& x) { return pm::sincos(x); }
constexpr double f_exp_d(const double& x) { return pm::exp(x); }
constexpr float f_exp_f(const float& x) { return pm::exp(x); }
constexpr double f_log_d(const double& x) { return pm::log(x); }
constexpr float f_log_f(const float& x) { return pm::log(x); }
// The same with posenc's own evaluation at compile time too (without it, GCC's constant
// evaluation takes the compiler's correctly rounded folds: math/evaluation.hpp).
constexpr double f_sin_d_own(const double& x) { return pm::sin(x, pm::own_evaluation); }
constexpr double f_cos_d_own(const double& x) { return pm::cos(x, pm::own_evaluation); }
constexpr pm::sincos_result<double> f_sincos_d_own(const double& x) { return pm::sincos(x, pm::own_evaluation); }
constexpr float f_sin_f_own(const float& x) { return pm::sin(x, pm::own_evaluation); }
constexpr float f_cos_f_own(const float& x) { return pm::cos(x, pm::own_evaluation); }
constexpr pm::sincos_result<float> f_sincos_f_own(const float& x) { return pm::sincos(x, pm::own_evaluation); }
constexpr double f_exp_d_own(const double& x) { return pm::exp(x, pm::own_evaluation); }
constexpr float f_exp_f_own(const float& x) { return pm::exp(x, pm::own_evaluation); }
constexpr double f_log_d_own(const double& x) { return pm::log(x, pm::own_evaluation); }
constexpr float f_log_f_own(const float& x) { return pm::log(x, pm::own_evaluation); }
constexpr double f_sqrt_d(const double& x) { return pm::sqrt(x); }
constexpr float f_sqrt_f(const float& x) { return pm::sqrt(x); }
constexpr double f_pow_d(const xy<double>& a) { return pm::pow(a.x, a.y); }
constexpr float f_pow_f(const xy<float>& a) { return pm::pow(a.x, a.y); }
constexpr float f_sleef_powf(const xy<float>& a) { return pm::sleef_powf(a.x, a.y); }
constexpr pm::sincos_result<float> f_rope_f(const rope_arg& a) {
  return pm::sincos_geometric<float>(a.m, a.base, 2 * a.j, 128).value;
}
constexpr pm::sincos_result<double> f_rope_d(const rope_arg& a) {
  return pm::sincos_geometric<double>(a.m, a.base, 2 * a.j, 128).value;
}
constexpr pm::sincos_result<double> f_product_d(const rope_arg& a) {
  return pm::sincos_product<double>(a.m, pm::double_double{a.base * 1e-6, a.base * 0x1p-80}).value;
}

// ---- compile-time evaluation, chunk by chunk ----

template <const auto& Args, auto F, std::size_t C>
inline constexpr auto ct_chunk = [] {
  using R = decltype(F(Args[0]));
  std::array<R, chunk> r{};
  for (std::size_t k = 0; k < chunk; ++k) r[k] = F(Args[C * chunk + k]);
  return r;
}();

template <const auto& Args, auto F, std::size_t... C>
constexpr auto ct_all(std::index_sequence<C...>) {
  using R = decltype(F(Args[0]));
  std::array<R, count> r{};
  std::size_t i = 0;
  ((void)([&] {
     for (const R& v : ct_chunk<Args, F, C>) r[i++] = v;
   }()),
   ...);
  return r;
}

template <const auto& Args, auto F>
inline constexpr auto ct_results = ct_all<Args, F>(std::make_index_sequence<count / chunk>{});

}  // namespace posenc_tests::ct_rt
