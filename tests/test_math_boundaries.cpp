// test_math_boundaries.cpp: every internal threshold of the numerics core (posenc/math/), tested at
// the threshold and on both sides against the MPFR oracle (posenc/verify/oracle.hpp).
// The thresholds are of two kinds: where the result changes regime (overflow, the subnormal range,
// a quadrant of the pi/2 reduction) and where the code changes path (fast kernel, accurate path,
// Payne-Hanek reduction). Both must be invisible in the results. At each one the test checks the
// double at the threshold and the 64 doubles either side of it, and a spread of points within
// 2^-20 relative, in double and float.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "posenc/math/exp_log.hpp"
#include "posenc/math/pow.hpp"
#include "posenc/math/sqrt.hpp"
#include "posenc/math/trig.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/oracle.hpp"

namespace {

namespace m = posenc::math;
namespace v = posenc::verify;

template <class T>
bool same_bits(T a, T b) {
  return posenc::verify::detail::to_bits64(a) == posenc::verify::detail::to_bits64(b);
}

// x near t: t itself, 64 doubles either side, and t (1 + i 2^-26) for |i| <= 64.
std::vector<double> around(double t) {
  std::vector<double> xs{t};
  double up = t, dn = t;
  for (int i = 0; i < 64; ++i) {
    up = std::nextafter(up, INFINITY);
    dn = std::nextafter(dn, -INFINITY);
    xs.push_back(up);
    xs.push_back(dn);
  }
  for (int i = -64; i <= 64; ++i) xs.push_back(t * (1 + i * 0x1p-26));
  return xs;
}

template <class T, class F, class O>
int check_unary(const char* name, double t, F f, O oracle) {
  int n = 0;
  for (const double x : around(t)) {
    const T got = f(static_cast<T>(x)), want = oracle(static_cast<double>(static_cast<T>(x)));
    INFO(name << " at x = " << std::hexfloat << static_cast<double>(static_cast<T>(x)) << ": got "
              << static_cast<double>(got) << ", MPFR " << static_cast<double>(want));
    CHECK(same_bits(got, want));
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("exp: overflow, subnormal and path thresholds", "[math][boundary]") {
  int n = 0;
  // double: the true thresholds ln(DBL_MAX + ulp/2) ~ 709.7827, ln(2^-1022) ~ -708.40,
  // ln(2^-1074) ~ -744.44, ln(2^-1075) ~ -745.13; the code's cut-offs 709.79, -745.2 and the
  // accurate-path switches -707 and 709 (exp_log.hpp).
  for (const double t : {0x1.62e42fefa39efp+9, -708.3964185322641, -744.4400719213812, -745.1332191019411, 709.79,
                         -745.2, -707.0, 709.0}) {
    n += check_unary<double>(
        "exp", t, [](double x) { return m::exp(x); }, [](double x) { return v::cr_exp<double>(x); });
  }
  // float: ln(FLT_MAX + ulp/2) ~ 88.7228, ln(2^-126) ~ -87.34, ln(2^-149) ~ -103.28,
  // ln(2^-150) ~ -103.97; the cut-offs 89 and -104 (exp_narrow).
  for (const double t :
       {88.72283935546875, -87.33654475055310, -103.27892990343184, -103.97207708399179, 89.0, -104.0}) {
    n += check_unary<float>(
        "expf", t, [](float x) { return m::exp(x); }, [](double x) { return v::cr_exp<float>(x); });
  }
  WARN("exp boundary values checked: " << n);
}

TEST_CASE("log: around 1, the smallest normal and the largest finite", "[math][boundary]") {
  int n = 0;
  for (const double t : {1.0, 0x1p-1022, 0x1.fffffffffffffp+1023 / (1 + 0x1p-20), 2.0, 0.5}) {
    n += check_unary<double>(
        "log", t, [](double x) { return m::log(x); }, [](double x) { return v::cr_log<double>(x); });
  }
  for (const double t : {1.0, 0x1p-126, 0x1p-149 * 4096, 2.0}) {
    n += check_unary<float>(
        "logf", t, [](float x) { return m::log(x); }, [](double x) { return v::cr_log<float>(x); });
  }
  CHECK(m::log(1.0) == 0.0);  // exact: log 1 = 0, the only finite exact case
  WARN("log boundary values checked: " << n);
}

TEST_CASE("sin and cos: the tiny-argument switch, every quadrant edge, the reduction limit", "[math][boundary]") {
  int n = 0;
  std::vector<double> ts{0x1p-27, -0x1p-27, 0x1p-26};
  // k pi/2 rounded to double, k = 1..12 and some large k: the quadrant of the reduction changes
  // there (reduce.hpp: k = nearest integer to x 2/pi).
  for (int k = 1; k <= 12; ++k) ts.push_back(k * 1.5707963267948966);
  for (const double k : {1e3, 1e6, 123456789.0}) ts.push_back(k * 1.5707963267948966);
  ts.push_back(0x1.8p30);  // reduce_max: past it, the Payne-Hanek path
  ts.push_back(-0x1.8p30);
  for (const double t : ts) {
    n += check_unary<double>(
        "sin", t, [](double x) { return m::sin(x); }, [](double x) { return v::cr_sin<double>(x); });
    n += check_unary<double>(
        "cos", t, [](double x) { return m::cos(x); }, [](double x) { return v::cr_cos<double>(x); });
    n += check_unary<float>(
        "sinf", t, [](float x) { return m::sin(x); }, [](double x) { return v::cr_sin<float>(x); });
    n += check_unary<float>(
        "cosf", t, [](float x) { return m::cos(x); }, [](double x) { return v::cr_cos<float>(x); });
  }
  // Signs by quadrant, for x well inside each (a derivation, not the oracle): x = (q + 1/2) pi/2.
  for (int q = 0; q < 8; ++q) {
    const double x = (q + 0.5) * 1.5707963267948966;
    const int quadrant = q % 4;
    INFO("x = " << x << ", quadrant " << quadrant);
    CHECK((m::sin(x) > 0) == (quadrant < 2));
    CHECK((m::cos(x) > 0) == (quadrant == 0 || quadrant == 3));
  }
  WARN("sin/cos boundary values checked: " << n);
}

TEST_CASE("pow: the overflow and underflow exponents and the path switches", "[math][boundary]") {
  // pow(2, y) = 2^y: the result crosses DBL_MAX at y = 1024, the accurate-path switch Z = 709 at
  // y = 709 / ln 2 ~ 1022.87, the subnormal range at y = -1022, zero at y < -1075; float: 128,
  // -126, -149, -150. Also x = e-ish bases, where Z = y ln x meets the thresholds at other y.
  int n = 0;
  for (const double t : {1024.0, 1023.0, 709.0 / 0.6931471805599453, 709.8 / 0.6931471805599453, -1022.0, -1074.0,
                         -1075.0, -745.2 / 0.6931471805599453, -707.0 / 0.6931471805599453}) {
    for (const double y : around(t)) {
      INFO("pow(2, " << std::hexfloat << y << ")");
      CHECK(same_bits(m::pow(2.0, y), v::cr_pow<double>(2.0, y)));
      ++n;
    }
  }
  for (const double t : {128.0, -126.0, -149.0, -150.0, 89.0 / 0.6931471805599453, -104.0 / 0.6931471805599453}) {
    for (const double yd : around(t)) {
      const float y = static_cast<float>(yd);
      INFO("powf(2, " << std::hexfloat << static_cast<double>(y) << ")");
      CHECK(same_bits(m::pow(2.0f, y), v::cr_pow<float>(2.0, static_cast<double>(y))));
      ++n;
    }
  }
  for (const double t : {709.0, 709.7827128933840, -745.1332191019411}) {  // base 3: y = t / ln 3
    for (const double y : around(t / 1.0986122886681098)) {
      INFO("pow(3, " << std::hexfloat << y << ")");
      CHECK(same_bits(m::pow(3.0, y), v::cr_pow<double>(3.0, y)));
      ++n;
    }
  }
  WARN("pow boundary values checked: " << n);
}

TEST_CASE("sqrt: around perfect squares, 4 and the clamp of the estimate", "[math][boundary]") {
  int n = 0;
  for (const double t : {1.0, 4.0, 2.0, 9.0, 0x1p-1022, 0x1p-1074 * 1024, 0x1.fffffffffffffp+1023 / (1 + 0x1p-20)}) {
    n += check_unary<double>(
        "sqrt", t, [](double x) { return m::sqrt(x); }, [](double x) { return v::cr_sqrt<double>(x); });
    n += check_unary<float>(
        "sqrtf", t > 0x1p127 || t < 0x1p-149 ? 2.0 : t, [](float x) { return m::sqrt(x); },
        [](double x) { return v::cr_sqrt<float>(x); });
  }
  WARN("sqrt boundary values checked: " << n);
}
