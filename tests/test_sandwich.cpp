// test_sandwich.cpp: Sandwich's bias against MPFR in four types, the accurate path alone, the
// symmetry in k, compile time against run time, and the preconditions.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/sandwich.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/random.hpp"
#include "posenc/verify/sandwich_oracle.hpp"

namespace {

namespace sw = posenc::sandwich;
namespace v = posenc::verify;
using posenc::bfloat16;
using posenc::float16;

// The oracle: verify/sandwich_oracle.hpp.
auto sandwich_oracle(int d, int H, int h, std::int64_t k) { return v::sandwich_value(d, H, h, k); }

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

TEST_CASE("sandwich: a bias past float16's range is status overflow, not a silent infinity", "[sandwich][oracle]") {
  // d = H = 4096 (the limits): |bias| reaches d H / 8 = 2^21. The oracle says where float16
  // overflows (RN_f16 of the exact value is infinite); there, bias<float16> and the dense table say
  // overflow, and the float table holds the value.
  // Not const: a const config let Clang try to fold each call on it at compile time (4.8 s of
  // this unit's compile, -ftime-trace).
  sw::config big{.dim = 4096, .heads = 4096};
  auto o = sandwich_oracle(4096, 4096, 0, 1000);
  REQUIRE(std::isinf(v::detail::to_double(o.template round<float16>())));
  const auto r16 = sw::bias<float16>(big, 0, 1000);
  CHECK(r16.error == posenc::status::overflow);
  const auto r32 = sw::bias<float>(big, 0, 1000);
  CHECK(r32.ok());
  CHECK(same(r32.value, o.template round<float>()));
  std::vector<float16> t16(4096 * 1 * 1001);
  CHECK(sw::fill_bias_table<float16>(sw::checked_config{big}, 1, 1001, std::span<float16>(t16), 1000, 0) ==
        posenc::status::overflow);
  // A small config in float16 stays ok (the status is not always overflow).
  CHECK(sw::bias<float16>({.dim = 64, .heads = 8}, 0, 1000).ok());
}

TEST_CASE("sandwich: the 1024-bit path alone agrees with the oracle", "[sandwich][oracle]") {
  std::uint64_t wrong = 0;
  for (const std::int64_t k : {1, 2, 5, 77, 1000, 123456})
    for (const int d : {2, 16, 64}) {
      const double got = posenc::detail::mp::ziv_loop<double>([k, d](auto lv) {
        return posenc::sandwich::detail::sum_approx<decltype(lv)::value>(static_cast<std::uint64_t>(k), d, 8, 2);
      });
      auto o = sandwich_oracle(d, 8, 2, k);
      if (!same(got, o.round<double>())) ++wrong;
    }
  REQUIRE(wrong == 0);
}
