// test_logn.cpp: math::log_ratio (log_base(n)) and the log-n factors against MPFR in four types,
// the published figures, the exact rational cases, compile time against run time.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/logn.hpp"
#include "posenc/math/log_ratio.hpp"
#include "posenc/verify/log_ratio_oracle.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/random.hpp"

namespace {

namespace pm = posenc::math;
namespace v = posenc::verify;
using posenc::bfloat16;
using posenc::float16;

// The oracle: verify/log_ratio_oracle.hpp.
auto log_ratio_oracle(std::int64_t n, std::int64_t b) { return v::log_ratio_value(n, b); }

template <class T>
bool same(T a, T b) {
  return v::detail::to_bits64(a) == v::detail::to_bits64(b);
}

}  // namespace

static_assert(pm::log_ratio<double>(2048, 512).value == 11.0 / 9.0, "log_512(2048) = 11/9 (the published 1.222)");
static_assert(pm::log_ratio<double>(32768, 512).value == 5.0 / 3.0, "log_512(32768) = 5/3 (the published 1.667)");
static_assert(pm::log_ratio<double>(8, 4).value == 1.5 && pm::log_ratio<double>(1, 7).value == 0.0);
static_assert(posenc::logn::factor<float>({.base = 2048, .at_least_one = true}, 100).value == 1.0f, "Qwen: 1 below L");
static_assert(!posenc::logn::validate({.base = 1}).ok());
static_assert(pm::log_ratio<double>(0, 512).error == posenc::status::domain_error);

namespace {
constexpr auto ct_table = posenc::logn::make_factors<float, 24>({.base = 512}, 500);  // Clang's default step limit
static_assert(ct_table.ok());
}  // namespace

TEST_CASE("logn: the same bits at compile time and at run time", "[logn]") {
  volatile std::int64_t base = 512;
  std::vector<float> rt(24);
  REQUIRE(posenc::logn::fill_factors<float>({.base = base}, 500, rt) == posenc::status::ok);
  for (std::size_t i = 0; i < rt.size(); ++i) CHECK(same(rt[i], ct_table.value[i]));
}

TEST_CASE("log_ratio: log_base(n), correctly rounded in four types", "[logn][oracle]") {
  std::uint64_t checked = 0, wrong = 0;
  const auto check = [&](std::int64_t n, std::int64_t b) {
    auto o = log_ratio_oracle(n, b);
    const auto one = [&](auto tag) {
      using T = decltype(tag);
      const T want = o.template round<T>();
      const auto got = pm::log_ratio<T>(n, b);
      ++checked;
      if (!got.ok() || !same(got.value, want)) {
        if (++wrong <= 10)
          std::printf("  MISS log_ratio(%lld, %lld) in %d bytes: got %a want %a\n", static_cast<long long>(n),
                      static_cast<long long>(b), static_cast<int>(sizeof(T)), v::detail::to_double(got.value),
                      v::detail::to_double(want));
      }
    };
    one(double{});
    one(float{});
    one(bfloat16{});
    one(float16{});
  };
  for (std::int64_t n = 1; n <= 40000; n += (n < 4096 ? 1 : 37)) check(n, 512);  // Su's factors
  for (std::int64_t n = 2049; n <= 32767; n += 101) check(n, 2048);              // Qwen-7B's logn_list
  for (const std::int64_t b : {2, 3, 4, 8, 9, 27, 36, 1000, 4096})               // exact rationals and near them
    for (const std::int64_t n : {1, 2, 3, 4, 6, 8, 9, 16, 27, 64, 81, 216, 243, 1296, 4096, 6561, 1000000, 16777216})
      check(n, b);
  v::rng g(v::seed_for("log_ratio"));
  for (int i = 0; i < 2000; ++i)
    check(static_cast<std::int64_t>(1 + g.below(std::uint64_t{1} << 52)),
          static_cast<std::int64_t>(2 + g.below(1u << 20)));
  std::printf("[logn] %llu values, %llu not correctly rounded\n", static_cast<unsigned long long>(checked),
              static_cast<unsigned long long>(wrong));
  REQUIRE(wrong == 0);
}

TEST_CASE("log_ratio: the accurate path agrees with the oracle where the fast path is bypassed", "[logn][oracle]") {
  // The 1024-bit path alone, rounded, for a spread of arguments.
  std::uint64_t wrong = 0;
  for (std::int64_t n = 2; n < 3000; n += 13) {
    const double got = posenc::detail::mp::ziv_loop<double>([n](auto lv) {
      return posenc::detail::mp::log_ratio_approx<decltype(lv)::value>(static_cast<std::uint64_t>(n), 512u);
    });
    auto o = log_ratio_oracle(n, 512);
    if (!same(got, o.round<double>())) ++wrong;
  }
  REQUIRE(wrong == 0);
}
