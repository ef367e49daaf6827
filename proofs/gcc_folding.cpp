// proofs/gcc_folding.cpp: compiling this file (GCC only) proves that posenc::math's sin, cos,
// sincos, exp, log, pow and sqrt, double and float overloads, return in constant evaluation the
// same bits as GCC's own constant folding of the corresponding builtins, on 10,000 arguments per
// function family (5,000 double and 5,000 float; sin, cos, exp, log, pow, sqrt), plus 4,000 for
// sincos, 1,000 for pow of a negative base and some hand-picked cases: 65,000 comparisons in all.
// sin, cos, sincos, exp and log are called with math::own_evaluation: without it they return, in
// constant evaluation on GCC, GCC's fold itself (math/evaluation.hpp), which this file shows to be
// the same bits as posenc's own evaluation.
//
// Why GCC's folding is an oracle: GCC evaluates __builtin_sin etc. in constant expressions with
// MPFR at the precision of the type (53 or 24 bits), rounding to nearest (gcc/fold-const-call.cc,
// do_mpfr_arg1 / do_mpfr_arg2 and do_mpfr_ckconv), so each fold that succeeds is correctly rounded.
// It refuses (a hard error) when the result is NaN or infinite, overflows or underflows, or is a
// subnormal that the 53/24-bit MPFR result does not represent exactly (the team's notes,
// shared/reference/constexpr-math.md section 3.2), so the generators below keep every result finite
// and normal (or exactly zero, or a subnormal equal to the argument).
//
// The arguments come from a stateless splitmix64 hash of (function, index), so the file stays
// small, the arguments are reproducible, and argument i of a family can be recomputed on its own.
// GCC's default constexpr limits apply (2^25 operations per constant expression, 262,144 loop
// iterations): each static_assert checks one chunk of 500 arguments. On failure GCC prints
// "the comparison reduces to (i < 0)": i is the index of the first argument whose bits differ.
#include <bit>
#include <cstdint>
#include <posenc/math/exp_log.hpp>
#include <posenc/math/pow.hpp>
#include <posenc/math/sqrt.hpp>
#include <posenc/math/trig.hpp>

#if !defined(__GNUC__) || defined(__clang__)
#error "proofs/gcc_folding.cpp needs GCC: Clang does not constant-fold __builtin_sin and friends"
#endif

namespace {

// posenc's own evaluation in constant evaluation, not GCC's fold (math/evaluation.hpp).
constexpr posenc::math::own_evaluation_t own = posenc::math::own_evaluation;

// ---- deterministic argument generation ----

// splitmix64 output function (Steele, Lea, Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014), used as a hash of (family, index, draw).
constexpr std::uint64_t mix64(std::uint64_t z) noexcept {
  z += 0x9e3779b97f4a7c15u;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

constexpr std::uint64_t draw(std::uint64_t family, int i, unsigned k) noexcept {
  return mix64((family << 32) + static_cast<std::uint64_t>(i) * 4u + k);
}

// A double in [lo, hi] from the top 53 bits of u.
constexpr double uniform(std::uint64_t u, double lo, double hi) noexcept {
  return lo + (hi - lo) * (static_cast<double>(u >> 11) * 0x1p-53);
}

// A double with random significand bits and random sign, whose leading bit is 2^e with e
// uniform in [emin, emax] (e < -1022 gives a subnormal). u1 gives the bits, u2 the exponent.
constexpr double binade(std::uint64_t u1, std::uint64_t u2, int emin, int emax) noexcept {
  const int e = emin + static_cast<int>(u2 % static_cast<std::uint64_t>(emax - emin + 1));
  const std::uint64_t sign = u1 & 0x8000000000000000u;
  const std::uint64_t frac = u1 & 0x000fffffffffffffu;
  if (e >= -1022) {
    return std::bit_cast<double>(sign | (static_cast<std::uint64_t>(e + 1023) << 52) | frac);
  }
  return std::bit_cast<double>(sign | ((frac | 0x0010000000000000u) >> (-1022 - e)));
}

// The float analogue (e < -126 gives a subnormal).
constexpr float binade_f(std::uint64_t u1, std::uint64_t u2, int emin, int emax) noexcept {
  const int e = emin + static_cast<int>(u2 % static_cast<std::uint64_t>(emax - emin + 1));
  const auto sign = static_cast<std::uint32_t>(u1 >> 32) & 0x80000000u;
  const auto frac = static_cast<std::uint32_t>(u1) & 0x007fffffu;
  if (e >= -126) {
    return std::bit_cast<float>(sign | (static_cast<std::uint32_t>(e + 127) << 23) | frac);
  }
  return std::bit_cast<float>(sign | ((frac | 0x00800000u) >> (-126 - e)));
}

constexpr double positive(double x) noexcept { return x < 0 ? -x : x; }
constexpr float positive(float x) noexcept { return x < 0 ? -x : x; }

template <class T>
struct args {
  T x;
  T y;  // pow's exponent; unused by the one-argument functions
};

// Each generator mixes four kinds of arguments (i % 4), commented with the range of each.
// sin, cos, sincos: [-4, 4]; RoPE-sized [-5000, 5000]; every binade from the subnormals to 2^30;
// random binades 2^-30 .. 2^30. One argument in 100 is huge instead (binades 2^31 .. 2^1023, the
// Payne-Hanek range), because that path costs about 30 ms per call inside GCC, 1000 times the rest.
constexpr args<double> trig_arg(std::uint64_t fam, int i) noexcept {
  const std::uint64_t u = draw(fam, i, 0), v = draw(fam, i, 1);
  if (i % 100 == 2) return {binade(u, v, 31, 1023), 0};
  switch (i % 4) {
    case 0: return {uniform(u, -4.0, 4.0), 0};
    case 1: return {uniform(u, -5000.0, 5000.0), 0};
    case 2: return {binade(u, v, -1074, 29), 0};
    default: return {binade(u, v, -30, 30), 0};
  }
}
constexpr args<float> trig_arg_f(std::uint64_t fam, int i) noexcept {
  const std::uint64_t u = draw(fam, i, 0), v = draw(fam, i, 1);
  if (i % 100 == 2) return {binade_f(u, v, 31, 127), 0};
  switch (i % 4) {
    case 0: return {static_cast<float>(uniform(u, -4.0, 4.0)), 0};
    case 1: return {static_cast<float>(uniform(u, -5000.0, 5000.0)), 0};
    case 2: return {binade_f(u, v, -149, 29), 0};
    default: return {binade_f(u, v, -30, 30), 0};
  }
}

// exp: the whole normal-result range [-708, 709] (exp(-708) ~ 3.3e-308 > 2^-1022; ln(DBL_MAX) ~
// 709.78); [-1, 1]; tiny |x| down to 2^-80 (results next to 1); |x| in binades up to 2^8.
constexpr args<double> exp_arg(std::uint64_t fam, int i) noexcept {
  const std::uint64_t u = draw(fam, i, 0), v = draw(fam, i, 1);
  switch (i % 4) {
    case 0: return {uniform(u, -708.0, 709.0), 0};
    case 1: return {uniform(u, -1.0, 1.0), 0};
    case 2: return {binade(u, v, -80, -1), 0};
    default: return {binade(u, v, 0, 8), 0};
  }
}
// expf: normal floats need x in [-87.33, 88.72] (ln 2^-126, ln FLT_MAX).
constexpr args<float> exp_arg_f(std::uint64_t fam, int i) noexcept {
  const std::uint64_t u = draw(fam, i, 0), v = draw(fam, i, 1);
  switch (i % 4) {
    case 0: return {static_cast<float>(uniform(u, -87.3, 88.7)), 0};
    case 1: return {static_cast<float>(uniform(u, -1.0, 1.0)), 0};
    case 2: return {binade_f(u, v, -40, -1), 0};
    default: return {binade_f(u, v, 0, 5), 0};
  }
}

// log: every positive finite double (subnormals too); [0.5, 2] (results near 0); 1 +- 2^-k;
// integers 1 .. 2^20.
constexpr args<double> log_arg(std::uint64_t fam, int i) noexcept {
  const std::uint64_t u = draw(fam, i, 0), v = draw(fam, i, 1);
  switch (i % 4) {
    case 0: return {positive(binade(u, v, -1074, 1023)), 0};
    case 1: return {uniform(u, 0.5, 2.0), 0};
    case 2: return {1.0 + binade(u, v, -52, -1), 0};
    default: return {static_cast<double>(1 + (u >> 44)), 0};
  }
}
constexpr args<float> log_arg_f(std::uint64_t fam, int i) noexcept {
  const std::uint64_t u = draw(fam, i, 0), v = draw(fam, i, 1);
  switch (i % 4) {
    case 0: return {positive(binade_f(u, v, -149, 127)), 0};
    case 1: return {static_cast<float>(uniform(u, 0.5, 2.0)), 0};
    case 2: return {1.0f + binade_f(u, v, -23, -1), 0};
    default: return {static_cast<float>(1 + (u >> 44)), 0};
  }
}

// pow, x > 0 (results stay normal: |y * log2 x| < 1000): x in 2^[-16, 16], y in [-60, 60];
// integer x in [1, 1000] and integer y in [-60, 60] (exact results included); x = 1 +- 2^-k
// (k >= 20), |y| <= 2^20; RoPE-like x in [1, 1e6], y in [-1, 1].
constexpr args<double> pow_arg(std::uint64_t fam, int i) noexcept {
  const std::uint64_t u = draw(fam, i, 0), v = draw(fam, i, 1), w = draw(fam, i, 2);
  switch (i % 4) {
    case 0: return {positive(binade(u, v, -16, 15)), uniform(w, -60.0, 60.0)};
    case 1: return {static_cast<double>(1 + u % 1000), static_cast<double>(static_cast<int>(w % 121) - 60)};
    case 2: return {1.0 + binade(u, v, -52, -20), uniform(w, -0x1p20, 0x1p20)};
    default: return {uniform(u, 1.0, 1e6), uniform(w, -1.0, 1.0)};
  }
}
// powf: |y * log2 x| < 120.
constexpr args<float> pow_arg_f(std::uint64_t fam, int i) noexcept {
  const std::uint64_t u = draw(fam, i, 0), v = draw(fam, i, 1), w = draw(fam, i, 2);
  switch (i % 4) {
    case 0: return {positive(binade_f(u, v, -8, 7)), static_cast<float>(uniform(w, -15.0, 15.0))};
    case 1: return {static_cast<float>(1 + u % 100), static_cast<float>(static_cast<int>(w % 37) - 18)};
    case 2: return {1.0f + binade_f(u, v, -23, -10), static_cast<float>(uniform(w, -0x1p10, 0x1p10))};
    default: return {static_cast<float>(uniform(u, 1.0, 1e4)), static_cast<float>(uniform(w, -1.0, 1.0))};
  }
}

// pow with a negative base and an integer exponent (C17 F.10.4.4: (-x)^n = +-x^n by n's parity),
// results kept normal: |x| in 2^[-16, 16), n in [-40, 40] (double); 2^[-4, 4), [-15, 15] (float).
constexpr args<double> pow_neg_arg(std::uint64_t fam, int i) noexcept {
  const std::uint64_t u = draw(fam, i, 0), v = draw(fam, i, 1), w = draw(fam, i, 2);
  return {-positive(binade(u, v, -16, 15)), static_cast<double>(static_cast<int>(w % 81) - 40)};
}
constexpr args<float> pow_neg_arg_f(std::uint64_t fam, int i) noexcept {
  const std::uint64_t u = draw(fam, i, 0), v = draw(fam, i, 1), w = draw(fam, i, 2);
  return {-positive(binade_f(u, v, -4, 3)), static_cast<float>(static_cast<int>(w % 31) - 15)};
}

// sqrt: every positive finite double (subnormals too); [0, 4]; squares of integers < 2^26 and
// their neighbours (exact and nearly exact results); tiny binades.
constexpr args<double> sqrt_arg(std::uint64_t fam, int i) noexcept {
  const std::uint64_t u = draw(fam, i, 0), v = draw(fam, i, 1);
  switch (i % 4) {
    case 0: return {positive(binade(u, v, -1074, 1023)), 0};
    case 1: return {uniform(u, 0.0, 4.0), 0};
    case 2: {
      const auto n = static_cast<double>(1 + (u >> 38));  // n*n - 1 >= 0
      return {n * n + static_cast<double>(static_cast<int>(v % 3) - 1), 0};
    }
    default: return {positive(binade(u, v, -1074, -1000)), 0};
  }
}
constexpr args<float> sqrt_arg_f(std::uint64_t fam, int i) noexcept {
  const std::uint64_t u = draw(fam, i, 0), v = draw(fam, i, 1);
  switch (i % 4) {
    case 0: return {positive(binade_f(u, v, -149, 127)), 0};
    case 1: return {static_cast<float>(uniform(u, 0.0, 4.0)), 0};
    case 2: {
      const auto n = static_cast<float>(1 + (u >> 52));  // n*n - 1 >= 0
      return {n * n + static_cast<float>(static_cast<int>(v % 3) - 1), 0};
    }
    default: return {positive(binade_f(u, v, -149, -120)), 0};
  }
}

// ---- the comparison ----

constexpr bool same_bits(double a, double b) noexcept {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
constexpr bool same_bits(float a, float b) noexcept {
  return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

constexpr int chunk_size = 500;  // 10 chunks = 5,000 arguments per function and type

// -1 if posenc and GCC's fold agree bit for bit on arguments [chunk*500, chunk*500+500) of the
// family, else the index of the first argument where they differ.
template <class Gen, class Check>
constexpr int first_mismatch(int chunk, std::uint64_t fam, Gen gen, Check agrees) noexcept {
  for (int i = chunk * chunk_size; i < (chunk + 1) * chunk_size; ++i) {
    if (!agrees(gen(fam, i))) return i;
  }
  return -1;
}

// Family keys of the generator (arbitrary, distinct).
enum : std::uint64_t { k_sin = 1, k_cos, k_sincos, k_exp, k_log, k_pow, k_sqrt, k_pow_neg, k_float = 16 };

constexpr int sin_d(int c) {
  return first_mismatch(c, k_sin, trig_arg,
                        [](args<double> a) { return same_bits(posenc::math::sin(a.x, own), __builtin_sin(a.x)); });
}
constexpr int cos_d(int c) {
  return first_mismatch(c, k_cos, trig_arg,
                        [](args<double> a) { return same_bits(posenc::math::cos(a.x, own), __builtin_cos(a.x)); });
}
constexpr int sincos_d(int c) {
  return first_mismatch(c, k_sincos, trig_arg, [](args<double> a) {
    const auto r = posenc::math::sincos(a.x, own);
    return same_bits(r.sin, __builtin_sin(a.x)) && same_bits(r.cos, __builtin_cos(a.x));
  });
}
constexpr int exp_d(int c) {
  return first_mismatch(c, k_exp, exp_arg,
                        [](args<double> a) { return same_bits(posenc::math::exp(a.x, own), __builtin_exp(a.x)); });
}
constexpr int log_d(int c) {
  return first_mismatch(c, k_log, log_arg,
                        [](args<double> a) { return same_bits(posenc::math::log(a.x, own), __builtin_log(a.x)); });
}
constexpr int pow_d(int c) {
  return first_mismatch(c, k_pow, pow_arg,
                        [](args<double> a) { return same_bits(posenc::math::pow(a.x, a.y), __builtin_pow(a.x, a.y)); });
}
constexpr int pow_neg_d(int c) {
  return first_mismatch(c, k_pow_neg, pow_neg_arg,
                        [](args<double> a) { return same_bits(posenc::math::pow(a.x, a.y), __builtin_pow(a.x, a.y)); });
}
constexpr int pow_neg_f(int c) {
  return first_mismatch(c, k_float + k_pow_neg, pow_neg_arg_f,
                        [](args<float> a) { return same_bits(posenc::math::pow(a.x, a.y), __builtin_powf(a.x, a.y)); });
}
constexpr int sqrt_d(int c) {
  return first_mismatch(c, k_sqrt, sqrt_arg,
                        [](args<double> a) { return same_bits(posenc::math::sqrt(a.x), __builtin_sqrt(a.x)); });
}
constexpr int sin_f(int c) {
  return first_mismatch(c, k_float + k_sin, trig_arg_f,
                        [](args<float> a) { return same_bits(posenc::math::sin(a.x, own), __builtin_sinf(a.x)); });
}
constexpr int cos_f(int c) {
  return first_mismatch(c, k_float + k_cos, trig_arg_f,
                        [](args<float> a) { return same_bits(posenc::math::cos(a.x, own), __builtin_cosf(a.x)); });
}
constexpr int sincos_f(int c) {
  return first_mismatch(c, k_float + k_sincos, trig_arg_f, [](args<float> a) {
    const auto r = posenc::math::sincos(a.x, own);
    return same_bits(r.sin, __builtin_sinf(a.x)) && same_bits(r.cos, __builtin_cosf(a.x));
  });
}
constexpr int exp_f(int c) {
  return first_mismatch(c, k_float + k_exp, exp_arg_f,
                        [](args<float> a) { return same_bits(posenc::math::exp(a.x, own), __builtin_expf(a.x)); });
}
constexpr int log_f(int c) {
  return first_mismatch(c, k_float + k_log, log_arg_f,
                        [](args<float> a) { return same_bits(posenc::math::log(a.x, own), __builtin_logf(a.x)); });
}
constexpr int pow_f(int c) {
  return first_mismatch(c, k_float + k_pow, pow_arg_f,
                        [](args<float> a) { return same_bits(posenc::math::pow(a.x, a.y), __builtin_powf(a.x, a.y)); });
}
constexpr int sqrt_f(int c) {
  return first_mismatch(c, k_float + k_sqrt, sqrt_arg_f,
                        [](args<float> a) { return same_bits(posenc::math::sqrt(a.x), __builtin_sqrtf(a.x)); });
}

}  // namespace

// One static_assert per chunk keeps each constant expression within GCC's default limits.
#define POSENC_PROVE_CHUNK(fn, what, c) \
  static_assert(fn(c) < 0, what " (chunk " #c ": arguments 500*" #c " .. 500*" #c "+499 of its generator)");
// clang-format off
#define POSENC_PROVE_2000(fn, what)                                                                \
  POSENC_PROVE_CHUNK(fn, what, 0) POSENC_PROVE_CHUNK(fn, what, 1) POSENC_PROVE_CHUNK(fn, what, 2)  \
  POSENC_PROVE_CHUNK(fn, what, 3)
#define POSENC_PROVE_5000(fn, what)                                                                \
  POSENC_PROVE_2000(fn, what) POSENC_PROVE_CHUNK(fn, what, 4) POSENC_PROVE_CHUNK(fn, what, 5)      \
  POSENC_PROVE_CHUNK(fn, what, 6) POSENC_PROVE_CHUNK(fn, what, 7) POSENC_PROVE_CHUNK(fn, what, 8)  \
  POSENC_PROVE_CHUNK(fn, what, 9)
// clang-format on

POSENC_PROVE_5000(sin_d, "posenc::math::sin(double, own) is bit-identical to GCC's MPFR fold of __builtin_sin")
POSENC_PROVE_5000(sin_f, "posenc::math::sin(float, own) is bit-identical to GCC's MPFR fold of __builtin_sinf")
POSENC_PROVE_5000(cos_d, "posenc::math::cos(double, own) is bit-identical to GCC's MPFR fold of __builtin_cos")
POSENC_PROVE_5000(cos_f, "posenc::math::cos(float, own) is bit-identical to GCC's MPFR fold of __builtin_cosf")
POSENC_PROVE_2000(sincos_d, "posenc::math::sincos(double, own) gives GCC's folded __builtin_sin and __builtin_cos")
POSENC_PROVE_2000(sincos_f, "posenc::math::sincos(float, own) gives GCC's folded __builtin_sinf and __builtin_cosf")
POSENC_PROVE_5000(exp_d, "posenc::math::exp(double, own) is bit-identical to GCC's MPFR fold of __builtin_exp")
POSENC_PROVE_5000(exp_f, "posenc::math::exp(float, own) is bit-identical to GCC's MPFR fold of __builtin_expf")
POSENC_PROVE_5000(log_d, "posenc::math::log(double, own) is bit-identical to GCC's MPFR fold of __builtin_log")
POSENC_PROVE_5000(log_f, "posenc::math::log(float, own) is bit-identical to GCC's MPFR fold of __builtin_logf")
POSENC_PROVE_5000(pow_d, "posenc::math::pow(double, double) is bit-identical to GCC's MPFR fold of __builtin_pow")
POSENC_PROVE_5000(pow_f, "posenc::math::pow(float, float) is bit-identical to GCC's MPFR fold of __builtin_powf")
POSENC_PROVE_CHUNK(pow_neg_d,
                   "posenc::math::pow(negative double, integer) is bit-identical to GCC's fold of __builtin_pow", 0)
POSENC_PROVE_CHUNK(pow_neg_f,
                   "posenc::math::pow(negative float, integer) is bit-identical to GCC's fold of __builtin_powf", 0)
POSENC_PROVE_5000(sqrt_d, "posenc::math::sqrt(double) is bit-identical to GCC's fold of __builtin_sqrt")
POSENC_PROVE_5000(sqrt_f, "posenc::math::sqrt(float) is bit-identical to GCC's fold of __builtin_sqrtf")

#undef POSENC_PROVE_5000
#undef POSENC_PROVE_2000
#undef POSENC_PROVE_CHUNK

// Hand-picked arguments known to be hard or famous.
static_assert(same_bits(posenc::math::sin(1e22, own), __builtin_sin(1e22)),
              "sin(1e22), the classic argument-reduction test, matches GCC's fold");
static_assert(same_bits(posenc::math::cos(1e22, own), __builtin_cos(1e22)), "cos(1e22) matches GCC's fold");
static_assert(same_bits(posenc::math::sin(0x1.33333p+13f, own), __builtin_sinf(0x1.33333p+13f)),
              "sinf(0x1.33333p+13), a CORE-MATH hard case that glibc 2.36 gets wrong, matches GCC's fold");
static_assert(same_bits(posenc::math::sin(0x1.fffffffffffffp+1023, own), __builtin_sin(0x1.fffffffffffffp+1023)),
              "sin(DBL_MAX) matches GCC's fold (largest Payne-Hanek reduction)");
static_assert(same_bits(posenc::math::exp(1.0, own), __builtin_exp(1.0)), "exp(1) == RN(e)");
static_assert(same_bits(posenc::math::exp(709.0, own), __builtin_exp(709.0)), "exp(709), near overflow, matches");
static_assert(same_bits(posenc::math::exp(-708.0, own), __builtin_exp(-708.0)),
              "exp(-708), near the subnormals, matches");
static_assert(same_bits(posenc::math::log(10.0, own), __builtin_log(10.0)), "log(10) == RN(ln 10)");
static_assert(same_bits(posenc::math::log(0x1p-1074, own), __builtin_log(0x1p-1074)),
              "log of the smallest subnormal matches");
static_assert(same_bits(posenc::math::pow(2.0, 0.5), __builtin_pow(2.0, 0.5)), "pow(2, 0.5) == RN(sqrt 2)");
static_assert(same_bits(posenc::math::pow(10000.0, -2.0 / 128.0), __builtin_pow(10000.0, -2.0 / 128.0)),
              "pow(10000, -1/64), the first RoPE frequency ratio, matches");
static_assert(same_bits(posenc::math::pow(10000.0f, -0.5f), __builtin_powf(10000.0f, -0.5f)),
              "powf(10000, -0.5), exact value 0.01, matches");

// Where GCC declines to fold (an inexact subnormal, an overflow, NaN), the plain functions, which
// try the fold first in constant evaluation (math/evaluation.hpp), take posenc's own evaluation:
// still constant expressions, the same bits as with own_evaluation.
static_assert(same_bits(posenc::math::exp(-740.0), posenc::math::exp(-740.0, own)),
              "exp(-740), an inexact subnormal GCC does not fold, is posenc's own");
static_assert(same_bits(posenc::math::exp(-104.0f), posenc::math::exp(-104.0f, own)),
              "expf(-104), an inexact subnormal float, is posenc's own");
static_assert(same_bits(posenc::math::exp(1000.0), posenc::math::exp(1000.0, own)), "exp(1000) overflows to +inf");
static_assert(same_bits(posenc::math::exp(100.0f), posenc::math::exp(100.0f, own)), "expf(100) overflows to +inf");
static_assert(same_bits(posenc::math::log(0.0), posenc::math::log(0.0, own)), "log(0) = -inf");
static_assert(posenc::math::log(-1.0f) != posenc::math::log(-1.0f), "log(-1) is NaN");
static_assert(posenc::math::sin(__builtin_inf()) != posenc::math::sin(__builtin_inf()), "sin(inf) is NaN");
static_assert(posenc::math::sincos(-__builtin_inff()).cos != posenc::math::sincos(-__builtin_inff()).cos,
              "cos(-inf) is NaN");
// And where it folds, the plain functions return the fold: the same bits as posenc's own.
static_assert(same_bits(posenc::math::sin(0x1.33333p+13f), posenc::math::sin(0x1.33333p+13f, own)),
              "sinf(0x1.33333p+13) through the fold");
static_assert(same_bits(posenc::math::sincos(1e22).cos, posenc::math::cos(1e22, own)), "cos(1e22) through the fold");
