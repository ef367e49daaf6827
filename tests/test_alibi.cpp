// test_alibi.cpp: ALiBi slopes and biases against MPFR in four types, the published figures, the
// masks, overflow, the preconditions, and compile time against run time.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/alibi.hpp"
#include "posenc/verify/alibi_oracle.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/random.hpp"

namespace {

namespace al = posenc::alibi;
namespace v = posenc::verify;
using posenc::bfloat16;
using posenc::float16;

// The oracle: verify/alibi_oracle.hpp.
auto bias_oracle(std::int64_t num, std::int64_t den, std::uint64_t k) { return v::alibi_bias_value(num, den, k); }

template <class T>
bool same(T a, T b) {
  return v::detail::to_bits64(a) == v::detail::to_bits64(b);
}

struct tally {
  std::uint64_t checked = 0, wrong = 0;
};

template <class T>
void check_bias(const al::config& c, int h, std::uint64_t k, tally& t) {
  const auto e = al::slope_exponent_of(c, h).value;
  auto o = bias_oracle(e.num, e.den, k);
  const T want = o.template round<T>();
  const posenc::result<T> got = al::bias_at_distance<T>(c, h, k);
  ++t.checked;
  const bool want_overflow = std::isinf(v::detail::to_double(want));
  const bool ok = want_overflow ? got.error == posenc::status::overflow : (got.ok() && same(got.value, want));
  if (!ok && ++t.wrong <= 10)
    std::printf("  MISS bias(heads %d, max_bias %a, h %d, k %llu) in %d bytes: got %a (%s), want %a\n", c.heads,
                c.max_bias, h, static_cast<unsigned long long>(k), static_cast<int>(sizeof(T)),
                v::detail::to_double(got.value), posenc::to_string(got.error), v::detail::to_double(want));
}

void check_slope_all_types(const al::config& c, int h, tally& t) {
  check_bias<double>(c, h, 1, t);  // k = 1: -m_h, the slope itself (negated)
  const auto one = [&](auto tag) {
    using T = decltype(tag);
    const auto e = al::slope_exponent_of(c, h).value;
    auto o = bias_oracle(e.num, e.den, 1);
    const posenc::result<T> got = al::slope<T>(c, h);
    const T want = o.template round<T>();  // RN_T(-m) = -RN_T(m): round to nearest is symmetric
    ++t.checked;
    if (!got.ok() || v::detail::to_double(got.value) != -v::detail::to_double(want)) {
      if (++t.wrong <= 10)
        std::printf("  MISS slope(heads %d, max_bias %a, h %d) in %d bytes: got %a, want %a\n", c.heads, c.max_bias, h,
                    static_cast<int>(sizeof(T)), v::detail::to_double(got.value), -v::detail::to_double(want));
    }
  };
  one(double{});
  one(float{});
  one(bfloat16{});
  one(float16{});
}

}  // namespace

// ---- published figures and exact cases, at compile time ----

// Press et al. 2022, section 3: for 8 heads the slopes are 1/2, 1/4, ..., 1/256.
constexpr al::config eight{.heads = 8};
static_assert(al::slope(eight, 0).value == 0.5 && al::slope(eight, 3).value == 0x1p-4 &&
              al::slope(eight, 7).value == 0x1p-8);
// pe-formulas.md section 3 (the reference code's get_slopes for 12 heads): 2^-1 .. 2^-8, then
// 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5.
constexpr al::config twelve{.heads = 12};
static_assert(al::slope_exponent_of(twelve, 7).value.num == 8 && al::slope_exponent_of(twelve, 7).value.den == 1);
static_assert(al::slope_exponent_of(twelve, 8).value.num == 1 && al::slope_exponent_of(twelve, 8).value.den == 2);
static_assert(al::slope_exponent_of(twelve, 11).value.num == 7 && al::slope_exponent_of(twelve, 11).value.den == 2);
static_assert(al::slope(twelve, 8).value == 0x1.6a09e667f3bcdp-1, "RN(2^-0.5) = RN(sqrt(1/2))");
// Exact biases: a power-of-two slope times a distance.
static_assert(al::bias(eight, 2, 10, 3).value == -7 * 0x1p-3);
static_assert(al::bias(eight, 2, 3, 10, al::mask::symmetric).value == -7 * 0x1p-3);
static_assert(al::bias(eight, 0, 5, 5).value == 0.0 &&
                  std::bit_cast<std::uint64_t>(al::bias(eight, 0, 5, 5).value) == 0,
              "+0 on the diagonal");
static_assert(al::bias(eight, 2, 3, 10).error == posenc::status::domain_error,
              "causal: a key after its query is masked");
// float16's largest finite value is 65504 (ulp 32 there), so -65519.5 rounds to -65504 and the tie
// -65520 rounds to even, which is -infinity: with m_0 = 1/2, distance 131039 fits, 131040 overflows.
static_assert(al::bias<float16>(eight, 0, 131039, 0).ok() &&
              al::bias<float16>(eight, 0, 131039, 0).value.bits == 0xFBFF);
static_assert(al::bias<float16>(eight, 0, 131040, 0).error == posenc::status::overflow,
              "overflow is reported, never a silent inf");
static_assert(!al::validate({.heads = 0}).ok() && !al::validate({.heads = 4097}).ok());
static_assert(!al::validate({.heads = 8, .max_bias = 0.0}).ok() && !al::validate({.heads = 8, .max_bias = 0.1}).ok());
static_assert(al::validate({.heads = 8, .max_bias = 0.5}).ok() &&
              al::validate({.heads = 4096, .max_bias = 960.0}).ok());
static_assert(al::slope(eight, 8).error == posenc::status::domain_error, "head outside [0, heads)");

namespace {
constexpr auto ct_slopes = al::make_slopes<float, 12>(twelve);
static_assert(ct_slopes.ok());
}  // namespace

TEST_CASE("alibi: the same bits at compile time and at run time", "[alibi]") {
  volatile int heads = 12;
  const al::config c{.heads = heads};
  for (int h = 0; h < 12; ++h) CHECK(same(al::slope<float>(c, h).value, ct_slopes.value[static_cast<std::size_t>(h)]));
}

TEST_CASE("alibi: slopes of every head count to 256, four max_bias, correctly rounded in four types",
          "[alibi][oracle]") {
  tally t;
  for (const double max_bias : {8.0, 1.0, 0.5, 16.0, 8.5})
    for (int heads = 1; heads <= 256; ++heads)
      for (int h = 0; h < heads; ++h) check_slope_all_types({.heads = heads, .max_bias = max_bias}, h, t);
  std::printf("[alibi] slopes: %llu values, %llu not correctly rounded\n", static_cast<unsigned long long>(t.checked),
              static_cast<unsigned long long>(t.wrong));
  REQUIRE(t.wrong == 0);
}

TEST_CASE("alibi: biases at random distances, correctly rounded in four types, overflow named", "[alibi][oracle]") {
  v::rng g(v::seed_for("alibi_bias"));
  tally t;
  std::uint64_t overflows = 0;
  for (int i = 0; i < 3000; ++i) {
    const int heads = static_cast<int>(1 + g.below(128));
    const al::config c{.heads = heads, .max_bias = i % 5 == 0 ? 16.0 : 8.0};
    const int h = static_cast<int>(g.below(static_cast<std::uint64_t>(heads)));
    const std::uint64_t k = i % 7 == 0 ? g.below(std::uint64_t{1} << 53) : g.below(1u << 21);
    check_bias<double>(c, h, k, t);
    check_bias<float>(c, h, k, t);
    check_bias<bfloat16>(c, h, k, t);
    check_bias<float16>(c, h, k, t);
    if (al::bias_at_distance<float16>(c, h, k).error == posenc::status::overflow) ++overflows;
  }
  std::printf("[alibi] biases: %llu values, %llu not correctly rounded, %llu float16 overflows reported\n",
              static_cast<unsigned long long>(t.checked), static_cast<unsigned long long>(t.wrong),
              static_cast<unsigned long long>(overflows));
  REQUIRE(t.wrong == 0);
  REQUIRE(overflows > 0);  // the float16 overflow path was exercised, and named
}

TEST_CASE("alibi: the distance tables equal bias_at_distance entry by entry", "[alibi]") {
  std::uint64_t differ = 0;
  for (const double max_bias : {8.0, 0.5, 16.0})
    for (const int heads : {1, 7, 12, 64}) {
      const al::config c{.heads = heads, .max_bias = max_bias};
      std::vector<float16> f16(140000);
      std::vector<float> f32(3000);
      for (int h = 0; h < heads; h += 3) {
        const auto st16 = al::fill_bias_by_distance<float16>(c, h, f16);
        REQUIRE(al::fill_bias_by_distance<float>(c, h, f32) == posenc::status::ok);
        for (std::size_t k = 0; k < f32.size(); ++k)
          if (!same(f32[k], al::bias_at_distance<float>(c, h, k).value)) ++differ;
        bool overflowed = false;
        for (std::size_t k = 0; k < f16.size(); k += 7) {
          const auto one = al::bias_at_distance<float16>(c, h, k);
          overflowed = overflowed || one.error == posenc::status::overflow;
          if (!same(f16[k], one.value)) ++differ;
        }
        CHECK((st16 == posenc::status::overflow) == overflowed);  // the table reports what the entries do
      }
    }
  REQUIRE(differ == 0);
  constexpr auto table = al::make_bias_by_distance<float, 12, 64>(twelve);
  static_assert(table.ok() && table.value[3 * 64 + 5] == -5 * 0x1p-4f, "head 3, distance 5: -5/16");
}

TEST_CASE("alibi: the dense symmetric table equals bias() entry by entry", "[alibi]") {
  static constexpr al::config seven{.heads = 7, .max_bias = 16.0};
  static constexpr auto dense = al::make_symmetric_bias_table<bfloat16, 7, 9, 13>(seven, 100, 95);
  static_assert(dense.ok());
  std::uint64_t differ = 0;
  for (int h = 0; h < 7; ++h)
    for (std::uint64_t i = 0; i < 9; ++i)
      for (std::uint64_t j = 0; j < 13; ++j)
        if (!same(dense.value[(static_cast<std::size_t>(h) * 9 + i) * 13 + j],
                  al::bias<bfloat16>(seven, h, 100 + i, 95 + j, al::mask::symmetric).value))
          ++differ;
  REQUIRE(differ == 0);
}

TEST_CASE("alibi: the dense symmetric table, far-apart first positions, at run time", "[alibi]") {
  // Distances up to |first_query - first_key| + queries + keys: more than queries + keys entries
  // (the table's first version indexed a queries + keys scratch array past its end here).
  const al::config c{.heads = 12};
  for (const auto& [fq, fk] : {std::pair<std::uint64_t, std::uint64_t>{1000, 0}, {0, 1000}, {5, 7}, {1u << 30, 3}}) {
    std::vector<float> t(12 * 5 * 6);
    REQUIRE(al::fill_symmetric_bias_table<float>(c, 5, 6, t, fq, fk) == posenc::status::ok);
    std::uint64_t differ = 0;
    for (int h = 0; h < 12; ++h)
      for (std::uint64_t i = 0; i < 5; ++i)
        for (std::uint64_t j = 0; j < 6; ++j)
          if (!same(t[(static_cast<std::size_t>(h) * 5 + i) * 6 + j],
                    al::bias<float>(c, h, fq + i, fk + j, al::mask::symmetric).value))
            ++differ;
    REQUIRE(differ == 0);
  }
  std::vector<float> wrong(12 * 5 * 6 - 1);
  CHECK(al::fill_symmetric_bias_table<float>(c, 5, 6, wrong) == posenc::status::domain_error);
  static constexpr auto far = al::make_symmetric_bias_table<float, 2, 3, 2>(al::config{.heads = 2}, 300, 0);
  static_assert(far.ok() && far.value[0] == -300 * 0.0625f, "head 0 (slope 2^-4), distance 300");
}

TEST_CASE("alibi: the checker can fail", "[alibi]") {
  // A slope one ulp off is a miss for the comparison above.
  const float right = al::slope<float>(twelve, 9).value;
  CHECK_FALSE(same(std::nextafter(right, 1.0f), right));
}
