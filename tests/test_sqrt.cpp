// test_sqrt.cpp: posenc::math::sqrt(double) and sqrt(float) against MPFR's correctly rounded sqrt.
//
// The oracle: mpfr_sqrt at the target precision (53 or 24 bits) in round-to-nearest. Every result
// of sqrt on a positive finite double or float is a normal number of the same format (sqrt halves
// the exponent), so no subnormal emulation is needed. Special values: C Annex F.10.4.5.
#include <mpfr.h>
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>

#include "posenc/math/sqrt.hpp"

namespace {

struct ulp_stats {
  long n = 0, bad = 0;
  std::uint64_t max_ulp = 0;
  double sum_ulp = 0;
  void add(std::uint64_t got_bits, std::uint64_t want_bits) {
    ++n;
    const std::uint64_t d = got_bits > want_bits ? got_bits - want_bits : want_bits - got_bits;  // positive: ulps
    if (d > max_ulp) max_ulp = d;
    sum_ulp += static_cast<double>(d);
    if (d != 0) ++bad;
  }
};

std::uint64_t mp_sqrt_bits(double x, mpfr_t t) {
  mpfr_set_d(t, x, MPFR_RNDN);
  mpfr_sqrt(t, t, MPFR_RNDN);
  return std::bit_cast<std::uint64_t>(mpfr_get_d(t, MPFR_RNDN));
}
std::uint32_t mp_sqrt_bits(float x, mpfr_t t) {
  mpfr_set_flt(t, x, MPFR_RNDN);
  mpfr_sqrt(t, t, MPFR_RNDN);
  return std::bit_cast<std::uint32_t>(mpfr_get_flt(t, MPFR_RNDN));
}

void check_double(ulp_stats& st, double x, mpfr_t t) {
  const std::uint64_t want = mp_sqrt_bits(x, t);
  const std::uint64_t got = std::bit_cast<std::uint64_t>(posenc::math::sqrt(x));
  if (want != got && st.bad < 5)
    std::printf("sqrt(%a): got %a want %a\n", x, std::bit_cast<double>(got), std::bit_cast<double>(want));
  st.add(got, want);
}
void check_float(ulp_stats& st, float x, mpfr_t t) {
  const std::uint32_t want = mp_sqrt_bits(x, t);
  const std::uint32_t got = std::bit_cast<std::uint32_t>(posenc::math::sqrt(x));
  if (want != got && st.bad < 5)
    std::printf("sqrtf(%a): got %a want %a\n", static_cast<double>(x), static_cast<double>(std::bit_cast<float>(got)),
                static_cast<double>(std::bit_cast<float>(want)));
  st.add(got, want);
}

void report(const char* what, const ulp_stats& st) {
  std::printf("%s: %ld arguments, max error %llu ulp, mean %.3g ulp, %ld not correctly rounded\n", what, st.n,
              static_cast<unsigned long long>(st.max_ulp), st.n ? st.sum_ulp / static_cast<double>(st.n) : 0.0, st.bad);
}

}  // namespace

TEST_CASE("sqrt(double) is correctly rounded, vs MPFR", "[sqrt]") {
  mpfr_t t;
  mpfr_init2(t, 53);
  std::mt19937_64 g(101);
  ulp_stats st;
  // Random bit patterns of positive finite doubles: the whole range, subnormals included.
  for (int i = 0; i < 1000000; ++i) {
    std::uint64_t b = g() >> 1;
    if ((b >> 52) == 0x7FF) b &= ~(std::uint64_t{1} << 62);
    check_double(st, std::bit_cast<double>(b), t);
  }
  // Subnormals specifically (random fractions, and the extremes).
  for (int i = 0; i < 100000; ++i) check_double(st, std::bit_cast<double>((g() & 0x000FFFFFFFFFFFFFu) | 1u), t);
  check_double(st, 0x1p-1074, t);
  check_double(st, 0x1.fffffffffffffp-1023, t);
  check_double(st, std::numeric_limits<double>::max(), t);
  check_double(st, std::numeric_limits<double>::min(), t);
  // Perfect squares: s^2 for random 26-bit s at random even/odd scales (exact results), and their
  // neighbours, whose roots are a hair away from a double.
  for (int i = 0; i < 100000; ++i) {
    const double s = static_cast<double>((g() >> 38) | 1u);
    const double sq = std::ldexp(s * s, static_cast<int>(g() % 1800) - 900);
    check_double(st, sq, t);
    check_double(st, std::nextafter(sq, 0.0), t);
    check_double(st, std::nextafter(sq, HUGE_VAL), t);
  }
  // Midpoint-adjacent: x = RN((m + 1/2)^2) for random 53-bit m and its neighbours: sqrt(x) is
  // within a tiny fraction of an ulp of the midpoint m + 1/2, the hardest case for the decision.
  for (int i = 0; i < 100000; ++i) {
    const double m = std::ldexp(static_cast<double>((g() >> 11) | (std::uint64_t{1} << 52)), -52);  // [1, 2)
    mpfr_t mid;
    mpfr_init2(mid, 200);
    mpfr_set_d(mid, m, MPFR_RNDN);
    mpfr_add_d(mid, mid, 0x1p-53, MPFR_RNDN);  // m + u/2, exact
    mpfr_sqr(mid, mid, MPFR_RNDN);             // exact at 200 bits
    const int scale = 2 * (static_cast<int>(g() % 1000) - 500);
    const double x = std::ldexp(mpfr_get_d(mid, MPFR_RNDN), scale);
    mpfr_clear(mid);
    check_double(st, x, t);
    check_double(st, std::nextafter(x, 0.0), t);
    check_double(st, std::nextafter(x, HUGE_VAL), t);
  }
  mpfr_clear(t);
  report("sqrt(double)", st);
  CHECK(st.n > 1500000);
  CHECK(st.max_ulp == 0);
  CHECK(st.bad == 0);
}

TEST_CASE("sqrt(float) is correctly rounded, vs MPFR", "[sqrt]") {
  mpfr_t t;
  mpfr_init2(t, 24);
  std::mt19937_64 g(202);
  ulp_stats st;
  for (int i = 0; i < 1000000; ++i) {
    std::uint32_t b = static_cast<std::uint32_t>(g() >> 33);  // sign bit clear
    if ((b >> 23) == 0xFF) b &= ~(std::uint32_t{1} << 30);
    check_float(st, std::bit_cast<float>(b), t);
  }
  for (std::uint32_t b = 1; b < 0x00800000u; b += 7) check_float(st, std::bit_cast<float>(b), t);  // subnormals
  check_float(st, std::numeric_limits<float>::max(), t);
  for (int i = 0; i < 100000; ++i) {                       // perfect squares and neighbours
    const float s = static_cast<float>((g() >> 52) | 1u);  // 12 bits: s*s exact in float
    const float sq = std::ldexp(s * s, static_cast<int>(g() % 200) - 100);
    check_float(st, sq, t);
    check_float(st, std::nextafter(sq, 0.0f), t);
    check_float(st, std::nextafter(sq, HUGE_VALF), t);
  }
  mpfr_clear(t);
  report("sqrt(float)", st);
  CHECK(st.n > 1500000);
  CHECK(st.max_ulp == 0);
  CHECK(st.bad == 0);
}

TEST_CASE("sqrt special values (C Annex F.10.4.5)", "[sqrt]") {
  using posenc::math::sqrt;
  CHECK(std::bit_cast<std::uint64_t>(sqrt(-0.0)) == 0x8000000000000000u);
  CHECK(std::bit_cast<std::uint64_t>(sqrt(0.0)) == 0u);
  CHECK(sqrt(std::numeric_limits<double>::infinity()) == std::numeric_limits<double>::infinity());
  CHECK(std::isnan(sqrt(-1.0)));
  CHECK(std::isnan(sqrt(-0x1p-1074)));
  CHECK(std::isnan(sqrt(-std::numeric_limits<double>::infinity())));
  CHECK(std::isnan(sqrt(std::numeric_limits<double>::quiet_NaN())));
  CHECK(std::bit_cast<std::uint32_t>(sqrt(-0.0f)) == 0x80000000u);
  CHECK(sqrt(std::numeric_limits<float>::infinity()) == std::numeric_limits<float>::infinity());
  CHECK(std::isnan(sqrt(-2.0f)));
  CHECK(std::isnan(sqrt(std::numeric_limits<float>::quiet_NaN())));
  CHECK(sqrt(4.0) == 2.0);
  CHECK(sqrt(0x1p-1074) == 0x1p-537);
  CHECK(sqrt(2.0) == 0x1.6a09e667f3bcdp0);  // sqrt(2) = 1.41421356237309504880..., rounded
  CHECK(sqrt(2.0f) == 0x1.6a09e6p0f);
}

// Constant evaluation on both compilers.
static_assert(posenc::math::sqrt(4.0) == 2.0);
static_assert(posenc::math::sqrt(2.0) == 0x1.6a09e667f3bcdp0);
static_assert(posenc::math::sqrt(0x1p-1074) == 0x1p-537);
static_assert(posenc::math::sqrt(9.0f) == 3.0f);
static_assert(posenc::math::sqrt(2.0f) == 0x1.6a09e6p0f);
