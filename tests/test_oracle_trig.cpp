// Oracle tests of posenc::math::{sin, cos, sincos} (double and float) against MPFR.
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

#include "posenc/math/trig.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/oracle.hpp"
#include "posenc/verify/random.hpp"
#include "posenc/verify/stats.hpp"

namespace {

namespace v = posenc::verify;
namespace pm = posenc::math;

// Worst cases for sin (and hard for cos) from CORE-MATH's src/binary64/sin/sin.wc
// (nak5124/core-math mirror), taken from V. Lefevre's testlibm data (46 to 59 identical bits after
// the round bit). A sample of the list; the expected values come from the oracle.
constexpr std::array<double, 40> sin_worst_cases = {
    0x1.005023d32fee5p+1,  0x1.00874a5f9fc33p-13, 0x1.009ee184a02e7p-8,  0x1.0102947e7003bp-3, 0x1.0192deafac33fp+0,
    0x1.034c2318b3f2dp+0,  0x1.04394261cffa6p-1,  0x1.043e268ba402ap+1,  0x1.05149eefb774ap-1, 0x1.0518fffe634f2p-2,
    0x1.057e5c72ad274p+0,  0x1.06800e629d672p-23, 0x1.06800e629d673p-23, 0x1.07d5978b896fcp+0, 0x1.07edc73037d32p+1,
    0x1.08c495b034a31p+0,  0x1.093026e62d889p+1,  0x1.0aedf4dd4ccf8p-2,  0x1.0ba1b997d2e32p+0, 0x1.0d80ff9981295p+0,
    0x1.0e9f8bb095163p+1,  0x1.104614176463ep+0,  0x1.1065078d33361p+1,  0x1.10b4048d92a67p+1, 0x1.184a0aa58191dp-24,
    0x1.184a0aa58191ep-24, 0x1.184a0aa581922p-24, 0x1.1da5d5a23306dp+0,  0x1.1fa6b462b1c81p+1, 0x1.23f40dccdef72p+0,
    0x1.2645db00c9b84p+1,  0x1.276d5c5c9df2cp+1,  0x1.29b798b1566fcp+1,  0x1.2daf8e028c6c9p+0, 0x1.2e8439fd922dep+1,
    0x1.30c7efbee12acp-24, 0x1.34b19761f1f4bp+0,  0x1.36bd8001bb569p+1,  0x1.3aff240e7a743p+1, 0x1.6ebdedd37ba17p+1,
};

// CORE-MATH's exception tables (src/binary32/sin/sinf.c as_sinf_database, src/binary32/cos/cosf.c
// st[]): binary32 inputs its fast paths cannot round. (The 4th sinf entry is not dispatched to
// the table in that code and its rh is not RN; the oracle gives RN = -0x1.99bc5cp-26.)
constexpr std::array<float, 18> coremath_float_cases = {
    0x1.33333p+13f,   0x1.75b8a2p-1f,   0x1.4f0654p+0f,  0x1.2d97c8p+3f,   0x1.4555p+51f,   0x1.3170fp+63f,
    0x1.119ae6p+115f, 0x1.96344ep+117f, 0x1.24f2eep+85f, 0x1.ddebdep+120f, 0x1.ba5a98p+95f, 0x1.a13cb2p+1f,
    0x1.417a5cp+8f,   0x1.34486p+19f,   0x1.48a858p+54f, 0x1.f4a7f4p+106f, 0x1.0a1f74p+58f, 0x1.ea56e2p+73f,
};

// Derived here: the binary32 inputs whose sin / cos are closest to a rounding midpoint, found by
// an exhaustive scan of all positive floats >= 2^-12 (double libm as a filter at 2^-19 ulp, then
// MPFR at 320 bits to rank); distances 2^-26 to 2^-31 float ulp. The scan re-finds CORE-MATH's
// published exceptions (sinf 0x1.33333p+13; cosf 0x1.3170fp+63, 0x1.96344ep+117, 0x1.4555p+51,
// 0x1.119ae6p+115), which cross-checks it.
constexpr std::array<float, 24> derived_sinf_cases = {
    0x1.487e0cp+103f, 0x1.33333p+13f,  0x1.95f654p+44f,  0x1.524856p+80f, 0x1.e35bc6p+7f,  0x1.411b04p+63f,
    0x1.b559b6p+117f, 0x1.8d9d8p+73f,  0x1.a3eda6p+116f, 0x1.bf908ep+68f, 0x1.5bad12p+60f, 0x1.6ad26ep+32f,
    0x1.79dd1ep+75f,  0x1.02f61p+118f, 0x1.e68b32p+91f,  0x1.e7061ep-2f,  0x1.515766p+12f, 0x1.7ec1fep+85f,
    0x1.9eab2ep-4f,   0x1.cf9736p+19f, 0x1.26be98p+54f,  0x1.bf610ap+50f, 0x1.4b4f2cp+22f, 0x1.a88a5p+6f,
};
constexpr std::array<float, 24> derived_cosf_cases = {
    0x1.2b9622p+67f, 0x1.887814p+51f,  0x1.3170fp+63f,   0x1.96344ep+117f, 0x1.4555p+51f,    0x1.119ae6p+115f,
    0x1.e072ecp+67f, 0x1.20ffccp-7f,   0x1.ca46bap+44f,  0x1p-12f,         0x1.8f219cp+5f,   0x1.a8872ap-11f,
    0x1.03b948p+21f, 0x1.715668p+117f, 0x1.b3a7fcp+38f,  0x1.6f1b7p+5f,    0x1.d35c3cp+121f, 0x1.0d5fdcp+20f,
    0x1.41c47p+16f,  0x1.ae2e7ep+110f, 0x1.c9083cp+121f, 0x1.9fabbp+105f,  0x1.f10928p+38f,  0x1.7edc08p+41f,
};

// sin, cos and sincos of T against one oracle evaluation of (cos x, sin x).
template <class T>
struct trig_check {
  v::error_stats s, c, scs, scc;
  explicit trig_check(const std::string& what)
      : s("sin" + suffix() + " " + what),
        c("cos" + suffix() + " " + what),
        scs("sincos" + suffix() + ".sin " + what),
        scc("sincos" + suffix() + ".cos " + what) {}

  static std::string suffix() { return sizeof(T) == 8 ? "(double)" : "(float)"; }

  void operator()(T x) {
    auto o = v::sincos_value(static_cast<double>(x));
    const T es = o.template round<T>(1), ec = o.template round<T>(0);
    const double a = static_cast<double>(x);
    s.add(static_cast<T>(v::unwrap(pm::sin(x))), es, o.approx(1), {a});
    c.add(static_cast<T>(v::unwrap(pm::cos(x))), ec, o.approx(0), {a});
    const auto r = v::unwrap(pm::sincos(x));
    scs.add(static_cast<T>(r.sin), es, o.approx(1), {a});
    scc.add(static_cast<T>(r.cos), ec, o.approx(0), {a});
  }

  void report() const {
    for (const v::error_stats* st : {&s, &c, &scs, &scc}) st->print();
    for (const v::error_stats* st : {&s, &c, &scs, &scc}) {
      INFO(st->count() << " arguments, " << st->mismatches() << " mismatches");
      CHECK(st->count() > 0);
      CHECK(st->mismatches() == 0);
      REQUIRE(st->max_ulp() == 0);
    }
  }
};

template <class T>
void random_trig(const char* name, int max_exp) {
  const std::uint64_t seed = posenc_test::stream_seed(v::seed_for(name));
  v::print_seed(name, seed);
  v::rng g(seed);
  trig_check<T> bits("random bit patterns"), small("uniform |x|<4"), mid("uniform |x|<2^21"), big("|x| in [2^21, max]"),
      tiny("|x| in [min, 1]");
  for (int i = 0; i < posenc_test::samples(300000); ++i) bits(g.finite<T>());
  for (int i = 0; i < posenc_test::samples(300000); ++i) small(static_cast<T>(g.uniform(-4.0, 4.0)));
  for (int i = 0; i < posenc_test::samples(200000); ++i) mid(static_cast<T>(g.uniform(-0x1p21, 0x1p21)));
  for (int i = 0; i < posenc_test::samples(100000); ++i) big(g.log_uniform<T>(21, max_exp));
  for (int i = 0; i < posenc_test::samples(100000); ++i)
    tiny(g.log_uniform<T>(std::numeric_limits<T>::min_exponent - std::numeric_limits<T>::digits, 0));
  for (auto* t : {&bits, &small, &mid, &big, &tiny}) t->report();
}

// Nearest T to k*pi/2 and its two neighbours, for every k < 2^16 and random k up to 2^max_k.
template <class T>
void near_half_pi(const char* name, int max_k, int random_count) {
  const std::uint64_t seed = posenc_test::stream_seed(v::seed_for(name));
  std::printf("[oracle] %s: seed 0x%llx\n", name, static_cast<unsigned long long>(seed));
  v::rng g(seed);
  trig_check<T> near("nearest k*pi/2 +- 1 ulp");
  const auto visit = [&](std::uint64_t k) {
    const T x = v::nearest_multiple_of_half_pi<T>(k);
    near(x);
    near(std::nextafter(x, std::numeric_limits<T>::infinity()));
    near(std::nextafter(x, T(0)));
  };
  for (std::uint64_t k = 1; k < (1u << 16); ++k) visit(k);
  for (int i = 0; i < random_count; ++i) visit((1u << 16) + g.below((std::uint64_t{1} << max_k) - (1u << 16)));
  near.report();
}

template <class T>
void special_values(trig_check<T>& chk) {
  using L = std::numeric_limits<T>;
  for (T x : {T(0), L::denorm_min(), L::min(), L::max(), L::infinity(), L::quiet_NaN(), T(1), T(0.5), T(2), T(3), T(4),
              T(1e-8), T(1e8), T(1e15), T(1e22), T(1e30)}) {
    chk(x);
    chk(-x);
  }
}

}  // namespace

TEST_CASE("oracle: sin/cos/sincos(double) on 10^6 random arguments", "[oracle][trig]") {
  random_trig<double>("trig double random", 1024);
}

TEST_CASE("oracle: sin/cos/sincos(float) on 10^6 random arguments", "[oracle][trig]") {
  random_trig<float>("trig float random", 128);
}

TEST_CASE("oracle: sin/cos/sincos(double) near multiples of pi/2", "[oracle][trig]") {
  near_half_pi<double>("trig double near k*pi/2", 22, 40000);
}

TEST_CASE("oracle: sin/cos/sincos(float) near multiples of pi/2", "[oracle][trig]") {
  near_half_pi<float>("trig float near k*pi/2", 22, 20000);
}

TEST_CASE("oracle: sin/cos/sincos(double) curated hard cases", "[oracle][trig]") {
  v::oracle_config.cross_check = true;  // cheap here: also evaluate at 640 bits and compare
  trig_check<double> chk("curated");
  // The double closest to a multiple of pi/2 (6381956970095103 * 2^797; Kahan, and Muller's
  // "Elementary Functions" ch. 11): its reduced argument cancels about 61 bits.
  const double worst = 6381956970095103.0 * 0x1p797;
  double x = worst;
  for (int i = 0; i < 8; ++i) x = std::nextafter(x, 0.0);
  for (int i = 0; i < 17; ++i, x = std::nextafter(x, 1e308)) {
    chk(x);
    chk(-x);
  }
  for (double w : sin_worst_cases) {
    chk(w);
    chk(-w);
  }
  // Powers of two and their neighbours, up to and beyond 2^21 rad.
  for (int e = -1074; e <= 1023; ++e) {
    const double p = std::ldexp(1.0, e);
    chk(p);
    chk(std::nextafter(p, 0.0));
    chk(std::nextafter(p, 1e308));
  }
  special_values(chk);
  v::oracle_config.cross_check = false;
  chk.report();
}

TEST_CASE("oracle: sin/cos/sincos(float) curated hard cases", "[oracle][trig]") {
  v::oracle_config.cross_check = true;
  trig_check<float> chk("curated");
  for (float w : coremath_float_cases) {
    chk(w);
    chk(-w);
  }
  for (float w : derived_sinf_cases) {
    chk(w);
    chk(-w);
  }
  for (float w : derived_cosf_cases) {
    chk(w);
    chk(-w);
  }
  for (int e = -149; e <= 127; ++e) {
    const float p = std::ldexp(1.0f, e);
    chk(p);
    chk(std::nextafter(p, 0.0f));
    chk(std::nextafter(p, 3e38f));
  }
  special_values(chk);
  v::oracle_config.cross_check = false;
  chk.report();
}
