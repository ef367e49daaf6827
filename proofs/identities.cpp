// proofs/identities.cpp: compiling this file (GCC 12 or Clang 16) proves exact identities that
// every correctly rounded (CR) sin, cos, exp, log, pow and sqrt must satisfy, on posenc::math's
// double and float overloads, in constant evaluation; value facts of sin and cos that hold on both
// compilers without libm (signs and values by quadrant, derived; correctly rounded values from
// MPFR); the rounding facts of round_to and the exact cases of rope_sincos. Each static_assert
// states one fact; the comment above it gives the derivation, and the samples cover the whole
// range the comment states.
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
#include <cstddef>
#include <cstdint>
#include <posenc/math/exp_log.hpp>
#include <posenc/math/pow.hpp>
#include <posenc/math/round.hpp>
#include <posenc/math/sincos_table.hpp>
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
// A positive double with a random significand (the hash of (seed, e)) in the binade [2^e, 2^(e+1)),
// e = -1074 .. 1023; below 2^-1022 the binade is subnormal and keeps fewer significand bits. The
// proofs below call it once per binade of the range their comment states, so no binade is skipped.
constexpr double arg_d(std::uint64_t seed, int e) noexcept {
  const std::uint64_t frac = mix64(seed * 65536u + static_cast<std::uint64_t>(e + 2048)) & 0x000fffffffffffffu;
  if (e >= -1022) return std::bit_cast<double>((static_cast<std::uint64_t>(e + 1023) << 52) | frac);
  return std::bit_cast<double>((frac | 0x0010000000000000u) >> (-1022 - e));
}
// The same for float: binade [2^e, 2^(e+1)), e = -149 .. 127 (subnormal below 2^-126).
constexpr float arg_f(std::uint64_t seed, int e) noexcept {
  const auto frac =
      static_cast<std::uint32_t>(mix64(seed * 65536u + static_cast<std::uint64_t>(e + 2048))) & 0x007fffffu;
  if (e >= -126) return std::bit_cast<float>((static_cast<std::uint32_t>(e + 127) << 23) | frac);
  return std::bit_cast<float>((frac | 0x00800000u) >> (-126 - e));
}

}  // namespace

// ===== Special values (C17 Annex F.10), exact by definition =====

static_assert(same(pm::exp(0.0), 1.0) && same(pm::exp(-0.0), 1.0), "exp(+-0) == 1 (Annex F.10.3.1)");
static_assert(same(pm::exp(0.0f), 1.0f) && same(pm::exp(-0.0f), 1.0f), "expf(+-0) == 1");
static_assert(same(pm::log(1.0), 0.0), "log(1) == +0, positive zero (Annex F.10.3.7)");
static_assert(same(pm::log(1.0f), 0.0f), "logf(1) == +0");
static_assert(same(pm::sin(0.0), 0.0) && same(pm::sin(-0.0), -0.0), "sin(+-0) == +-0, sign kept (F.10.1.6)");
static_assert(same(pm::sin(0.0f), 0.0f) && same(pm::sin(-0.0f), -0.0f), "sinf(+-0) == +-0, sign kept");
static_assert(same(pm::cos(0.0), 1.0) && same(pm::cos(-0.0), 1.0), "cos(+-0) == 1 (F.10.1.5)");
static_assert(same(pm::cos(0.0f), 1.0f) && same(pm::cos(-0.0f), 1.0f), "cosf(+-0) == 1");
static_assert(same(pm::sqrt(0.0), 0.0) && same(pm::sqrt(-0.0), -0.0), "sqrt(+-0) == +-0 (F.10.4.5)");
static_assert(same(pm::sqrt(-0.0f), -0.0f), "sqrtf(-0) == -0");
static_assert(same(pm::sincos(-0.0).sin, -0.0) && same(pm::sincos(-0.0).cos, 1.0), "sincos(-0) == {-0, 1}");
static_assert(same(pm::pow(3.5, 0.0), 1.0) && same(pm::pow(-3.5, -0.0), 1.0), "pow(x, +-0) == 1 (F.10.4.4)");
static_assert(same(pm::pow(1.0, 12345.678), 1.0) && same(pm::pow(1.0, -0.5), 1.0), "pow(1, y) == 1 (F.10.4.4)");
static_assert(same(pm::pow(1.0f, 77.7f), 1.0f) && same(pm::pow(2.5f, 0.0f), 1.0f), "powf(1, y) == 1, powf(x, 0) == 1");

// ===== Results that are exactly representable: a CR function must return them =====

static_assert(same(pm::sqrt(4.0), 2.0) && same(pm::sqrt(4.0f), 2.0f), "sqrt(4) == 2 exactly");
static_assert(same(pm::sqrt(0x1p-1074), 0x1p-537), "sqrt of the smallest subnormal is 2^-537");
static_assert(same(pm::pow(2.0, -1074.0), 0x1p-1074), "pow(2, -1074) is the smallest subnormal, exactly");
static_assert(same(pm::pow(2.0f, -149.0f), 0x1p-149f), "powf(2, -149) is the smallest float subnormal");
static_assert(same(pm::pow(4.0, 0.5), 2.0) && same(pm::pow(16.0, 0.25), 2.0) && same(pm::pow(8.0, -1.0), 0.125),
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
static_assert(pow2_exact(-1074, -1000), "pow(2, k) == 2^k exactly for k in [-1074, -1000] (subnormals)");
static_assert(pow2_exact(-999, -900), "pow(2, k) == 2^k exactly for k in [-999, -900]");
static_assert(pow2_exact(-64, 64), "pow(2, k) == 2^k exactly for k in [-64, 64]");
static_assert(pow2_exact(960, 1023), "pow(2, k) == 2^k exactly for k in [960, 1023]");
constexpr bool pow2_exact_f(int kmin, int kmax) {
  for (int k = kmin; k <= kmax; ++k) {
    if (!same(pm::pow(2.0f, static_cast<float>(k)), two_to_f(k))) return false;
  }
  return true;
}
static_assert(pow2_exact_f(-149, -100), "powf(2, k) == 2^k exactly for k in [-149, -100] (subnormals)");
static_assert(pow2_exact_f(-20, 20) && pow2_exact_f(100, 127), "powf(2, k) == 2^k for k in [-20, 20], [100, 127]");

// sqrt(n^2) == n and pow(n^2, 1/2) == n for integers 1 <= n <= 2^26 resp. 2^12 (n^2 <= 2^52 resp.
// 2^24: exact squares).
constexpr bool squares(std::uint64_t seed, int count) {
  for (int i = 0; i < count; ++i) {
    const auto n = static_cast<double>(1 + (mix64(seed + static_cast<std::uint64_t>(i)) >> 38));  // <= 2^26
    if (!same(pm::sqrt(n * n), n) || !same(pm::pow(n * n, 0.5), n)) return false;
    const auto nf = static_cast<float>(1 + (mix64(seed + static_cast<std::uint64_t>(i)) >> 52));  // <= 2^12
    if (!same(pm::sqrt(nf * nf), nf) || !same(pm::pow(nf * nf, 0.5f), nf)) return false;
  }
  return true;
}
static_assert(squares(1, 64),
              "sqrt(n*n) == n and pow(n*n, 0.5) == n for 64 random integers 1 <= n <= 2^26 (2^12 in float)");
static_assert(same(pm::sqrt(0x1p-1072), 0x1p-536) && same(pm::sqrt(9.0 * 0x1p-1074), 3.0 * 0x1p-537),
              "sqrt of exact subnormal squares is exact");

// ===== Identities between exact reals, carried over by RN =====

// pow(x, 1) == x: x^1 = x exactly. pow(x, 2) == x*x: x^2 = x*x exactly and IEEE multiplication is
// itself RN(x*x) (also in constant evaluation). pow(x, -1) == 1/x: IEEE division is RN(1/x).
// pow(x, 0.5) == sqrt(x) for x > 0: the same real, rounded once. Arguments: one x in every fourth
// binade 2^-500, 2^-496, ..., 2^500 (251 x; x*x and 1/x stay normal), signs alternating; float:
// one x in every binade 2^-60 .. 2^60.
constexpr bool pow_small_integers(std::uint64_t seed, int emin, int emax) {
  for (int e = emin, i = 0; e <= emax; e += 4, ++i) {
    const double x = arg_d(seed, e);
    const double sx = (i & 1) != 0 ? -x : x;
    if (!same(pm::pow(sx, 1.0), sx)) return false;
    if (!same(pm::pow(sx, 2.0), sx * sx)) return false;
    if (!same(pm::pow(sx, -1.0), 1.0 / sx)) return false;
    if (!same(pm::pow(x, 0.5), pm::sqrt(x))) return false;
  }
  return true;
}
static_assert(pow_small_integers(2, -500, -4),
              "pow(x,1) == x, pow(x,2) == x*x, pow(x,-1) == 1/x, pow(x,0.5) == sqrt(x): one x in "
              "every fourth binade 2^-500 .. 2^-4, both signs");
static_assert(pow_small_integers(2, 0, 500),
              "pow(x,1) == x, pow(x,2) == x*x, pow(x,-1) == 1/x, pow(x,0.5) == sqrt(x): one x in "
              "every fourth binade 2^0 .. 2^500, both signs");
constexpr bool pow_small_integers_f(std::uint64_t seed, int emin, int emax) {
  for (int e = emin; e <= emax; ++e) {
    const float x = arg_f(seed, e);
    const float sx = (e & 1) != 0 ? -x : x;
    if (!same(pm::pow(sx, 1.0f), sx) || !same(pm::pow(sx, 2.0f), sx * sx)) return false;
    if (!same(pm::pow(sx, -1.0f), 1.0f / sx) || !same(pm::pow(x, 0.5f), pm::sqrt(x))) return false;
  }
  return true;
}
static_assert(pow_small_integers_f(3, -60, 60),
              "powf(x,1) == x, powf(x,2) == x*x, powf(x,-1) == 1/x, powf(x,0.5) == sqrtf(x): one x "
              "in each binade 2^-60 .. 2^60, both signs");

// ===== sin and cos: symmetry, signs by quadrant, correctly rounded values =====
//
// The fast path writes x = k pi/2 + r, |r| <= pi/4 + 2^-20, quadrant k mod 4 (reduce.hpp), and
// returns sin x = sin r, cos r, -sin r, -cos r and cos x = cos r, -sin r, -cos r, sin r for
// k mod 4 = 0, 1, 2, 3 (trig.hpp); |x| < 2^-27 takes the Taylor path and |x| >= 0x1.8p30 the
// accurate path (detail/mp). The samples below reach every binade of 2^-30 .. 2^20, every quadrant
// of x mod 2pi in every binade from 2^3 up to 2^20 (below, the quadrant samples 0.52, 2.09, 3.67,
// 5.24 and 6.81, the integers 1 .. 7 and 2^2 = 4 stand in), and the cancellation next to multiples
// of pi/2:
//  * binade samples: two random significands in each binade 2^e, e = -30 .. 20 (102 doubles, and
//    102 floats with random float significands);
//  * quadrant samples: with P = RN(pi/2) = 0x1.921fb54442d18p0, for q = 0 .. 3 and
//    n in {0, n_2, n_3, ..., n_20}, n_e = floor(2^e / 2pi) + 1, let k = 4n + q and
//      x_k = RN(RN((3k + 1) P) / 3),   X_k = (k + 1/3) pi/2.
//    3k + 1 is exact, |RN(y) - y| <= 2^-53 |RN(y)|, |P - pi/2| < 2^-53 and k + 1/3 = X_k / (pi/2)
//    < x_k / 1.5, so |x_k - X_k| <= 2^-53 x_k + 2^-53 RN((3k + 1) P) / 3 + (k + 1/3) 2^-53
//    < 2.7 * 2^-53 x_k < 2^-51 x_k: x_k mod 2pi is (q + 1/3) pi/2 to within 2^-30, a third of the
//    way into quadrant q, where (sin, cos) = (1/2, r3), (r3, -1/2), (-1/2, -r3), (-r3, 1/2) for
//    q = 0 .. 3, r3 = sqrt(3)/2. As 2pi n_e is in (2^e, 2^e + 2pi], x_k is in (2^e, 2^e + 12) for
//    n = n_e, inside the binade 2^e for e >= 4; n = 0 gives x_k = 0.52, 2.09, 3.67, 5.24. 80
//    doubles, 0.52 .. 2^20 + 12; the floats are RN_float(x_k);
//  * near-multiple samples: RN(k P), within (k + RN(k P)) 2^-53 of k pi/2, so that r is tiny and
//    the reduction cancels almost every bit of x, and its two neighbours, for the same k >= 1
//    (237 doubles; the floats are RN_float(RN(k P)) and its two float neighbours).
inline constexpr double pio2 = 0x1.921fb54442d18p0;  // P = RN(pi/2)
inline constexpr int quad_ns = 20;                   // n = 0, n_2, ..., n_20

// n for index i: 0 for i = 0, n_e = floor(2^e / 2pi) + 1 with e = i + 1 for i = 1 .. 19.
constexpr double quad_n(int i) noexcept {
  return i == 0 ? 0.0 : 1.0 + static_cast<double>(static_cast<std::int64_t>(two_to(i + 1) / 6.283185307179586));
}
constexpr double quad_k(int i, int q) noexcept { return 4.0 * quad_n(i) + static_cast<double>(q); }
constexpr double quad_x(int i, int q) noexcept { return (3.0 * quad_k(i, q) + 1.0) * pio2 / 3.0; }

// Every binade 2^3 .. 2^20 holds a quadrant sample of each quadrant.
constexpr bool quadrant_samples_cover(int emin, int emax) {
  for (int e = emin; e <= emax; ++e)
    for (int q = 0; q < 4; ++q) {
      bool found = false;
      for (int i = 0; i < quad_ns; ++i) found = found || (quad_x(i, q) >= two_to(e) && quad_x(i, q) < two_to(e + 1));
      if (!found) return false;
    }
  return true;
}
static_assert(quadrant_samples_cover(3, 20),
              "each binade 2^3 .. 2^20 holds a quadrant sample x_k of each quadrant 0 .. 3");

// sin is odd and cos even, and RN is odd: sin(-x) == -sin(x), cos(-x) == cos(x) bit for bit.
// sincos(x) is {sin(x), cos(x)} bit for bit.
template <class T>
constexpr bool symmetric(T x) noexcept {
  if (!same(pm::sin(-x), -pm::sin(x)) || !same(pm::cos(-x), pm::cos(x))) return false;
  const pm::sincos_result<T> r = pm::sincos(x);
  return same(r.sin, pm::sin(x)) && same(r.cos, pm::cos(x));
}
constexpr bool trig_symmetry_binades(std::uint64_t seed) {
  for (int e = -30; e <= 20; ++e)
    if (!symmetric(arg_d(seed, e)) || !symmetric(arg_d(seed + 1, e))) return false;
  return true;
}
constexpr bool trig_symmetry_binades_f(std::uint64_t seed) {
  for (int e = -30; e <= 20; ++e)
    if (!symmetric(arg_f(seed, e)) || !symmetric(arg_f(seed + 1, e))) return false;
  return true;
}
static_assert(trig_symmetry_binades(4),
              "sin(-x) == -sin(x), cos(-x) == cos(x), sincos(x) == {sin x, cos x}: two x in each "
              "binade 2^-30 .. 2^20");
static_assert(trig_symmetry_binades_f(5),
              "sinf(-x) == -sinf(x), cosf(-x) == cosf(x), sincos(float) == {sinf, cosf}: two x in "
              "each binade 2^-30 .. 2^20");

// The neighbour of x > 0 above (d = 1) or below (d = -1), or x itself (d = 0).
constexpr double next_double(double x, int d) noexcept {
  return std::bit_cast<double>(bits(x) + static_cast<std::uint64_t>(d));
}
constexpr float next_float(float x, int d) noexcept {
  return std::bit_cast<float>(bits(x) + static_cast<std::uint32_t>(d));
}
// The quadrant and near-multiple samples of quadrant q, double and float.
constexpr bool trig_symmetry_quadrant(int q, int ibegin, int iend) {
  for (int i = ibegin; i < iend; ++i) {
    const double x = quad_x(i, q);
    if (!symmetric(x) || !symmetric(static_cast<float>(x))) return false;
    const double k = quad_k(i, q);
    if (k == 0) continue;
    const double y = k * pio2;
    const auto yf = static_cast<float>(y);
    for (int d = -1; d <= 1; ++d)
      if (!symmetric(next_double(y, d)) || !symmetric(next_float(yf, d))) return false;
  }
  return true;
}
static_assert(trig_symmetry_quadrant(0, 0, quad_ns / 2),
              "sin odd, cos even, sincos == {sin, cos} at x mod 2pi in (0, pi/2) and next to 4n pi/2, "
              "x from 0.52 to 2^20 + 12, double and float");
static_assert(trig_symmetry_quadrant(0, quad_ns / 2, quad_ns),
              "sin odd, cos even, sincos == {sin, cos} at x mod 2pi in (0, pi/2) and next to 4n pi/2, "
              "x from 0.52 to 2^20 + 12, double and float");
static_assert(trig_symmetry_quadrant(1, 0, quad_ns / 2),
              "sin odd, cos even, sincos == {sin, cos} at x mod 2pi in (pi/2, pi) and next to (4n+1) "
              "pi/2, x from 1.5 to 2^20 + 12, double and float");
static_assert(trig_symmetry_quadrant(1, quad_ns / 2, quad_ns),
              "sin odd, cos even, sincos == {sin, cos} at x mod 2pi in (pi/2, pi) and next to (4n+1) "
              "pi/2, x from 1.5 to 2^20 + 12, double and float");
static_assert(trig_symmetry_quadrant(2, 0, quad_ns / 2),
              "sin odd, cos even, sincos == {sin, cos} at x mod 2pi in (pi, 3pi/2) and next to (4n+2) "
              "pi/2, x from 3.1 to 2^20 + 12, double and float");
static_assert(trig_symmetry_quadrant(2, quad_ns / 2, quad_ns),
              "sin odd, cos even, sincos == {sin, cos} at x mod 2pi in (pi, 3pi/2) and next to (4n+2) "
              "pi/2, x from 3.1 to 2^20 + 12, double and float");
static_assert(trig_symmetry_quadrant(3, 0, quad_ns / 2),
              "sin odd, cos even, sincos == {sin, cos} at x mod 2pi in (3pi/2, 2pi) and next to (4n+3) "
              "pi/2, x from 4.7 to 2^20 + 12, double and float");
static_assert(trig_symmetry_quadrant(3, quad_ns / 2, quad_ns),
              "sin odd, cos even, sincos == {sin, cos} at x mod 2pi in (3pi/2, 2pi) and next to (4n+3) "
              "pi/2, x from 4.7 to 2^20 + 12, double and float");

// Values a third of the way into each quadrant (the quadrant samples, derivation above): with
// |x_k - X_k| < 2^-51 x_k, 1-Lipschitz sin and cos, half an ulp (<= 2^-54) for the rounding of the
// result and 2^-54 for r3 = RN(sqrt(3)/2) below, |RN(sin x_k) - sin X_k| < 2^-51 x_k + 2^-53; the
// check allows 2^-50 x + 2^-52 (the subtraction of two values within a factor 2 is exact). Float:
// RN_float(x_k) adds 2^-24 x, RN_float 2^-25: allowed 2^-23 x + 2^-23. Also at -x: sin odd, cos
// even. A result with the wrong sign, or sin and cos exchanged (|1/2 - r3| > 0.36), misses by far
// more.
inline constexpr double r3 = 0x1.bb67ae8584caap-1;  // RN(sqrt(3)/2), MPFR 4.2 at 256 bits
static_assert(same(pm::sqrt(3.0) * 0.5, r3), "RN(sqrt(3)/2) == RN(sqrt(3))/2 == 0x1.bb67ae8584caap-1");
constexpr double third_sin[4] = {0.5, r3, -0.5, -r3};
constexpr double third_cos[4] = {r3, -0.5, -r3, 0.5};
constexpr bool within(double v, double want, double tol) noexcept { return v - want <= tol && want - v <= tol; }
constexpr bool quadrant_values(int q) {
  const double s = third_sin[q], c = third_cos[q];
  for (int i = 0; i < quad_ns; ++i) {
    const double x = quad_x(i, q), tol = x * 0x1p-50 + 0x1p-52;
    if (!within(pm::sin(x), s, tol) || !within(pm::cos(x), c, tol)) return false;
    if (!within(pm::sin(-x), -s, tol) || !within(pm::cos(-x), c, tol)) return false;
    const auto xf = static_cast<float>(x);
    const double tf = static_cast<double>(xf) * 0x1p-23 + 0x1p-23;
    if (!within(static_cast<double>(pm::sin(xf)), s, tf) || !within(static_cast<double>(pm::cos(xf)), c, tf))
      return false;
    if (!within(static_cast<double>(pm::sin(-xf)), -s, tf) || !within(static_cast<double>(pm::cos(-xf)), c, tf))
      return false;
  }
  return true;
}
static_assert(quadrant_values(0),
              "quadrant 0, x = (4n + 1/3) pi/2 from 0.52 to 2^20 + 12: sin x == 1/2, cos x == "
              "sqrt(3)/2 to within 2^-50 x (double), 2^-23 x (float)");
static_assert(quadrant_values(1),
              "quadrant 1, x = (4n + 1 + 1/3) pi/2 from 2.09 to 2^20 + 12: sin x == sqrt(3)/2, "
              "cos x == -1/2 to within 2^-50 x (double), 2^-23 x (float)");
static_assert(quadrant_values(2),
              "quadrant 2, x = (4n + 2 + 1/3) pi/2 from 3.67 to 2^20 + 12: sin x == -1/2, "
              "cos x == -sqrt(3)/2 to within 2^-50 x (double), 2^-23 x (float)");
static_assert(quadrant_values(3),
              "quadrant 3, x = (4n + 3 + 1/3) pi/2 from 5.24 to 2^20 + 12: sin x == -sqrt(3)/2, "
              "cos x == 1/2 to within 2^-50 x (double), 2^-23 x (float)");

// Signs at the integers n = 1 .. 13, whose quadrants follow from 3.14159 < pi < 3.1416 alone: the
// multiples j pi/2 lie in [1.570795 j, 1.5708 j], i.e. pi/2 in [1.5707, 1.5708], pi in
// [3.1415, 3.1416], 3pi/2 in [4.7123, 4.7124], 2pi in [6.2831, 6.2832], 5pi/2 in [7.8539, 7.8540],
// 3pi in [9.4247, 9.4248], 7pi/2 in [10.9955, 10.9956], 4pi in [12.5663, 12.5664], 9pi/2 in
// [14.1371, 14.1372]. So 1 is in (0, pi/2): quadrant 0; 2 and 3 in (pi/2, pi): 1 (e.g.
// 1.5708 < 2 < 3 < 3.1415); 4 in (pi, 3pi/2): 2; 5 and 6 in (3pi/2, 2pi): 3; 7 in (2pi, 5pi/2): 0;
// 8 and 9 in (5pi/2, 3pi): 1; 10 in (3pi, 7pi/2): 2; 11 and 12 in (7pi/2, 4pi): 3; 13 in (4pi,
// 9pi/2): 0. sin > 0 in quadrants 0, 1 and < 0 in 2, 3; cos > 0 in 0, 3 and < 0 in 1, 2. Every n is
// at least 0.0044 from every multiple of pi/2 (11 - 10.9956), so |sin n|, |cos n| > 0.002: RN keeps
// the strict sign in double and float. int_quadrant_by_bounds re-derives the table from the bounds.
constexpr int int_quadrant[14] = {0, 0, 1, 1, 2, 3, 3, 0, 1, 1, 2, 3, 3, 0};  // [n], n = 1 .. 13
constexpr bool int_quadrant_by_bounds() {
  for (int n = 1; n <= 13; ++n) {
    int below = 0;  // multiples j pi/2 (j >= 1) certainly below n
    for (int j = 1; j <= 9; ++j) {
      const double lo = 1.570795 * j, hi = 1.5708 * j;  // lo < j pi/2 < hi (rounding: < 2^-48)
      if (hi < n)
        ++below;
      else if (!(n < lo))
        return false;  // n too close to j pi/2 for the bounds to decide
    }
    if (below % 4 != int_quadrant[n]) return false;
  }
  return true;
}
static_assert(int_quadrant_by_bounds(), "the quadrants of n = 1 .. 13 follow from 3.14159 < pi < 3.1416");
template <class T>
constexpr bool signs_in_quadrant(T s, T c, int q) noexcept {
  const bool sin_pos = q < 2, cos_pos = q == 0 || q == 3;
  return (sin_pos ? s > 0 : s < 0) && (cos_pos ? c > 0 : c < 0);
}
constexpr bool integer_signs() {
  for (int n = 1; n <= 13; ++n) {
    const int q = int_quadrant[n];
    const auto x = static_cast<double>(n);
    const auto xf = static_cast<float>(n);
    if (!signs_in_quadrant(pm::sin(x), pm::cos(x), q)) return false;
    if (!signs_in_quadrant(-pm::sin(-x), pm::cos(-x), q)) return false;
    if (!signs_in_quadrant(pm::sin(xf), pm::cos(xf), q)) return false;
    if (!signs_in_quadrant(-pm::sin(-xf), pm::cos(-xf), q)) return false;
  }
  return true;
}
static_assert(integer_signs(),
              "sin n, cos n have the signs of n's quadrant for n = 1 .. 13 (2.0 in (pi/2, pi): sin > "
              "0, cos < 0; 4 in (pi, 3pi/2): both < 0; ...), at +-n, double and float");

// Correctly rounded values: RN(sin x), RN(cos x) in double and float, correctly rounded values
// computed with MPFR 4.2.0 at 256 bits (mpfr_sin, mpfr_cos, then mpfr_set into a 53- or 24-bit
// variable, round to nearest even; each also equals mpfr_sin/mpfr_cos straight into 53 and 24
// bits). Arguments, grouped by the quadrant of x mod 2pi (from MPFR, 4000-bit pi): 2^e for every
// e = -30 .. 20 (one per binade) and the integers 1 .. 13; then values next to multiples of pi/2
// (the reduction's hard cases, e.g. cos(RN(pi/2)) ~ pi/2 - RN(pi/2) = 6.1e-17), and arguments of
// the accurate path (|x| >= 0x1.8p30; sin(10^22) is the example of K. C. Ng, "Argument reduction
// for huge arguments: good to the last bit", Sun Microsystems, 1992). Each is checked at x and at
// -x (sin odd, cos even) and through sincos.
template <class T>
struct cr_point {
  T x, sin, cos;  // x, RN_T(sin x), RN_T(cos x)
};
template <class T>
constexpr bool cr_matches(const cr_point<T>& p) noexcept {
  const pm::sincos_result<T> r = pm::sincos(p.x);
  return same(pm::sin(p.x), p.sin) && same(pm::cos(p.x), p.cos) && same(pm::sin(-p.x), -p.sin) &&
         same(pm::cos(-p.x), p.cos) && same(r.sin, p.sin) && same(r.cos, p.cos);
}
template <class T, std::size_t N>
constexpr bool cr_table(const cr_point<T> (&t)[N]) noexcept {
  for (const cr_point<T>& p : t)
    if (!cr_matches(p)) return false;
  return true;
}

// Quadrant 0, x mod 2pi in (0, pi/2): x = 2^-30 .. 2^0, 2^5, 2^6, 2^15, 2^19, 2^20, 7, 13.
constexpr cr_point<double> cr_q0[] = {
    {0x1p-30, 0x1p-30, 0x1p+0},                              // 2^-30
    {0x1p-29, 0x1p-29, 0x1p+0},                              // 2^-29
    {0x1p-28, 0x1p-28, 0x1p+0},                              // 2^-28
    {0x1p-27, 0x1p-27, 0x1p+0},                              // 2^-27
    {0x1p-26, 0x1p-26, 0x1.fffffffffffffp-1},                // 2^-26
    {0x1p-25, 0x1.fffffffffffffp-26, 0x1.ffffffffffffcp-1},  // 2^-25
    {0x1p-24, 0x1.ffffffffffffbp-25, 0x1.ffffffffffffp-1},   // 2^-24
    {0x1p-23, 0x1.fffffffffffebp-24, 0x1.fffffffffffcp-1},   // 2^-23
    {0x1p-22, 0x1.fffffffffffabp-23, 0x1.fffffffffffp-1},    // 2^-22
    {0x1p-21, 0x1.ffffffffffeabp-22, 0x1.ffffffffffcp-1},    // 2^-21
    {0x1p-20, 0x1.ffffffffffaabp-21, 0x1.ffffffffffp-1},     // 2^-20
    {0x1p-19, 0x1.fffffffffeaabp-20, 0x1.fffffffffcp-1},     // 2^-19
    {0x1p-18, 0x1.fffffffffaaabp-19, 0x1.fffffffffp-1},      // 2^-18
    {0x1p-17, 0x1.ffffffffeaaabp-18, 0x1.ffffffffcp-1},      // 2^-17
    {0x1p-16, 0x1.ffffffffaaaabp-17, 0x1.ffffffffp-1},       // 2^-16
    {0x1p-15, 0x1.fffffffeaaaabp-16, 0x1.fffffffcp-1},       // 2^-15
    {0x1p-14, 0x1.fffffffaaaaabp-15, 0x1.fffffffp-1},        // 2^-14
    {0x1p-13, 0x1.ffffffeaaaaabp-14, 0x1.ffffffcp-1},        // 2^-13
    {0x1p-12, 0x1.ffffffaaaaaabp-13, 0x1.ffffff0000001p-1},  // 2^-12
    {0x1p-11, 0x1.fffffeaaaaaafp-12, 0x1.fffffc0000015p-1},  // 2^-11
    {0x1p-10, 0x1.fffffaaaaaaefp-11, 0x1.fffff00000155p-1},  // 2^-10
    {0x1p-9, 0x1.ffffeaaaaaeefp-10, 0x1.ffffc00001555p-1},   // 2^-9
    {0x1p-8, 0x1.ffffaaaaaeeefp-9, 0x1.ffff000015555p-1},    // 2^-8
    {0x1p-7, 0x1.fffeaaaaeeeefp-8, 0x1.fffc000155552p-1},    // 2^-7
    {0x1p-6, 0x1.fffaaaaeeeed5p-7, 0x1.fff000155549fp-1},    // 2^-6
    {0x1p-5, 0x1.ffeaaaeeee86fp-6, 0x1.ffc00155527d3p-1},    // 2^-5
    {0x1p-4, 0x1.ffaaaeeed4edbp-5, 0x1.ff0015549f4d3p-1},    // 2^-4
    {0x1p-3, 0x1.feaaeee86ee36p-4, 0x1.fc015527d5bd3p-1},    // 2^-3
    {0x1p-2, 0x1.faaeed4f31577p-3, 0x1.f01549f7deea1p-1},    // 2^-2
    {0x1p-1, 0x1.eaee8744b05fp-2, 0x1.c1528065b7d5p-1},      // 2^-1
    {0x1p+0, 0x1.aed548f090ceep-1, 0x1.14a280fb5068cp-1},    // 2^0
    {0x1p+5, 0x1.1a54991426566p-1, 0x1.ab1f5305de8e5p-1},    // 2^5
    {0x1p+6, 0x1.d70da7230c1d8p-1, 0x1.91430595958fp-2},     // 2^6
    {0x1p+15, 0x1.db0ffc3ecc6e4p-1, 0x1.7de36a119d74bp-2},   // 2^15
    {0x1p+19, 0x1.57481ec90fde3p-3, 0x1.f8c1986ca67fap-1},   // 2^19
    {0x1p+20, 0x1.526ccb2fc8656p-2, 0x1.e33ada92fe2aep-1},   // 2^20
    {0x1.cp+2, 0x1.50608c26d0a08p-1, 0x1.81ff79ed92017p-1},  // 7
    {0x1.ap+3, 0x1.ae4044881c506p-2, 0x1.d09cdd5260cb7p-1},  // 13
};
constexpr cr_point<float> cr_q0_f[] = {
    {0x1p-30f, 0x1p-30f, 0x1p+0f},                // 2^-30
    {0x1p-29f, 0x1p-29f, 0x1p+0f},                // 2^-29
    {0x1p-28f, 0x1p-28f, 0x1p+0f},                // 2^-28
    {0x1p-27f, 0x1p-27f, 0x1p+0f},                // 2^-27
    {0x1p-26f, 0x1p-26f, 0x1p+0f},                // 2^-26
    {0x1p-25f, 0x1p-25f, 0x1p+0f},                // 2^-25
    {0x1p-24f, 0x1p-24f, 0x1p+0f},                // 2^-24
    {0x1p-23f, 0x1p-23f, 0x1p+0f},                // 2^-23
    {0x1p-22f, 0x1p-22f, 0x1p+0f},                // 2^-22
    {0x1p-21f, 0x1p-21f, 0x1p+0f},                // 2^-21
    {0x1p-20f, 0x1p-20f, 0x1p+0f},                // 2^-20
    {0x1p-19f, 0x1p-19f, 0x1p+0f},                // 2^-19
    {0x1p-18f, 0x1p-18f, 0x1p+0f},                // 2^-18
    {0x1p-17f, 0x1p-17f, 0x1p+0f},                // 2^-17
    {0x1p-16f, 0x1p-16f, 0x1p+0f},                // 2^-16
    {0x1p-15f, 0x1p-15f, 0x1p+0f},                // 2^-15
    {0x1p-14f, 0x1p-14f, 0x1p+0f},                // 2^-14
    {0x1p-13f, 0x1p-13f, 0x1p+0f},                // 2^-13
    {0x1p-12f, 0x1p-12f, 0x1p+0f},                // 2^-12
    {0x1p-11f, 0x1.fffffep-12f, 0x1.fffffcp-1f},  // 2^-11
    {0x1p-10f, 0x1.fffffap-11f, 0x1.fffffp-1f},   // 2^-10
    {0x1p-9f, 0x1.ffffeap-10f, 0x1.ffffcp-1f},    // 2^-9
    {0x1p-8f, 0x1.ffffaap-9f, 0x1.ffffp-1f},      // 2^-8
    {0x1p-7f, 0x1.fffeaap-8f, 0x1.fffcp-1f},      // 2^-7
    {0x1p-6f, 0x1.fffaaap-7f, 0x1.fffp-1f},       // 2^-6
    {0x1p-5f, 0x1.ffeaaap-6f, 0x1.ffc002p-1f},    // 2^-5
    {0x1p-4f, 0x1.ffaaaep-5f, 0x1.ff0016p-1f},    // 2^-4
    {0x1p-3f, 0x1.feaaeep-4f, 0x1.fc0156p-1f},    // 2^-3
    {0x1p-2f, 0x1.faaeeep-3f, 0x1.f0154ap-1f},    // 2^-2
    {0x1p-1f, 0x1.eaee88p-2f, 0x1.c1528p-1f},     // 2^-1
    {0x1p+0f, 0x1.aed548p-1f, 0x1.14a28p-1f},     // 2^0
    {0x1p+5f, 0x1.1a549ap-1f, 0x1.ab1f54p-1f},    // 2^5
    {0x1p+6f, 0x1.d70da8p-1f, 0x1.914306p-2f},    // 2^6
    {0x1p+15f, 0x1.db0ffcp-1f, 0x1.7de36ap-2f},   // 2^15
    {0x1p+19f, 0x1.57481ep-3f, 0x1.f8c198p-1f},   // 2^19
    {0x1p+20f, 0x1.526cccp-2f, 0x1.e33adap-1f},   // 2^20
    {0x1.cp+2f, 0x1.50608cp-1f, 0x1.81ff7ap-1f},  // 7
    {0x1.ap+3f, 0x1.ae4044p-2f, 0x1.d09cdep-1f},  // 13
};
static_assert(cr_table(cr_q0),
              "sin x, cos x are the correctly rounded doubles (MPFR) at +-x for x mod 2pi in (0, pi/2): "
              "2^-30 .. 2^0, 2^5, 2^6, 2^15, 2^19, 2^20, 7, 13");
static_assert(cr_table(cr_q0_f),
              "sinf x, cosf x are the correctly rounded floats (MPFR) at +-x for x mod 2pi in (0, pi/2): "
              "2^-30 .. 2^0, 2^5, 2^6, 2^15, 2^19, 2^20, 7, 13");

// Quadrant 1, x mod 2pi in (pi/2, pi): x = 2, 3, 2^3 = 8, 9, 2^7, 2^9, 2^16.
constexpr cr_point<double> cr_q1[] = {
    {0x1p+1, 0x1.d18f6ead1b446p-1, -0x1.aa22657537205p-2},    // 2^1
    {0x1p+3, 0x1.fa8d2a028cf7bp-1, -0x1.29fbebf632f94p-3},    // 2^3
    {0x1p+7, 0x1.712bdad393474p-1, -0x1.62c33dbd5d42ap-1},    // 2^7
    {0x1p+9, 0x1.45b52f33664cfp-4, -0x1.fe60f23a81f3dp-1},    // 2^9
    {0x1p+16, 0x1.62566735b8513p-1, -0x1.719453109288bp-1},   // 2^16
    {0x1.8p+1, 0x1.210386db6d55bp-3, -0x1.fae04be85e5d2p-1},  // 3
    {0x1.2p+3, 0x1.a6026360c2f91p-2, -0x1.d27faa6a6196bp-1},  // 9
};
constexpr cr_point<float> cr_q1_f[] = {
    {0x1p+1f, 0x1.d18f6ep-1f, -0x1.aa2266p-2f},    // 2^1
    {0x1p+3f, 0x1.fa8d2ap-1f, -0x1.29fbecp-3f},    // 2^3
    {0x1p+7f, 0x1.712bdap-1f, -0x1.62c33ep-1f},    // 2^7
    {0x1p+9f, 0x1.45b53p-4f, -0x1.fe60f2p-1f},     // 2^9
    {0x1p+16f, 0x1.625668p-1f, -0x1.719454p-1f},   // 2^16
    {0x1.8p+1f, 0x1.210386p-3f, -0x1.fae04cp-1f},  // 3
    {0x1.2p+3f, 0x1.a60264p-2f, -0x1.d27faap-1f},  // 9
};
static_assert(cr_table(cr_q1),
              "sin x, cos x are the correctly rounded doubles (MPFR) at +-x for x mod 2pi in (pi/2, pi): "
              "2, 3, 2^3 = 8, 9, 2^7, 2^9, 2^16");
static_assert(cr_table(cr_q1_f),
              "sinf x, cosf x are the correctly rounded floats (MPFR) at +-x for x mod 2pi in (pi/2, pi): "
              "2, 3, 2^3 = 8, 9, 2^7, 2^9, 2^16");

// Quadrant 2, x mod 2pi in (pi, 3pi/2): x = 2^2 = 4, 10, 2^4, 2^8, 2^14, 2^18.
constexpr cr_point<double> cr_q2[] = {
    {0x1p+2, -0x1.837b9dddc1eaep-1, -0x1.4eaa606db24c1p-1},    // 2^2
    {0x1p+4, -0x1.26d02085f20f8p-2, -0x1.ea5257e962f74p-1},    // 2^4
    {0x1p+8, -0x1.ff983208c7d3bp-1, -0x1.45f74592cb3d7p-5},    // 2^8
    {0x1p+14, -0x1.1eb0412ba4ffdp-1, -0x1.a835a25a9edd8p-1},   // 2^14
    {0x1p+18, -0x1.58809c5ce39b6p-4, -0x1.fe2f9378c3909p-1},   // 2^18
    {0x1.4p+3, -0x1.1689ef5f34f52p-1, -0x1.ad9ac890c6b1fp-1},  // 10
};
constexpr cr_point<float> cr_q2_f[] = {
    {0x1p+2f, -0x1.837b9ep-1f, -0x1.4eaa6p-1f},    // 2^2
    {0x1p+4f, -0x1.26d02p-2f, -0x1.ea5258p-1f},    // 2^4
    {0x1p+8f, -0x1.ff9832p-1f, -0x1.45f746p-5f},   // 2^8
    {0x1p+14f, -0x1.1eb042p-1f, -0x1.a835a2p-1f},  // 2^14
    {0x1p+18f, -0x1.58809cp-4f, -0x1.fe2f94p-1f},  // 2^18
    {0x1.4p+3f, -0x1.1689fp-1f, -0x1.ad9ac8p-1f},  // 10
};
static_assert(cr_table(cr_q2),
              "sin x, cos x are the correctly rounded doubles (MPFR) at +-x for x mod 2pi in (pi, 3pi/2): "
              "2^2 = 4, 10, 2^4, 2^8, 2^14, 2^18");
static_assert(cr_table(cr_q2_f),
              "sinf x, cosf x are the correctly rounded floats (MPFR) at +-x for x mod 2pi in (pi, 3pi/2): "
              "2^2 = 4, 10, 2^4, 2^8, 2^14, 2^18");

// Quadrant 3, x mod 2pi in (3pi/2, 2pi): x = 5, 6, 11, 12, 2^10 .. 2^13, 2^17.
constexpr cr_point<double> cr_q3[] = {
    {0x1p+10, -0x1.44ad2614e80abp-3, 0x1.f98669d7aedb8p-1},   // 2^10
    {0x1p+11, -0x1.4092047ede3e2p-2, 0x1.e6439427e96b9p-1},   // 2^11
    {0x1p+12, -0x1.3074ea233620dp-1, 0x1.9ba4a85e6ce6cp-1},   // 2^12
    {0x1p+13, -0x1.e98f87098c8e4p-1, 0x1.2bd43d0eb2c92p-2},   // 2^13
    {0x1p+17, -0x1.ff8bd7b10d6bp-1, 0x1.58ced65ec8b5p-5},     // 2^17
    {0x1.4p+2, -0x1.eaf81f5e09933p-1, 0x1.22785706b4ad9p-2},  // 5
    {0x1.8p+2, -0x1.1e1f18ab0a2cp-2, 0x1.eb9b7097822f5p-1},   // 6
    {0x1.6p+3, -0x1.fffeb762e93ebp-1, 0x1.220ae41ee2fdfp-8},  // 11
    {0x1.8p+3, -0x1.12b9af7d765a5p-1, 0x1.b00da046b65e3p-1},  // 12
};
constexpr cr_point<float> cr_q3_f[] = {
    {0x1p+10f, -0x1.44ad26p-3f, 0x1.f9866ap-1f},   // 2^10
    {0x1p+11f, -0x1.409204p-2f, 0x1.e64394p-1f},   // 2^11
    {0x1p+12f, -0x1.3074eap-1f, 0x1.9ba4a8p-1f},   // 2^12
    {0x1p+13f, -0x1.e98f88p-1f, 0x1.2bd43ep-2f},   // 2^13
    {0x1p+17f, -0x1.ff8bd8p-1f, 0x1.58ced6p-5f},   // 2^17
    {0x1.4p+2f, -0x1.eaf82p-1f, 0x1.227858p-2f},   // 5
    {0x1.8p+2f, -0x1.1e1f18p-2f, 0x1.eb9b7p-1f},   // 6
    {0x1.6p+3f, -0x1.fffeb8p-1f, 0x1.220ae4p-8f},  // 11
    {0x1.8p+3f, -0x1.12b9bp-1f, 0x1.b00dap-1f},    // 12
};
static_assert(cr_table(cr_q3),
              "sin x, cos x are the correctly rounded doubles (MPFR) at +-x for x mod 2pi in (3pi/2, 2pi): "
              "5, 6, 11, 12, 2^10 .. 2^13, 2^17");
static_assert(cr_table(cr_q3_f),
              "sinf x, cosf x are the correctly rounded floats (MPFR) at +-x for x mod 2pi in (3pi/2, 2pi): "
              "5, 6, 11, 12, 2^10 .. 2^13, 2^17");

// Next to multiples of pi/2: the reduced argument is tiny and the reduction cancels (qN: x mod 2pi
// is in quadrant N).
constexpr cr_point<double> cr_near_pio2[] = {
    {0x1.921fb54442d18p+0, 0x1p+0, 0x1.1a62633145c07p-54},         // RN(pi/2), q0
    {0x1.921fb54442d18p+1, 0x1.1a62633145c07p-53, -0x1p+0},        // RN(pi), q1
    {0x1.2d97c7f3321d2p+2, -0x1p+0, -0x1.a79394c9e8a0ap-53},       // RN(3pi/2), q2
    {0x1.921fb54442d18p+2, -0x1.1a62633145c07p-52, 0x1p+0},        // RN(2pi), q3
    {0x1.f6a7a2955385ep+2, 0x1p+0, 0x1.60fafbfd97309p-52},         // RN(5pi/2), q0
    {0x1.5fdbbe9bba775p+3, -0x1p+0, -0x1.ee2c2d963a10cp-52},       // RN(7pi/2), q2
    {0x1.63p+8, -0x1.f9bd0307d1de3p-16, -0x1.fffffffc18e4cp-1},    // 355 = 113 pi + 3.0e-5, q2
    {0x1.63p+9, 0x1.f9bd0303f6fafp-15, 0x1.fffffff06393p-1},       // 710 = 226 pi + 6.0e-5, q0
    {0x1.9639p+16, -0x1.40efdf1eb8de7p-16, 0x1.fffffffe6da77p-1},  // 103993 = 33102 pi - 1.9e-5, q3
    {0x1.921fb54442d18p+19, -0x1.1a62633145c07p-35, 0x1p+0},       // RN(2^19 pi/2), q3
    {0x1.921fb54442d18p+20, -0x1.1a62633145c07p-34, 0x1p+0},       // RN(2^20 pi/2), q3
    {0x1.921fce663e25dp+20, 0x1p+0, -0x1.da578b28940c8p-34},       // RN((2^20 + 1) pi/2), q1
    {0x1.921fe788397a1p+20, -0x1.9e22f304dbb2dp-35, -0x1p+0},      // RN((2^20 + 2) pi/2), q2
    {0x1.922000aa34ce5p+20, -0x1p+0, -0x1.e1a4c11dc2cd6p-37},      // RN((2^20 + 3) pi/2), q2
};
constexpr cr_point<float> cr_near_pio2_f[] = {
    {0x1.921fb6p+0f, 0x1p+0f, -0x1.777a5cp-25f},          // RN_f(pi/2), q1
    {0x1.921fb6p+1f, -0x1.777a5cp-24f, -0x1p+0f},         // RN_f(pi), q2
    {0x1.2d97c8p+2f, -0x1p+0f, 0x1.99bc5cp-27f},          // RN_f(3pi/2), q3
    {0x1.921fb6p+2f, 0x1.777a5cp-23f, 0x1p+0f},           // RN_f(2pi), q0
    {0x1.f6a7a2p+2f, 0x1p+0f, 0x1.2aa70cp-23f},           // RN_f(5pi/2), q0
    {0x1.5fdbbep+3f, -0x1p+0f, -0x1.3774eep-22f},         // RN_f(7pi/2), q2
    {0x1.63p+8f, -0x1.f9bd04p-16f, -0x1p+0f},             // 355, q2
    {0x1.63p+9f, 0x1.f9bd04p-15f, 0x1p+0f},               // 710, q0
    {0x1.9639p+16f, -0x1.40efep-16f, 0x1p+0f},            // 103993, q3
    {0x1.921fb6p+20f, 0x1.7758b6p-5f, 0x1.ff7658p-1f},    // RN_f(2^20 pi/2), q0
    {0x1.921fcep+20f, 0x1.ffd72ap-1f, 0x1.98edb8p-6f},    // RN_f((2^20 + 1) pi/2), q0
    {0x1.921fe8p+20f, -0x1.df089ep-6f, -0x1.ffc7f6p-1f},  // RN_f((2^20 + 2) pi/2), q2
    {0x1.922p+20f, -0x1.ff8edap-1f, -0x1.545088p-5f},     // RN_f((2^20 + 3) pi/2), q2
};
static_assert(cr_table(cr_near_pio2),
              "sin x, cos x are the correctly rounded doubles (MPFR) at +-x next to k pi/2: "
              "RN(k pi/2) for k = 1, 2, 3, 4, 5, 7, 2^19, 2^20 .. 2^20 + 3, and 355, 710, 103993");
static_assert(cr_table(cr_near_pio2_f),
              "sinf x, cosf x are the correctly rounded floats (MPFR) at +-x next to k pi/2: "
              "RN_f(k pi/2) for k = 1, 2, 3, 4, 5, 7, 2^20 .. 2^20 + 3, and 355, 710, 103993");

// The accurate path (|x| >= 0x1.8p30, Payne-Hanek reduction in detail/mp).
constexpr cr_point<double> cr_accurate[] = {
    {0x1.8p+30, 0x1.ae481b2c8f80bp-1, -0x1.157de56caa29fp-1},                // reduce_max, q1
    {0x1p+40, -0x1.9f7122716d5d9p-2, -0x1.d3f8577b3aa88p-1},                 // 2^40, q2
    {0x1.0f0cf064dd592p+73, -0x1.b453ab76bf397p-1, 0x1.0be2cef01c8f4p-1},    // 10^22 (exact), q3
    {0x1.fffffffffffffp+1023, 0x1.452fc98b34e97p-8, -0x1.fffe62ecfab75p-1},  // DBL_MAX, q1
};
constexpr cr_point<float> cr_accurate_f[] = {
    {0x1.8p+30f, 0x1.ae481cp-1f, -0x1.157de6p-1f},        // 0x1.8p30, q1
    {0x1.2a05f2p+33f, -0x1.f334c8p-2f, 0x1.bf098ap-1f},   // RN_f(10^10), q3
    {0x1.fffffep+127f, -0x1.0b3366p-1f, 0x1.b4bf2cp-1f},  // FLT_MAX, q3
};
static_assert(cr_table(cr_accurate),
              "sin x, cos x are the correctly rounded doubles (MPFR) at +-x for x = 0x1.8p30, 2^40, "
              "10^22, DBL_MAX (accurate path)");
static_assert(cr_table(cr_accurate_f),
              "sinf x, cosf x are the correctly rounded floats (MPFR) at +-x for x = 0x1.8p30, "
              "RN_f(10^10), FLT_MAX (accurate path)");

// sqrt(4x) == 2 sqrt(x): sqrt(4x) = 2 sqrt(x) exactly, 4x is exact (x <= DBL_MAX/4), sqrt never
// leaves the normal range (sqrt(2^-1074) = 2^-537), and RN commutes with doubling there.
// Arguments: one x in each binade 2^e, e = -1074 .. 1020 (subnormals included), in two halves.
constexpr bool sqrt_scaling(std::uint64_t seed, int emin, int emax) {
  for (int e = emin; e <= emax; ++e) {
    const double x = arg_d(seed, e);
    if (!same(pm::sqrt(4.0 * x), 2.0 * pm::sqrt(x))) return false;
  }
  return true;
}
static_assert(sqrt_scaling(6, -1074, -1),
              "sqrt(4x) == 2*sqrt(x) for one x in each binade 2^-1074 .. 2^-1 (subnormals included)");
static_assert(sqrt_scaling(6, 0, 1020), "sqrt(4x) == 2*sqrt(x) for one x in each binade 2^0 .. 2^1020");

// Figueroa, "When is double rounding innocuous?" (SIGNUM 30(3), 1995): for sqrt, rounding first to
// 53 bits then to 24 equals rounding once to 24 because 53 >= 2*24 + 2. So for a float x,
// sqrtf(x) == (float)sqrt((double)x) when both are CR. Arguments: one float x in each binade 2^e,
// e = -149 .. 127 (every float binade, subnormals included).
constexpr bool sqrt_float_via_double(std::uint64_t seed, int emin, int emax) {
  for (int e = emin; e <= emax; ++e) {
    const float x = arg_f(seed, e);
    if (!same(pm::sqrt(x), static_cast<float>(pm::sqrt(static_cast<double>(x))))) return false;
  }
  return true;
}
static_assert(sqrt_float_via_double(7, -149, 127),
              "sqrtf(x) == (float)sqrt((double)x) (double rounding innocuous, Figueroa 1995) for one "
              "x in each float binade 2^-149 .. 2^127");

// log(2^(-k)) == -log(2^k): the exact values are opposite and RN is odd. Every k = 1 .. 1022
// (2^-k normal), in two halves.
constexpr bool log_reciprocal_powers(int kmin, int kmax) {
  for (int k = kmin; k <= kmax; ++k) {
    if (!same(pm::log(two_to(-k)), -pm::log(two_to(k)))) return false;
  }
  return true;
}
static_assert(log_reciprocal_powers(1, 511), "log(2^-k) == -log(2^k) for every k = 1 .. 511");
static_assert(log_reciprocal_powers(512, 1022), "log(2^-k) == -log(2^k) for every k = 512 .. 1022");
// log(2^(2^j)) == 2^j * log(2): log(2^(2^j)) = 2^j ln 2 exactly and RN commutes with 2^j.
constexpr bool log_powers_of_two() {
  const double ln2 = pm::log(2.0);
  for (int j = 1; j <= 9; ++j) {  // 2^j = 2 .. 512 and 2^-(2^j) = 2^-2 .. 2^-512
    const int k = 1 << j;
    if (!same(pm::log(two_to(k)), static_cast<double>(k) * ln2)) return false;
    if (!same(pm::log(two_to(-k)), -static_cast<double>(k) * ln2)) return false;
  }
  return same(pm::log(two_to(-1024)), -1024.0 * ln2);  // 2^-1024 is subnormal; its log is not
}
static_assert(log_powers_of_two(), "log(2^(+-2^j)) == +-2^j * log(2) (j = 1..9), log(2^-1024) == -1024 log(2)");
static_assert(same(pm::log(4.0f), 2.0f * pm::log(2.0f)) && same(pm::log(0x1p-64f), -64.0f * pm::log(2.0f)),
              "logf(4) == 2 logf(2), logf(2^-64) == -64 logf(2)");

// ===== Tiny arguments: Taylor bounds smaller than half a gap =====

// sin x == x for 0 < |x| < 2^-27 (double): with 2^e <= |x| < 2^(e+1), e <= -28,
// 0 < |x| - |sin x| < |x|^3/6 < 2^(3e+3)/6 < 2^(e-54), half the smallest gap below |x|.
// Float: |x| < 2^-12 (e <= -13): 2^(3e+3)/6 < 2^(e-25). Arguments: one x in each binade
// 2^-1074 .. 2^-28 (double) and 2^-149 .. 2^-13 (float), subnormals included, both signs.
constexpr bool sin_tiny(std::uint64_t seed) {
  for (int e = -1074; e <= -28; ++e) {
    const double x = arg_d(seed, e);
    if (!same(pm::sin(x), x) || !same(pm::sin(-x), -x)) return false;
  }
  for (int e = -149; e <= -13; ++e) {
    const float xf = arg_f(seed, e);
    if (!same(pm::sin(xf), xf) || !same(pm::sin(-xf), -xf)) return false;
  }
  return true;
}
static_assert(sin_tiny(8),
              "sin(x) == x for |x| < 2^-27 (double) and |x| < 2^-12 (float): one x in every binade "
              "below, subnormals included");

// cos x == 1 for |x| < 2^-27: 0 < 1 - cos x <= x^2/2 < 2^-55 < 2^-54, half the gap below 1.
// Float: |x| < 2^-12: x^2/2 < 2^-25, half the float gap below 1.
// cos(2^-26) == 1 - 2^-53: cos x = 1 - x^2/2 + d, 0 < d < x^4/24 = 2^-104/24, and 1 - 2^-53 is
// a double with neighbours 2^-53 away. Arguments as for sin_tiny.
constexpr bool cos_tiny(std::uint64_t seed) {
  for (int e = -1074; e <= -28; ++e) {
    const double x = arg_d(seed, e);
    if (!same(pm::cos(x), 1.0) || !same(pm::cos(-x), 1.0)) return false;
  }
  for (int e = -149; e <= -13; ++e) {
    const float xf = arg_f(seed, e);
    if (!same(pm::cos(xf), 1.0f) || !same(pm::cos(-xf), 1.0f)) return false;
  }
  return true;
}
static_assert(cos_tiny(9),
              "cos(x) == 1 for |x| < 2^-27 (double) and |x| < 2^-12 (float): one x in every binade "
              "below, subnormals included");
static_assert(same(pm::cos(0x1p-26), 1.0 - 0x1p-53), "cos(2^-26) == 1 - 2^-53 (Taylor: error < 2^-108)");
// cosf(2^-12) == 1: cos x = 1 - 2^-25 + d, 0 < d < 2^-48/24, just above the midpoint 1 - 2^-25 of
// 1 - 2^-24 and 1. cosf(2^-11) == 1 - 2^-23: 1 - 2^-23 + d is within 2^-44/24 of that float.
static_assert(same(pm::cos(0x1p-12f), 1.0f), "cosf(2^-12) == 1 (just above the midpoint below 1)");
static_assert(same(pm::cos(0x1p-11f), 1.0f - 0x1p-23f), "cosf(2^-11) == 1 - 2^-23");

// exp x == 1 for |x| < 2^-54: for x > 0, 0 < e^x - 1 < 2x < 2^-53, half the gap above 1; for
// x < 0, 0 < 1 - e^x < |x| < 2^-54, half the gap below 1. Float: |x| < 2^-25 (gaps 2^-23, 2^-24).
// Arguments: one x in each binade 2^-1074 .. 2^-55 (double) and 2^-149 .. 2^-26 (float), both
// signs.
constexpr bool exp_tiny(std::uint64_t seed, int emin, int emax) {
  for (int e = emin; e <= emax; ++e) {
    const double x = arg_d(seed, e);
    if (!same(pm::exp(x), 1.0) || !same(pm::exp(-x), 1.0)) return false;
  }
  for (int e = emin < -149 ? -149 : emin; e <= (emax > -26 ? -26 : emax); ++e) {
    const float xf = arg_f(seed, e);
    if (!same(pm::exp(xf), 1.0f) || !same(pm::exp(-xf), 1.0f)) return false;
  }
  return true;
}
static_assert(exp_tiny(10, -1074, -600),
              "exp(x) == 1 for |x| < 2^-54: one x in every binade 2^-1074 .. 2^-600, subnormals "
              "included");
static_assert(exp_tiny(10, -599, -55),
              "exp(x) == 1 for |x| < 2^-54 (double) and |x| < 2^-25 (float): one x in every binade "
              "2^-599 .. 2^-55, and in every float binade 2^-149 .. 2^-26, subnormals included");
// exp(-3 * 2^-55) == 1 - 2^-53: e^x = 1 - 3*2^-55 + d with 0 < d < 2^-107; the doubles around it
// are 1 - 4*2^-55 (distance ~ 2^-55) and 1 (distance ~ 3*2^-55).
static_assert(same(pm::exp(-3.0 * 0x1p-55), 1.0 - 0x1p-53), "exp(-3*2^-55) == 1 - 2^-53");

// log(1 + 2^-52) == 2^-52 - 2^-105: log(1+u) = u - u^2/2 + d, 0 < d < u^3/3 = 2^-156/3, and
// 2^-52 - 2^-105 is a double whose neighbours are 2^-105 away.
// log(1 - 2^-53) == -2^-53: log(1-u) = -u - u^2/2 - ..., |error| ~ 2^-107 < 2^-106 (half gap).
static_assert(same(pm::log(1.0 + 0x1p-52), 0x1p-52 - 0x1p-105), "log(1 + 2^-52) == 2^-52 - 2^-105");
static_assert(same(pm::log(1.0 - 0x1p-53), -0x1p-53), "log(1 - 2^-53) == -2^-53");
static_assert(same(pm::log(1.0f + 0x1p-23f), 0x1p-23f - 0x1p-47f), "logf(1 + 2^-23) == 2^-23 - 2^-47");

// ===== RoPE: exact cases of rope_sincos =====

// theta_0 = base^0 = 1, so entry (m, 0) is sin and cos of the integer m.
// base 4, j = d/4: theta = 4^(-1/2) = 1/2 exactly; base 16, j = d/4: theta = 1/4.
constexpr bool rope_exact_angles() {
  for (std::uint64_t m = 0; m < 40; m += 3) {
    const auto md = static_cast<double>(m);
    const auto a = pm::sincos_geometric<double>(m, 10000.0, 2 * 0, 128).value;
    if (!same(a.sin, pm::sin(md)) || !same(a.cos, pm::cos(md))) return false;
    const auto b = pm::sincos_geometric<double>(m, 4.0, 2 * 32, 128).value;
    if (!same(b.sin, pm::sin(md * 0.5)) || !same(b.cos, pm::cos(md * 0.5))) return false;
    const auto c = pm::sincos_geometric<float>(m, 16.0, 2 * 16, 64).value;
    const auto mf = static_cast<float>(m);
    if (!same(c.sin, pm::sin(mf * 0.25f)) || !same(c.cos, pm::cos(mf * 0.25f))) return false;
  }
  return true;
}
static_assert(rope_exact_angles(), "rope_sincos with an exact angle (theta = 1, 1/2, 1/4) equals sin/cos of it");
static_assert(same(pm::sincos_geometric<double>(0, 10000.0, 2 * 17, 128).value.sin, 0.0) &&
                  same(pm::sincos_geometric<float>(0, 500000.0, 2 * 63, 128).value.cos, 1.0f),
              "rope_sincos at position 0 is {+0, 1}");
static_assert(same(pm::sincos_geometric<double>(123456789, 10000.0, 2 * 0, 128).value.sin, pm::sin(123456789.0)),
              "sincos_geometric(m, base, 2 * 0, d).value == sin(m) for a large position");

// ===== Rounding into narrow formats (round_to), IEEE 754 roundTiesToEven, overflow to inf =====

static_assert(pm::round_to<posenc::float16>(65504.0).ok() &&
                  pm::round_to<posenc::float16>(65504.0).value.bits == 0x7bffu,
              "65504 is the largest float16 (0x7bff), ok");
static_assert(pm::round_to<posenc::float16>(65519.99).value.bits == 0x7bffu, "65519.99 rounds down to 65504");
static_assert(pm::round_to<posenc::float16>(65520.0).error == posenc::status::overflow &&
                  pm::round_to<posenc::float16>(65520.0).value.bits == 0x7c00u,
              "65520, the midpoint between 65504 and 2^16, ties to even = 2^16: overflow, +inf");
static_assert(pm::round_to<posenc::float16>(-65520.0).value.bits == 0xfc00u, "-65520 overflows to -inf");
static_assert(pm::round_to<posenc::float16>(0x1p-24).value.bits == 0x0001u, "2^-24 is the smallest float16 subnormal");
static_assert(pm::round_to<posenc::float16>(0x1p-25).value.bits == 0x0000u, "2^-25 ties to even: +0");
static_assert(pm::round_to<posenc::float16>(0x1p-25 + 0x1p-40).value.bits == 0x0001u,
              "just above 2^-25 rounds up to 2^-24");
static_assert(pm::round_to<posenc::float16>(3.0 * 0x1p-25).value.bits == 0x0002u, "1.5 * 2^-24 ties to even: 2^-23");
static_assert(pm::round_to<posenc::float16>(-0x1p-26).value.bits == 0x8000u, "tiny negative rounds to -0");
static_assert(pm::round_to<posenc::bfloat16>(1.0 + 0x1p-8).value.bits == 0x3f80u,
              "bfloat16: 1 + 2^-8 ties to even: 1.0");
static_assert(pm::round_to<posenc::bfloat16>(1.0 + 3.0 * 0x1p-8).value.bits == 0x3f82u,
              "bfloat16: 1 + 3*2^-8 ties to even: 1 + 2^-6");
static_assert(pm::round_to<posenc::bfloat16>(1.0 + 0x1p-8 + 0x1p-30).value.bits == 0x3f81u,
              "bfloat16 rounds once from the exact value: 1 + 2^-8 + 2^-30 -> 1 + 2^-7 (through "
              "float it would tie to 1.0)");
static_assert(pm::round_to<posenc::bfloat16>(pm::double_double{1.0 + 0x1p-8, -0x1p-70}).value.bits == 0x3f80u &&
                  pm::round_to<posenc::bfloat16>(pm::double_double{1.0 + 0x1p-8, 0x1p-70}).value.bits == 0x3f81u,
              "bfloat16 from a double-double: the low part breaks the tie");
static_assert(pm::round_to<float>(pm::double_double{1.0 + 0x1p-24, 0x1p-80}).value == 1.0f + 0x1p-23f,
              "float from a double-double: 1 + 2^-24 + 2^-80 rounds up, no double rounding through double");
static_assert(pm::round_to<posenc::bfloat16>(0x1.ffp127).error == posenc::status::overflow &&
                  pm::round_to<posenc::bfloat16>(0x1.ffp127).value.bits == 0x7f80u,
              "bfloat16: 0x1.ffp127, the midpoint above the largest, ties to even = 2^128: overflow, +inf");
static_assert(pm::round_to<posenc::bfloat16>(0x1.feffffp127).value.bits == 0x7f7fu,
              "bfloat16: just below that midpoint rounds down to the largest finite");
static_assert(pm::round_to<posenc::bfloat16>(0x1.fep127).ok() &&
                  pm::round_to<posenc::bfloat16>(0x1.fep127).value.bits == 0x7f7fu,
              "bfloat16: 0x1.fep127 is the largest finite bfloat16 (0x7f7f)");

// ===== Types and must-not-compile facts =====

static_assert(std::is_same_v<decltype(pm::sin(1.0f)), float> && std::is_same_v<decltype(pm::exp(1.0f)), float> &&
                  std::is_same_v<decltype(pm::pow(2.0f, 0.5f)), float> &&
                  std::is_same_v<decltype(pm::sqrt(2.0f)), float>,
              "the float overloads return float (no silent promotion to double)");
static_assert(std::is_same_v<decltype(pm::sincos(1.0)), pm::sincos_result<double>>,
              "sincos(double) returns sincos_result<double>");
// Outside a template an invalid expression in a requires-expression is ill-formed, so these
// checks go through variable templates.
template <class A>
constexpr bool unary_math_accepts = requires(A a) { pm::sin(a); } || requires(A a) { pm::cos(a); } || requires(A a) {
  pm::exp(a);
} || requires(A a) { pm::log(a); } || requires(A a) { pm::sqrt(a); } || requires(A a) { pm::sincos(a); };
template <class A>
constexpr bool pow_accepts_one = requires(A a) { pm::pow(a); };
static_assert(unary_math_accepts<double> && unary_math_accepts<float>,
              "(twin) the math functions accept double and float");
static_assert(!unary_math_accepts<const char*>, "sin, cos, exp, log, sqrt and sincos do not accept a string");
static_assert(!pow_accepts_one<double>, "pow needs two arguments");
