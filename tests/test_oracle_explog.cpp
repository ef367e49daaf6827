// Oracle tests of posenc::math::{exp, log} (double and float) against MPFR.
//
// Every result must be RN-even of the exact value: 0 ULP from the oracle's correctly rounded
// value (posenc/verify/mpfr.hpp explains why the oracle is sound). Each TEST_CASE prints
// its counts and errors, and the seed (override with POSENC_SEED).
#include <catch2/catch.hpp>

#include "sample_count.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include "posenc/math/exp_log.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/oracle.hpp"
#include "posenc/verify/random.hpp"
#include "posenc/verify/stats.hpp"

namespace {

namespace v = posenc::verify;
namespace pm = posenc::math;

// Worst cases for exp and log from CORE-MATH (nak5124/core-math mirror):
// src/binary64/exp/exp.wc ("at least 45 identical bits after the round bit") and
// src/binary64/log/log.wc (V. Lefevre's hrcases-explog, "up to 64 identical bits after the round
// bit"). Samples of the lists; the expected values come from the oracle.
constexpr std::array<double, 32> exp_worst_cases = {
    0x1.0122ef37212ebp-1, 0x1.00d48a707b93ep-1, 0x1.00e0e33c8c3fdp-1, 0x1.00bcc31ebded7p-1, 0x1.012c061237773p-1,
    0x1.0303c5638675fp-1, 0x1.0420cae31f66ep-1, 0x1.0582220d9645ep-1, 0x1.091b18c62db66p-1, 0x1.0cf99b01aecb7p-1,
    0x1.1058a8cd8e069p-1, 0x1.16810fa140f05p-1, 0x1.1adc759a06e51p-1, 0x1.239f703242df4p-1, 0x1.2d7d360eb28e8p-1,
    0x1.3465da83dd1acp-1, 0x1.4095d4fb5304p-1,  0x1.5395840919637p-1, 0x1.62e062da73194p-1, 0x1.74654e8d79dfp-1,
    0x1.8a8f202149fb4p-1, 0x1.9c2a5deab0309p-1, 0x1.b4fd6b7f58181p-1, 0x1.cc1ef5bcd9ec6p-1, 0x1.e53c61fc4fbep-1,
    0x1.fedc746ddf8fap-1, 0x1.008eb56314daap+0, 0x1.0f67c115ce1dep+0, 0x1.2cf4f31c708bp+0,  0x1.4feb43840b5e8p+0,
    0x1.634475bcb1429p+0, 0x1.6fbce05407de8p+0,
};
constexpr std::array<double, 32> log_worst_cases = {
    0x1.a6ae5142326b5p+0,  0x1.a6ba95b1520f9p+0,  0x1.c877cba59d0acp+0,  0x1.1e852e6951306p+1,  0x1.efcbe699decc2p+0,
    0x1.000976581ce4ep+1,  0x1.24dea21900258p+1,  0x1.3fa2991e8c0c2p+1,  0x1.4c51a4a379a23p+1,  0x1.967e2d739876bp+1,
    0x1.ffcd1f1e0c16fp+1,  0x1.2d26e1ebebee6p+2,  0x1.45ac1494a8454p+2,  0x1.94a11eb4a79dfp+2,  0x1.39e3e05fe5f35p+3,
    0x1.0af4fba7063b8p+4,  0x1.84a5538257275p+4,  0x1.0bb1747d46314p+5,  0x1.186e96b6dca56p+6,  0x1.15956b273c365p+8,
    0x1.38a3dbb5a6a4fp+10, 0x1.6f6cc943605c5p+11, 0x1.a455a70c31d8p+13,  0x1.467cb238723a1p+15, 0x1.9926786ab547fp+17,
    0x1.7d822b508bb3bp+20, 0x1.5106c15d1fc3fp+22, 0x1.8992bd496d364p+25, 0x1.187473f1019f6p+31, 0x1.c20cb1c736ec7p+36,
    0x1.b890ca8637ae2p+40, 0x1.a6004162f2b8cp+45,
};

// Derived here: the binary32 inputs whose expf / logf are closest to a rounding midpoint, from an
// exhaustive scan of all floats in the non-trivial domain (double libm as a filter at 2^-19 ulp,
// then MPFR at 320 bits to rank); distances 2^-28 to 2^-34 float ulp.
constexpr std::array<float, 24> derived_expf_cases = {
    -0x1.d2259ap+3f, -0x1.e1dbe2p-8f, -0x1.65cf3p+6f,  0x1.fdff02p-17f, -0x1.c1c4b8p-10f, -0x1p-25f,
    0x1.8d7cb6p-12f, 0x1.cd3982p-14f, 0x1.747de2p-15f, 0x1.344e9cp-5f,  0x1.62b666p+1f,   0x1.036492p+1f,
    0x1.cb763ap-12f, 0x1.fbff82p-18f, 0x1.112856p+6f,  0x1.f7ffc2p-19f, 0x1.efffe2p-20f,  0x1.dffff2p-21f,
    0x1.bffffap-22f, 0x1.7ffffep-23f, 0x1p-24f,        0x1.fffffep-25f, -0x1.548c34p-7f,  0x1.cce332p+0f,
};
constexpr std::array<float, 24> derived_logf_cases = {
    0x1.b121a6p+76f,  0x1.bacb4ap+25f,  0x1.c09d7cp+27f, 0x1.2f1fd6p+3f,  0x1.22d57p-65f,  0x1.5190cp+78f,
    0x1.827a74p-7f,   0x1.6351d8p+95f,  0x1.b97c7p-14f,  0x1.cb534cp+13f, 0x1.d1309cp+62f, 0x1.f0ddep-8f,
    0x1.cfd86ep+116f, 0x1.917748p-100f, 0x1.98496ep-39f, 0x1.390ffp-93f,  0x1.088d96p-74f, 0x1.9ab656p+13f,
    0x1.577ac6p+78f,  0x1.925308p-35f,  0x1.0be824p+30f, 0x1.fa45fp-44f,  0x1.c7f44cp-46f, 0x1.cc24d6p-44f,
};

const char* type_name(double) { return "double"; }
const char* type_name(float) { return "float"; }

// One function, one overload, one argument family.
template <class T, class Lib, class Value>
struct unary_check {
  v::error_stats st;
  Lib lib;
  Value value;
  unary_check(const std::string& fn, const std::string& what, Lib l, Value val)
      : st(fn + "(" + type_name(T{}) + ") " + what), lib(l), value(val) {}
  void operator()(T x) {
    auto o = value(static_cast<double>(x));
    st.add(static_cast<T>(v::unwrap(lib(x))), o.template round<T>(), o.approx(), {static_cast<double>(x)});
  }
  void report() const {
    st.print();
    CHECK(st.count() > 0);
    CHECK(st.mismatches() == 0);
    REQUIRE(st.max_ulp() == 0);
  }
};

template <class T>
auto exp_check(const std::string& what) {
  return unary_check<T, T (*)(T), decltype(&v::exp_value)>(
      "exp", what, [](T x) { return static_cast<T>(pm::exp(x)); }, &v::exp_value);
}
template <class T>
auto log_check(const std::string& what) {
  return unary_check<T, T (*)(T), decltype(&v::log_value)>(
      "log", what, [](T x) { return static_cast<T>(pm::log(x)); }, &v::log_value);
}

using v::print_seed;

// Thresholds of exp in T: log(max), log(min normal), log(min subnormal), log(min subnormal / 2).
template <class T>
std::array<double, 4> exp_thresholds() {
  using L = std::numeric_limits<T>;
  const double sub = v::cr_log<double>(static_cast<double>(L::denorm_min()));
  // log(denorm_min / 2) = log(denorm_min) - log 2, within a few ulps (2^-1075 is no double); the
  // callers scan +-40 ulps around it, which covers the exact threshold's nearest double.
  return {v::cr_log<double>(static_cast<double>(L::max())), v::cr_log<double>(static_cast<double>(L::min())), sub,
          sub - 0x1.62e42fefa39efp-1};
}

template <class T>
void random_exp(const char* name) {
  const std::uint64_t seed = posenc_test::stream_seed(v::seed_for(name));
  print_seed(name, seed);
  v::rng g(seed);
  using L = std::numeric_limits<T>;
  const auto th = exp_thresholds<T>();
  const double lo = th[3] - 1.0, hi = th[0] + 1.0;  // [-746, 710] for double, [-105, 89.7] for float
  auto bits = exp_check<T>("random bits in domain"), wide = exp_check<T>("uniform over domain"),
       small = exp_check<T>("uniform |x|<4"), edge = exp_check<T>("near overflow/subnormal bounds"),
       tiny = exp_check<T>("tiny |x|"), out = exp_check<T>("random bits, any");
  for (int n = 0; n < 250000;) {
    const T x = g.finite<T>();
    if (static_cast<double>(x) < lo || static_cast<double>(x) > hi) continue;
    bits(x);
    ++n;
  }
  for (int i = 0; i < posenc_test::samples(350000); ++i) wide(static_cast<T>(g.uniform(lo, hi)));
  for (int i = 0; i < posenc_test::samples(250000); ++i) small(static_cast<T>(g.uniform(-4.0, 4.0)));
  for (int i = 0; i < posenc_test::samples(100000); ++i) {
    const double t = th[g.below(4)];
    edge(static_cast<T>(t + g.uniform(-0.05, 0.05)));
  }
  for (int i = 0; i < posenc_test::samples(40000); ++i) tiny(g.log_uniform<T>(L::min_exponent - L::digits, -20));
  for (int i = 0; i < posenc_test::samples(10000); ++i) out(g.finite<T>());
  for (auto* c : {&bits, &wide, &small, &edge, &tiny, &out}) c->report();
}

template <class T>
void random_log(const char* name) {
  const std::uint64_t seed = posenc_test::stream_seed(v::seed_for(name));
  print_seed(name, seed);
  v::rng g(seed);
  using L = std::numeric_limits<T>;
  auto bits = log_check<T>("random positive bits"), sub = log_check<T>("subnormal"),
       unit = log_check<T>("uniform (0, 10]"), one = log_check<T>("near 1"),
       mag = log_check<T>("log-uniform magnitude");
  for (int i = 0; i < posenc_test::samples(400000); ++i) {
    const T x = g.finite<T>();
    bits(x < T(0) ? -x : x);
  }
  for (int i = 0; i < posenc_test::samples(50000); ++i) {
    const T x = g.log_uniform<T>(L::min_exponent - L::digits, L::min_exponent - 1);
    sub(x < T(0) ? -x : x);
  }
  for (int i = 0; i < posenc_test::samples(300000); ++i) {
    const T x = static_cast<T>(g.uniform(0.0, 10.0));
    if (x > T(0)) unit(x);
  }
  for (int i = 0; i < posenc_test::samples(150000); ++i) one(static_cast<T>(1.0 + g.uniform(-0x1p-10, 0x1p-10)));
  for (int i = 0; i < posenc_test::samples(100000); ++i) {
    const T x = g.log_uniform<T>(L::min_exponent - 1, L::max_exponent - 1);
    mag(x < T(0) ? -x : x);
  }
  for (auto* c : {&bits, &sub, &unit, &one, &mag}) c->report();
}

}  // namespace

TEST_CASE("oracle: exp(double) on 10^6 random arguments", "[oracle][exp]") { random_exp<double>("exp double random"); }
TEST_CASE("oracle: exp(float) on 10^6 random arguments", "[oracle][exp]") { random_exp<float>("exp float random"); }
TEST_CASE("oracle: log(double) on 10^6 random arguments", "[oracle][log]") { random_log<double>("log double random"); }
TEST_CASE("oracle: log(float) on 10^6 random arguments", "[oracle][log]") { random_log<float>("log float random"); }

TEST_CASE("oracle: exp curated hard cases", "[oracle][exp]") {
  v::oracle_config.cross_check = true;  // cheap here: also evaluate at 640 bits and compare
  auto d = exp_check<double>("curated");
  auto f = exp_check<float>("curated");
  for (double w : exp_worst_cases) {
    d(w);
    d(-w);
  }
  for (float w : derived_expf_cases) f(w);
  // exp(0) = 1 exactly, tiny arguments, and every threshold with 40 neighbours either side.
  for (double x : {0.0, -0.0, 0x1p-54, -0x1p-54, 0x1p-53, -0x1p-53, 0x1p-1074, -0x1p-1074}) d(x);
  for (float x : {0.0f, -0.0f, 0x1p-25f, -0x1p-25f, 0x1p-24f, -0x1p-24f, 0x1p-149f, -0x1p-149f}) f(x);
  for (double t : exp_thresholds<double>()) {
    double x = t;
    for (int i = 0; i < 40; ++i) x = std::nextafter(x, -1e308);
    for (int i = 0; i <= 80; ++i, x = std::nextafter(x, 1e308)) d(x);
  }
  for (double t : exp_thresholds<float>()) {
    float x = static_cast<float>(t);
    for (int i = 0; i < 40; ++i) x = std::nextafter(x, -3e38f);
    for (int i = 0; i <= 80; ++i, x = std::nextafter(x, 3e38f)) f(x);
  }
  // Integers: exp(k) for every k whose result is finite or just overflows.
  for (int k = -760; k <= 720; ++k) d(static_cast<double>(k));
  for (int k = -110; k <= 95; ++k) f(static_cast<float>(k));
  // Special values (C Annex F): exp(+inf) = +inf, exp(-inf) = +0, exp(NaN) = NaN, overflow to inf.
  for (double x : {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::quiet_NaN(), 1e308, -1e308, 1000.0, -1000.0})
    d(x);
  for (float x : {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::quiet_NaN(), 3e38f, -3e38f, 100.0f, -110.0f})
    f(x);
  v::oracle_config.cross_check = false;
  d.report();
  f.report();
}

TEST_CASE("oracle: log curated hard cases", "[oracle][log]") {
  v::oracle_config.cross_check = true;
  auto d = log_check<double>("curated");
  auto f = log_check<float>("curated");
  for (double w : log_worst_cases) d(w);
  for (float w : derived_logf_cases) f(w);
  // log(1) = +0 exactly; log of every power of two (exact multiples of log 2) and neighbours.
  d(1.0);
  f(1.0f);
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
  // 1 +- k ulps, where log(x) ~ x - 1 is tiny.
  double x = 1.0;
  float y = 1.0f;
  for (int i = 0; i < 64; ++i) d(x = std::nextafter(x, 2.0));
  x = 1.0;
  for (int i = 0; i < 64; ++i) d(x = std::nextafter(x, 0.0));
  for (int i = 0; i < 64; ++i) f(y = std::nextafter(y, 2.0f));
  y = 1.0f;
  for (int i = 0; i < 64; ++i) f(y = std::nextafter(y, 0.0f));
  // Special values (C Annex F): log(+-0) = -inf, log(x<0) = NaN, log(+inf) = +inf, log(NaN) = NaN.
  using LD = std::numeric_limits<double>;
  using LF = std::numeric_limits<float>;
  for (double s : {0.0, -0.0, -1.0, -LD::denorm_min(), LD::infinity(), -LD::infinity(), LD::quiet_NaN(), LD::max(),
                   LD::min(), LD::denorm_min()})
    d(s);
  for (float s : {0.0f, -0.0f, -1.0f, -LF::denorm_min(), LF::infinity(), -LF::infinity(), LF::quiet_NaN(), LF::max(),
                  LF::min(), LF::denorm_min()})
    f(s);
  v::oracle_config.cross_check = false;
  d.report();
  f.report();
}

namespace {

// MPFR's own rounding into a format (exponent range of T + mpfr_subnormalize: the method of the
// MPFR manual, section "Exceptions"), as an independent check of the oracle's round_into.
template <class T>
std::uint64_t mpfr_reference_round(mpfr_srcptr y) {
  namespace d = posenc::verify::detail;
  constexpr int p = d::fmt<T>::precision;
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  mpfr_set_emin(d::fmt<T>::min_exponent - p + 2);  // MPFR exponents: x = 0.1b... * 2^e
  mpfr_set_emax(d::fmt<T>::max_exponent + 1);
  d::mp r(p);
  int t = mpfr_set(r.get(), y, MPFR_RNDN);
  t = mpfr_check_range(r.get(), t, MPFR_RNDN);
  mpfr_subnormalize(r.get(), t, MPFR_RNDN);
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  return d::round_into_bits<T>(r.get());  // r is representable in T: this only encodes it
}

template <class T>
std::uint64_t self_check_rounding(v::rng& g, int n) {
  namespace d = posenc::verify::detail;
  constexpr int p = d::fmt<T>::precision;
  std::uint64_t bad = 0;
  d::mp y(200), t(200);
  for (int i = 0; i < n; ++i) {
    const long span = d::fmt<T>::max_exponent - d::fmt<T>::min_exponent + 2 * p + 20;
    const long e = static_cast<long>(g.below(static_cast<std::uint64_t>(span))) + d::fmt<T>::min_exponent - p - 10;
    const std::uint64_t m = g.next() | (std::uint64_t{1} << 63);
    switch (g.below(3)) {
      case 0:  // an exact midpoint at precision p of binade e (ties to even, subnormal ones too)
        mpfr_set_uj_2exp(y.get(), (m >> (64 - p - 1)) | 1, e - p, MPFR_RNDN);
        break;
      case 1:  // a value with at most p bits
        mpfr_set_uj_2exp(y.get(), m >> (64 - p), e - p + 1, MPFR_RNDN);
        break;
      default:  // 128 random bits
        mpfr_set_uj_2exp(y.get(), m, e - 63, MPFR_RNDN);
        mpfr_set_uj_2exp(t.get(), g.next(), e - 127, MPFR_RNDN);
        mpfr_add(y.get(), y.get(), t.get(), MPFR_RNDN);
    }
    if ((g.next() & 1) != 0) mpfr_neg(y.get(), y.get(), MPFR_RNDN);
    if (d::round_into_bits<T>(y.get()) != mpfr_reference_round<T>(y.get())) ++bad;
  }
  return bad;
}

}  // namespace

TEST_CASE("oracle self-check: one rounding into double, float, bfloat16, float16", "[oracle][self]") {
  const std::uint64_t seed = posenc_test::stream_seed(v::seed_for("oracle self-check"));
  print_seed("oracle self-check", seed);
  v::rng g(seed);
  const std::uint64_t bd = self_check_rounding<double>(g, 50000), bf = self_check_rounding<float>(g, 50000),
                      bb = self_check_rounding<posenc::bfloat16>(g, 50000),
                      bh = self_check_rounding<posenc::float16>(g, 50000);
  std::printf("[oracle] self-check rounding vs mpfr_subnormalize: 4 x 50000 values, mismatches %llu %llu %llu %llu\n",
              static_cast<unsigned long long>(bd), static_cast<unsigned long long>(bf),
              static_cast<unsigned long long>(bb), static_cast<unsigned long long>(bh));
  CHECK(bd == 0);
  CHECK(bf == 0);
  CHECK(bb == 0);
  CHECK(bh == 0);
  // Published values: CORE-MATH's sinf exception table gives RN(sinf) = rh for these inputs
  // (src/binary32/sin/sinf.c, as_sinf_database; rl is a tail below half an ulp).
  CHECK(v::cr_sin<float>(static_cast<double>(0x1.33333p+13f)) == -0x1.63f4bap-2f);
  CHECK(v::cr_sin<float>(static_cast<double>(0x1.75b8a2p-1f)) == 0x1.55688ap-1f);
  CHECK(v::cr_sin<float>(static_cast<double>(0x1.4f0654p+0f)) == 0x1.ee836cp-1f);
  // Exact cases keep their value and ties go to even: 2^-1075 (half the smallest subnormal) -> +0,
  // 3 * 2^-1075 -> 2^-1073; pow(2, 0.5) is not exact and rounds to the double sqrt(2).
  CHECK(v::cr_pow<double>(2.0, -1075.0) == 0.0);
  CHECK(v::cr_pow<double>(2.0, -1074.0) == 0x1p-1074);
  CHECK(v::cr_pow<float>(2.0, -150.0) == 0.0f);
  CHECK(v::cr_pow<posenc::float16>(2.0, -25.0).bits == 0);
  CHECK(v::cr_pow<posenc::float16>(2.0, -24.0).bits == 1);
  CHECK(v::cr_pow<posenc::float16>(2.0, 16.0).bits == 0x7C00);     // 65536 overflows binary16
  CHECK(v::cr_pow<posenc::float16>(65520.0, 1.0).bits == 0x7C00);  // the binary16 overflow tie
  CHECK(v::cr_pow<posenc::float16>(65519.0, 1.0).bits == 0x7BFF);
  CHECK(v::cr_pow<posenc::bfloat16>(257.0, 1.0).bits == 0x4380);  // 257 ties to 256 (even)
  CHECK(v::cr_pow<posenc::bfloat16>(259.0, 1.0).bits == 0x4382);  // 259 ties to 260 (even)
  CHECK(v::cr_pow<double>(2.0, 0.5) == 0x1.6a09e667f3bcdp+0);
  // Cross-check mode (two precisions) agrees on a hard case and on an exact one.
  v::oracle_config.cross_check = true;
  CHECK(v::cr_exp<double>(exp_worst_cases[0]) == v::cr_exp<double>(exp_worst_cases[0]));
  CHECK(v::cr_log<float>(1.0) == 0.0f);
  v::oracle_config.cross_check = false;
}
