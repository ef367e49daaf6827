// proofs/identities.cpp: compiling this file (GCC 12 or Clang 16) proves exact identities that
// every correctly rounded (CR) sin, cos, exp, log, pow and sqrt must satisfy, on posenc::math's
// double and float overloads, in constant evaluation, plus the rounding facts of round_to and the
// exact cases of rope_sincos. Each static_assert states one fact; the comment above it gives the
// derivation.
//
// Notation: RN is round to nearest, ties to even, in the type of the overload; ulp and the "gaps"
// are those of that type. A CR function returns RN(f(x)) of the exact real f(x), so:
//  * when f(x) is exactly representable, the result is f(x) itself;
//  * RN is odd (RN(-y) == -RN(y)) and commutes with multiplication by 2^k while no result leaves
//    the normal range; so identities between exact reals carry over to the results;
//  * y rounds to the double d when |y - d| is less than half the gap from d to its neighbour on
//    y's side (the gap below a power of two is half the gap above it).
// Everything stays within the default constexpr limits of both compilers: each loop is short and
// each static_assert is its own constant expression.
#include <bit>
#include <cstdint>
#include <posenc/math/exp_log.hpp>
#include <posenc/math/pow.hpp>
#include <posenc/math/rope_angle.hpp>
#include <posenc/math/round.hpp>
#include <posenc/math/sqrt.hpp>
#include <posenc/math/trig.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <type_traits>

namespace pm = posenc::math;

namespace {

constexpr std::uint64_t bits(double x) noexcept { return std::bit_cast<std::uint64_t>(x); }
constexpr std::uint32_t bits(float x) noexcept { return std::bit_cast<std::uint32_t>(x); }
// Bit equality: distinguishes -0 from +0, unlike ==.
constexpr bool same(double a, double b) noexcept { return bits(a) == bits(b); }
constexpr bool same(float a, float b) noexcept { return bits(a) == bits(b); }

// 2^k exactly, from the bit pattern (k = -1074 .. 1023 for double, -149 .. 127 for float).
constexpr double two_to(int k) noexcept {
  return k >= -1022 ? std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52)
                    : std::bit_cast<double>(std::uint64_t{1} << (k + 1074));
}
constexpr float two_to_f(int k) noexcept {
  return k >= -126 ? std::bit_cast<float>(static_cast<std::uint32_t>(k + 127) << 23)
                   : std::bit_cast<float>(std::uint32_t{1} << (k + 149));
}

// Deterministic arguments: the splitmix64 output function (Steele, Lea, Flood, OOPSLA 2014) as a
// hash of (seed, i).
constexpr std::uint64_t mix64(std::uint64_t z) noexcept {
  z += 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
// A positive double with random significand whose leading bit is 2^e, e = emin + i % (emax-emin+1).
constexpr double arg_d(std::uint64_t seed, int i, int emin, int emax) noexcept {
  const int e = emin + i % (emax - emin + 1);
  const std::uint64_t frac =
      mix64(seed * 65536u + static_cast<std::uint64_t>(i)) & 0x000fffffffffffffu;
  if (e >= -1022) return std::bit_cast<double>((static_cast<std::uint64_t>(e + 1023) << 52) | frac);
  return std::bit_cast<double>((frac | 0x0010000000000000u) >> (-1022 - e));
}
constexpr float arg_f(std::uint64_t seed, int i, int emin, int emax) noexcept {
  const int e = emin + i % (emax - emin + 1);
  const auto frac =
      static_cast<std::uint32_t>(mix64(seed * 65536u + static_cast<std::uint64_t>(i))) &
      0x007fffffu;
  if (e >= -126) return std::bit_cast<float>((static_cast<std::uint32_t>(e + 127) << 23) | frac);
  return std::bit_cast<float>((frac | 0x00800000u) >> (-126 - e));
}

}  // namespace

// ===== Special values (C17 Annex F.10), exact by definition =====

static_assert(same(pm::exp(0.0), 1.0) && same(pm::exp(-0.0), 1.0),
              "exp(+-0) == 1 (Annex F.10.3.1)");
static_assert(same(pm::exp(0.0f), 1.0f) && same(pm::exp(-0.0f), 1.0f), "expf(+-0) == 1");
static_assert(same(pm::log(1.0), 0.0), "log(1) == +0, positive zero (Annex F.10.3.7)");
static_assert(same(pm::log(1.0f), 0.0f), "logf(1) == +0");
static_assert(same(pm::sin(0.0), 0.0) && same(pm::sin(-0.0), -0.0),
              "sin(+-0) == +-0, sign kept (F.10.1.6)");
static_assert(same(pm::sin(0.0f), 0.0f) && same(pm::sin(-0.0f), -0.0f),
              "sinf(+-0) == +-0, sign kept");
static_assert(same(pm::cos(0.0), 1.0) && same(pm::cos(-0.0), 1.0), "cos(+-0) == 1 (F.10.1.5)");
static_assert(same(pm::cos(0.0f), 1.0f) && same(pm::cos(-0.0f), 1.0f), "cosf(+-0) == 1");
static_assert(same(pm::sqrt(0.0), 0.0) && same(pm::sqrt(-0.0), -0.0),
              "sqrt(+-0) == +-0 (F.10.4.5)");
static_assert(same(pm::sqrt(-0.0f), -0.0f), "sqrtf(-0) == -0");
static_assert(same(pm::sincos(-0.0).sin, -0.0) && same(pm::sincos(-0.0).cos, 1.0),
              "sincos(-0) == {-0, 1}");
static_assert(same(pm::pow(3.5, 0.0), 1.0) && same(pm::pow(-3.5, -0.0), 1.0),
              "pow(x, +-0) == 1 (F.10.4.4)");
static_assert(same(pm::pow(1.0, 12345.678), 1.0) && same(pm::pow(1.0, -0.5), 1.0),
              "pow(1, y) == 1 (F.10.4.4)");
static_assert(same(pm::pow(1.0f, 77.7f), 1.0f) && same(pm::pow(2.5f, 0.0f), 1.0f),
              "powf(1, y) == 1, powf(x, 0) == 1");

// ===== Results that are exactly representable: a CR function must return them =====

static_assert(same(pm::sqrt(4.0), 2.0) && same(pm::sqrt(4.0f), 2.0f), "sqrt(4) == 2 exactly");
static_assert(same(pm::sqrt(0x1p-1074), 0x1p-537), "sqrt of the smallest subnormal is 2^-537");
static_assert(same(pm::pow(2.0, -1074.0), 0x1p-1074),
              "pow(2, -1074) is the smallest subnormal, exactly");
static_assert(same(pm::pow(2.0f, -149.0f), 0x1p-149f),
              "powf(2, -149) is the smallest float subnormal");
static_assert(same(pm::pow(4.0, 0.5), 2.0) && same(pm::pow(16.0, 0.25), 2.0) &&
                  same(pm::pow(8.0, -1.0), 0.125),
              "pow(4, 1/2) == 2, pow(16, 1/4) == 2, pow(8, -1) == 1/8: exact results");
static_assert(same(pm::pow(-2.0, 3.0), -8.0) && same(pm::pow(-2.0, -2.0), 0.25),
              "pow of a negative base to an integer is exact when representable (F.10.4.4)");

// pow(2, k) == 2^k for every integer k whose power of two is a double (normal or subnormal).
constexpr bool pow2_exact(int kmin, int kmax) {
  for (int k = kmin; k <= kmax; ++k) {
    if (!same(pm::pow(2.0, static_cast<double>(k)), two_to(k))) return false;
  }
  return true;
}
static_assert(pow2_exact(-1074, -1000),
              "pow(2, k) == 2^k exactly for k in [-1074, -1000] (subnormals)");
static_assert(pow2_exact(-999, -900), "pow(2, k) == 2^k exactly for k in [-999, -900]");
static_assert(pow2_exact(-64, 64), "pow(2, k) == 2^k exactly for k in [-64, 64]");
static_assert(pow2_exact(960, 1023), "pow(2, k) == 2^k exactly for k in [960, 1023]");
constexpr bool pow2_exact_f(int kmin, int kmax) {
  for (int k = kmin; k <= kmax; ++k) {
    if (!same(pm::pow(2.0f, static_cast<float>(k)), two_to_f(k))) return false;
  }
  return true;
}
static_assert(pow2_exact_f(-149, -100),
              "powf(2, k) == 2^k exactly for k in [-149, -100] (subnormals)");
static_assert(pow2_exact_f(-20, 20) && pow2_exact_f(100, 127),
              "powf(2, k) == 2^k for k in [-20, 20], [100, 127]");

// sqrt(n^2) == n and pow(n^2, 1/2) == n for integers n (n^2 < 2^53 resp. 2^24: exact squares).
constexpr bool squares(std::uint64_t seed, int count) {
  for (int i = 0; i < count; ++i) {
    const auto n =
        static_cast<double>(1 + (mix64(seed + static_cast<std::uint64_t>(i)) >> 38));  // < 2^26
    if (!same(pm::sqrt(n * n), n) || !same(pm::pow(n * n, 0.5), n)) return false;
    const auto nf =
        static_cast<float>(1 + (mix64(seed + static_cast<std::uint64_t>(i)) >> 52));  // < 2^12
    if (!same(pm::sqrt(nf * nf), nf) || !same(pm::pow(nf * nf, 0.5f), nf)) return false;
  }
  return true;
}
static_assert(
    squares(1, 64),
    "sqrt(n*n) == n and pow(n*n, 0.5) == n for 64 random integers n < 2^26 (and < 2^12 in float)");
static_assert(same(pm::sqrt(0x1p-1072), 0x1p-536) &&
                  same(pm::sqrt(9.0 * 0x1p-1074), 3.0 * 0x1p-537),
              "sqrt of exact subnormal squares is exact");

// ===== Identities between exact reals, carried over by RN =====

// pow(x, 1) == x: x^1 = x exactly. pow(x, 2) == x*x: x^2 = x*x exactly and IEEE multiplication is
// itself RN(x*x) (also in constant evaluation). pow(x, -1) == 1/x: IEEE division is RN(1/x).
// pow(x, 0.5) == sqrt(x) for x > 0: the same real, rounded once. Arguments: binades 2^-500..2^500.
constexpr bool pow_small_integers(std::uint64_t seed, int count) {
  for (int i = 0; i < count; ++i) {
    const double x = arg_d(seed, i, -500, 500);
    const double sx = (i & 1) != 0 ? -x : x;
    if (!same(pm::pow(sx, 1.0), sx)) return false;
    if (!same(pm::pow(sx, 2.0), sx * sx)) return false;
    if (!same(pm::pow(sx, -1.0), 1.0 / sx)) return false;
    if (!same(pm::pow(x, 0.5), pm::sqrt(x))) return false;
  }
  return true;
}
static_assert(
    pow_small_integers(2, 48),
    "pow(x,1) == x, pow(x,2) == x*x, pow(x,-1) == 1/x, pow(x,0.5) == sqrt(x) (48 x, both signs)");
constexpr bool pow_small_integers_f(std::uint64_t seed, int count) {
  for (int i = 0; i < count; ++i) {
    const float x = arg_f(seed, i, -60, 60);
    const float sx = (i & 1) != 0 ? -x : x;
    if (!same(pm::pow(sx, 1.0f), sx) || !same(pm::pow(sx, 2.0f), sx * sx)) return false;
    if (!same(pm::pow(sx, -1.0f), 1.0f / sx) || !same(pm::pow(x, 0.5f), pm::sqrt(x))) return false;
  }
  return true;
}
static_assert(pow_small_integers_f(3, 48),
              "powf(x,1) == x, powf(x,2) == x*x, powf(x,-1) == 1/x, powf(x,0.5) == sqrtf(x)");

// sin is odd and cos even, and RN is odd: sin(-x) == -sin(x), cos(-x) == cos(x) bit for bit.
// sincos(x) is {sin(x), cos(x)}. Arguments: binades 2^-30 .. 2^20.
constexpr bool trig_symmetry(std::uint64_t seed, int count) {
  for (int i = 0; i < count; ++i) {
    const double x = arg_d(seed, i, -30, 20);
    if (!same(pm::sin(-x), -pm::sin(x)) || !same(pm::cos(-x), pm::cos(x))) return false;
    const pm::sincos_result<double> r = pm::sincos(x);
    if (!same(r.sin, pm::sin(x)) || !same(r.cos, pm::cos(x))) return false;
  }
  return true;
}
static_assert(trig_symmetry(4, 24),
              "sin(-x) == -sin(x), cos(-x) == cos(x), sincos(x) == {sin x, cos x} (24 x)");
constexpr bool trig_symmetry_f(std::uint64_t seed, int count) {
  for (int i = 0; i < count; ++i) {
    const float x = arg_f(seed, i, -30, 20);
    if (!same(pm::sin(-x), -pm::sin(x)) || !same(pm::cos(-x), pm::cos(x))) return false;
    const pm::sincos_result<float> r = pm::sincos(x);
    if (!same(r.sin, pm::sin(x)) || !same(r.cos, pm::cos(x))) return false;
  }
  return true;
}
static_assert(trig_symmetry_f(5, 24),
              "sinf(-x) == -sinf(x), cosf(-x) == cosf(x), sincos(float) == {sinf, cosf}");

// sqrt(4x) == 2 sqrt(x): sqrt(4x) = 2 sqrt(x) exactly, 4x is exact (x <= DBL_MAX/4), sqrt never
// leaves the normal range (sqrt(2^-1074) = 2^-537), and RN commutes with doubling there.
constexpr bool sqrt_scaling(std::uint64_t seed, int count) {
  for (int i = 0; i < count; ++i) {
    const double x = arg_d(seed, i, -1074, 1020);
    if (!same(pm::sqrt(4.0 * x), 2.0 * pm::sqrt(x))) return false;
  }
  return true;
}
static_assert(sqrt_scaling(6, 64), "sqrt(4x) == 2*sqrt(x) for 64 x from 2^-1074 to 2^1020");

// Figueroa, "When is double rounding innocuous?" (SIGNUM 30(3), 1995): for sqrt, rounding first to
// 53 bits then to 24 equals rounding once to 24 because 53 >= 2*24 + 2. So for a float x,
// sqrtf(x) == (float)sqrt((double)x) when both are CR.
constexpr bool sqrt_float_via_double(std::uint64_t seed, int count) {
  for (int i = 0; i < count; ++i) {
    const float x = arg_f(seed, i, -149, 127);
    if (!same(pm::sqrt(x), static_cast<float>(pm::sqrt(static_cast<double>(x))))) return false;
  }
  return true;
}
static_assert(sqrt_float_via_double(7, 64),
              "sqrtf(x) == (float)sqrt((double)x) (double rounding innocuous, Figueroa 1995)");

// log(2^(-k)) == -log(2^k): the exact values are opposite and RN is odd.
// log(2^(2^j)) == 2^j * log(2): log(2^(2^j)) = 2^j ln 2 exactly and RN commutes with 2^j.
constexpr bool log_powers_of_two() {
  for (int k = 1; k <= 1022; k += 7) {
    if (!same(pm::log(two_to(-k)), -pm::log(two_to(k)))) return false;
  }
  const double ln2 = pm::log(2.0);
  for (int j = 1; j <= 9; ++j) {  // 2^j = 2 .. 512 and 2^-(2^j) = 2^-2 .. 2^-512
    const int k = 1 << j;
    if (!same(pm::log(two_to(k)), static_cast<double>(k) * ln2)) return false;
    if (!same(pm::log(two_to(-k)), -static_cast<double>(k) * ln2)) return false;
  }
  return same(pm::log(two_to(-1024)), -1024.0 * ln2);  // 2^-1024 is subnormal; its log is not
}
static_assert(log_powers_of_two(),
              "log(2^-k) == -log(2^k), log(2^(+-2^j)) == +-2^j * log(2) (j = 1..9), log(2^-1024) "
              "== -1024 log(2)");
static_assert(same(pm::log(4.0f), 2.0f * pm::log(2.0f)) &&
                  same(pm::log(0x1p-64f), -64.0f * pm::log(2.0f)),
              "logf(4) == 2 logf(2), logf(2^-64) == -64 logf(2)");

// ===== Tiny arguments: Taylor bounds smaller than half a gap =====

// sin x == x for 0 < |x| < 2^-27 (double): with 2^e <= |x| < 2^(e+1), e <= -28,
// 0 < |x| - |sin x| < |x|^3/6 < 2^(3e+3)/6 < 2^(e-54), half the smallest gap below |x|.
// Float: |x| < 2^-12 (e <= -13): 2^(3e+3)/6 < 2^(e-25). Subnormals included.
constexpr bool sin_tiny(std::uint64_t seed, int count) {
  for (int i = 0; i < count; ++i) {
    const double x = arg_d(seed, i, -1074, -28);
    if (!same(pm::sin(x), x) || !same(pm::sin(-x), -x)) return false;
    const float xf = arg_f(seed, i, -149, -13);
    if (!same(pm::sin(xf), xf) || !same(pm::sin(-xf), -xf)) return false;
  }
  return true;
}
static_assert(sin_tiny(8, 64),
              "sin(x) == x for |x| < 2^-27 (double) and |x| < 2^-12 (float), subnormals included");

// cos x == 1 for |x| < 2^-27: 0 < 1 - cos x <= x^2/2 < 2^-55 < 2^-54, half the gap below 1.
// Float: |x| < 2^-12: x^2/2 < 2^-25, half the float gap below 1.
// cos(2^-26) == 1 - 2^-53: cos x = 1 - x^2/2 + d, 0 < d < x^4/24 = 2^-104/24, and 1 - 2^-53 is
// a double with neighbours 2^-53 away.
constexpr bool cos_tiny(std::uint64_t seed, int count) {
  for (int i = 0; i < count; ++i) {
    const double x = arg_d(seed, i, -1074, -28);
    if (!same(pm::cos(x), 1.0) || !same(pm::cos(-x), 1.0)) return false;
    const float xf = arg_f(seed, i, -149, -13);
    if (!same(pm::cos(xf), 1.0f)) return false;
  }
  return true;
}
static_assert(cos_tiny(9, 64), "cos(x) == 1 for |x| < 2^-27 (double) and |x| < 2^-12 (float)");
static_assert(same(pm::cos(0x1p-26), 1.0 - 0x1p-53),
              "cos(2^-26) == 1 - 2^-53 (Taylor: error < 2^-108)");
// cosf(2^-12) == 1: cos x = 1 - 2^-25 + d, 0 < d < 2^-48/24, just above the midpoint 1 - 2^-25 of
// 1 - 2^-24 and 1. cosf(2^-11) == 1 - 2^-23: 1 - 2^-23 + d is within 2^-44/24 of that float.
static_assert(same(pm::cos(0x1p-12f), 1.0f), "cosf(2^-12) == 1 (just above the midpoint below 1)");
static_assert(same(pm::cos(0x1p-11f), 1.0f - 0x1p-23f), "cosf(2^-11) == 1 - 2^-23");

// exp x == 1 for |x| < 2^-54: for x > 0, 0 < e^x - 1 < 2x < 2^-53, half the gap above 1; for
// x < 0, 0 < 1 - e^x < |x| < 2^-54, half the gap below 1. Float: |x| < 2^-25 (gaps 2^-23, 2^-24).
constexpr bool exp_tiny(std::uint64_t seed, int count) {
  for (int i = 0; i < count; ++i) {
    const double x = arg_d(seed, i, -1074, -55);
    if (!same(pm::exp(x), 1.0) || !same(pm::exp(-x), 1.0)) return false;
    const float xf = arg_f(seed, i, -149, -26);
    if (!same(pm::exp(xf), 1.0f) || !same(pm::exp(-xf), 1.0f)) return false;
  }
  return true;
}
static_assert(exp_tiny(10, 64),
              "exp(x) == 1 for |x| < 2^-54 (double) and |x| < 2^-25 (float), subnormals included");
// exp(-3 * 2^-55) == 1 - 2^-53: e^x = 1 - 3*2^-55 + d with 0 < d < 2^-107; the doubles around it
// are 1 - 4*2^-55 (distance ~ 2^-55) and 1 (distance ~ 3*2^-55).
static_assert(same(pm::exp(-3.0 * 0x1p-55), 1.0 - 0x1p-53), "exp(-3*2^-55) == 1 - 2^-53");

// log(1 + 2^-52) == 2^-52 - 2^-105: log(1+u) = u - u^2/2 + d, 0 < d < u^3/3 = 2^-156/3, and
// 2^-52 - 2^-105 is a double whose neighbours are 2^-105 away.
// log(1 - 2^-53) == -2^-53: log(1-u) = -u - u^2/2 - ..., |error| ~ 2^-107 < 2^-106 (half gap).
static_assert(same(pm::log(1.0 + 0x1p-52), 0x1p-52 - 0x1p-105), "log(1 + 2^-52) == 2^-52 - 2^-105");
static_assert(same(pm::log(1.0 - 0x1p-53), -0x1p-53), "log(1 - 2^-53) == -2^-53");
static_assert(same(pm::log(1.0f + 0x1p-23f), 0x1p-23f - 0x1p-47f),
              "logf(1 + 2^-23) == 2^-23 - 2^-47");

// ===== RoPE: exact cases of rope_sincos =====

// theta_0 = base^0 = 1, so entry (m, 0) is sin and cos of the integer m.
// base 4, j = d/4: theta = 4^(-1/2) = 1/2 exactly; base 16, j = d/4: theta = 1/4.
constexpr bool rope_exact_angles() {
  for (std::uint64_t m = 0; m < 40; m += 3) {
    const auto md = static_cast<double>(m);
    const auto a = pm::rope_sincos<double>(m, 10000.0, 0, 128);
    if (!same(a.sin, pm::sin(md)) || !same(a.cos, pm::cos(md))) return false;
    const auto b = pm::rope_sincos<double>(m, 4.0, 32, 128);
    if (!same(b.sin, pm::sin(md * 0.5)) || !same(b.cos, pm::cos(md * 0.5))) return false;
    const auto c = pm::rope_sincos<float>(m, 16.0, 16, 64);
    const auto mf = static_cast<float>(m);
    if (!same(c.sin, pm::sin(mf * 0.25f)) || !same(c.cos, pm::cos(mf * 0.25f))) return false;
  }
  return true;
}
static_assert(rope_exact_angles(),
              "rope_sincos with an exact angle (theta = 1, 1/2, 1/4) equals sin/cos of it");
static_assert(same(pm::rope_sincos<double>(0, 10000.0, 17, 128).sin, 0.0) &&
                  same(pm::rope_sincos<float>(0, 500000.0, 63, 128).cos, 1.0f),
              "rope_sincos at position 0 is {+0, 1}");
static_assert(same(pm::rope_sincos<double>(123456789, 10000.0, 0, 128).sin, pm::sin(123456789.0)),
              "rope_sincos(m, base, 0, d) == sin(m) for a large position");

// ===== Rounding into narrow formats (round_to), IEEE 754 roundTiesToEven, overflow to inf =====

static_assert(pm::round_to<posenc::float16>(65504.0).ok() &&
                  pm::round_to<posenc::float16>(65504.0).value.bits == 0x7bffu,
              "65504 is the largest float16 (0x7bff), ok");
static_assert(pm::round_to<posenc::float16>(65519.99).value.bits == 0x7bffu,
              "65519.99 rounds down to 65504");
static_assert(pm::round_to<posenc::float16>(65520.0).error == posenc::status::overflow &&
                  pm::round_to<posenc::float16>(65520.0).value.bits == 0x7c00u,
              "65520, the midpoint between 65504 and 2^16, ties to even = 2^16: overflow, +inf");
static_assert(pm::round_to<posenc::float16>(-65520.0).value.bits == 0xfc00u,
              "-65520 overflows to -inf");
static_assert(pm::round_to<posenc::float16>(0x1p-24).value.bits == 0x0001u,
              "2^-24 is the smallest float16 subnormal");
static_assert(pm::round_to<posenc::float16>(0x1p-25).value.bits == 0x0000u,
              "2^-25 ties to even: +0");
static_assert(pm::round_to<posenc::float16>(0x1p-25 + 0x1p-40).value.bits == 0x0001u,
              "just above 2^-25 rounds up to 2^-24");
static_assert(pm::round_to<posenc::float16>(3.0 * 0x1p-25).value.bits == 0x0002u,
              "1.5 * 2^-24 ties to even: 2^-23");
static_assert(pm::round_to<posenc::float16>(-0x1p-26).value.bits == 0x8000u,
              "tiny negative rounds to -0");
static_assert(pm::round_to<posenc::bfloat16>(1.0 + 0x1p-8).value.bits == 0x3f80u,
              "bfloat16: 1 + 2^-8 ties to even: 1.0");
static_assert(pm::round_to<posenc::bfloat16>(1.0 + 3.0 * 0x1p-8).value.bits == 0x3f82u,
              "bfloat16: 1 + 3*2^-8 ties to even: 1 + 2^-6");
static_assert(pm::round_to<posenc::bfloat16>(1.0 + 0x1p-8 + 0x1p-30).value.bits == 0x3f81u,
              "bfloat16 rounds once from the exact value: 1 + 2^-8 + 2^-30 -> 1 + 2^-7 (through "
              "float it would tie to 1.0)");
static_assert(
    pm::round_to<posenc::bfloat16>(pm::double_double{1.0 + 0x1p-8, -0x1p-70}).value.bits ==
            0x3f80u &&
        pm::round_to<posenc::bfloat16>(pm::double_double{1.0 + 0x1p-8, 0x1p-70}).value.bits ==
            0x3f81u,
    "bfloat16 from a double-double: the low part breaks the tie");
static_assert(
    pm::round_to<float>(pm::double_double{1.0 + 0x1p-24, 0x1p-80}).value == 1.0f + 0x1p-23f,
    "float from a double-double: 1 + 2^-24 + 2^-80 rounds up, no double rounding through double");
static_assert(
    pm::round_to<posenc::bfloat16>(0x1.ffp127).error == posenc::status::overflow &&
        pm::round_to<posenc::bfloat16>(0x1.ffp127).value.bits == 0x7f80u,
    "bfloat16: 0x1.ffp127, the midpoint above the largest, ties to even = 2^128: overflow, +inf");
static_assert(pm::round_to<posenc::bfloat16>(0x1.feffffp127).value.bits == 0x7f7fu,
              "bfloat16: just below that midpoint rounds down to the largest finite");
static_assert(pm::round_to<posenc::bfloat16>(0x1.fep127).ok() &&
                  pm::round_to<posenc::bfloat16>(0x1.fep127).value.bits == 0x7f7fu,
              "bfloat16: 0x1.fep127 is the largest finite bfloat16 (0x7f7f)");

// ===== Types and must-not-compile facts =====

static_assert(std::is_same_v<decltype(pm::sin(1.0f)), float> &&
                  std::is_same_v<decltype(pm::exp(1.0f)), float> &&
                  std::is_same_v<decltype(pm::pow(2.0f, 0.5f)), float> &&
                  std::is_same_v<decltype(pm::sqrt(2.0f)), float>,
              "the float overloads return float (no silent promotion to double)");
static_assert(std::is_same_v<decltype(pm::sincos(1.0)), pm::sincos_result<double>>,
              "sincos(double) returns sincos_result<double>");
// Outside a template an invalid expression in a requires-expression is ill-formed, so these
// checks go through variable templates.
template <class A>
constexpr bool unary_math_accepts = requires(A a) {
  pm::sin(a);
}
|| requires(A a) { pm::cos(a); }
|| requires(A a) { pm::exp(a); }
|| requires(A a) { pm::log(a); }
|| requires(A a) { pm::sqrt(a); }
|| requires(A a) { pm::sincos(a); };
template <class A>
constexpr bool pow_accepts_one = requires(A a) {
  pm::pow(a);
};
static_assert(unary_math_accepts<double> && unary_math_accepts<float>,
              "(twin) the math functions accept double and float");
static_assert(!unary_math_accepts<const char*>,
              "sin, cos, exp, log, sqrt and sincos do not accept a string");
static_assert(!pow_accepts_one<double>, "pow needs two arguments");
