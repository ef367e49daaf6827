// test_mp.cpp: the multiprecision accurate path (posenc::detail::mp) against MPFR, 0 ULP.
//
// Every expected value is MPFR's: the function evaluated at 400 bits or more (700 to 3000 for the
// RoPE angles, which are composed), then rounded once into T with T's exponent range and
// mpfr_subnormalize. MPFR's own result is correctly rounded at that precision, so the only way the
// reference could be wrong is an exact value within 2^-400 of a midpoint of T: the exact pow cases
// (where MPFR returns the exact value, ternary 0) are the only ones that close, and they are exact.
#include <mpfr.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "posenc/math/detail/mp/exp_log.hpp"
#include "posenc/math/detail/mp/pow.hpp"
#include "posenc/math/detail/mp/sincos_product.hpp"
#include "posenc/math/detail/mp/trig.hpp"
#include "posenc/math/detail/wide_int.hpp"

namespace {

namespace mp = posenc::detail::mp;
__extension__ typedef unsigned __int128 native_u128;  // the oracle for the portable product
using posenc::bfloat16;
using posenc::float16;

template <class T>
std::uint64_t bits_of(T v) {
  return static_cast<std::uint64_t>(posenc::detail::float_format<T>::to_bits(v));
}

// float -> binary16 bits, exact for a float that is a binary16 value (as produced below).
std::uint64_t half_bits_of_exact_float(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  const std::uint32_t sign = u >> 31, fr = u & 0x7FFFFFu;
  const int ex = static_cast<int>((u >> 23) & 0xFFu);
  if (ex == 0xFF) return (sign << 15) | 0x7C00u | (fr != 0 ? 0x200u : 0u);
  if (ex == 0) return sign << 15;  // zero (binary16 values are never float subnormals)
  const int e = ex - 127;
  if (e >= -14) return (sign << 15) | (static_cast<std::uint32_t>(e + 15) << 10) | (fr >> 13);
  return (sign << 15) | ((fr | 0x800000u) >> static_cast<std::uint32_t>(13 + (-14 - e)));
}

// RN_T(y): MPFR rounding to T's precision in T's exponent range, subnormals included.
template <class T>
std::uint64_t round_ref(mpfr_srcptr y) {
  using F = posenc::detail::float_format<T>;
  const mpfr_exp_t emin0 = mpfr_get_emin(), emax0 = mpfr_get_emax();
  mpfr_t r;
  mpfr_init2(r, F::precision);
  mpfr_set_emin(F::min_exponent + 1 - (F::precision - 1));  // MPFR: x = 0.1b... * 2^E
  mpfr_set_emax(F::max_exponent + 1);
  int t = mpfr_set(r, y, MPFR_RNDN);
  t = mpfr_check_range(r, t, MPFR_RNDN);
  mpfr_subnormalize(r, t, MPFR_RNDN);
  mpfr_set_emin(emin0);
  mpfr_set_emax(emax0);
  std::uint64_t out = 0;
  if constexpr (F::precision == 53) {
    const double d = mpfr_get_d(r, MPFR_RNDN);
    std::memcpy(&out, &d, 8);
  } else {
    const float f = mpfr_get_flt(r, MPFR_RNDN);  // exact: r has at most 24 bits, float's range
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    if constexpr (F::precision == 24)
      out = u;
    else if constexpr (F::precision == 8)
      out = u >> 16;
    else
      out = half_bits_of_exact_float(f);
  }
  mpfr_clear(r);
  return out;
}

enum class fn { sin, cos, exp, log };

template <class T>
std::uint64_t ref1(fn f, double x) {
  mpfr_t a, y;
  mpfr_init2(a, 64);
  mpfr_init2(y, 400);
  mpfr_set_d(a, x, MPFR_RNDN);
  switch (f) {
    case fn::sin: mpfr_sin(y, a, MPFR_RNDN); break;
    case fn::cos: mpfr_cos(y, a, MPFR_RNDN); break;
    case fn::exp: mpfr_exp(y, a, MPFR_RNDN); break;
    case fn::log: mpfr_log(y, a, MPFR_RNDN); break;
  }
  const std::uint64_t r = round_ref<T>(y);
  mpfr_clear(a);
  mpfr_clear(y);
  return r;
}

template <class T>
T lib1(fn f, double x) {
  switch (f) {
    case fn::sin: return mp::sin<T>(x);
    case fn::cos: return mp::cos<T>(x);
    case fn::exp: return mp::exp<T>(x);
    default: return mp::log<T>(x);
  }
}

template <class T>
std::uint64_t ref_pow(double x, double y) {
  mpfr_t a, b, r;
  mpfr_inits2(64, a, b, (mpfr_ptr) nullptr);
  mpfr_init2(r, 400);
  mpfr_set_d(a, x, MPFR_RNDN);
  mpfr_set_d(b, y, MPFR_RNDN);
  mpfr_pow(r, a, b, MPFR_RNDN);
  const std::uint64_t v = round_ref<T>(r);
  mpfr_clears(a, b, r, (mpfr_ptr) nullptr);
  return v;
}

// sin and cos of the real x (at x's precision), rounded into T.
template <class T>
void ref_sincos_of(mpfr_srcptr x, std::uint64_t& s, std::uint64_t& c) {
  mpfr_t sn, cs;
  mpfr_inits2(500, sn, cs, (mpfr_ptr) nullptr);
  mpfr_sin_cos(sn, cs, x, MPFR_RNDN);
  s = round_ref<T>(sn);
  c = round_ref<T>(cs);
  mpfr_clears(sn, cs, (mpfr_ptr) nullptr);
}

// m * base^(-2j/d) at 800 bits: log, times -2j, over d, exp, times m: relative error ~2^-795,
// m < 2^64, so the absolute error of the angle is below 2^-700.
template <class T>
void ref_rope(std::uint64_t m, double base, int j, int d, std::uint64_t& s, std::uint64_t& c) {
  mpfr_t x;
  mpfr_init2(x, 800);
  mpfr_set_d(x, base, MPFR_RNDN);
  mpfr_log(x, x, MPFR_RNDN);
  mpfr_mul_si(x, x, -2 * j, MPFR_RNDN);
  mpfr_div_si(x, x, d, MPFR_RNDN);
  mpfr_exp(x, x, MPFR_RNDN);
  mpfr_mul_ui(x, x, m, MPFR_RNDN);
  ref_sincos_of<T>(x, s, c);
  mpfr_clear(x);
}

// m (hi + lo) exactly: 3000 bits hold any such sum of doubles times a 64-bit m.
template <class T>
void ref_product(std::uint64_t m, double hi, double lo, std::uint64_t& s, std::uint64_t& c) {
  mpfr_t x, t;
  mpfr_inits2(3000, x, t, (mpfr_ptr) nullptr);
  mpfr_set_d(x, hi, MPFR_RNDN);
  mpfr_set_d(t, lo, MPFR_RNDN);
  mpfr_add(x, x, t, MPFR_RNDN);
  mpfr_mul_ui(x, x, m, MPFR_RNDN);
  ref_sincos_of<T>(x, s, c);
  mpfr_clears(x, t, (mpfr_ptr) nullptr);
}

double log_uniform(std::mt19937_64& g, double lo2, double hi2, bool random_sign) {
  const double v = std::exp2(std::uniform_real_distribution<double>(lo2, hi2)(g));
  return random_sign && (g() & 1) != 0 ? -v : v;
}

// Checks f on every argument; returns the number of mismatches (and reports the first few).
template <class T>
int check1(fn f, const std::vector<double>& xs) {
  int bad = 0;
  for (double x : xs) {
    const std::uint64_t got = bits_of(lib1<T>(f, x)), want = ref1<T>(f, x);
    if (got != want && ++bad <= 5) {
      UNSCOPED_INFO("f=" << static_cast<int>(f) << " x=" << std::hexfloat << x << " got 0x" << std::hex << got
                         << " want 0x" << want);
    }
  }
  return bad;
}

std::vector<double> trig_args(std::uint64_t seed, int n) {
  std::mt19937_64 g(seed);
  std::vector<double> xs;
  for (int i = 0; i < n; ++i) {
    switch (i % 4) {
      case 0: xs.push_back(std::uniform_real_distribution<double>(-8, 8)(g)); break;
      case 1: xs.push_back(log_uniform(g, -40, 30, true)); break;
      case 2: xs.push_back(log_uniform(g, 30, 1023.9, true)); break;  // up to ~1e308
      default: xs.push_back(log_uniform(g, -1074, 4, true)); break;
    }
  }
  return xs;
}

// The doubles nearest to k pi/2 (k < 2000) and their neighbours, plus the classic hard cases.
std::vector<double> trig_hard_args() {
  std::vector<double> xs = {0x1.6ac5b262ca1ffp+849,
                            std::ldexp(6381956970095103.0, 797),
                            5.319372648326541e+255,
                            1e22,
                            1e300,
                            0x1.fffffffffffffp1023,
                            0x1p-1074,
                            0x1p-1022,
                            2.0,
                            355.0,
                            103993.0,
                            0x1.921fb54442d18p0,
                            0x1.921fb54442d18p1,
                            0x1.921fb54442d18p2};
  mpfr_t p;
  mpfr_init2(p, 200);
  for (int k = 1; k < 2000; ++k) {
    mpfr_const_pi(p, MPFR_RNDN);
    mpfr_mul_ui(p, p, static_cast<unsigned long>(k), MPFR_RNDN);
    mpfr_div_2ui(p, p, 1, MPFR_RNDN);
    const double d = mpfr_get_d(p, MPFR_RNDN);
    xs.push_back(d);
    xs.push_back(std::nextafter(d, 0.0));
    xs.push_back(-std::nextafter(d, 1e300));
  }
  mpfr_clear(p);
  return xs;
}

}  // namespace

// Same bits at compile time: these must be constant expressions on GCC 12 and Clang 16 with the
// default limits. Expected values: sin(1) = 0.8414709848078965 and exp(1) = 2.718281828459045
// are the correctly rounded doubles (MPFR; also CRC tables), 9^0.5 = 3 and 2^-1075 is a tie
// between 0 and the least subnormal, rounded to even (+0).
static_assert(mp::sin<double>(1.0) == 0.8414709848078965);
static_assert(mp::exp<double>(1.0) == 2.718281828459045);
static_assert(mp::sin<float>(1.0) == 0.84147098f);
static_assert(mp::pow<double>(9.0, 0.5) == 3.0);
static_assert(mp::pow<double>(2.0, -1075.0) == 0.0);
static_assert(mp::log<double>(1.0) == 0.0);
static_assert(mp::cos<double>(0.0) == 1.0);

TEST_CASE("mp: portable 64x64 product equals the native one", "[mp]") {
  std::mt19937_64 g(1);
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t a = g() >> (g() % 64), b = g() >> (g() % 64);
    const posenc::detail::u128 p = posenc::detail::mul_64x64_portable(a, b);
    const native_u128 q = static_cast<native_u128>(a) * b;
    REQUIRE(p.hi == static_cast<std::uint64_t>(q >> 64));
    REQUIRE(p.lo == static_cast<std::uint64_t>(q));
    const posenc::detail::u128 r = posenc::detail::mul_add2(a, b, ~a, ~b);
    const native_u128 s = q + (~a) + (~b);
    REQUIRE(r.hi == static_cast<std::uint64_t>(s >> 64));
    REQUIRE(r.lo == static_cast<std::uint64_t>(s));
  }
}

TEST_CASE("mp: compile-time and run-time bits agree", "[mp]") {
  constexpr double cs = mp::sin<double>(0x1.6ac5b262ca1ffp+849);
  constexpr double ce = mp::exp<double>(-745.0);
  constexpr auto cr = mp::sincos_geometric<double>(1000000, 10000.0, 2 * 17, 128);
  volatile double x1 = 0x1.6ac5b262ca1ffp+849, x2 = -745.0;
  CHECK(bits_of(cs) == bits_of(mp::sin<double>(x1)));
  CHECK(bits_of(ce) == bits_of(mp::exp<double>(x2)));
  volatile std::uint64_t m = 1000000;
  const auto rr = mp::sincos_geometric<double>(m, 10000.0, 2 * 17, 128);
  CHECK(bits_of(cr.sin) == bits_of(rr.sin));
  CHECK(bits_of(cr.cos) == bits_of(rr.cos));
}

TEST_CASE("mp: sin and cos, random and hard arguments, 0 ULP", "[mp]") {
  const std::vector<double> xs = trig_args(2, 20000), hard = trig_hard_args();
  CHECK(check1<double>(fn::sin, xs) == 0);
  CHECK(check1<double>(fn::cos, xs) == 0);
  CHECK(check1<float>(fn::sin, xs) == 0);
  CHECK(check1<float>(fn::cos, xs) == 0);
  CHECK(check1<double>(fn::sin, hard) == 0);
  CHECK(check1<double>(fn::cos, hard) == 0);
  CHECK(check1<float>(fn::sin, hard) == 0);
  CHECK(check1<float>(fn::cos, hard) == 0);
  const std::vector<double> few = trig_args(3, 2000);
  CHECK(check1<bfloat16>(fn::sin, few) == 0);
  CHECK(check1<float16>(fn::cos, few) == 0);
  CHECK(check1<float16>(fn::sin, hard) == 0);
  CHECK(check1<bfloat16>(fn::cos, hard) == 0);
}

TEST_CASE("mp: exp including overflow and subnormal results, 0 ULP", "[mp]") {
  std::mt19937_64 g(4);
  std::vector<double> xs;
  for (int i = 0; i < 20000; ++i) {
    switch (i % 4) {
      case 0: xs.push_back(std::uniform_real_distribution<double>(-760, 720)(g)); break;
      case 1: xs.push_back(std::uniform_real_distribution<double>(-745.2, -708)(g)); break;  // subnormal
      case 2: xs.push_back(std::uniform_real_distribution<double>(-110, 95)(g)); break;      // float range
      default: xs.push_back(log_uniform(g, -80, 3, true)); break;
    }
  }
  for (double x : {-745.1332191019411, -745.1332191019412, -744.44007192138121, 709.782712893384, 709.7827128933841,
                   -103.97207708399179, -103.27893, 88.72283905206835, 88.7228394, 11.089866488461016, 1e-300, -1e-300})
    xs.push_back(x);
  CHECK(check1<double>(fn::exp, xs) == 0);
  CHECK(check1<float>(fn::exp, xs) == 0);
  std::vector<double> small(xs.begin(), xs.begin() + 2000);
  small.insert(small.end(), xs.end() - 12, xs.end());
  CHECK(check1<bfloat16>(fn::exp, small) == 0);
  CHECK(check1<float16>(fn::exp, small) == 0);
}

TEST_CASE("mp: log, 0 ULP", "[mp]") {
  std::mt19937_64 g(5);
  std::vector<double> xs;
  for (int i = 0; i < 20000; ++i) {
    if (i % 3 == 0)
      xs.push_back(log_uniform(g, -1074, 1024, false));
    else if (i % 3 == 1)
      xs.push_back(std::uniform_real_distribution<double>(0.25, 4)(g));
    else
      xs.push_back(1.0 + std::ldexp(std::uniform_real_distribution<double>(-1, 1)(g), -static_cast<int>(g() % 53)));
  }
  for (double x : {0x1p-1074, 0x1.fffffffffffffp1023, 0x1.0000000000001p0, 0x1.fffffffffffffp-1, 2.0, 10.0})
    xs.push_back(x);
  CHECK(check1<double>(fn::log, xs) == 0);
  CHECK(check1<float>(fn::log, xs) == 0);
  const std::vector<double> few(xs.begin(), xs.begin() + 2000);
  CHECK(check1<bfloat16>(fn::log, few) == 0);
  CHECK(check1<float16>(fn::log, few) == 0);
}

namespace {

template <class T>
int check_pow(const std::vector<std::pair<double, double>>& args) {
  int bad = 0;
  for (const auto& [x, y] : args) {
    const std::uint64_t got = bits_of(mp::pow<T>(x, y)), want = ref_pow<T>(x, y);
    if (got != want && ++bad <= 5)
      UNSCOPED_INFO("pow(" << std::hexfloat << x << ", " << y << ") got 0x" << std::hex << got << " want 0x" << want);
  }
  return bad;
}

// x = a^(2^k) 2^(e 2^k), y = n / 2^k: x^y = a^n 2^(e n) exactly, often a midpoint of narrow T.
std::vector<std::pair<double, double>> pow_exact_args(std::mt19937_64& g, int count) {
  std::vector<std::pair<double, double>> v;
  while (static_cast<int>(v.size()) < count) {
    const int k = static_cast<int>(g() % 4);
    const int abits = 1 + static_cast<int>(g() % (53 >> k));
    const std::uint64_t a = (g() >> (64 - abits)) | 1u;
    std::uint64_t x = a;
    bool fits = true;
    for (int i = 0; i < k && fits; ++i) {
      fits = x <= 94906265u;  // floor(sqrt(2^53)): x^2 stays an exact double significand
      if (fits) x *= x;
    }
    if (!fits || x >= (std::uint64_t{1} << 53)) continue;
    const int e = static_cast<int>(g() % 41) - 20;
    const int n = static_cast<int>(g() % 12) - 3;
    if (n == 0) continue;
    v.emplace_back(std::ldexp(static_cast<double>(x), e << k), std::ldexp(static_cast<double>(n), -k));
  }
  return v;
}

}  // namespace

TEST_CASE("mp: pow, random, exact and midpoint cases, 0 ULP", "[mp]") {
  std::mt19937_64 g(6);
  std::vector<std::pair<double, double>> args;
  for (int i = 0; i < 20000; ++i) {
    switch (i % 4) {
      case 0:
        args.emplace_back(std::uniform_real_distribution<double>(0.01, 10)(g),
                          std::uniform_real_distribution<double>(-40, 40)(g));
        break;
      case 1:
        args.emplace_back(log_uniform(g, -1074, 1024, false), std::uniform_real_distribution<double>(-1.5, 1.5)(g));
        break;
      case 2:
        args.emplace_back(1.0 + std::uniform_real_distribution<double>(-1e-9, 1e-9)(g), log_uniform(g, 0, 50, true));
        break;
      default:
        args.emplace_back(
            static_cast<double>(g() % 100000 + 1),
            std::ldexp(static_cast<double>(static_cast<int>(g() % 200) - 100), -static_cast<int>(g() % 4)));
        break;
    }
  }
  const std::vector<std::pair<double, double>> exact = pow_exact_args(g, 20000);
  const std::vector<std::pair<double, double>> named = {
      {9.0, 0.5},
      {0x1p-537, 2.0},
      {3 * 0x1p-540, 2.0},
      {2.0, -1074.0},
      {2.0, -1075.0},
      {2.0, -1076.0},
      {0.5, 1075.0},
      {134217727.0, 2.0},          // (2^27 - 1)^2 = 2^54 - 2^28 + 1: a midpoint of doubles
      {4097.0, 2.0},               // 4097^2 = 2^24 + 2^13 + 1: a midpoint of floats
      {262143.0, 3.0},             // (2^18 - 1)^3: 54 bits
      {18014398509481984.0, 0.5},  // 2^54
      {0x1.0000000000001p0, 2.0},
      {2.0, 1024.0},
      {2.0, 1023.5},
      {4.0, 0.25},
      {16.0, -0.75},
      {1e300, 1e300},
      {1e-300, 1e300},
      {0.5, -1e10},
      {3.0, -1.0},
      {6.25, 0.5},
      {6.25, 1.5},
      {1.0, 1e308},
      {2.0, 0.5}};
  CHECK(check_pow<double>(args) == 0);
  CHECK(check_pow<float>(args) == 0);
  CHECK(check_pow<double>(exact) == 0);
  CHECK(check_pow<float>(exact) == 0);
  CHECK(check_pow<bfloat16>(exact) == 0);
  CHECK(check_pow<float16>(exact) == 0);
  CHECK(check_pow<double>(named) == 0);
  CHECK(check_pow<float>(named) == 0);
  CHECK(check_pow<bfloat16>(named) == 0);
  CHECK(check_pow<float16>(named) == 0);
  const std::vector<std::pair<double, double>> few(args.begin(), args.begin() + 2000);
  CHECK(check_pow<bfloat16>(few) == 0);
  CHECK(check_pow<float16>(few) == 0);
}

namespace {

template <class T>
int check_rope(int count, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  const double bases[] = {1e4, 5e5, 1e6};
  int bad = 0;
  for (int i = 0; i < count; ++i) {
    const std::uint64_t m = i < 64 * 3 ? (std::uint64_t{1} << 21) - static_cast<std::uint64_t>(i % 7)
                                       : g() % ((std::uint64_t{1} << 21) + 1);
    const int j = i < 64 * 3 ? i / 3 : static_cast<int>(g() % 64);
    const double base = bases[i % 3];
    const auto r = mp::sincos_geometric<T>(m, base, 2 * static_cast<std::uint64_t>(j), 128);
    std::uint64_t s = 0, c = 0;
    ref_rope<T>(m, base, j, 128, s, c);
    if ((bits_of(r.sin) != s || bits_of(r.cos) != c) && ++bad <= 5)
      UNSCOPED_INFO("rope m=" << m << " base=" << base << " j=" << j << " got 0x" << std::hex << bits_of(r.sin) << " 0x"
                              << bits_of(r.cos) << " want 0x" << s << " 0x" << c);
  }
  return bad;
}

template <class T>
int check_product(int count, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  int bad = 0;
  for (int i = 0; i < count; ++i) {
    const std::uint64_t m = i % 3 == 0 ? g() : g() % ((std::uint64_t{1} << 21) + 1);
    double hi = log_uniform(g, -60, i % 5 == 0 ? 1000 : 1, true);
    double lo = hi * std::uniform_real_distribution<double>(-1, 1)(g) * 0x1p-53;
    if (i % 7 == 1) {  // theta = pi/2 or pi/4 to 107 bits: m theta within ~2^-100 m of a multiple of pi/2
      hi = (i % 2 == 0) ? 0x1.921fb54442d18p0 : 0x1.921fb54442d18p-1;
      lo = (i % 2 == 0) ? 0x1.1a62633145c07p-54 : 0x1.1a62633145c07p-55;
    }
    const auto r = mp::sincos_product<T>(m, {hi, lo});
    std::uint64_t s = 0, c = 0;
    ref_product<T>(m, hi, lo, s, c);
    if ((bits_of(r.sin) != s || bits_of(r.cos) != c) && ++bad <= 5)
      UNSCOPED_INFO("product m=" << m << " theta=" << std::hexfloat << hi << " + " << lo << " got 0x" << std::hex
                                 << bits_of(r.sin) << " 0x" << bits_of(r.cos) << " want 0x" << s << " 0x" << c);
  }
  return bad;
}

}  // namespace

TEST_CASE("mp: rope_sincos, d = 128, bases 1e4 5e5 1e6, m <= 2^21, 0 ULP", "[mp]") {
  CHECK(check_rope<double>(20000, 7) == 0);
  CHECK(check_rope<float>(20000, 8) == 0);
  CHECK(check_rope<bfloat16>(1000, 9) == 0);
  CHECK(check_rope<float16>(1000, 10) == 0);
}

TEST_CASE("mp: sincos_product of the exact m (hi + lo), 0 ULP", "[mp]") {
  CHECK(check_product<double>(20000, 11) == 0);
  CHECK(check_product<float>(20000, 12) == 0);
  CHECK(check_product<bfloat16>(1000, 13) == 0);
  CHECK(check_product<float16>(1000, 14) == 0);
}

TEST_CASE("mp: exact and special results", "[mp]") {
  CHECK(bits_of(mp::sin<double>(-0.0)) == 0x8000000000000000u);
  CHECK(mp::exp<double>(0.0) == 1.0);
  CHECK(mp::exp<double>(1000.0) == std::numeric_limits<double>::infinity());
  CHECK(mp::exp<double>(-1000.0) == 0.0);
  CHECK(mp::pow<float>(2.0, 128.0) == std::numeric_limits<float>::infinity());
  const auto z = mp::sincos_geometric<double>(0, 10000.0, 2 * 3, 128);
  CHECK(bits_of(z.sin) == 0u);
  CHECK(z.cos == 1.0);
  const auto w = mp::sincos_product<float>(5, {0.0, 0.0});
  CHECK(w.cos == 1.0f);
}
