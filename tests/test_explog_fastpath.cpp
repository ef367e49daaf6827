// The fast paths of exp, log, pow and rope_theta against MPFR: each claimed error bound must hold
// on >= 10^5 arguments (the measured maximum is printed as a fraction of the bound); whenever
// Ziv's test accepts, the result equals MPFR's correctly rounded one; C17 Annex F special values;
// rope_theta's relative error against its stated bound.
#include <mpfr.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>

#include "posenc/math/exp_log.hpp"
#include "posenc/math/geometric_frequency.hpp"
#include "posenc/math/pow.hpp"
#include "sample_count.hpp"

namespace {

namespace d = posenc::detail;
namespace m = posenc::math;

constexpr long kArgs = posenc_test::samples(100000);  // a tenth in the sanitizer build

// A 1200-bit MPFR number; every sum of doubles used below is exact at this precision.
struct big {
  mpfr_t v;
  big() { mpfr_init2(v, 1200); }
  ~big() { mpfr_clear(v); }
  big(const big&) = delete;
  big& operator=(const big&) = delete;
};

// |(hi + lo) 2^k - ref| as a double.
double abs_err(double hi, double lo, int k, const big& ref) {
  big t;
  mpfr_set_d(t.v, hi, MPFR_RNDN);
  mpfr_add_d(t.v, t.v, lo, MPFR_RNDN);
  mpfr_mul_2si(t.v, t.v, k, MPFR_RNDN);
  mpfr_sub(t.v, t.v, ref.v, MPFR_RNDN);
  return std::fabs(mpfr_get_d(t.v, MPFR_RNDN));
}

double rel_err(double hi, double lo, int k, const big& ref) {
  return abs_err(hi, lo, k, ref) / std::fabs(mpfr_get_d(ref.v, MPFR_RNDN));
}

// MPFR's correctly rounded result in T (double or float), subnormals included.
template <class T>
T cr_ref(const big& exact) {
  constexpr bool dbl = std::is_same_v<T, double>;
  mpfr_set_emin(dbl ? -1073 : -148);
  mpfr_set_emax(dbl ? 1024 : 128);
  mpfr_t r;
  mpfr_init2(r, dbl ? 53 : 24);
  int t = mpfr_set(r, exact.v, MPFR_RNDN);
  t = mpfr_check_range(r, t, MPFR_RNDN);
  mpfr_subnormalize(r, t, MPFR_RNDN);
  const T out = dbl ? static_cast<T>(mpfr_get_d(r, MPFR_RNDN)) : static_cast<T>(mpfr_get_flt(r, MPFR_RNDN));
  mpfr_clear(r);
  mpfr_set_emin(mpfr_get_emin_min());
  mpfr_set_emax(mpfr_get_emax_max());
  return out;
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

void report(const char* what, double worst, long fallbacks, long n) {
  std::printf("%-34s max error = %.4f of the bound; Ziv failures %ld / %ld\n", what, worst, fallbacks, n);
}

double log_uniform(std::mt19937_64& g, double lo_exp, double hi_exp) {
  std::uniform_real_distribution<double> u(lo_exp, hi_exp);
  return std::exp2(u(g));
}

}  // namespace

TEST_CASE("exp double-double kernel: error below 2^-102, Ziv-accepted results correctly rounded", "[explog]") {
  std::mt19937_64 g(posenc_test::stream_seed(1));
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double worst = 0;
  long fails = 0, bad = 0;
  for (long n = 0; n < kArgs; ++n) {
    double xh = n % 3 == 0 ? std::ldexp(u(g) - 0.5, -static_cast<int>(u(g) * 60)) : -707.0 + 1416.0 * u(g);
    double xl = 0;
    if (n % 2 == 1) {  // a double-double argument, as pow and rope_theta pass
      xh = -746.0 + 1492.0 * u(g);
      xl = std::ldexp(u(g) - 0.5, std::ilogb(xh) - 52);
    }
    big x, ref;
    mpfr_set_d(x.v, xh, MPFR_RNDN);
    mpfr_add_d(x.v, x.v, xl, MPFR_RNDN);
    mpfr_exp(ref.v, x.v, MPFR_RNDN);
    const d::exp_parts e = d::exp_dd_eval(xh, xl);
    const double ratio = rel_err(e.hi, e.lo, e.k, ref) / d::exp_dd_rel_error;
    worst = std::max(worst, ratio);
    if (xl == 0 && xh >= -707 && xh <= 709) {
      double out = 0;
      if (d::ziv_round<double>(e.hi, e.lo, e.hi * 0x1.01p-102, out)) {
        if (!same_bits(out * d::exp2i(e.k), cr_ref<double>(ref))) ++bad;
      } else {
        ++fails;
      }
    }
  }
  report("exp_dd_eval (2^-102)", worst, fails, kArgs);
  CHECK(worst <= 1.0);
  CHECK(worst > 1e-3);  // the measurement is meaningful (errors are not all zero)
  CHECK(bad == 0);
}

TEST_CASE("exp plain-double kernel: error below 2^-58, float results correctly rounded", "[explog]") {
  std::mt19937_64 g(posenc_test::stream_seed(2));
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double worst = 0;
  long fails = 0, bad = 0;
  for (long n = 0; n < kArgs; ++n) {
    const float xf = n % 3 == 0 ? static_cast<float>(std::ldexp(u(g) - 0.5, -static_cast<int>(u(g) * 30)))
                                : static_cast<float>(-104.0 + 193.0 * u(g));
    double xh = xf, xl = 0;
    if (n % 2 == 1) {
      xh = -105.0 + 210.0 * u(g);
      xl = std::ldexp(u(g) - 0.5, -47);
    }
    big x, ref;
    mpfr_set_d(x.v, xh, MPFR_RNDN);
    mpfr_add_d(x.v, x.v, xl, MPFR_RNDN);
    mpfr_exp(ref.v, x.v, MPFR_RNDN);
    const d::exp_parts e = d::exp_small_eval(xh, xl);
    worst = std::max(worst, rel_err(e.hi, e.lo, e.k, ref) / d::exp_small_rel_error);
    if (xl == 0) {
      const double s = d::exp2i(e.k);
      float out = 0;
      if (d::ziv_round<float>(e.hi * s, e.lo * s, e.hi * s * 0x1.01p-58, out)) {
        if (!same_bits(out, cr_ref<float>(ref))) ++bad;
      } else {
        ++fails;
      }
    }
  }
  report("exp_small_eval (2^-58)", worst, fails, kArgs);
  CHECK(worst <= 1.0);
  CHECK(worst > 1e-3);
  CHECK(bad == 0);
}

// exp's paths written for constant evaluation (detail/exp_scalar_fast.hpp): every result they
// accept equals MPFR's, and they decline rarely.
TEST_CASE("exp constant-evaluation fast paths: accepted results correctly rounded", "[explog]") {
  std::mt19937_64 rng(posenc_test::stream_seed(7));
  std::uniform_real_distribution<double> wide(-707.0, 709.0), narrow(-87.0, 88.5), mag(-60.0, 3.0);
  long n = 0, declined = 0, wrong = 0;
  for (long i = 0; i < kArgs / 4; ++i) {
    const double xs[] = {wide(rng), (i % 2 ? 1.0 : -1.0) * std::exp2(mag(rng))};
    for (double x : xs) {
      double od = 0.0;
      ++n;
      if (d::exp_double_fast(x, od)) {
        big ref;
        mpfr_set_d(ref.v, x, MPFR_RNDN);
        mpfr_exp(ref.v, ref.v, MPFR_RNDN);
        if (!same_bits(od, cr_ref<double>(ref))) ++wrong;
      } else {
        ++declined;
      }
    }
    const float xf = static_cast<float>(narrow(rng));
    float of = 0.0f;
    ++n;
    if (d::exp_float_fast(static_cast<double>(xf), of)) {
      big ref;
      mpfr_set_d(ref.v, static_cast<double>(xf), MPFR_RNDN);
      mpfr_exp(ref.v, ref.v, MPFR_RNDN);
      if (!same_bits(of, cr_ref<float>(ref))) ++wrong;
    } else {
      ++declined;
    }
  }
  std::printf("exp constant-evaluation paths: %ld results, %ld declined, %ld wrong\n", n, declined, wrong);
  CHECK(wrong == 0);
  CHECK(declined * 1000 < n);
}

TEST_CASE("log double-double kernels: dd_log below 2^-101, log_dd_mant below 2^-102.3", "[explog]") {
  std::mt19937_64 g(posenc_test::stream_seed(3));
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double worst = 0, worst_mant = 0;
  long fails = 0, bad = 0;
  for (long n = 0; n < kArgs; ++n) {
    double x = 0;
    switch (n % 4) {
      case 0: {  // any finite positive double
        const std::uint64_t b = g() & 0x7FEFFFFFFFFFFFFFull;
        std::memcpy(&x, &b, 8);
        break;
      }
      case 1: x = 1.0 + std::ldexp(u(g) - 0.5, -static_cast<int>(u(g) * 50)); break;  // near 1
      case 2: x = 0.5 + 1.5 * u(g); break;
      default: x = log_uniform(g, -1074, 1024); break;
    }
    if (!(x > 0) || x == 1.0 || !std::isfinite(x)) continue;
    big xx, ref, lm;
    mpfr_set_d(xx.v, x, MPFR_RNDN);
    mpfr_log(ref.v, xx.v, MPFR_RNDN);
    const m::double_double l = d::dd_log(x);
    worst = std::max(worst, rel_err(l.hi, l.lo, 0, ref) / d::log_dd_rel_error);
    const d::log_parts p = d::log_dd_mant(x);
    mpfr_const_log2(lm.v, MPFR_RNDN);
    mpfr_mul_si(lm.v, lm.v, p.E, MPFR_RNDN);
    mpfr_sub(lm.v, ref.v, lm.v, MPFR_RNDN);             // log x - E ln2, exact to ~1190 bits
    if (!(p.Lm.hi == 0 && mpfr_get_exp(lm.v) < -1000))  // x a power of two: Lm exactly 0
      worst_mant = std::max(worst_mant, rel_err(p.Lm.hi, p.Lm.lo, 0, lm) / std::ldexp(std::exp2(-0.3), -102));
    double out = 0;
    if (d::ziv_round<double>(l.hi, l.lo, std::fabs(l.hi) * 0x1.01p-101, out)) {
      if (!same_bits(out, cr_ref<double>(ref))) ++bad;
    } else {
      ++fails;  // x within a few ulps of 1 are genuinely hard (log(1+t) ~ t - t^2/2)
    }
  }
  report("dd_log (2^-101)", worst, fails, kArgs);
  report("log_dd_mant (2^-102.3, log_kernel.hpp)", worst_mant, 0, kArgs);
  CHECK(worst <= 1.0);
  CHECK(worst_mant <= 1.0);
  CHECK(worst > 1e-3);
  CHECK(bad == 0);
}

TEST_CASE("log plain-double kernel: error below its returned err, float results correctly rounded", "[explog]") {
  std::mt19937_64 g(posenc_test::stream_seed(4));
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double worst = 0;
  long fails = 0, bad = 0, n_float = 0;
  for (long n = 0; n < kArgs; ++n) {
    double x = 0;
    const bool as_float = n % 2 == 0;
    if (as_float) {
      std::uint32_t b = static_cast<std::uint32_t>(g()) & 0x7F7FFFFFu;
      float f = 0;
      std::memcpy(&f, &b, 4);
      if (n % 6 == 0) f = static_cast<float>(1.0 + std::ldexp(u(g) - 0.5, -static_cast<int>(u(g) * 24)));
      x = f;
    } else {
      x = n % 3 == 0 ? 1.0 + std::ldexp(u(g) - 0.5, -static_cast<int>(u(g) * 50)) : log_uniform(g, -1074, 1024);
    }
    if (!(x > 0) || x == 1.0 || !std::isfinite(x)) continue;
    big xx, ref;
    mpfr_set_d(xx.v, x, MPFR_RNDN);
    mpfr_log(ref.v, xx.v, MPFR_RNDN);
    const d::log_small_result l = d::log_small_eval(x);
    worst = std::max(worst, abs_err(l.hi, l.lo, 0, ref) / l.err);
    if (as_float) {
      ++n_float;
      float out = 0;
      if (d::ziv_round<float>(l.hi, l.lo, l.err, out)) {
        if (!same_bits(out, cr_ref<float>(ref))) ++bad;
      } else {
        ++fails;
      }
    }
  }
  report("log_small_eval (err)", worst, fails, n_float);
  CHECK(worst <= 1.0);
  CHECK(worst > 1e-3);
  CHECK(bad == 0);
}

TEST_CASE("pow kernels: error below the returned err, Ziv-accepted results correctly rounded", "[explog]") {
  std::mt19937_64 g(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  double worst = 0, worst_f = 0;
  long fails = 0, fails_f = 0, bad = 0, used = 0, used_f = 0;
  for (long n = 0; n < kArgs; ++n) {
    double x = log_uniform(g, -30, 30), y = (u(g) - 0.5) * 60;
    if (n % 4 == 1) {
      x = log_uniform(g, -1000, 1000);
      y = (u(g) - 0.5) * 2;
    }
    if (n % 4 == 2) {
      x = 1.0 + std::ldexp(u(g) - 0.5, -20);
      y = (u(g) - 0.5) * 1e9;
    }
    if (n % 4 == 3) y = std::round(y);  // integer exponents: exact results must pass
    if (x == 1.0 || y == 0) continue;
    big xx, yy, ref;
    mpfr_set_d(xx.v, x, MPFR_RNDN);
    mpfr_set_d(yy.v, y, MPFR_RNDN);
    mpfr_pow(ref.v, xx.v, yy.v, MPFR_RNDN);
    const d::pow_eval e = d::pow_dd_eval(x, y);
    if (e.range == 0) {
      ++used;
      worst = std::max(worst, abs_err(e.hi, e.lo, e.k, ref) / std::ldexp(e.err, e.k));
      double out = 0;
      if (d::ziv_round<double>(e.hi, e.lo, e.err, out)) {
        if (!same_bits(out * d::exp2i(e.k), cr_ref<double>(ref))) ++bad;
      } else {
        ++fails;
      }
    }
    // float arguments
    const float xf = static_cast<float>(n % 4 == 1 ? log_uniform(g, -120, 120) : log_uniform(g, -10, 10));
    const float yf =
        static_cast<float>(n % 4 == 3 ? std::round((u(g) - 0.5) * 40) : (u(g) - 0.5) * (n % 4 == 1 ? 1.5 : 40));
    if (xf == 1.0f || yf == 0) continue;
    mpfr_set_d(xx.v, xf, MPFR_RNDN);
    mpfr_set_d(yy.v, yf, MPFR_RNDN);
    mpfr_pow(ref.v, xx.v, yy.v, MPFR_RNDN);
    const d::pow_eval f = d::pow_small_eval(xf, yf);
    if (f.range == 0) {
      ++used_f;
      const double s = d::exp2i(f.k);
      worst_f = std::max(worst_f, abs_err(f.hi * s, f.lo * s, 0, ref) / (f.err * s));
      float out = 0;
      if (d::ziv_round<float>(f.hi * s, f.lo * s, f.err * s, out)) {
        if (!same_bits(out, cr_ref<float>(ref))) ++bad;
      } else {
        ++fails_f;
      }
    }
  }
  report("pow_dd_eval (err)", worst, fails, used);
  report("pow_small_eval (err)", worst_f, fails_f, used_f);
  CHECK(worst <= 1.0);
  CHECK(worst_f <= 1.0);
  CHECK(worst > 1e-4);
  CHECK(bad == 0);
}

TEST_CASE("rope_theta: relative error within geometric_frequency_max_rel_error", "[explog][rope]") {
  double worst = 0;
  long count = 0;
  auto check = [&](double base, int j, int dim) {
    const m::double_double t = m::geometric_frequency(base, 2 * j, dim);
    big b, e, ref;
    mpfr_set_d(b.v, base, MPFR_RNDN);
    mpfr_set_si(e.v, -2 * j, MPFR_RNDN);
    mpfr_div_si(e.v, e.v, dim, MPFR_RNDN);  // -2j/d to 1200 bits
    mpfr_pow(ref.v, b.v, e.v, MPFR_RNDN);
    worst = std::max(worst, rel_err(t.hi, t.lo, 0, ref) / m::geometric_frequency_max_rel_error);
    CHECK(t.hi + t.lo == t.hi);  // normalised
    ++count;
  };
  // NTK-aware scaling of base 10^4 by factor 8 for d = 128: base * 8^(128/126).
  const double ntk = 10000.0 * std::pow(8.0, 128.0 / 126.0);
  for (double base : {1e4, 5e5, 1e6, ntk})
    for (int j = 0; j < 64; ++j) check(base, j, 128);
  std::mt19937_64 g(6);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int k = 0; k < 20000; ++k) {
    const int dim = 2 * (1 + static_cast<int>(u(g) * (k % 2 ? 64 : 4096)));
    const double base = k % 3 == 0 ? 1.0 + u(g) : log_uniform(g, 0, k % 5 == 0 ? 950 : 40);
    if (base <= 1.0) continue;
    check(base, static_cast<int>(u(g) * dim / 2), dim);
  }
  report("rope_theta (2^-100)", worst, 0, count);
  CHECK(worst <= 1.0);
  CHECK(worst > 1e-4);
  CHECK(m::geometric_frequency(1e4, 2 * 0, 128).hi == 1.0);
  CHECK(m::geometric_frequency(4.0, 2 * 1, 4).hi == 0.5);  // 4^(-1/2), exact
}

TEST_CASE("exp and log: C17 Annex F special values", "[explog][annexf]") {
  using L = std::numeric_limits<double>;
  using LF = std::numeric_limits<float>;
  CHECK(m::exp(0.0) == 1.0);
  CHECK(m::exp(-0.0) == 1.0);
  CHECK(m::exp(L::infinity()) == L::infinity());
  CHECK(m::exp(-L::infinity()) == 0.0);
  CHECK(!std::signbit(m::exp(-L::infinity())));
  CHECK(std::isnan(m::exp(L::quiet_NaN())));
  CHECK(m::exp(710.0) == L::infinity());  // overflow
  CHECK(m::exp(-746.0) == 0.0);           // underflow
  CHECK(m::exp(0.0f) == 1.0f);
  CHECK(m::exp(LF::infinity()) == LF::infinity());
  CHECK(m::exp(-LF::infinity()) == 0.0f);
  CHECK(std::isnan(m::exp(LF::quiet_NaN())));
  CHECK(m::exp(89.0f) == LF::infinity());
  CHECK(m::exp(-104.0f) == 0.0f);
  CHECK(m::exp(-103.0f) == std::ldexp(1.0f, -149));  // e^-103 = 1.33 * 2^-149 rounds to 2^-149 (MPFR)
  CHECK(m::log(0.0) == -L::infinity());
  CHECK(m::log(-0.0) == -L::infinity());
  CHECK(std::isnan(m::log(-1.0)));
  CHECK(std::isnan(m::log(-L::infinity())));
  CHECK(m::log(L::infinity()) == L::infinity());
  CHECK(m::log(1.0) == 0.0);
  CHECK(!std::signbit(m::log(1.0)));
  CHECK(std::isnan(m::log(L::quiet_NaN())));
  CHECK(m::log(0.0f) == -LF::infinity());
  CHECK(std::isnan(m::log(-2.0f)));
  CHECK(m::log(LF::infinity()) == LF::infinity());
  CHECK(m::log(1.0f) == 0.0f);
  CHECK(!std::signbit(m::log(1.0f)));
}

TEST_CASE("pow: C17 Annex F.10.4.4 special values", "[explog][annexf]") {
  using L = std::numeric_limits<double>;
  const double inf = L::infinity(), nan = L::quiet_NaN();
  auto is = [](double got, double want) { return same_bits(got, want) || (std::isnan(got) && std::isnan(want)); };
  // pow(x, +-0) = 1 for any x, even NaN; pow(+1, y) = 1 for any y, even NaN.
  for (double x : {0.0, -0.0, 2.0, -2.0, inf, -inf, nan}) {
    CHECK(is(m::pow(x, 0.0), 1.0));
    CHECK(is(m::pow(x, -0.0), 1.0));
  }
  for (double y : {0.5, -3.0, inf, -inf, nan}) CHECK(is(m::pow(1.0, y), 1.0));
  CHECK(std::isnan(m::pow(nan, 2.0)));
  CHECK(std::isnan(m::pow(2.0, nan)));
  // pow(+-0, y): y odd integer < 0 -> +-inf; y < 0 otherwise (incl. -inf) -> +inf;
  // y odd integer > 0 -> +-0; y > 0 otherwise -> +0.
  CHECK(is(m::pow(0.0, -3.0), inf));
  CHECK(is(m::pow(-0.0, -3.0), -inf));
  CHECK(is(m::pow(-0.0, -2.0), inf));
  CHECK(is(m::pow(-0.0, -0.5), inf));
  CHECK(is(m::pow(-0.0, -inf), inf));
  CHECK(is(m::pow(0.0, 3.0), 0.0));
  CHECK(is(m::pow(-0.0, 3.0), -0.0));
  CHECK(is(m::pow(-0.0, 2.0), 0.0));
  CHECK(is(m::pow(-0.0, 0.5), 0.0));
  CHECK(is(m::pow(-0.0, inf), 0.0));
  // pow(-1, +-inf) = 1.
  CHECK(is(m::pow(-1.0, inf), 1.0));
  CHECK(is(m::pow(-1.0, -inf), 1.0));
  // pow(x, -inf): +inf for |x| < 1, +0 for |x| > 1; pow(x, +inf): +0 for |x| < 1, +inf for |x| > 1.
  CHECK(is(m::pow(0.5, -inf), inf));
  CHECK(is(m::pow(-0.5, -inf), inf));
  CHECK(is(m::pow(2.0, -inf), 0.0));
  CHECK(is(m::pow(-2.0, -inf), 0.0));
  CHECK(is(m::pow(0.5, inf), 0.0));
  CHECK(is(m::pow(-0.5, inf), 0.0));
  CHECK(is(m::pow(2.0, inf), inf));
  CHECK(is(m::pow(-2.0, inf), inf));
  // pow(-inf, y): y odd integer < 0 -> -0; y < 0 otherwise -> +0; y odd integer > 0 -> -inf;
  // y > 0 otherwise -> +inf.  pow(+inf, y): +0 for y < 0, +inf for y > 0.
  CHECK(is(m::pow(-inf, -3.0), -0.0));
  CHECK(is(m::pow(-inf, -2.0), 0.0));
  CHECK(is(m::pow(-inf, -0.5), 0.0));
  CHECK(is(m::pow(-inf, 3.0), -inf));
  CHECK(is(m::pow(-inf, 2.0), inf));
  CHECK(is(m::pow(-inf, 0.5), inf));
  CHECK(is(m::pow(inf, -2.0), 0.0));
  CHECK(is(m::pow(inf, 0.5), inf));
  // Negative finite x with a non-integer finite y: NaN; with an integer y: the sign of its parity.
  CHECK(std::isnan(m::pow(-2.0, 0.5)));
  CHECK(std::isnan(m::pow(-2.0, -1.5)));
  CHECK(is(m::pow(-2.0, 3.0), -8.0));
  CHECK(is(m::pow(-2.0, 2.0), 4.0));
  CHECK(is(m::pow(-2.0, -3.0), -0.125));
  CHECK(is(m::pow(-2.0, 0x1p60), inf));  // a huge y is an even integer
  CHECK(is(m::pow(-0.5, 0x1p60), 0.0));
  CHECK(is(m::pow(-2.0, 1025.0), -inf));   // overflow keeps the sign
  CHECK(is(m::pow(-2.0, -1081.0), -0.0));  // underflow keeps the sign (odd y)
  CHECK(is(m::pow(-2.0, -1080.0), 0.0));
  // Exact results pass the rounding test.
  CHECK(is(m::pow(9.0, 0.5), 3.0));
  CHECK(is(m::pow(2.0, 10.0), 1024.0));
  CHECK(is(m::pow(10.0, -2.0), 0.01));
  // float overloads
  const float finf = std::numeric_limits<float>::infinity();
  CHECK(m::pow(std::numeric_limits<float>::quiet_NaN(), 0.0f) == 1.0f);
  CHECK(m::pow(1.0f, std::numeric_limits<float>::quiet_NaN()) == 1.0f);
  CHECK(m::pow(-0.0f, -3.0f) == -finf);
  CHECK(std::signbit(m::pow(-0.0f, 3.0f)));
  CHECK(m::pow(-finf, 3.0f) == -finf);
  CHECK(std::isnan(m::pow(-2.0f, 0.5f)));
  CHECK(m::pow(-2.0f, 3.0f) == -8.0f);
  CHECK(m::pow(-2.0f, 129.0f) == -finf);
  CHECK(std::signbit(m::pow(-2.0f, -161.0f)));
  CHECK(m::pow(-2.0f, -161.0f) == 0.0f);
  CHECK(m::pow(9.0f, 0.5f) == 3.0f);
  CHECK(m::pow(0.5f, finf) == 0.0f);
}

// Compile time gives the run-time bits (the values are MPFR's correctly rounded ones).
static_assert(m::exp(1.0) == 0x1.5bf0a8b145769p+1);
static_assert(m::exp(1.0f) == 0x1.5bf0a8p+1f);
static_assert(m::log(2.0) == 0x1.62e42fefa39efp-1);
static_assert(m::log(10.0f) == 0x1.26bb1cp+1f);
static_assert(m::pow(2.0, 0.5) == 0x1.6a09e667f3bcdp+0);
static_assert(m::pow(-2.0f, 3.0f) == -8.0f);
static_assert(m::geometric_frequency(4.0, 2 * 1, 4).hi == 0.5);

TEST_CASE("constexpr and run time agree", "[explog]") {
  volatile double one = 1.0, two = 2.0, half = 0.5;
  volatile float onef = 1.0f, tenf = 10.0f;
  CHECK(m::exp(one) == 0x1.5bf0a8b145769p+1);
  CHECK(m::exp(onef) == 0x1.5bf0a8p+1f);
  CHECK(m::log(two) == 0x1.62e42fefa39efp-1);
  CHECK(m::log(tenf) == 0x1.26bb1cp+1f);
  CHECK(m::pow(two, half) == 0x1.6a09e667f3bcdp+0);
}
