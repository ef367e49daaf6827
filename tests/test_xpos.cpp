// test_xpos.cpp: XPOS's scales (and math::rational_power under them) against MPFR in four types,
// the exact cases, overflow at its exact threshold, compile time against run time, preconditions.
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/math/rational_power.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/random.hpp"
#include "posenc/verify/rational_power_oracle.hpp"
#include "posenc/xpos.hpp"

namespace {

namespace xp = posenc::xpos;
namespace pm = posenc::math;
namespace v = posenc::verify;
using posenc::bfloat16;
using posenc::float16;

// The oracle: verify/rational_power_oracle.hpp.
auto power_oracle(std::int64_t a0, std::int64_t b0, std::int64_t num0, std::int64_t den0) {
  return v::rational_power_value(a0, b0, num0, den0);
}

template <class T>
bool same(T a, T b) {
  return v::detail::to_bits64(a) == v::detail::to_bits64(b);
}

struct tally {
  std::uint64_t checked = 0, wrong = 0, overflows = 0;
};

template <class T>
void check_power(std::int64_t a, std::int64_t b, std::int64_t num, std::int64_t den, tally& t) {
  auto o = power_oracle(a, b, num, den);
  T want{};
  try {
    want = o.template round<T>();
  } catch (...) {
    std::printf("  oracle undecided at (%lld/%lld)^(%lld/%lld)\n", static_cast<long long>(a), static_cast<long long>(b),
                static_cast<long long>(num), static_cast<long long>(den));
    throw;
  }
  const auto got = pm::rational_power<T>(a, b, num, den);
  ++t.checked;
  const bool overflow = std::isinf(v::detail::to_double(want));
  if (overflow) ++t.overflows;
  const bool ok = overflow ? got.error == posenc::status::overflow : got.ok() && same(got.value, want);
  if (!ok && ++t.wrong <= 10)
    std::printf("  MISS (%lld/%lld)^(%lld/%lld) in %d bytes: got %a (%s), want %a\n", static_cast<long long>(a),
                static_cast<long long>(b), static_cast<long long>(num), static_cast<long long>(den),
                static_cast<int>(sizeof(T)), v::detail::to_double(got.value), posenc::to_string(got.error),
                v::detail::to_double(want));
}

template <class... T>
void check_all(std::int64_t a, std::int64_t b, std::int64_t num, std::int64_t den, tally& t) {
  (check_power<T>(a, b, num, den, t), ...);
}

}  // namespace

// ---- compile time ----

constexpr xp::config d128{.head_dim = 128};
constexpr xp::config d20{.head_dim = 20};  // zeta_3 = (30 + 40) / 140 = 1/2 exactly
static_assert(xp::zeta(d128, 0).value.num == 256 && xp::zeta(d128, 0).value.den == 896, "zeta_0 = 2/7");
static_assert(xp::scale(d128, 0, 17).value == 1.0, "position 0: scale 1");
static_assert(xp::scale(d20, 512, 3).value == 0.5 && xp::scale(d20, -1024, 3).value == 4.0, "zeta = 1/2: exact powers");
static_assert(xp::scale(d20, 256, 3).value == 0x1.6a09e667f3bcdp-1, "(1/2)^(1/2) = RN(sqrt(1/2))");
static_assert(xp::scale<float16>(d128, -4532, 0).ok() &&
                  xp::scale<float16>(d128, -4533, 0).error == posenc::status::overflow,
              "float16 holds zeta_0^(-4532/512) and not the next one");
static_assert(xp::inverse_scale<float16>(d128, 4533, 0).error == posenc::status::overflow, "k's factor at +n");
static_assert(!xp::validate({.head_dim = 63}).ok() && !xp::validate({.head_dim = 64, .scale_base = 0}).ok());
static_assert(pm::rational_power<double>(7, 2, 16, 1).value == 0x1.e39a5057d81p+28 * 0 + 33232930569601.0 / 65536.0,
              "(7/2)^16 = 7^16 / 2^16, exact");

namespace {
constexpr auto ct_table = xp::make_scale_table<float, 8, 10>(d20, -4);
static_assert(ct_table.ok());
}  // namespace

TEST_CASE("xpos: the same bits at compile time and at run time", "[xpos]") {
  volatile int dim = 20;
  const xp::config c{.head_dim = dim};
  std::vector<float> rt(8 * 10);
  REQUIRE(xp::fill_scales<float>(c, -4, rt) == posenc::status::ok);
  for (std::size_t i = 0; i < rt.size(); ++i) CHECK(same(rt[i], ct_table.value[i]));
}

TEST_CASE("xpos: scales of every pair at positions to +-2^20, correctly rounded in four types", "[xpos][oracle]") {
  tally t;
  for (const int d : {20, 64, 128})
    for (const std::int64_t n :
         {std::int64_t{1}, std::int64_t{-1}, std::int64_t{511}, std::int64_t{512}, std::int64_t{-2048},
          std::int64_t{4532}, std::int64_t{-4533}, std::int64_t{100000}, std::int64_t{-(1 << 20)}})
      for (int j = 0; j < d / 2; ++j) {
        const auto z = xp::zeta(xp::config{.head_dim = d}, j).value;
        check_all<double, float, bfloat16, float16>(z.num, z.den, n, 512, t);
      }
  v::rng g(v::seed_for("rational_power"));
  for (int i = 0; i < 3000; ++i) {  // random fractions, exponents and denominators
    const auto a = static_cast<std::int64_t>(1 + g.below(1u << 20)),
               b = static_cast<std::int64_t>(1 + g.below(1u << 20));
    const auto den = static_cast<std::int64_t>(1 + g.below(i % 3 == 0 ? 4 : 4096));
    const auto num = static_cast<std::int64_t>(g.below(1u << 16)) - (1 << 15);
    check_all<double, float, bfloat16, float16>(a, b, num, den, t);
  }
  for (int i = 0; i < 500; ++i) {  // exact cases: (s/t)^(num/den) with a = s^den, b = t^den
    const auto s = static_cast<std::int64_t>(1 + g.below(9)), tt = std::int64_t{1} << g.below(5);
    const auto den = static_cast<std::int64_t>(1 + g.below(4));
    std::int64_t a = 1, b = 1;
    for (int k = 0; k < den; ++k) a *= s, b *= tt;
    check_all<double, float, bfloat16, float16>(a, b, static_cast<std::int64_t>(g.below(40)) - 20, den, t);
  }
  std::printf("[xpos] %llu values, %llu not correctly rounded, %llu overflows reported\n",
              static_cast<unsigned long long>(t.checked), static_cast<unsigned long long>(t.wrong),
              static_cast<unsigned long long>(t.overflows));
  REQUIRE(t.wrong == 0);
  REQUIRE(t.overflows > 0);
}
