// posenc::math::sleef_powf against the real SLEEF (Debian's libsleef3 3.5.1, an independent build
// of the library torch links): Sleef_powf8_u10avx2 (what torch 1.13's AVX2 kernels call), the
// AVX-512 variant, and the scalar Sleef_powf_u10, on every RoPE exponent k/dim of the usual bases
// and on random pairs. One lean translation unit: Catch2 and the header under test, no MPFR.
// Built only where CMake finds libsleef (tests/CMakeLists.txt).
#include <sleef.h>

#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>

#include "posenc/math/pow.hpp"
#include "posenc/math/sleef_powf.hpp"

namespace {

using posenc::math::sleef_powf;

// torch's own figures (Debian python3-torch 1.13.1, CPU capability AVX2, this repository's
// docs/rope-precision.md section "torch's pow"): base ** (arange(0, dim, 2).float() / dim)[j],
// recorded with
//   python3 -c "import torch; print((B ** (torch.arange(0, D, 2).float() / D))[J].item().hex())"
// Mistral-7B-v0.3 / Qwen3-8B: B = 1e6, D = 128, J = 37 (also the published figure; the
// correctly rounded power is 0x1.6fd746p+11).
static_assert(sleef_powf(1e6f, 74.0f / 128.0f) == 0x1.6fd744p+11f);
// Gemma-2: B = 1e4, D = 256, J = 111 (the same real number 10^3.46875 as above).
static_assert(sleef_powf(1e4f, 222.0f / 256.0f) == 0x1.6fd744p+11f);
// gpt-oss: B = 1.5e5, D = 64, J = 6 and 10.
static_assert(sleef_powf(150000.0f, 12.0f / 64.0f) == 0x1.2aff46p+3f);
static_assert(sleef_powf(150000.0f, 20.0f / 64.0f) == 0x1.4b9a62p+5f);
// Phi-3 (LongRoPE): B = 1e4, D = 96, J = 20.
static_assert(sleef_powf(1e4f, 40.0f / 96.0f) == 0x1.7353bap+5f);
// The correctly rounded power differs there: these asserts would catch a silent fallback to it.
static_assert(posenc::math::pow(1e6f, 74.0f / 128.0f) == 0x1.6fd746p+11f);

// Same bits, NaNs compared as NaNs (SLEEF returns all-ones NaNs; their payload is not the point).
bool same(float a, float b) {
  return a != a ? b != b : std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

bool has_avx2_fma() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
bool has_avx512f() { return __builtin_cpu_supports("avx512f"); }

// The vector entry points need their ISA only inside these wrappers; the code under test is built
// for the baseline ISA, as users build it. sleef.h declares them only under -mavx / -mavx512f, so
// they are declared here, with sleef.h's signatures and each with its ISA.
extern "C" {
__attribute__((target("avx2,fma"))) __m256 Sleef_powf8_u10avx2(__m256, __m256);
__attribute__((target("avx512f"))) __m512 Sleef_powf16_u10avx512f(__m512, __m512);
float Sleef_powf1_u10purecfma(float, float);  // sleef.h: only under FP_FAST_FMAF
}
__attribute__((target("avx2,fma"))) void sleef_avx2(const float* x, const float* y, float* out) {
  _mm256_storeu_ps(out, Sleef_powf8_u10avx2(_mm256_loadu_ps(x), _mm256_loadu_ps(y)));
}
__attribute__((target("avx512f"))) void sleef_avx512(const float* x, const float* y, float* out) {
  _mm512_storeu_ps(out, Sleef_powf16_u10avx512f(_mm512_loadu_ps(x), _mm512_loadu_ps(y)));
}

struct tally {
  long n = 0, vs_avx2 = 0, vs_avx512 = 0, vs_purecfma = 0, scalar_vs_avx2 = 0, cr_vs_avx2 = 0;
  long libm_vs_cr = 0;  // libm's powf (torch's tail, policy_hf.hpp) against the correctly rounded power
};

// Compares 16 pairs: posenc against each SLEEF variant the CPU runs, plus the side counts.
void check16(const float* x, const float* y, tally& t, bool with_cr) {
  float v8[16], v16[16];
  const bool a2 = has_avx2_fma(), a5 = has_avx512f();
  if (a2) sleef_avx2(x, y, v8), sleef_avx2(x + 8, y + 8, v8 + 8);
  if (a5) sleef_avx512(x, y, v16);
  for (int i = 0; i < 16; ++i) {
    const float mine = sleef_powf(x[i], y[i]);
    ++t.n;
    if (a2 && !same(mine, v8[i])) {
      if (t.vs_avx2 < 5) UNSCOPED_INFO("avx2 differs: powf(" << x[i] << ", " << y[i] << ")");
      ++t.vs_avx2;
    }
    if (a5 && !same(mine, v16[i])) ++t.vs_avx512;
    // SLEEF's one-lane build of the same vector source with FMA (what test_rope_policy's
    // reference calls); it needs the FMA instructions too.
    if (a2 && !same(mine, Sleef_powf1_u10purecfma(x[i], y[i]))) ++t.vs_purecfma;
    if (a2 && !same(Sleef_powf_u10(x[i], y[i]), v8[i])) ++t.scalar_vs_avx2;
    if (a2 && with_cr && !same(posenc::math::pow(x[i], y[i]), v8[i])) ++t.cr_vs_avx2;
    if (with_cr && !same(std::pow(x[i], y[i]), posenc::math::pow(x[i], y[i]))) ++t.libm_vs_cr;
  }
}

void report(const char* what, const tally& t, bool with_cr) {
  std::printf(
      "sleef_powf %s: %ld pairs; differ from Sleef_powf8_u10avx2 %ld%s, from Sleef_powf16_u10avx512f %ld%s, "
      "from Sleef_powf1_u10purecfma %ld; scalar Sleef_powf_u10 differs from the AVX2 vector %ld",
      what, t.n, t.vs_avx2, has_avx2_fma() ? "" : " (no AVX2+FMA: not run)", t.vs_avx512,
      has_avx512f() ? "" : " (no AVX-512F: not run)", t.vs_purecfma, t.scalar_vs_avx2);
  if (with_cr)
    std::printf(
        "; the correctly rounded power differs from it %ld; this libm's powf differs from the correctly "
        "rounded power %ld (reported, not checked: it depends on the libm)",
        t.cr_vs_avx2, t.libm_vs_cr);
  std::printf("\n");
}

}  // namespace

TEST_CASE("sleef_powf is Sleef_powf8_u10avx2 on every RoPE exponent of the usual bases") {
  if (!has_avx2_fma()) WARN("this CPU has no AVX2+FMA: only the AVX-512 comparison (if any) runs");
  // HF's float32 exponents: float(2j) / float(dim), dim even, 32..512; the bases of the shipped
  // presets and configs (Llama 5e5, Qwen/Mistral 1e6, gpt-oss 1.5e5, ...), plus NTK-sized ones.
  const float bases[] = {1e4f, 1e5f, 1.5e5f, 2e5f, 5e5f, 1e6f, 8e6f, 1e7f, 25000.0f, 640000.0f};
  tally t;
  float x[16], y[16];
  int fill = 0;
  for (const float b : bases)
    for (int dim = 32; dim <= 512; dim += 2)
      for (int j = 0; j < dim / 2; ++j) {
        x[fill] = b;
        y[fill] = static_cast<float>(2 * j) / static_cast<float>(dim);
        if (++fill == 16) check16(x, y, t, true), fill = 0;
      }
  report("RoPE grid", t, true);
  CHECK(t.vs_avx2 == 0);
  CHECK(t.vs_avx512 == 0);
  CHECK(t.vs_purecfma == 0);
  // The comparison can fail: the correctly rounded power is off SLEEF's somewhere on this grid.
  if (has_avx2_fma()) CHECK(t.cr_vs_avx2 > 0);
}

TEST_CASE("sleef_powf is Sleef_powf8_u10avx2 on random pairs in RoPE's range and on any floats") {
  std::mt19937_64 rng(20261127);
  tally rope, any;
  float x[16], y[16];
  // RoPE's range: bases 1.5 .. 1e9 (log-uniform, covering dynamic-NTK and YaRN-rescaled bases),
  // exponents in [0, 1] (k/dim) and a few beyond (llama3 / scaled exponents stay below 2).
  std::uniform_real_distribution<double> lb(std::log(1.5), std::log(1e9)), ex(0.0, 1.0), ex2(0.0, 2.0);
  for (int i = 0; i < 300000 / 16; ++i) {
    for (int k = 0; k < 16; ++k) {
      x[k] = static_cast<float>(std::exp(lb(rng)));
      y[k] = static_cast<float>(k % 4 == 3 ? ex2(rng) : ex(rng));
    }
    check16(x, y, rope, false);
  }
  report("random RoPE-range pairs", rope, false);
  CHECK(rope.vs_avx2 == 0);
  CHECK(rope.vs_avx512 == 0);
  CHECK(rope.vs_purecfma == 0);
  // Any bit patterns: negative, subnormal, huge, infinite and NaN operands, the special cases.
  std::uniform_int_distribution<std::uint32_t> bits;
  for (int i = 0; i < 100000 / 16; ++i) {
    for (int k = 0; k < 16; ++k) x[k] = std::bit_cast<float>(bits(rng)), y[k] = std::bit_cast<float>(bits(rng));
    // Every fourth lane: a small exponent, so that the results are mostly finite and nonzero.
    for (int k = 0; k < 16; k += 4) y[k] = static_cast<float>(ex2(rng) - 1.0) * 8.0f;
    check16(x, y, any, false);
  }
  report("random bit patterns", any, false);
  CHECK(any.vs_avx2 == 0);
  // The AVX-512 build takes the exponent from vgetexp/vgetmant, which differ from the AVX2 bit
  // manipulation on subnormal and special inputs; the count is reported, not required to be 0.
}

TEST_CASE("sleef_powf's special cases") {
  constexpr float inf = std::numeric_limits<float>::infinity();
  STATIC_REQUIRE(sleef_powf(1.0f, std::numeric_limits<float>::quiet_NaN()) == 1.0f);
  STATIC_REQUIRE(sleef_powf(2.0f, 0.0f) == 1.0f);
  STATIC_REQUIRE(sleef_powf(-2.0f, 3.0f) == -8.0f);
  STATIC_REQUIRE(sleef_powf(0.0f, -1.0f) == inf);
  STATIC_REQUIRE(sleef_powf(-0.0f, -3.0f) == -inf);
  STATIC_REQUIRE(sleef_powf(0.5f, inf) == 0.0f);
  STATIC_REQUIRE(sleef_powf(-1.0f, inf) == 1.0f);
  STATIC_REQUIRE(sleef_powf(1e30f, 1e30f) == inf);
  STATIC_REQUIRE(sleef_powf(2.0f, -200.0f) == 0.0f);
  STATIC_REQUIRE(sleef_powf(-2.0f, 0.5f) != sleef_powf(-2.0f, 0.5f));  // NaN
}
