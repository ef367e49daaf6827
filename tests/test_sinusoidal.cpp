// test_sinusoidal.cpp: the sinusoidal encodings (paper, XLM/DistilBERT, Marian, fairseq) against
// MPFR in four types, each framework's indexing written out as its code does it; negative
// positions; compile time against run time; the preconditions.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/sinusoidal.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/sinusoid_oracle.hpp"

namespace {

namespace sn = posenc::sinusoidal;
namespace v = posenc::verify;
using posenc::bfloat16;
using posenc::float16;

// The element's angle and function, and the exact value: verify/sinusoid_oracle.hpp.
using oracle_element = v::sinusoid_element;
oracle_element framework_element(const sn::config& c, int j) { return v::sinusoid_element_of(c, j); }
auto angle_oracle(std::int64_t pos, double base, std::int64_t num, std::int64_t den) {
  return v::sinusoid_angle_value(pos, base, num, den);
}

template <class T>
bool same(T a, T b) {
  return v::detail::to_bits64(a) == v::detail::to_bits64(b);
}

}  // namespace

// ---- compile time ----

constexpr sn::config paper8{.dim = 8};
constexpr auto ct_table = sn::make_table<float, 6, 8>(paper8, -2);
static_assert(ct_table.ok());
static_assert(ct_table.value[2 * 8 + 0] == 0.0f && ct_table.value[2 * 8 + 1] == 1.0f, "PE(0) = [0, 1, 0, 1, ...]");
static_assert(sn::element<double>(paper8, -3, 0).value == -sn::element<double>(paper8, 3, 0).value, "sin is odd");
static_assert(sn::element<double>(paper8, -3, 1).value == sn::element<double>(paper8, 3, 1).value, "cos is even");
constexpr sn::config fairseq9{.dim = 9, .exponent = sn::exponent::fairseq, .layout = sn::layout::concat};
static_assert(sn::element<float>(fairseq9, 77, 8).value == 0.0f, "fairseq: odd d ends in a zero column");
static_assert(sn::frequency_exponent(fairseq9, 3).value.num == 3 && sn::frequency_exponent(fairseq9, 3).value.den == 3,
              "fairseq: the slowest frequency is base^-1 exactly");
static_assert(!sn::validate({.dim = 0}).ok() && !sn::validate({.dim = 3, .exponent = sn::exponent::fairseq}).ok());
static_assert(!sn::validate({.dim = 8, .base = 1.0}).ok() && sn::validate({.dim = 1}).ok());
static_assert(sn::element<float>(paper8, 3, 8).error == posenc::status::domain_error, "element outside [0, d)");

TEST_CASE("sinusoidal: the same bits at compile time and at run time", "[sinusoidal]") {
  volatile int dim = 8;
  const sn::config c{.dim = dim};
  std::vector<float> rt(6 * 8);
  REQUIRE(sn::fill_table<float>(c, -2, rt) == posenc::status::ok);
  for (std::size_t i = 0; i < rt.size(); ++i) CHECK(same(rt[i], ct_table.value[i]));
}

TEST_CASE("sinusoidal: every variant, as each framework indexes it, correctly rounded in four types",
          "[sinusoidal][oracle]") {
  std::uint64_t checked = 0, wrong = 0;
  for (const auto ex : {sn::exponent::paper, sn::exponent::fairseq})
    for (const auto lay : {sn::layout::interleaved, sn::layout::concat})
      for (const int d : {4, 7, 16, 33, 128})
        for (const std::int64_t pos :
             {std::int64_t{0}, std::int64_t{1}, std::int64_t{5}, std::int64_t{-5}, std::int64_t{511},
              std::int64_t{4097}, std::int64_t{-70000}, std::int64_t{1} << 24}) {
          const sn::config c{.dim = d, .exponent = ex, .layout = lay};
          for (int j = 0; j < d; ++j) {
            const oracle_element o = framework_element(c, j);
            auto want = angle_oracle(pos, c.base, o.num, o.den);
            const auto one = [&](auto tag) {
              using T = decltype(tag);
              const T expected = o.zero ? T{} : want.template round<T>(o.is_sin ? 1 : 0);
              const auto got = sn::element<T>(c, pos, j);
              ++checked;
              if (!got.ok() || !same(got.value, expected)) {
                if (++wrong <= 10)
                  std::printf("  MISS sinusoidal d %d %s %s pos %lld j %d in %d bytes\n", d,
                              ex == sn::exponent::paper ? "paper" : "fairseq",
                              lay == sn::layout::concat ? "concat" : "interleaved", static_cast<long long>(pos), j,
                              static_cast<int>(sizeof(T)));
              }
            };
            one(double{});
            one(float{});
            one(bfloat16{});
            one(float16{});
          }
        }
  std::printf("[sinusoidal] %llu entries, %llu not correctly rounded\n", static_cast<unsigned long long>(checked),
              static_cast<unsigned long long>(wrong));
  REQUIRE(wrong == 0);
}
