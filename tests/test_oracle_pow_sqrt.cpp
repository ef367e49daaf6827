// Oracle tests of posenc::math::{pow, sqrt} (double and float) against MPFR.
//
// Every result must be RN-even of the exact value: 0 ULP from the oracle's correctly rounded
// value (posenc/verify/mpfr.hpp explains why the oracle is sound). Exact and midpoint
// results of pow (powers of two, squares, x^2 with a 27-bit x) are where pow implementations
// usually go wrong, so they are tested exhaustively or in bulk. Each TEST_CASE prints its counts
// and errors, and the seed (override with POSENC_SEED).
#include <catch2/catch.hpp>

#include "sample_count.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include "posenc/math/pow.hpp"
#include "posenc/math/sqrt.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/oracle.hpp"
#include "posenc/verify/random.hpp"
#include "posenc/verify/stats.hpp"

namespace {

namespace v = posenc::verify;
namespace pm = posenc::math;

const char* type_name(double) { return "double"; }
const char* type_name(float) { return "float"; }

using v::print_seed;

template <class T>
struct pow_check {
  v::error_stats st;
  explicit pow_check(const std::string& what) : st(std::string("pow(") + type_name(T{}) + ") " + what) {}
  void operator()(T x, T y) {
    auto o = v::pow_value(static_cast<double>(x), static_cast<double>(y));
    st.add(static_cast<T>(v::unwrap(pm::pow(x, y))), o.template round<T>(), o.approx(),
           {static_cast<double>(x), static_cast<double>(y)});
  }
  void report() const {
    st.print();
    CHECK(st.count() > 0);
    CHECK(st.mismatches() == 0);
    REQUIRE(st.max_ulp() == 0);
  }
};

template <class T>
struct sqrt_check {
  v::error_stats st;
  explicit sqrt_check(const std::string& what) : st(std::string("sqrt(") + type_name(T{}) + ") " + what) {}
  void operator()(T x) {
    auto o = v::sqrt_value(static_cast<double>(x));
    st.add(static_cast<T>(v::unwrap(pm::sqrt(x))), o.template round<T>(), o.approx(), {static_cast<double>(x)});
  }
  void report() const {
    st.print();
    CHECK(st.count() > 0);
    CHECK(st.mismatches() == 0);
    REQUIRE(st.max_ulp() == 0);
  }
};

template <class T>
T positive(T x) {
  return x < T(0) ? -x : x;
}

template <class T>
void random_pow(const char* name) {
  const std::uint64_t seed = posenc_test::stream_seed(v::seed_for(name));
  print_seed(name, seed);
  v::rng g(seed);
  constexpr bool is_double = sizeof(T) == 8;
  pow_check<T> box("x in (0,10], y in [-50,50]"), near1("x near 1, large |y|"), bits("random bits x>0, y in [-50,50]"),
      anyb("random bits x>0, any finite y"), ints("x in (0,10], integer y"), halves("x in (0,10], y = k/8");
  const auto unit_x = [&g] {
    for (;;) {
      const T x = static_cast<T>(g.uniform(0.0, 10.0));
      if (x > T(0)) return x;
    }
  };
  for (int i = 0; i < posenc_test::samples(400000); ++i) box(unit_x(), static_cast<T>(g.uniform(-50.0, 50.0)));
  for (int i = 0; i < posenc_test::samples(200000); ++i) {
    // x = 1 + small (exact in T), |y| up to 2^30 (double) / 2^20 (float): results from tiny to huge.
    const double eps = is_double ? 0x1p-20 : 0x1p-10;
    const T x = static_cast<T>(1.0 + g.uniform(-eps, eps));
    const T y = g.template log_uniform<T>(0, is_double ? 30 : 20);
    near1(x, y);
  }
  for (int i = 0; i < posenc_test::samples(200000); ++i)
    bits(positive(g.template finite<T>()), static_cast<T>(g.uniform(-50.0, 50.0)));
  for (int i = 0; i < posenc_test::samples(100000); ++i) anyb(positive(g.template finite<T>()), g.template finite<T>());
  for (int i = 0; i < posenc_test::samples(50000); ++i)
    ints(unit_x(), static_cast<T>(static_cast<int>(g.below(129)) - 64));
  for (int i = 0; i < posenc_test::samples(50000); ++i)
    halves(unit_x(), static_cast<T>((static_cast<int>(g.below(129)) - 64) / 8.0));
  for (auto* c : {&box, &near1, &bits, &anyb, &ints, &halves}) c->report();
}

template <class T>
void random_sqrt(const char* name) {
  const std::uint64_t seed = posenc_test::stream_seed(v::seed_for(name));
  print_seed(name, seed);
  v::rng g(seed);
  using L = std::numeric_limits<T>;
  constexpr int half = L::digits / 2;  // n < 2^half: n^2 is exact in T
  sqrt_check<T> bits("random positive bits"), sub("subnormal"), unit("uniform (0, 10]"), squares("perfect squares"),
      near_sq("perfect squares +- 1 ulp");
  for (int i = 0; i < posenc_test::samples(400000); ++i) bits(positive(g.template finite<T>()));
  for (int i = 0; i < posenc_test::samples(100000); ++i)
    sub(positive(g.template log_uniform<T>(L::min_exponent - L::digits, L::min_exponent - 1)));
  for (int i = 0; i < posenc_test::samples(300000); ++i) unit(static_cast<T>(g.uniform(0.0, 10.0)));
  for (int i = 0; i < posenc_test::samples(100000); ++i) {
    const auto n = static_cast<double>(g.below(std::uint64_t{1} << half) + 1);
    const int e = static_cast<int>(g.below(static_cast<std::uint64_t>(L::max_exponent - L::min_exponent))) +
                  L::min_exponent - L::digits;
    const T sq = static_cast<T>(std::ldexp(n * n, e & ~1));  // exact unless it over/underflows
    squares(sq);
    near_sq(std::nextafter(sq, L::infinity()));
    near_sq(std::nextafter(sq, T(0)));
  }
  for (auto* c : {&bits, &sub, &unit, &squares, &near_sq}) c->report();
}

}  // namespace

TEST_CASE("oracle: pow(double) on 10^6 random arguments", "[oracle][pow]") { random_pow<double>("pow double random"); }
TEST_CASE("oracle: pow(float) on 10^6 random arguments", "[oracle][pow]") { random_pow<float>("pow float random"); }
TEST_CASE("oracle: sqrt(double) on 10^6 random arguments", "[oracle][sqrt]") {
  random_sqrt<double>("sqrt double random");
}
TEST_CASE("oracle: sqrt(float) on 10^6 random arguments", "[oracle][sqrt]") { random_sqrt<float>("sqrt float random"); }

TEST_CASE("oracle: pow exact and midpoint cases", "[oracle][pow]") {
  const std::uint64_t seed = posenc_test::stream_seed(v::seed_for("pow exact cases"));
  print_seed("pow exact cases", seed);
  v::rng g(seed);
  pow_check<double> p2("2^k, k in [-1080, 1030]"), sq("sqrt of squares"), mid("midpoints x^2"),
      small("small integer powers");
  pow_check<float> p2f("2^k, k in [-155, 130]"), sqf("sqrt of squares"), midf("midpoints x^2");
  // pow(2, k) = 2^k exactly, every k (subnormals included), and just beyond the range (0, inf).
  for (int k = -1080; k <= 1030; ++k) p2(2.0, k);
  for (int k = -155; k <= 130; ++k) p2f(2.0f, static_cast<float>(k));
  for (int k = -540; k <= 515; ++k) p2(4.0, k);
  for (int k = -1080; k <= 1030; ++k) p2(0.5, k);
  // pow(n^2 * 4^e, 0.5) = n * 2^e exactly.
  for (int i = 0; i < posenc_test::samples(20000); ++i) {
    const double n = static_cast<double>(g.below(std::uint64_t{1} << 26) + 1);
    const int e = static_cast<int>(g.below(1000)) - 500;
    sq(std::ldexp(n * n, 2 * e), 0.5);
    const float nf = static_cast<float>(g.below(std::uint64_t{1} << 12) + 1);
    sqf(std::ldexp(nf * nf, 2 * (static_cast<int>(g.below(100)) - 50)), 0.5f);
  }
  // Midpoints: x with a 27-bit odd significand has x^2 with 54 significant bits, exactly halfway
  // between two doubles (ties to even decides); 13-bit odd significands do the same for float.
  for (int i = 0; i < posenc_test::samples(20000); ++i) {
    const double n = static_cast<double>((g.below(std::uint64_t{1} << 26) << 1) | (std::uint64_t{1} << 26) | 1);
    mid(std::ldexp(n, static_cast<int>(g.below(60)) - 50), 2.0);
    const float nf = static_cast<float>((g.below(1u << 12) << 1) | (1u << 12) | 1);
    midf(std::ldexp(nf, static_cast<int>(g.below(30)) - 20), 2.0f);
  }
  // Small integer powers of small integers (exact when they fit) and their reciprocals.
  for (int b = 1; b <= 40; ++b)
    for (int k = -40; k <= 40; ++k) small(static_cast<double>(b), static_cast<double>(k));
  for (auto* c : {&p2, &sq, &mid, &small}) c->report();
  for (auto* c : {&p2f, &sqf, &midf}) c->report();
}

TEST_CASE("oracle: pow special values (C Annex F)", "[oracle][pow]") {
  // Annex F F.10.4.4: pow(x, +-0) = 1 for any x (even NaN), pow(+1, y) = 1 for any y (even NaN),
  // pow(-1, +-inf) = 1, pow(+-0, y<0 odd) = +-inf, ..., as MPFR implements them (mpfr_pow follows
  // ISO C99 Annex F for special values).
  using L = std::numeric_limits<double>;
  pow_check<double> d("special values");
  const double vals[] = {0.0,
                         -0.0,
                         1.0,
                         -1.0,
                         0.5,
                         -0.5,
                         2.0,
                         -2.0,
                         3.0,
                         -3.0,
                         L::infinity(),
                         -L::infinity(),
                         L::quiet_NaN(),
                         L::denorm_min(),
                         L::max(),
                         0x1p-1022};
  const double exps[] = {
      0.0,   -0.0,   1.0,    -1.0,      2.0, -2.0, 3.0, -3.0, 0.5, -0.5, L::infinity(), -L::infinity(), L::quiet_NaN(),
      1e300, -1e300, 0x1p53, 0x1p53 + 2};
  for (double x : vals)
    for (double y : exps) d(x, y);
  pow_check<float> f("special values");
  for (double x : vals)
    for (double y : exps) f(static_cast<float>(x), static_cast<float>(y));
  d.report();
  f.report();
}

TEST_CASE("oracle: sqrt curated cases", "[oracle][sqrt]") {
  v::oracle_config.cross_check = true;
  sqrt_check<double> d("curated");
  sqrt_check<float> f("curated");
  using LD = std::numeric_limits<double>;
  using LF = std::numeric_limits<float>;
  for (int e = -1074; e <= 1023; ++e) {
    const double p = std::ldexp(1.0, e);
    d(p);
    d(std::nextafter(p, 0.0));
    d(std::nextafter(p, 1e308));
  }
  for (int e = -149; e <= 127; ++e) {
    const float p = std::ldexp(1.0f, e);
    f(p);
    f(std::nextafter(p, 0.0f));
    f(std::nextafter(p, 3e38f));
  }
  // sqrt(-0) = -0, sqrt(x < 0) = NaN, sqrt(+inf) = +inf, sqrt(NaN) = NaN (IEEE 754 5.4.1).
  for (double s : {0.0, -0.0, -1.0, -LD::denorm_min(), LD::infinity(), -LD::infinity(), LD::quiet_NaN(), LD::max()})
    d(s);
  for (float s : {0.0f, -0.0f, -1.0f, -LF::denorm_min(), LF::infinity(), -LF::infinity(), LF::quiet_NaN(), LF::max()})
    f(s);
  v::oracle_config.cross_check = false;
  d.report();
  f.report();
}
