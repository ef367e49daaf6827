// test_kerple.cpp: KERPLE's log and power biases against MPFR in four types (parameters over the
// ranges KERPLE initialises and clamps, distances to the limits), the exact power cases, overflow,
// the preconditions, compile time against run time.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string_view>

#include <catch2/catch.hpp>

#include "posenc/kerple.hpp"
#include "posenc/verify/kerple_oracle.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/random.hpp"

namespace {

namespace kp = posenc::kerple;
namespace v = posenc::verify;
using posenc::bfloat16;
using posenc::float16;

// The oracles: verify/kerple_oracle.hpp.
auto log_oracle(double p, double a, std::uint64_t k) { return v::kerple_log_value(p, a, k); }
auto power_oracle(double a, double p, std::uint64_t k) { return v::kerple_power_value(a, p, k); }

template <class T>
bool same(T x, T y) {
  return v::detail::to_bits64(x) == v::detail::to_bits64(y);
}

struct tally {
  std::uint64_t checked = 0, wrong = 0, overflows = 0;
};

template <class T, class Oracle, class Got>
void compare(Oracle& o, const Got& got, tally& t, const char* what, double x, double y, std::uint64_t k) {
  const T want = o.template round<T>();
  ++t.checked;
  const bool overflow = std::isinf(v::detail::to_double(want));
  if (overflow) ++t.overflows;
  const bool ok = overflow ? got.error == posenc::status::overflow : got.ok() && same(got.value, want);
  if (!ok && ++t.wrong <= 10)
    std::printf("  MISS %s(%a, %a, %llu) in %d bytes: got %a (%s), want %a\n", what, x, y,
                static_cast<unsigned long long>(k), static_cast<int>(sizeof(T)), v::detail::to_double(got.value),
                posenc::to_string(got.error), v::detail::to_double(want));
}

template <class T>
void check_log(double p, double a, std::uint64_t k, tally& t) {
  auto o = log_oracle(p, a, k);
  compare<T>(o, kp::log_bias<T>(p, a, k), t, "log_bias", p, a, k);
}
template <class T>
void check_power(double a, double p, std::uint64_t k, tally& t) {
  auto o = power_oracle(a, p, k);
  compare<T>(o, kp::power_bias<T>(a, p, k), t, "power_bias", a, p, k);
}

}  // namespace

static_assert(kp::power_bias<double>(0.5, 1.0, 10).value == -5.0, "p = 1: ALiBi's linear bias");
static_assert(kp::power_bias<double>(0.5, 0.5, 16).value == -2.0 &&
                  kp::power_bias<double>(0.25, 1.5, 16).value == -16.0,
              "perfect powers: exact");
static_assert(kp::log_bias<float>(1.0, 0.5, 0).value == 0.0f, "distance 0: +0");
// A bad head is a value for validate and a compile error for the biases (compile_fail/preconditions).
static_assert(kp::validate(kp::power_config{.a = 0.5, .p = 2.5}).message ==
              std::string_view("KERPLE-power p must be in (0, 2]"));
static_assert(kp::validate(kp::log_config{.p = -1.0, .a = 0.5}).message ==
              std::string_view("KERPLE-log p must be finite and positive"));
static_assert(kp::log_bias<double>(kp::log_config{.p = 1.0, .a = 0.5}, 1).value ==
              kp::log_bias<double>(1.0, 0.5, 1).value);

namespace {
constexpr double ct[] = {kp::log_bias<double>(1.3, 0.7, 100).value, kp::power_bias<double>(0.3, 1.7, 1000).value,
                         kp::log_bias<double>(0.01, 0.01, 1).value};
}  // namespace

TEST_CASE("kerple: a bad head at run time: domain_error, and the compiler's sentence", "[kerple]") {
  volatile double bad_p = 2.5, bad_a = 0x1p-61;
  const kp::power_checked_config pc{kp::power_config{.a = 0.5, .p = bad_p}};
  CHECK(std::string_view(pc.check().message) == "KERPLE-power p must be in (0, 2]");
  CHECK(kp::power_bias<double>(pc, 3).error == posenc::status::domain_error);
  CHECK(kp::power_bias<double>(0.5, bad_p, 3).error == posenc::status::domain_error);
  const kp::log_checked_config lc{kp::log_config{.p = 1.0, .a = bad_a}};
  CHECK(std::string_view(lc.check().message) == "KERPLE-log a must be finite and at least 2^-60");
  CHECK(kp::log_bias<double>(-1.0, 0.5, 3).error == posenc::status::domain_error);
  double out[4] = {};
  CHECK(kp::fill_log_bias<double>(lc, std::span<double>(out)) == posenc::status::domain_error);
  CHECK(kp::fill_power_bias<double>(kp::power_config{.a = 0.5, .p = 1.0}, std::span<double>(out)) ==
        posenc::status::ok);
  CHECK((out[0] == 0.0 && out[3] == -1.5));
}

TEST_CASE("kerple: the same bits at compile time and at run time", "[kerple]") {
  volatile double p1 = 1.3, a1 = 0.7, a2 = 0.3, p2 = 1.7, e = 0.01;
  CHECK(same(kp::log_bias<double>(p1, a1, 100).value, ct[0]));
  CHECK(same(kp::power_bias<double>(a2, p2, 1000).value, ct[1]));
  CHECK(same(kp::log_bias<double>(e, e, 1).value, ct[2]));
}

TEST_CASE("kerple: log and power biases, correctly rounded in four types", "[kerple][oracle]") {
  v::rng g(v::seed_for("kerple"));
  tally t;
  for (int i = 0; i < 2500; ++i) {
    // KERPLE: p ~ U(0, 2), a ~ U(0, 1), each clamped at 0.01; and some far outside.
    const double p = i % 10 == 0 ? std::fabs(g.log_uniform<double>(-20, 20)) : g.uniform(0.01, 2.0);
    const double a = i % 10 == 1 ? std::fabs(g.log_uniform<double>(-59, 20)) : g.uniform(0.01, 1.0);
    const std::uint64_t k = i % 3 == 0 ? g.below(64) : g.below(std::uint64_t{1} << (1 + g.below(40)));
    if (a * static_cast<double>(k) < 0x1p84) {
      check_log<double>(p, a, k, t);
      check_log<float>(p, a, k, t);
      check_log<bfloat16>(p, a, k, t);
      check_log<float16>(p, a, k, t);
    }
    const double pp = g.uniform(0.01, 2.0);
    const std::uint64_t kk = g.below(std::uint64_t{1} << (1 + g.below(25)));
    check_power<double>(a, pp, kk, t);
    check_power<float>(a, pp, kk, t);
    check_power<bfloat16>(a, pp, kk, t);
    check_power<float16>(a, pp, kk, t);
  }
  for (const double p : {0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0})  // the exact cases and their neighbours
    for (const std::uint64_t k : {1u, 4u, 15u, 16u, 17u, 81u, 256u, 4096u, 65536u})
      for (const double a : {0.5, 0.3, 1.0 / 3.0}) {
        check_power<double>(a, p, k, t);
        check_power<float16>(a, p, k, t);
      }
  std::printf("[kerple] %llu values, %llu not correctly rounded, %llu overflows reported\n",
              static_cast<unsigned long long>(t.checked), static_cast<unsigned long long>(t.wrong),
              static_cast<unsigned long long>(t.overflows));
  REQUIRE(t.wrong == 0);
}

TEST_CASE("kerple: the 1024-bit paths alone agree with the oracle", "[kerple][oracle]") {
  v::rng g(v::seed_for("kerple_mp"));
  std::uint64_t wrong = 0;
  for (int i = 0; i < 300; ++i) {
    const double p = g.uniform(0.01, 2.0), a = g.uniform(0.01, 1.0);
    const std::uint64_t k = 1 + g.below(std::uint64_t{1} << 24);
    const double lb = posenc::detail::mp::ziv_loop<double>(
        [p, a, k](auto lv) { return posenc::kerple::detail::log_bias_approx<decltype(lv)::value>(p, a, k); });
    auto ol = log_oracle(p, a, k);
    if (!same(lb, ol.round<double>())) ++wrong;
    const double pb = posenc::detail::mp::ziv_loop<double>(
        [p, a, k](auto lv) { return posenc::kerple::detail::power_bias_approx<decltype(lv)::value>(a, p, k); });
    auto op = power_oracle(a, p, k);
    if (!same(pb, op.round<double>())) ++wrong;
  }
  REQUIRE(wrong == 0);
}
