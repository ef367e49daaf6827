// test_sandwich.cpp: Sandwich's bias against MPFR in four types, the accurate path alone, the
// symmetry in k, compile time against run time, and the preconditions.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include <catch2/catch.hpp>

#include "posenc/sandwich.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/random.hpp"

namespace {

namespace sw = posenc::sandwich;
namespace v = posenc::verify;
using posenc::bfloat16;
using posenc::float16;

// (sum_{i=1..d/2} cos(k 10000^(-2i/d)) - d/2) H / (8 (h + 1)): each frequency at w = prec + 128
// bits (relative error below 2^(12 - w)), times k < 2^53 exactly, each cos at w bits: every term
// within 2^(66 - w) absolute, the d/2 <= 2^11 terms and the subtractions at w bits within
// 2^(80 - w) = 2^(-prec - 48); the final scaling by H / (8(h+1)) < 2^12 and rounding to prec bits:
// stated 2^(EXP(y) + 1 - prec) + 2^(-prec - 30).
auto sandwich_oracle(int d, int H, int h, std::int64_t k) {
  return v::detail::make_value<1>([d, H, h, k](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    const mpfr_prec_t w = prec + 128;
    v::detail::mp sum(w), th(w), x(w + 64), c(w), e(w), kk(64);
    mpfr_set_zero(sum.get(), 1);
    mpfr_set_sj(kk.get(), k, MPFR_RNDN);
    for (int i = 1; i <= d / 2; ++i) {
      mpfr_set_si(e.get(), -2 * i, MPFR_RNDN);
      mpfr_div_si(e.get(), e.get(), d, MPFR_RNDN);
      mpfr_set_si(th.get(), 10000, MPFR_RNDN);
      mpfr_pow(th.get(), th.get(), e.get(), MPFR_RNDN);
      mpfr_mul(x.get(), th.get(), kk.get(), MPFR_RNDN);
      mpfr_cos(c.get(), x.get(), MPFR_RNDN);
      mpfr_sub_ui(c.get(), c.get(), 1, MPFR_RNDN);
      mpfr_add(sum.get(), sum.get(), c.get(), MPFR_RNDN);
    }
    mpfr_mul_si(sum.get(), sum.get(), H, MPFR_RNDN);
    mpfr_set_prec(y[0], prec);
    mpfr_div_si(y[0], sum.get(), 8 * (h + 1), MPFR_RNDN);
    mpfr_set_prec(err[0], 64);
    v::detail::mp a(64);
    mpfr_set_ui_2exp(err[0], 1, -prec - 30, MPFR_RNDU);
    if (mpfr_regular_p(y[0])) {
      mpfr_set_ui_2exp(a.get(), 1, mpfr_get_exp(y[0]) + 1 - prec, MPFR_RNDU);
      mpfr_add(err[0], err[0], a.get(), MPFR_RNDU);
    }
  });
}

template <class T>
bool same(T x, T y) {
  return v::detail::to_bits64(x) == v::detail::to_bits64(y);
}

}  // namespace

static_assert(sw::bias<double>({.dim = 64, .heads = 8}, 0, 0).value == 0.0, "distance 0: exactly 0");
static_assert(sw::bias<float>({.dim = 64, .heads = 8}, 3, 17).value ==
                  sw::bias<float>({.dim = 64, .heads = 8}, 3, -17).value,
              "even in the distance");
static_assert(sw::validate({.dim = 63, .heads = 8}).message == std::string_view("dim must be even and in [2, 4096]"),
              "a bad config is a value for validate, a compile error for bias (compile_fail/preconditions)");
static_assert(sw::validate({.dim = 64, .heads = 0}).message == std::string_view("heads must be in [1, 4096]"));

namespace {
constexpr double ct[] = {sw::bias<double>({.dim = 16, .heads = 4}, 1, 7).value,
                         sw::bias<double>({.dim = 32, .heads = 12}, 11, 1000).value};
}  // namespace

TEST_CASE("sandwich: a bad config at run time: domain_error, and the compiler's sentence", "[sandwich]") {
  const sw::checked_config cc{sw::config{.dim = 63, .heads = 8}};
  CHECK(!cc.ok());
  CHECK(std::string_view(cc.check().message) == "dim must be even and in [2, 4096]");
  CHECK(sw::bias<float>(cc, 0, 1).error == posenc::status::domain_error);
  CHECK(sw::bias<float>({.dim = 64, .heads = 8}, 8, 1).error == posenc::status::domain_error);  // head out of range
}

TEST_CASE("sandwich: the same bits at compile time and at run time", "[sandwich]") {
  volatile int d1 = 16, d2 = 32;
  CHECK(same(sw::bias<double>({.dim = d1, .heads = 4}, 1, 7).value, ct[0]));
  CHECK(same(sw::bias<double>({.dim = d2, .heads = 12}, 11, 1000).value, ct[1]));
}

TEST_CASE("sandwich: biases correctly rounded in four types", "[sandwich][oracle]") {
  v::rng g(v::seed_for("sandwich"));
  std::uint64_t checked = 0, wrong = 0;
  const auto check = [&](int d, int H, int h, std::int64_t k) {
    auto o = sandwich_oracle(d, H, h, k);
    const auto one = [&](auto tag) {
      using T = decltype(tag);
      const T want = o.template round<T>();
      const auto got = sw::bias<T>({.dim = d, .heads = H}, h, k);
      ++checked;
      if (!got.ok() || !same(got.value, want))
        if (++wrong <= 10)
          std::printf("  MISS sandwich d %d H %d h %d k %lld in %d bytes: got %a want %a\n", d, H, h,
                      static_cast<long long>(k), static_cast<int>(sizeof(T)), v::detail::to_double(got.value),
                      v::detail::to_double(want));
    };
    one(double{});
    one(float{});
    one(bfloat16{});
    one(float16{});
  };
  for (const int d : {2, 8, 64, 128})
    for (const std::int64_t k : {std::int64_t{1}, std::int64_t{2}, std::int64_t{-3}, std::int64_t{100},
                                 std::int64_t{4096}, std::int64_t{1} << 30})
      for (int h = 0; h < 8; h += 3) check(d, 8, h, k);
  for (int i = 0; i < 300; ++i) {
    const int d = 2 * static_cast<int>(1 + g.below(64));
    const int H = static_cast<int>(1 + g.below(32));
    check(d, H, static_cast<int>(g.below(static_cast<std::uint64_t>(H))),
          static_cast<std::int64_t>(g.below(std::uint64_t{1} << (1 + g.below(40)))) + 1);
  }
  std::printf("[sandwich] %llu values, %llu not correctly rounded\n", static_cast<unsigned long long>(checked),
              static_cast<unsigned long long>(wrong));
  REQUIRE(wrong == 0);
}

TEST_CASE("sandwich: the 1024-bit path alone agrees with the oracle", "[sandwich][oracle]") {
  std::uint64_t wrong = 0;
  for (const std::int64_t k : {1, 2, 5, 77, 1000, 123456})
    for (const int d : {2, 16, 64}) {
      const double got = posenc::detail::mp::ziv_loop<double>([k, d](auto lv) {
        return posenc::detail::sandwichf::sum_approx<decltype(lv)::value>(static_cast<std::uint64_t>(k), d, 8, 2);
      });
      auto o = sandwich_oracle(d, 8, 2, k);
      if (!same(got, o.round<double>())) ++wrong;
    }
  REQUIRE(wrong == 0);
}
