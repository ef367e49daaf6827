// test_geometric.cpp: math::geometric_frequency (double-double, stated bound) and
// math::geometric_value<T> (RN_T of base^(-num/den)) against MPFR, for the exponents every
// geometric encoding uses: RoPE's 2j/d, the sinusoidal paper's 2i/d, fairseq's i/(d/2 - 1),
// ALiBi's h/n over base 2^8, and random rationals; plus the exact dyadic cases and the
// preconditions, at compile time and at run time.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/math/geometric_frequency.hpp"
#include "posenc/math/sincos_geometric.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/random.hpp"

namespace {

namespace pm = posenc::math;
namespace v = posenc::verify;
using posenc::bfloat16;
using posenc::float16;

// The oracle: y = exp(-(num/den) log base) at precision p. The quotient, the log and their product
// are computed at w = p + 64 bits (each within 2^-w relative, so the argument within
// 3 * 2^-w |log base| <= 2^(10 - w) absolute, |log base| < 666), exp at p bits; the error
// |y - base^(-num/den)| is below 2^(1-p) |y| + 1.01 * 2^(10-w) |y| < 2^(2 - p) |y|, stated as
// 2^(EXP(y) + 2 - p) (EXP(y) - 1 <= log2 |y| < EXP(y)).
auto geometric_oracle(double base, std::int64_t num, std::int64_t den) {
  return v::detail::make_value<1>([base, num, den](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    const mpfr_prec_t w = prec + 64;
    v::detail::mp e(w), l(w), n(64), d(64);
    mpfr_set_sj(n.get(), num, MPFR_RNDN);  // exact
    mpfr_set_sj(d.get(), den, MPFR_RNDN);  // exact
    mpfr_div(e.get(), n.get(), d.get(), MPFR_RNDN);
    mpfr_set_d(l.get(), base, MPFR_RNDN);  // exact (53 <= w)
    mpfr_log(l.get(), l.get(), MPFR_RNDN);
    mpfr_mul(e.get(), e.get(), l.get(), MPFR_RNDN);
    mpfr_neg(e.get(), e.get(), MPFR_RNDN);
    mpfr_set_prec(y[0], prec);
    mpfr_exp(y[0], e.get(), MPFR_RNDN);
    mpfr_set_prec(err[0], 64);
    int k = 0;  // base = 2^k exactly? then 2^(-k num/den) is exact when den divides k num
    const bool power_of_two = std::frexp(base, &k) == 0.5;
    if (num == 0 || (power_of_two && ((k - 1) * num) % den == 0)) {
      if (num != 0) mpfr_set_ui_2exp(y[0], 1, -static_cast<long>((k - 1) * num / den), MPFR_RNDN);
      mpfr_set_zero(err[0], 1);  // exact
    } else {
      mpfr_set_ui_2exp(err[0], 1, mpfr_get_exp(y[0]) + 2 - prec, MPFR_RNDU);
    }
  });
}

// cos (k = 0) and sin (k = 1) of m * base^(-num/den): theta at w = prec + 128 bits (relative error
// below 2^(12 - w): the quotient, log, product and exp at w bits), times m < 2^64 exactly, so the
// angle is within 2^(76 - w) = 2^(-prec - 52) absolute; cos and sin at prec bits add half an ulp
// each. Stated: 2^(EXP(y) + 1 - prec) + 2^(-prec - 32).
auto sincos_geometric_oracle(std::uint64_t m, double base, std::int64_t num, std::int64_t den) {
  return v::detail::make_value<2>([m, base, num, den](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    const mpfr_prec_t w = prec + 128;
    v::detail::mp e(w), l(w), n(64), d(64), mm(64), x(w + 64);
    mpfr_set_sj(n.get(), num, MPFR_RNDN);
    mpfr_set_sj(d.get(), den, MPFR_RNDN);
    mpfr_div(e.get(), n.get(), d.get(), MPFR_RNDN);
    mpfr_set_d(l.get(), base, MPFR_RNDN);
    mpfr_log(l.get(), l.get(), MPFR_RNDN);
    mpfr_mul(e.get(), e.get(), l.get(), MPFR_RNDN);
    mpfr_neg(e.get(), e.get(), MPFR_RNDN);
    mpfr_exp(e.get(), e.get(), MPFR_RNDN);
    mpfr_set_uj(mm.get(), m, MPFR_RNDN);
    mpfr_mul(x.get(), e.get(), mm.get(), MPFR_RNDN);  // exact: w + 64 bits hold a w-bit value times m
    mpfr_set_prec(y[0], prec);
    mpfr_set_prec(y[1], prec);
    mpfr_sin_cos(y[1], y[0], x.get(), MPFR_RNDN);
    for (int k = 0; k < 2; ++k) {
      v::detail::mp a(64);
      mpfr_set_prec(err[k], 64);
      if (m == 0) {  // angle 0: cos 1 and sin +0 exactly
        mpfr_set_zero(err[k], 1);
        continue;
      }
      mpfr_set_ui_2exp(err[k], 1, -prec - 32, MPFR_RNDU);
      if (mpfr_regular_p(y[k])) {
        mpfr_set_ui_2exp(a.get(), 1, mpfr_get_exp(y[k]) + 1 - prec, MPFR_RNDU);
        mpfr_add(err[k], err[k], a.get(), MPFR_RNDU);
      }
    }
  });
}

struct tally {
  std::uint64_t checked = 0, wrong = 0;
  void report(const char* what) const {
    std::printf("[geometric] %s: %llu values, %llu not correctly rounded\n", what,
                static_cast<unsigned long long>(checked), static_cast<unsigned long long>(wrong));
  }
};

template <class T>
bool same(T a, T b) {
  return v::detail::to_bits64(a) == v::detail::to_bits64(b);
}

// geometric_value<T> in the four types against the oracle's RN_T; prints the first few misses.
void check_all_types(double base, std::int64_t num, std::int64_t den, tally& t) {
  auto o = geometric_oracle(base, num, den);
  const auto one = [&](auto tag) {
    using T = decltype(tag);
    const posenc::result<T> r = pm::geometric_value<T>(base, num, den);
    const T want = o.template round<T>();
    ++t.checked;
    if (!r.ok() || !same(r.value, want)) {
      if (++t.wrong <= 10)
        std::printf("  MISS geometric_value(%a, %lld, %lld) in %d-byte type: got %a, want %a\n", base,
                    static_cast<long long>(num), static_cast<long long>(den), static_cast<int>(sizeof(T)),
                    v::detail::to_double(r.value), v::detail::to_double(want));
    }
  };
  one(double{});
  one(float{});
  one(bfloat16{});
  one(float16{});
}

}  // namespace

// ---- compile time: the exact cases, the preconditions, and values equal to run time's ----

static_assert(pm::geometric_value<double>(2.0, 8, 8).value == 0.5, "2^-1");
static_assert(pm::geometric_value<double>(256.0, 3, 8).value == 0x1p-3, "256^(-3/8) = 2^-3 exactly");
static_assert(pm::geometric_value<double>(4.0, 1, 2).value == 0.5, "4^(-1/2)");
static_assert(pm::geometric_value<float16>(0x1p900, 1, 1).value.bits == 0, "2^-900 underflows float16 to +0");
static_assert(pm::geometric_value<double>(10000.0, 0, 7).value == 1.0, "exponent 0");
static_assert(pm::geometric_frequency(0x1p12, 5, 6).hi == 0x1p-10 && pm::geometric_frequency(0x1p12, 5, 6).lo == 0,
              "the double-double kernel is exact on a dyadic value");
static_assert(pm::geometric_value<float>(1.0, 1, 2).error == posenc::status::domain_error, "base must exceed 1");
static_assert(pm::geometric_value<float>(0x1p960, 1, 2).error == posenc::status::domain_error, "base below 2^960");
static_assert(pm::geometric_value<float>(10.0, 3, 2).error == posenc::status::domain_error, "exponent at most 1");
static_assert(pm::geometric_value<double>(2.0, 17, 2).value == 0x1.6a09e667f3bcdp-9, "a power-of-two base takes e > 1");
static_assert(pm::geometric_value<double>(2.0, 960, 1).value == 0x1p-960, "down to 2^-960");
static_assert(pm::geometric_value<double>(2.0, 961, 1).error == posenc::status::domain_error, "not below");
static_assert(pm::geometric_value<float>(10.0, -1, 2).error == posenc::status::domain_error, "exponent at least 0");
static_assert(pm::geometric_value<float>(10.0, 1, 0).error == posenc::status::domain_error, "den positive");
static_assert(pm::geometric_value<float>(10.0, 1, pm::geometric_exponent_max_den + 1).error ==
                  posenc::status::domain_error,
              "den at most 2^31");

namespace {
constexpr double ct_values[] = {
    pm::geometric_value<double>(10000.0, 2, 128).value,
    pm::geometric_value<double>(10000.0, 7, 63).value,
    pm::geometric_value<double>(500000.0, 126, 128).value,
    pm::geometric_value<double>(256.0, 5, 12).value,
    pm::geometric_value<double>(0x1.fffffffffffffp959, 1, 3).value,
};
}  // namespace

TEST_CASE("geometric_value: the same bits at compile time and at run time", "[geometric]") {
  volatile double b0 = 10000.0, b1 = 500000.0, b2 = 256.0, b3 = 0x1.fffffffffffffp959;
  const double rt[] = {pm::geometric_value<double>(b0, 2, 128).value, pm::geometric_value<double>(b0, 7, 63).value,
                       pm::geometric_value<double>(b1, 126, 128).value, pm::geometric_value<double>(b2, 5, 12).value,
                       pm::geometric_value<double>(b3, 1, 3).value};
  for (std::size_t i = 0; i < std::size(rt); ++i) CHECK(same(rt[i], ct_values[i]));
}

TEST_CASE("geometric_value: the encodings' exponents, correctly rounded in four types", "[geometric][oracle]") {
  tally t;
  for (const int d : {2, 8, 64, 96, 128, 512}) {  // RoPE 2j/d and the sinusoidal paper's 2i/d
    for (const double base : {10000.0, 500000.0, 1e6})
      for (int j = 0; j < d / 2; ++j) check_all_types(base, 2 * j, d, t);
  }
  for (const int d : {6, 64, 128, 1024}) {  // fairseq / tensor2tensor: i/(d/2 - 1), i <= d/2 - 1
    for (int i = 0; i < d / 2; ++i) check_all_types(10000.0, i, d / 2 - 1, t);
  }
  for (int n = 1; n <= 80; ++n)  // ALiBi: 2^(-8h/n) = 256^(-h/n), h = 1..n
    for (int h = 1; h <= n; ++h) check_all_types(256.0, h, n, t);
  t.report("encodings");
  REQUIRE(t.wrong == 0);
  REQUIRE(t.checked > 20000);
}

TEST_CASE("geometric_value: random bases and rational exponents, correctly rounded", "[geometric][oracle]") {
  const std::uint64_t seed = v::seed_for("geometric_value");
  std::printf("[geometric] seed %llu\n", static_cast<unsigned long long>(seed));
  v::rng g(seed);
  tally t;
  for (int i = 0; i < 4000; ++i) {
    const double base = 1.0 + std::fabs(g.log_uniform<double>(-40, 40));  // (1, 2^40]
    const auto den = static_cast<std::int64_t>(1 + g.below(i % 4 == 0 ? pm::geometric_exponent_max_den : 4096));
    const auto num = static_cast<std::int64_t>(g.below(static_cast<std::uint64_t>(den) + 1));
    check_all_types(base, num, den, t);
  }
  // Powers of two with exponents above 1 (ALiBi's 2^(-8h/n) with any max_bias): 2^(-num/den).
  for (int i = 0; i < 3000; ++i) {
    const auto den = static_cast<std::int64_t>(1 + g.below(i % 3 == 0 ? 1u << 20 : 256));
    const auto num = static_cast<std::int64_t>(g.below(static_cast<std::uint64_t>(den) * 960 + 1));
    check_all_types(2.0, num, den, t);
  }
  // Powers of two, exact and not: 2^k with k up to 959.
  for (int i = 0; i < 2000; ++i) {
    const int k = static_cast<int>(1 + g.below(959));
    const auto den = static_cast<std::int64_t>(1 + g.below(64));
    const auto num = static_cast<std::int64_t>(g.below(static_cast<std::uint64_t>(den) + 1));
    check_all_types(std::ldexp(1.0, k), num, den, t);
  }
  t.report("random");
  REQUIRE(t.wrong == 0);
}

TEST_CASE("sincos_geometric: cos and sin of m base^(-num/den), correctly rounded in four types",
          "[geometric][oracle]") {
  v::rng g(v::seed_for("sincos_geometric"));
  std::uint64_t checked = 0, wrong = 0;
  const auto check = [&](std::uint64_t m, double base, std::int64_t num, std::int64_t den) {
    auto o = sincos_geometric_oracle(m, base, num, den);
    const auto one = [&](auto tag) {
      using T = decltype(tag);
      const auto r = pm::sincos_geometric<T>(m, base, num, den);
      const T want_cos = o.template round<T>(0), want_sin = o.template round<T>(1);
      ++checked;
      if (!r.ok() || !same(r.value.cos, want_cos) || !same(r.value.sin, want_sin)) {
        if (++wrong <= 10)
          std::printf("  MISS sincos_geometric(%llu, %a, %lld, %lld) in %d bytes\n", static_cast<unsigned long long>(m),
                      base, static_cast<long long>(num), static_cast<long long>(den), static_cast<int>(sizeof(T)));
      }
    };
    one(double{});
    one(float{});
    one(bfloat16{});
    one(float16{});
  };
  // fairseq / tensor2tensor sinusoids: 10000^(-i/(d/2 - 1)) at positions across the ranges used.
  for (const int d : {64, 512})
    for (int i = 0; i < d / 2; i += 3)
      for (const std::uint64_t p :
           {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{1000}, std::uint64_t{65535}, std::uint64_t{1} << 20})
        check(p, 10000.0, i, d / 2 - 1);
  for (int i = 0; i < 3000; ++i) {  // random bases, rational exponents and positions up to 2^40
    const double base = 1.0 + std::fabs(g.log_uniform<double>(-20, 30));
    const auto den = static_cast<std::int64_t>(1 + g.below(5000));
    const auto num = static_cast<std::int64_t>(g.below(static_cast<std::uint64_t>(den) + 1));
    check(g.below(std::uint64_t{1} << (1 + g.below(40))), base, num, den);
  }
  std::printf("[geometric] sincos_geometric: %llu pairs, %llu not correctly rounded\n",
              static_cast<unsigned long long>(checked), static_cast<unsigned long long>(wrong));
  REQUIRE(wrong == 0);
  static_assert(pm::sincos_geometric<float>(5, 1.0, 1, 2).error == posenc::status::domain_error, "base must exceed 1");
}

TEST_CASE("geometric_frequency: within its stated relative error", "[geometric][oracle]") {
  v::rng g(v::seed_for("geometric_frequency"));
  double worst = 0;
  std::uint64_t bad = 0;
  for (int i = 0; i < 4000; ++i) {
    const double base = 1.0 + std::fabs(g.log_uniform<double>(-30, 40));
    const auto den = static_cast<std::int64_t>(1 + g.below(100000));
    const auto num = static_cast<std::int64_t>(g.below(static_cast<std::uint64_t>(den) + 1));
    const pm::double_double t = pm::geometric_frequency(base, num, den);
    auto o = geometric_oracle(base, num, den);
    v::detail::mp sum(2200), rel(64);
    mpfr_set_d(sum.get(), t.hi, MPFR_RNDN);
    mpfr_add_d(sum.get(), sum.get(), t.lo, MPFR_RNDN);  // exact at 2200 bits
    mpfr_sub(rel.get(), sum.get(), o.approx(), MPFR_RNDN);
    mpfr_div(rel.get(), rel.get(), o.approx(), MPFR_RNDN);
    const double e = std::fabs(mpfr_get_d(rel.get(), MPFR_RNDU));
    worst = e > worst ? e : worst;
    if (!(e <= pm::geometric_frequency_max_rel_error) && ++bad <= 10)
      std::printf("  BAD geometric_frequency(%a, %lld, %lld): relative error %a\n", base, static_cast<long long>(num),
                  static_cast<long long>(den), e);
  }
  std::printf("[geometric] geometric_frequency: max relative error 2^%.2f (stated 2^-100)\n",
              worst > 0 ? std::log2(worst) : -INFINITY);
  REQUIRE(bad == 0);
}

TEST_CASE("geometric_value: the checker can fail", "[geometric]") {
  // A value one ulp off is reported as a miss by the same comparison the tests above use.
  auto o = geometric_oracle(10000.0, 7, 63);
  const double right = o.round<double>();
  const double wrong = std::nextafter(right, 1.0);
  CHECK(same(pm::geometric_value<double>(10000.0, 7, 63).value, right));
  CHECK_FALSE(same(wrong, right));
}
