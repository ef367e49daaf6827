// Fast-path tests of posenc::math::{sin, cos, sincos} and the RoPE entry points (rope_angle.hpp):
//  - the claimed error bounds of the argument reduction (reduce.hpp) and of both kernels
//    (detail/trig_kernel.hpp), checked against MPFR at 400 bits: never exceeded, max error / bound
//    printed;
//  - every result that the fast path accepts (Ziv's test passed) equals the MPFR oracle's
//    correctly rounded value, and the fast path's failure rate is small;
//  - C Annex F special values (F.10.1.5, F.10.1.6), sincos == (sin, cos) bitwise, odd/even symmetry;
//  - the RoPE table functions equal the scalar functions bitwise.
// The 10^6-argument oracle tests of the public functions are test_oracle_trig.cpp.
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "posenc/math/sincos_table.hpp"
#include "posenc/math/trig.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/oracle.hpp"
#include "posenc/verify/rope_oracle.hpp"

namespace {

namespace pd = posenc::detail;
namespace pm = posenc::math;
namespace v = posenc::verify;

constexpr std::uint64_t seed = 20240611;

// |hi + lo - exact| / err, computed exactly enough (400 bits).
struct bound_check {
  mpfr_t t;
  double worst = 0;
  long count = 0;
  bound_check() { mpfr_init2(t, 400); }
  ~bound_check() { mpfr_clear(t); }
  bound_check(const bound_check&) = delete;
  bound_check& operator=(const bound_check&) = delete;
  // returns false when the error exceeds err
  bool add(double hi, double lo, double err, mpfr_srcptr exact) {
    mpfr_set_d(t, hi, MPFR_RNDN);
    mpfr_add_d(t, t, lo, MPFR_RNDN);  // exact at 400 bits for these magnitudes
    mpfr_sub(t, t, exact, MPFR_RNDN);
    const double d = std::fabs(mpfr_get_d(t, MPFR_RNDU));
    ++count;
    if (d == 0) return true;
    const double r = err > 0 ? d / err : std::numeric_limits<double>::infinity();
    if (r > worst) worst = r;
    return r <= 1;
  }
};

// Arguments: uniform in several ranges, a quarter of them within a few ulps of multiples of pi/2.
double draw(std::mt19937_64& rng, double lim, long i) {
  double x = std::uniform_real_distribution<double>(-lim, lim)(rng);
  if (i % 4 == 0) {
    const double k = std::nearbyint(x / 1.5707963267948966);
    x = k * 1.5707963267948966 +
        static_cast<double>(static_cast<int>(rng() % 9) - 4) * std::ldexp(std::fabs(x) + 1, -52);
  }
  return x;
}

template <class T>
std::uint64_t bits(T x) {
  return v::detail::to_bits64(x);
}

}  // namespace

TEST_CASE("reduction and kernel error bounds hold against MPFR", "[trig][fastpath]") {
  std::mt19937_64 rng(seed);
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  bound_check red, fast, dd;
  mpfr_t x, r, s, c;
  mpfr_inits2(400, x, r, s, c, static_cast<mpfr_ptr>(nullptr));
  mpfr_t pio2;
  mpfr_init2(pio2, 400);
  mpfr_const_pi(pio2, MPFR_RNDN);
  mpfr_div_2ui(pio2, pio2, 1, MPFR_RNDN);
  const double limits[] = {1.0, 8.0, 1e3, 1e6, 1e9, 0x1.7fp30};
  long bad = 0;
  for (double lim : limits) {
    for (long i = 0; i < 25000; ++i) {
      const double xd = draw(rng, lim, i);
      pd::reduced rd{};
      REQUIRE(pd::reduce_pio2(xd, 0.0, rd));
      const double k = (xd * pd::two_over_pi + 0x1.8p52) - 0x1.8p52;  // the k reduce_pio2 uses
      mpfr_set_d(x, xd, MPFR_RNDN);
      mpfr_mul_d(r, pio2, k, MPFR_RNDN);
      mpfr_sub(r, x, r, MPFR_RNDN);  // exact x - k pi/2 (to 400 bits)
      if (!red.add(rd.hi, rd.lo, rd.err, r)) ++bad;
      // Each kernel against sin/cos of its own input rh + rl.
      mpfr_set_d(x, rd.hi, MPFR_RNDN);
      mpfr_add_d(x, x, rd.lo, MPFR_RNDN);
      mpfr_sin_cos(s, c, x, MPFR_RNDN);
      const pd::trig_kernel_out kf = pd::trig_kernel_fast(rd.hi, rd.lo, true, true);
      const pd::trig_kernel_out kd = pd::trig_kernel_dd(rd.hi, rd.lo, true, true);
      if (!fast.add(kf.sin_r.hi, kf.sin_r.lo, kf.sin_r.err, s)) ++bad;
      if (!fast.add(kf.cos_r.hi, kf.cos_r.lo, kf.cos_r.err, c)) ++bad;
      if (!dd.add(kd.sin_r.hi, kd.sin_r.lo, kd.sin_r.err, s)) ++bad;
      if (!dd.add(kd.cos_r.hi, kd.cos_r.lo, kd.cos_r.err, c)) ++bad;
    }
  }
  mpfr_clears(x, r, s, c, pio2, static_cast<mpfr_ptr>(nullptr));
  std::printf("reduction: %ld args, max error / bound %.3g\n", red.count, red.worst);
  std::printf("fast kernel (2^-64): %ld values, max error / bound %.3g\n", fast.count, fast.worst);
  std::printf("dd kernel (2^-84): %ld values, max error / bound %.3g\n", dd.count, dd.worst);
  CHECK(red.count >= 100000);
  CHECK(bad == 0);
  CHECK(red.worst <= 1);
  CHECK(fast.worst <= 1);
  CHECK(dd.worst <= 1);
  CHECK(fast.worst > 0);  // the comparison is live
}

template <class T>
static void check_fast_path_rounding(double lim_scale) {
  std::mt19937_64 rng(seed + sizeof(T));
  const double limits[] = {0x1p-20, 1.0, 8.0, 1e3, 1e6 * lim_scale};
  // fails[0]: uniform arguments; fails[1]: arguments within a few ulps of a multiple of pi/2, where
  // sin or cos is tiny and the absolute reduction bound (2^-101) cannot prove the rounding.
  long n[2] = {0, 0}, fails[2] = {0, 0}, wrong = 0;
  for (double lim : limits) {
    for (long i = 0; i < 20000; ++i) {
      double xd = draw(rng, lim, i);
      if constexpr (std::is_same_v<T, float>) xd = static_cast<double>(static_cast<float>(xd));
      pm::sincos_result<T> r{};
      const int done = pd::trig_fast<T>(xd, 0.0, 0.0, pd::want_sin | pd::want_cos, r);
      const pm::sincos_result<T> ref = v::cr_sincos<T>(xd);
      const int kind = i % 4 == 0 ? 1 : 0;
      n[kind] += 2;
      if (done & pd::want_sin) {
        if (bits(r.sin) != bits(ref.sin)) ++wrong;
      } else {
        ++fails[kind];
      }
      if (done & pd::want_cos) {
        if (bits(r.cos) != bits(ref.cos)) ++wrong;
      } else {
        ++fails[kind];
      }
      if (wrong != 0) {
        std::printf("mismatch at x = %a\n", xd);
        REQUIRE(wrong == 0);
      }
    }
  }
  std::printf(
      "%s fast path: uniform %ld results, %ld to the accurate path; near k pi/2 %ld results, "
      "%ld to the accurate path; %ld wrong\n",
      std::is_same_v<T, double> ? "double" : "float", n[0], fails[0], n[1], fails[1], wrong);
  CHECK(wrong == 0);
  CHECK(fails[0] * 10000 < n[0]);  // expected about 2^-29 (double) and 2^-39 (float) per result
  CHECK(fails[1] * 2 < n[1]);      // at most the tiny one of each pair
}

TEST_CASE("results accepted by the fast path are correctly rounded", "[trig][fastpath]") {
  check_fast_path_rounding<double>(1000.0);
  check_fast_path_rounding<float>(1.0);
}

// The paths written for constant evaluation (detail/trig_scalar_fast.hpp) and their cheap rounding
// tests (detail/round_test_cheap.hpp): every result they accept equals MPFR's; the tests refuse an
// interval that holds a rounding boundary (twins that must fail) and accept one that does not.
TEST_CASE("constant-evaluation fast paths: accepted results equal MPFR; the cheap tests can refuse",
          "[trig][fastpath]") {
  float f = 0.0f;
  CHECK(pd::round_test_float(1.0 + 0x1p-25, 0x1p-60, f));  // inside 1.0f's cell
  CHECK(f == 1.0f);
  CHECK_FALSE(pd::round_test_float(1.0 + 0x1p-24, 0x1p-60, f));            // on the midpoint
  CHECK_FALSE(pd::round_test_float(1.0 + 0x1p-24 - 0x1p-52, 0x1p-40, f));  // interval across it
  double d = 0.0;
  CHECK(pd::round_test_double(1.0, 0x1p-54, 0x1p-80, d));
  CHECK(d == 1.0);
  CHECK_FALSE(pd::round_test_double(1.0, 0x1p-53, 0x1p-80, d));              // the midpoint
  CHECK_FALSE(pd::round_test_double(1.0, 0x1p-53 - 0x1p-105, 0x1p-100, d));  // across it
  std::mt19937_64 rng(seed + 7);
  const double limits[] = {0x1p-20, 1.0, 8.0, 1e3, 1e5, 0x1.fp19};
  long n = 0, declined = 0, wrong = 0;
  for (double lim : limits) {
    for (long i = 0; i < 5000; ++i) {
      const double xd = draw(rng, lim, i);
      const float xf = static_cast<float>(xd);
      const pm::sincos_result<double> rd = v::cr_sincos<double>(xd);
      const pm::sincos_result<float> rf = v::cr_sincos<float>(static_cast<double>(xf));
      for (int shift = 0; shift < 2; ++shift) {
        n += 2;
        double od = 0.0;
        float of = 0.0f;
        if (pd::trig_double_fast(xd, shift, od)) {
          if (bits(od) != bits(shift == 0 ? rd.sin : rd.cos)) ++wrong;
        } else {
          ++declined;
        }
        if (pd::trig_float_fast(static_cast<double>(xf), shift, of)) {
          if (bits(of) != bits(shift == 0 ? rf.sin : rf.cos)) ++wrong;
        } else {
          ++declined;
        }
      }
      if (wrong != 0) {
        std::printf("mismatch at x = %a\n", xd);
        REQUIRE(wrong == 0);
      }
    }
  }
  std::printf("constant-evaluation paths: %ld results, %ld declined, %ld wrong\n", n, declined, wrong);
  CHECK(wrong == 0);
  CHECK(declined * 4 < n);  // the quarter of arguments near k pi/2 decline often; the rest rarely
}

TEST_CASE("Annex F special values", "[trig]") {
  constexpr double inf = std::numeric_limits<double>::infinity();
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  constexpr float inff = std::numeric_limits<float>::infinity();
  static_assert(std::bit_cast<std::uint64_t>(pm::sin(-0.0)) == 0x8000000000000000u, "sin(-0) = -0");
  static_assert(std::bit_cast<std::uint64_t>(pm::sin(0.0)) == 0, "sin(+0) = +0");
  static_assert(pm::sin(inf) != pm::sin(inf) && pm::cos(-inf) != pm::cos(-inf), "sin/cos(inf) = NaN");
  static_assert(pm::sin(nan) != pm::sin(nan), "NaN -> NaN");
  STATIC_REQUIRE(pm::cos(0.0) == 1.0);
  STATIC_REQUIRE(pm::cos(-0.0) == 1.0);
  STATIC_REQUIRE(pm::cos(-0.0f) == 1.0f);
  CHECK(bits(pm::sin(0.0)) == bits(0.0));
  CHECK(bits(pm::sin(-0.0)) == bits(-0.0));
  CHECK(bits(pm::sin(-0.0f)) == bits(-0.0f));
  CHECK(bits(pm::sincos(-0.0).sin) == bits(-0.0));
  CHECK(pm::sincos(-0.0).cos == 1.0);
  CHECK(std::isnan(pm::sin(inf)));
  CHECK(std::isnan(pm::sin(-inf)));
  CHECK(std::isnan(pm::cos(inf)));
  CHECK(std::isnan(pm::cos(-inf)));
  CHECK(std::isnan(pm::sin(nan)));
  CHECK(std::isnan(pm::cos(nan)));
  CHECK(std::isnan(pm::sin(inff)));
  CHECK(std::isnan(pm::cos(-inff)));
  CHECK(std::isnan(pm::sincos(inf).sin));
  CHECK(std::isnan(pm::sincos(nan).cos));
  // Tiny arguments: RN(sin x) = x below 2^-26 (|x^3/6| < half an ulp), cos = 1 below 2^-27.
  CHECK(bits(pm::sin(0x1p-1074)) == bits(0x1p-1074));
  CHECK(bits(pm::sin(-0x1.8p-30)) == bits(-0x1.8p-30));
  CHECK(pm::cos(0x1p-28) == 1.0);
}

TEST_CASE("sincos equals (sin, cos) bitwise; sin is odd and cos even", "[trig]") {
  std::mt19937_64 rng(seed + 7);
  long n = 0;
  for (double lim : {1.0, 100.0, 1e7}) {
    for (long i = 0; i < 3000; ++i, ++n) {
      const double x = draw(rng, lim, i);
      const auto sc = pm::sincos(x);
      REQUIRE(bits(sc.sin) == bits(pm::sin(x)));
      REQUIRE(bits(sc.cos) == bits(pm::cos(x)));
      REQUIRE(bits(pm::sin(-x)) == bits(-pm::sin(x)));
      REQUIRE(bits(pm::cos(-x)) == bits(pm::cos(x)));
      const float f = static_cast<float>(x);
      const auto scf = pm::sincos(f);
      REQUIRE(bits(scf.sin) == bits(pm::sin(f)));
      REQUIRE(bits(scf.cos) == bits(pm::cos(f)));
      REQUIRE(bits(pm::sin(-f)) == bits(-pm::sin(f)));
      REQUIRE(bits(pm::cos(-f)) == bits(pm::cos(f)));
    }
  }
  CHECK(n == 9000);
}

// A constant-evaluated table on both compilers (the default constexpr limits suffice at this size).
constexpr auto small_table = [] {
  std::array<pm::sincos_result<float>, 40 * 8> t{};
  pm::sincos_geometric_table<float>({10000.0, 2, 16}, 8, std::span(t));
  return t;
}();
static_assert(small_table[0].cos == 1.0f && small_table[0].sin == 0.0f, "row m = 0 is cos 1, sin +0");
constexpr auto small_table_f16 = [] {
  std::array<pm::sincos_result<posenc::float16>, 24 * 4> t{};
  pm::sincos_geometric_table<posenc::float16>({500000.0, 2, 8}, 4, std::span(t));
  return t;
}();
static_assert(small_table_f16[0].cos.bits == 0x3C00 && small_table_f16[0].sin.bits == 0, "float16 1 and +0");
static_assert(pm::sin(1.0) == 0x1.aed548f090ceep-1, "sin(1), the correctly rounded value (MPFR)");

TEST_CASE("sincos_product fast path and tables match MPFR and the scalar functions", "[trig][rope]") {
  std::mt19937_64 rng(seed + 11);
  long n = 0;
  for (long i = 0; i < 20000; ++i) {
    const double th = std::ldexp(std::uniform_real_distribution<double>(0.5, 1.0)(rng), -static_cast<int>(rng() % 20));
    const double tl = std::ldexp(std::uniform_real_distribution<double>(-1.0, 1.0)(rng), std::ilogb(th) - 54);
    const std::uint64_t m = rng() % 100000;
    const pm::double_double theta{th, tl};
    pm::sincos_result<float> rf{};
    pm::sincos_result<double> rd{};
    pd::product_phase phi{};
    if (m == 0 || !pd::product_angle(m, theta, phi)) continue;
    const int df = pd::trig_fast<float>(phi.hi, phi.lo, phi.err, 3, rf);
    const int dd = pd::trig_fast<double>(phi.hi, phi.lo, phi.err, 3, rd);
    const auto ref_f = v::cr_sincos_product<float>(m, theta);
    const auto ref_d = v::cr_sincos_product<double>(m, theta);
    if (df & 1) REQUIRE(bits(rf.sin) == bits(ref_f.sin));
    if (df & 2) REQUIRE(bits(rf.cos) == bits(ref_f.cos));
    if (dd & 1) REQUIRE(bits(rd.sin) == bits(ref_d.sin));
    if (dd & 2) REQUIRE(bits(rd.cos) == bits(ref_d.cos));
    ++n;
  }
  CHECK(n > 19000);

  // Tables == scalar, bitwise, for the four storage types' float (inline test) and bfloat16 paths.
  const std::uint64_t rows = 300;
  std::vector<pm::sincos_result<float>> tf(rows * 32);
  REQUIRE(pm::sincos_geometric_table<float>({10000.0, 2, 64}, 32, std::span(tf)) == posenc::status::ok);
  std::vector<pm::sincos_result<posenc::bfloat16>> tb(rows * 32);
  REQUIRE(pm::sincos_geometric_table<posenc::bfloat16>({10000.0, 2, 64}, 32, std::span(tb)) == posenc::status::ok);
  for (std::uint64_t m = 0; m < rows; ++m) {
    for (int j = 0; j < 32; ++j) {
      const auto s = pm::sincos_geometric<float>(m, 10000.0, 2 * j, 64).value;
      const auto e = tf[m * 32 + static_cast<std::uint64_t>(j)];
      REQUIRE(bits(s.sin) == bits(e.sin));
      REQUIRE(bits(s.cos) == bits(e.cos));
      const auto sb = pm::sincos_geometric<posenc::bfloat16>(m, 10000.0, 2 * j, 64).value;
      REQUIRE(sb.sin.bits == tb[m * 32 + static_cast<std::uint64_t>(j)].sin.bits);
      REQUIRE(sb.cos.bits == tb[m * 32 + static_cast<std::uint64_t>(j)].cos.bits);
    }
  }
  for (int j = 0; j < 32; j += 5) {
    const auto ref = v::cr_rope_sincos<float>(rows - 1, 10000.0, j, 64);
    CHECK(bits(ref.sin) == bits(tf[(rows - 1) * 32 + static_cast<std::uint64_t>(j)].sin));
    CHECK(bits(ref.cos) == bits(tf[(rows - 1) * 32 + static_cast<std::uint64_t>(j)].cos));
  }
  // Scalar rope_sincos against the oracle's exact-frequency values, and the float16 table.
  for (long i = 0; i < 2000; ++i) {
    const std::uint64_t m = rng() % 70000;
    const int j = static_cast<int>(rng() % 64);
    const auto got = pm::sincos_geometric<float>(m, 10000.0, 2 * j, 128).value;
    const auto ref = v::cr_rope_sincos<float>(m, 10000.0, j, 128);
    REQUIRE(bits(got.sin) == bits(ref.sin));
    REQUIRE(bits(got.cos) == bits(ref.cos));
  }
  for (std::size_t k = 0; k < small_table_f16.size(); ++k) {
    const auto s16 = pm::sincos_geometric<posenc::float16>(k / 4, 500000.0, 2 * (static_cast<int>(k % 4)), 8).value;
    REQUIRE(s16.sin.bits == small_table_f16[k].sin.bits);
    REQUIRE(s16.cos.bits == small_table_f16[k].cos.bits);
  }
  std::vector<pm::double_double> thetas = {{1.0, 0.0}, {0.1, 0x1.2p-58}, {-3e-3, 0.0}, {2.5, -0x1p-54}};
  std::vector<pm::sincos_result<float>> tp(rows * thetas.size());
  REQUIRE(pm::sincos_product_table<float>(thetas, std::span(tp)) == posenc::status::ok);
  for (std::size_t j = 0; j < thetas.size(); ++j) {  // m = 0: the real angle 0, so sin = +0 and cos = 1
    CHECK(bits(tp[j].sin) == bits(0.0f));
    CHECK(tp[j].cos == 1.0f);
  }
  for (std::uint64_t m = 1; m < rows; ++m) {
    for (std::size_t j = 0; j < thetas.size(); ++j) {
      const auto ref = v::cr_sincos_product<float>(m, thetas[j]);
      REQUIRE(bits(ref.sin) == bits(tp[m * thetas.size() + j].sin));
      REQUIRE(bits(ref.cos) == bits(tp[m * thetas.size() + j].cos));
    }
  }
}
