// test_round.cpp: posenc/math/round.hpp and the storage formats against MPFR and published values.
//
// The oracle: the exact sum hi + lo (+- err) in MPFR at enough precision to be exact, then one
// rounding to T derived independently of the library: with E the exponent of the leading bit and
// q = max(E, emin) - p + 1 the ulp exponent of T there, RN_T(x) = rint_even(x * 2^-q) * 2^q
// (mpfr_rint in MPFR_RNDN rounds ties to even), and infinity when that is >= 2^(emax+1)
// (IEEE 754-2008 7.4). The format parameters are IEEE 754-2008 table 3.5 and the bfloat16 layout.
#include <mpfr.h>
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>

#include "posenc/math/round.hpp"
#include "sample_count.hpp"

namespace {

using posenc::bfloat16;
using posenc::float16;

struct fmt {
  int p, emin, emax;
};
template <class T>
constexpr fmt fmt_of();
template <>
constexpr fmt fmt_of<double>() {
  return {53, -1022, 1023};
}
template <>
constexpr fmt fmt_of<float>() {
  return {24, -126, 127};
}
template <>
constexpr fmt fmt_of<bfloat16>() {
  return {8, -126, 127};
}
template <>
constexpr fmt fmt_of<float16>() {
  return {11, -14, 15};
}

// Bits of a double d that is exactly representable in T (or +-inf, +-0), by field arithmetic.
template <class T>
std::uint64_t bits_of_exact(double d);
template <>
std::uint64_t bits_of_exact<double>(double d) {
  return std::bit_cast<std::uint64_t>(d);
}
template <>
std::uint64_t bits_of_exact<float>(double d) {
  return std::bit_cast<std::uint32_t>(static_cast<float>(d));  // exact conversion
}
template <>
std::uint64_t bits_of_exact<bfloat16>(double d) {
  return std::bit_cast<std::uint32_t>(static_cast<float>(d)) >> 16;  // bfloat16 is the top half
}
template <>
std::uint64_t bits_of_exact<float16>(double d) {
  const std::uint64_t sign = std::signbit(d) ? 0x8000u : 0u;
  const double a = std::fabs(d);
  if (std::isinf(a)) return sign | 0x7C00u;
  if (a < 0x1p-14) return sign | static_cast<std::uint64_t>(a * 0x1p24);  // subnormal: k * 2^-24
  int e = 0;
  const double f = std::frexp(a, &e);  // a = f * 2^e, f in [0.5, 1)
  return sign | (static_cast<std::uint64_t>(e - 1 + 15) << 10) | (static_cast<std::uint64_t>(f * 2048.0) - 1024u);
}

template <class T>
std::uint64_t lib_bits(T v) {
  return static_cast<std::uint64_t>(posenc::detail::float_format<T>::to_bits(v));
}

// RN_T(x) as a double (exact), for x an MPFR number; +-0 keep x's sign.
double mp_round(mpfr_srcptr x, fmt f) {
  if (mpfr_zero_p(x)) return mpfr_signbit(x) ? -0.0 : 0.0;
  const long top = mpfr_get_exp(x) - 1;  // x in [2^top, 2^(top+1))
  if (top > f.emax + 1) return mpfr_signbit(x) ? -HUGE_VAL : HUGE_VAL;
  const long q = (top < f.emin ? f.emin : top) - f.p + 1;
  mpfr_t k;
  mpfr_init2(k, mpfr_get_prec(x));
  mpfr_mul_2si(k, x, -q, MPFR_RNDN);    // exact
  mpfr_rint(k, k, MPFR_RNDN);           // ties to even
  mpfr_mul_2si(k, k, q, MPFR_RNDN);     // exact
  double r = mpfr_get_d(k, MPFR_RNDN);  // exact: at most p bits, exponent in double's range
  if (!mpfr_zero_p(k) && mpfr_get_exp(k) - 1 > f.emax) r = mpfr_signbit(k) ? -HUGE_VAL : HUGE_VAL;
  if (r == 0) r = mpfr_signbit(x) ? -0.0 : 0.0;
  mpfr_clear(k);
  return r;
}

// Exact hi + lo + c in MPFR (IEEE signed-zero rules for a zero sum: +0 unless all are -0).
struct exact_sum {
  mpfr_t v;
  exact_sum() { mpfr_init2(v, 2300); }
  ~exact_sum() { mpfr_clear(v); }
  exact_sum(const exact_sum&) = delete;
  exact_sum& operator=(const exact_sum&) = delete;
  mpfr_srcptr set(double hi, double lo, double c = 0.0) {
    mpfr_set_d(v, hi, MPFR_RNDN);
    mpfr_add_d(v, v, lo, MPFR_RNDN);  // exact: 2300 bits span every pair of doubles
    if (c != 0) mpfr_add_d(v, v, c, MPFR_RNDN);
    return v;
  }
};

// A random double with a random sign, exponent uniform in [lo_e, hi_e], random fraction.
double rand_double(std::mt19937_64& g, int lo_e, int hi_e) {
  std::uniform_int_distribution<int> de(lo_e, hi_e);
  const int e = de(g);
  const std::uint64_t frac = g() & 0x000FFFFFFFFFFFFFu;
  double d = std::ldexp(1.0 + static_cast<double>(frac) * 0x1p-52, e);  // may be subnormal: rounded, fine
  return (g() & 1u) ? -d : d;
}

// A random value exactly representable in T (finite), or a midpoint between two neighbours.
double rand_grid(std::mt19937_64& g, fmt f, bool midpoint) {
  std::uniform_int_distribution<int> de(f.emin - f.p, f.emax);
  const int e = de(g);
  const int q = (e < f.emin ? f.emin : e) - f.p + 1;
  const std::uint64_t k = (g() & ((std::uint64_t{1} << f.p) - 1)) | (e < f.emin ? 0 : std::uint64_t{1} << (f.p - 1));
  double d = std::ldexp(static_cast<double>(k) + (midpoint ? 0.5 : 0.0), q);
  return (g() & 1u) ? -d : d;
}

// The binary exponent of x, and 0 for a zero x: ilogb(0) is FP_ILOGB0 (INT_MIN on glibc), and
// subtracting from it overflows (UBSan caught it; the generators can draw a zero hi).
int exponent_of(double x) { return x != 0 ? std::ilogb(x) : 0; }

// One (hi, lo) test pair from a mix of regimes.
template <class T>
void draw_pair(std::mt19937_64& g, double& hi, double& lo) {
  const fmt f = fmt_of<T>();
  const int kind = static_cast<int>(g() % 8);
  const int lo_e = f.emin - f.p - 4, hi_e = f.emax + 2 > 1023 ? 1023 : f.emax + 2;
  std::uniform_int_distribution<int> shift(-3, 120);
  switch (kind) {
    case 0:  // lo anywhere from above hi to far below its ulp
      hi = rand_double(g, lo_e, hi_e);
      lo = std::ldexp(rand_double(g, 0, 0), exponent_of(hi) - shift(g));
      break;
    case 1:  // ties of T, nudged by a tiny lo or not
      hi = rand_grid(g, f, true);
      lo = (g() % 3 == 0) ? 0.0 : std::ldexp(rand_double(g, 0, 0), exponent_of(hi) - 60 - static_cast<int>(g() % 60));
      break;
    case 2:  // a T value split unevenly, or a T value plus a small lo
      hi = rand_grid(g, f, false);
      lo = std::ldexp(rand_double(g, 0, 0), exponent_of(hi) - f.p - static_cast<int>(g() % 40));
      break;
    case 3: {  // around the overflow threshold 2^(emax+1) - 2^(emax-p)
      const double th = std::ldexp(2.0, f.emax) - std::ldexp(1.0, f.emax - f.p);
      hi = th + std::ldexp(static_cast<double>(static_cast<int>(g() % 9) - 4), f.emax - f.p - 2);
      if (f.p == 53) hi = std::nextafter(std::ldexp(2.0, f.emax), 0.0);  // DBL_MAX itself
      lo = (g() % 4 == 0) ? 0.0 : std::ldexp(rand_double(g, 0, 0), f.emax - f.p - 1 - static_cast<int>(g() % 60));
      if (g() & 1u) {
        hi = -hi;
        lo = -lo;
      }
      break;
    }
    case 4: {  // around the subnormal range and half the smallest subnormal
      const int qmin = f.emin - f.p + 1;
      hi = std::ldexp(static_cast<double>(g() % 9), qmin - 2);
      lo = (g() % 3 == 0) ? 0.0 : rand_double(g, qmin - 70, qmin - 1);
      if (g() & 1u) hi = -hi;
      break;
    }
    case 5: {  // arbitrary finite bit patterns (huge, tiny, cancellation)
      do hi = std::bit_cast<double>(g());
      while (!std::isfinite(hi));
      do lo = std::bit_cast<double>(g());
      while (!std::isfinite(lo));
      break;
    }
    case 6: {  // cancellation: lo close to -hi
      hi = rand_double(g, lo_e, hi_e);
      lo = -hi + std::ldexp(rand_double(g, 0, 0), exponent_of(hi) - 1 - static_cast<int>(g() % 70));
      break;
    }
    default:  // signed zeros and exact values
      hi = (g() & 1u) ? -0.0 : 0.0;
      lo = (g() % 3 == 0) ? ((g() & 1u) ? -0.0 : 0.0) : rand_grid(g, f, g() & 1u);
      if (g() & 1u) std::swap(hi, lo);
  }
}

template <class T>
void check_round_dd(std::uint64_t seed, long n) {
  const fmt f = fmt_of<T>();
  std::mt19937_64 g(posenc_test::stream_seed(seed));
  exact_sum x;
  long bad = 0, naive = 0;
  for (long i = 0; i < n; ++i) {
    double hi = 0, lo = 0;
    draw_pair<T>(g, hi, lo);
    const std::uint64_t want = bits_of_exact<T>(mp_round(x.set(hi, lo), f));
    const std::uint64_t got = lib_bits(posenc::detail::round_dd<T>(hi, lo));
    // The naive double rounding RN_T(RN_double(hi + lo)): the oracle must tell it apart.
    if (f.p < 53 && std::isfinite(hi + lo) && bits_of_exact<T>(mp_round(x.set(hi + lo, 0.0), f)) != want) ++naive;
    if (want != got && ++bad <= 5)
      std::printf("round_dd p=%d hi=%a lo=%a want %#llx got %#llx\n", f.p, hi, lo,
                  static_cast<unsigned long long>(want), static_cast<unsigned long long>(got));
  }
  std::printf("round_dd<p=%d>: %ld pairs, %ld mismatches (seed %llu); double rounding would miss %ld\n", f.p, n, bad,
              static_cast<unsigned long long>(seed), naive);
  CHECK(bad == 0);
  if (f.p < 53) CHECK(naive > 1000);  // the cases reach the places where one rounding matters
}

}  // namespace

TEST_CASE("round_dd: one correct rounding into double, vs MPFR", "[round]") {
  check_round_dd<double>(1, posenc_test::samples(1000000));
}
TEST_CASE("round_dd: one correct rounding into float, vs MPFR", "[round]") {
  check_round_dd<float>(2, posenc_test::samples(1000000));
}
TEST_CASE("round_dd: one correct rounding into bfloat16, vs MPFR", "[round]") {
  check_round_dd<bfloat16>(3, posenc_test::samples(1000000));
}
TEST_CASE("round_dd: one correct rounding into float16, vs MPFR", "[round]") {
  check_round_dd<float16>(4, posenc_test::samples(1000000));
}

namespace {

// Does every real in [lo_end, hi_end] (given as x -+ r) round to `want`? RN is monotone, so the
// two ends decide.
template <class T>
bool ends_round_to(exact_sum& s, double hi, double lo, double r, std::uint64_t want) {
  const fmt f = fmt_of<T>();
  return bits_of_exact<T>(mp_round(s.set(hi, lo, -r), f)) == want &&
         bits_of_exact<T>(mp_round(s.set(hi, lo, r), f)) == want;
}

template <class T>
void check_ziv(std::uint64_t seed, long n) {
  const fmt f = fmt_of<T>();
  const int qmin = f.emin - f.p + 1;
  std::mt19937_64 g(posenc_test::stream_seed(seed));
  exact_sum s;
  long wrong = 0, accepted = 0, missed = 0;
  for (long i = 0; i < n; ++i) {
    const int kind = static_cast<int>(g() % 4);
    double hi = kind == 1 ? rand_grid(g, f, true) : rand_double(g, qmin - 4, f.emax > 1000 ? 1023 : f.emax + 1);
    const int eh = exponent_of(hi);
    double lo = std::ldexp(rand_double(g, 0, 0), eh - 54 - static_cast<int>(g() % 10));
    if (kind == 2) lo = std::ldexp(rand_double(g, 0, 0), eh - static_cast<int>(g() % 8));  // unnormalised
    const double err =
        std::ldexp(1.0 + static_cast<double>(g() % 1024) / 1024.0, eh - f.p + 3 - static_cast<int>(g() % 50));
    if (kind == 1) hi += (g() & 1u) ? 2 * err : -2 * err;  // just beside a midpoint of T
    if (kind == 3) {                                       // just below a power of two, where the grid below is finer
      hi = std::ldexp(1.0, eh);
      lo = -std::ldexp(static_cast<double>(g() % 64), eh - f.p - 6);
      if (g() & 1u) {
        hi = -hi;
        lo = -lo;
      }
    }
    T out{};
    if (posenc::detail::ziv_round<T>(hi, lo, err, out)) {
      ++accepted;
      if (!ends_round_to<T>(s, hi, lo, err, lib_bits(out)) && ++wrong <= 5)
        std::printf("ziv p=%d WRONG hi=%a lo=%a err=%a\n", f.p, hi, lo, err);
    } else {
      // Clearly safe (twice the radius still rounds to one value) must be accepted, outside the
      // documented exceptions (narrow T below 2^(qmin-1); double below 2^-1020 or at DBL_MAX).
      const std::uint64_t r = bits_of_exact<T>(mp_round(s.set(hi, lo), f));
      const double ax = std::fabs(hi + lo);
      const bool excluded = f.p == 53 ? (ax < 0x1p-1020 || ax > 0x1.ffffffffffffp1023) : ax < std::ldexp(1.0, qmin - 1);
      if (!excluded && ends_round_to<T>(s, hi, lo, 2 * err, r) && ++missed <= 5)
        std::printf("ziv p=%d MISSED hi=%a lo=%a err=%a\n", f.p, hi, lo, err);
    }
  }
  std::printf("ziv_round<p=%d>: %ld cases, %ld accepted, %ld wrong, %ld clearly-safe missed\n", f.p, n, accepted, wrong,
              missed);
  CHECK(wrong == 0);
  CHECK(missed == 0);
  CHECK(accepted > n / 4);  // the test exercises acceptance, not only refusal
  CHECK(accepted < n);      // and refusal
}

}  // namespace

TEST_CASE("ziv_round: never wrong, accepts clearly safe intervals (double)", "[round][ziv]") {
  check_ziv<double>(11, posenc_test::samples(1000000));
}
TEST_CASE("ziv_round: never wrong, accepts clearly safe intervals (float)", "[round][ziv]") {
  check_ziv<float>(12, posenc_test::samples(1000000));
}
TEST_CASE("ziv_round: never wrong, accepts clearly safe intervals (bfloat16)", "[round][ziv]") {
  check_ziv<bfloat16>(13, posenc_test::samples(1000000));
}
TEST_CASE("ziv_round: never wrong, accepts clearly safe intervals (float16)", "[round][ziv]") {
  check_ziv<float16>(14, posenc_test::samples(1000000));
}

TEST_CASE("ziv_round: err == 0 is exact rounding, boundaries refused", "[round][ziv]") {
  float16 h{};
  CHECK(posenc::detail::ziv_round<float16>(65520.0, 0.0, 0.0, h));  // exact tie -> inf (even)
  CHECK(h.bits == 0x7C00u);
  CHECK_FALSE(posenc::detail::ziv_round<float16>(65520.0, 0.0, 0x1p-30, h));  // straddles overflow
  CHECK(posenc::detail::ziv_round<float16>(65520.0, 0x1p-20, 0x1p-30, h));    // all above threshold
  CHECK(h.bits == 0x7C00u);
  double d = 0;
  CHECK_FALSE(posenc::detail::ziv_round<double>(1.0, 0x1p-53, 0x1p-80, d));  // straddles a midpoint
  CHECK_FALSE(posenc::detail::ziv_round<double>(0.0, 0.0, 0x1p-1074, d));    // straddles zero
  CHECK(posenc::detail::ziv_round<double>(1.0, 0x1p-54, 0x1p-80, d));
  CHECK(d == 1.0);
  CHECK(posenc::detail::ziv_round<double>(1.0, -0x1p-55, 0x1p-80, d));  // below a power of two
  CHECK(d == 1.0);
  CHECK_FALSE(posenc::detail::ziv_round<double>(1.0, -0x1p-54, 0x1p-80, d));  // finer grid below 1
  CHECK_FALSE(posenc::detail::ziv_round<double>(std::numeric_limits<double>::quiet_NaN(), 0.0, 0.0, d));
}

TEST_CASE("round_to: overflow and invalid input are reported", "[round]") {
  using posenc::status;
  using posenc::math::double_double;
  using posenc::math::round_to;
  const auto a = round_to<float16>(65520.0);  // float16 overflow threshold 65504 + 16 (a tie)
  CHECK(a.error == status::overflow);
  CHECK(a.value.bits == 0x7C00u);
  const auto b = round_to<float16>(65519.99);
  CHECK(b.ok());
  CHECK(b.value.bits == 0x7BFFu);
  CHECK(round_to<float16>(-65520.0).error == status::overflow);
  CHECK(round_to<float16>(double_double{65520.0, -0x1p-40}).value.bits == 0x7BFFu);
  CHECK(round_to<float16>(double_double{65504.0, 16.0}).error == status::overflow);
  CHECK(round_to<double>(double_double{0x1.fffffffffffffp1023, 0x1p970}).error == status::overflow);
  CHECK(round_to<double>(double_double{0x1.fffffffffffffp1023, 0x1.fffffffffffffp969}).ok());
  CHECK(round_to<float>(0x1.ffffffp127).error == status::overflow);  // FLT_MAX + half ulp: tie -> inf
  CHECK(round_to<float>(double_double{0x1.ffffffp127, -0x1p-900}).value == 0x1.fffffep127f);
  CHECK(round_to<bfloat16>(0x1.ffp127).error == status::overflow);
  CHECK(round_to<double>(std::numeric_limits<double>::quiet_NaN()).error == status::invalid_input);
  CHECK(round_to<float>(std::numeric_limits<double>::infinity()).error == status::invalid_input);
  CHECK(round_to<float16>(double_double{1.0, std::numeric_limits<double>::infinity()}).error == status::invalid_input);
  CHECK(round_to<float16>(0x1p-25).value.bits == 0x0000u);  // half the min subnormal: tie -> +0
  CHECK(round_to<float16>(-0x1p-25).value.bits == 0x8000u);
  CHECK(round_to<float16>(0x1.000001p-25).value.bits == 0x0001u);
}

TEST_CASE("bfloat16 and float16 bit layouts match published values", "[round][format]") {
  using posenc::math::round_to;
  // IEEE 754 binary16 (Wikipedia "Half-precision floating-point format" examples).
  CHECK(round_to<float16>(1.0).value.bits == 0x3C00u);
  CHECK(round_to<float16>(65504.0).value.bits == 0x7BFFu);
  CHECK(round_to<float16>(0x1p-24).value.bits == 0x0001u);
  CHECK(round_to<float16>(0x1p-14).value.bits == 0x0400u);
  CHECK(round_to<float16>(0x3FFp-24).value.bits == 0x03FFu);
  CHECK(round_to<float16>(-2.0).value.bits == 0xC000u);
  CHECK(round_to<float16>(1.0 / 3.0).value.bits == 0x3555u);
  CHECK(float16::from_bits(0x3555u).to_float() == 0.333251953125f);
  CHECK(float16::from_bits(0x7BFFu).to_float() == 65504.0f);
  CHECK(float16::from_bits(0x0001u).to_float() == 0x1p-24f);
  CHECK(float16::from_bits(0x8001u).to_float() == -0x1p-24f);
  CHECK(float16::from_bits(0x7C00u).is_inf());
  CHECK(float16::from_bits(0x7E00u).is_nan());
  CHECK(std::isnan(float16::from_bits(0x7E00u).to_float()));
  CHECK_FALSE(float16::from_bits(0x7C00u).is_nan());
  CHECK_FALSE(float16::from_bits(0x0000u) == float16::from_bits(0x8000u));  // equality is on bits
  // bfloat16 (Wikipedia "bfloat16 floating-point format" examples).
  CHECK(round_to<bfloat16>(1.0).value.bits == 0x3F80u);
  CHECK(round_to<bfloat16>(0x1.FEp127).value.bits == 0x7F7Fu);  // max 3.38953139e38
  CHECK(round_to<bfloat16>(0x1p-126).value.bits == 0x0080u);
  CHECK(round_to<bfloat16>(0x1p-133).value.bits == 0x0001u);  // min subnormal
  CHECK(round_to<bfloat16>(3.141592653589793).value.bits == 0x4049u);
  CHECK(round_to<bfloat16>(1.0 / 3.0).value.bits == 0x3EABu);
  CHECK(bfloat16::from_bits(0x7F7Fu).to_float() == 3.38953139e38f);
  CHECK(bfloat16::from_bits(0x4049u).to_float() == 3.140625f);
  CHECK(bfloat16::from_bits(0x7F80u).is_inf());
  CHECK(bfloat16::from_bits(0xFFC1u).is_nan());
}

TEST_CASE("round_dyadic: 128-bit mantissas with sticky bit, vs MPFR", "[round]") {
  std::mt19937_64 g(posenc_test::stream_seed(21));
  mpfr_t x;
  mpfr_init2(x, 200);
  long bad = 0;
  const long n = posenc_test::samples(200000);
  for (long i = 0; i < n; ++i) {
    const int len = 1 + static_cast<int>(g() % 128);
    std::uint64_t mhi = len > 64 ? (g() >> (128 - len)) | (std::uint64_t{1} << (len - 65)) : 0;
    std::uint64_t mlo =
        len > 64 ? g()
                 : (len == 64 ? g() | (std::uint64_t{1} << 63) : (g() >> (64 - len)) | (std::uint64_t{1} << (len - 1)));
    const int which = static_cast<int>(g() % 4);
    const fmt f = which == 0   ? fmt_of<double>()
                  : which == 1 ? fmt_of<float>()
                  : which == 2 ? fmt_of<bfloat16>()
                               : fmt_of<float16>();
    const int qmin = f.emin - f.p + 1;
    const int top = qmin - 5 + static_cast<int>(g() % static_cast<std::uint64_t>(f.emax + 3 - qmin + 5));
    const bool sticky = len >= f.p + 2 && (g() & 1u);
    const bool neg = (g() & 1u) != 0;
    const posenc::detail::dyadic v{neg, top - len + 1, mhi, mlo, sticky};
    // exact value, s = 1/2 standing for any 0 < s < 1
    mpfr_set_ui(x, static_cast<unsigned long>(mhi >> 32), MPFR_RNDN);
    mpfr_mul_2ui(x, x, 32, MPFR_RNDN);
    mpfr_add_ui(x, x, static_cast<unsigned long>(mhi & 0xFFFFFFFFu), MPFR_RNDN);
    mpfr_mul_2ui(x, x, 32, MPFR_RNDN);
    mpfr_add_ui(x, x, static_cast<unsigned long>(mlo >> 32), MPFR_RNDN);
    mpfr_mul_2ui(x, x, 32, MPFR_RNDN);
    mpfr_add_ui(x, x, static_cast<unsigned long>(mlo & 0xFFFFFFFFu), MPFR_RNDN);
    if (sticky) mpfr_add_d(x, x, 0.5, MPFR_RNDN);
    mpfr_mul_2si(x, x, top - len + 1, MPFR_RNDN);
    if (neg) mpfr_neg(x, x, MPFR_RNDN);
    const double want = mp_round(x, f);
    std::uint64_t w = 0, got = 0;
    if (which == 0) {
      w = bits_of_exact<double>(want);
      got = lib_bits(posenc::detail::round_dyadic<double>(v));
    }
    if (which == 1) {
      w = bits_of_exact<float>(want);
      got = lib_bits(posenc::detail::round_dyadic<float>(v));
    }
    if (which == 2) {
      w = bits_of_exact<bfloat16>(want);
      got = lib_bits(posenc::detail::round_dyadic<bfloat16>(v));
    }
    if (which == 3) {
      w = bits_of_exact<float16>(want);
      got = lib_bits(posenc::detail::round_dyadic<float16>(v));
    }
    if (w != got && ++bad <= 5)
      std::printf("round_dyadic p=%d len=%d top=%d sticky=%d want %#llx got %#llx\n", f.p, len, top, sticky,
                  static_cast<unsigned long long>(w), static_cast<unsigned long long>(got));
  }
  mpfr_clear(x);
  std::printf("round_dyadic: %ld values, %ld mismatches\n", n, bad);
  CHECK(bad == 0);
  const posenc::detail::dyadic zero{true, 5, 0, 0, false};
  CHECK(std::bit_cast<std::uint64_t>(posenc::detail::round_dyadic<double>(zero)) == 0x8000000000000000u);
}

// Constant evaluation on both compilers (values: IEEE 754 binary16 / bfloat16 layouts).
namespace {
constexpr bool ziv_ce() {
  float16 h{};
  float f{};
  return posenc::detail::ziv_round<float16>(1.0, 1e-20, 1e-18, h) && h.bits == 0x3C00u &&
         posenc::detail::ziv_round<float>(0.1, 0.0, 1e-20, f) && f == 0.1f &&
         !posenc::detail::ziv_round<float>(1.0 + 0x1p-24, 0.0, 1e-20, f);  // a midpoint of float
}
}  // namespace
static_assert(posenc::detail::round_dd<float16>(65504.0, 15.999).bits == 0x7BFFu);
static_assert(posenc::detail::round_dd<float16>(0x1p-25, 0x1p-80).bits == 0x0001u);
static_assert(posenc::detail::round_dd<bfloat16>(1.0 + 0x1p-8, 0x1p-60).bits == 0x3F81u);
static_assert(posenc::detail::round_dd<float>(1.0, 0x1p-24 + 0x1p-70) == 1.0f + 0x1p-23f);
static_assert(posenc::math::round_to<float16>(65520.0).error == posenc::status::overflow);
static_assert(posenc::math::round_to<double>(0.1).value == 0.1);
static_assert(posenc::detail::round_dyadic<double>(posenc::detail::dyadic{false, -1, 0, 3, false}) == 1.5);
static_assert(ziv_ce());

// IEEE 754 5.4.1: a conversion keeps the sign of zero. round_to(double) once added +0 as the low
// part, and -0 + +0 is +0 in round-to-nearest, so a negative zero came back positive.
static_assert(posenc::math::round_to<posenc::bfloat16>(-0.0).value.bits == 0x8000, "-0 stays -0 in bfloat16");
static_assert(posenc::math::round_to<posenc::float16>(-0.0).value.bits == 0x8000, "-0 stays -0 in float16");
static_assert(std::bit_cast<std::uint32_t>(posenc::math::round_to<float>(-0.0).value) == 0x80000000u,
              "-0 stays -0 in float");
static_assert(posenc::math::round_to<posenc::float16>(0.0).value.bits == 0x0000, "+0 stays +0");

TEST_CASE("round_to keeps the sign of zero", "[round]") {
  volatile double negative_zero = -0.0;
  CHECK(posenc::math::round_to<posenc::bfloat16>(negative_zero).value.bits == 0x8000);
  CHECK(std::bit_cast<std::uint64_t>(posenc::math::round_to<double>(negative_zero).value) == 0x8000000000000000u);
}
