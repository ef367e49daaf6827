// test_t5.cpp: T5's relative buckets against the published table and against an MPFR oracle over
// a sweep of configs, the bucket laws, compile time against run time, and the preconditions.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/t5.hpp"
#include "posenc/verify/t5_oracle.hpp"

namespace {

namespace t5 = posenc::t5;
namespace v = posenc::verify;

// The oracle bucket: verify/t5_oracle.hpp (HF _relative_position_bucket with the log term exact).
int oracle_bucket(const t5::config& c, std::int64_t rel) { return v::t5_oracle_bucket(c, rel); }

}  // namespace

// ---- the published table (../shared/reference/pe-formulas.md 4.1: bucket starts), at compile time ----

constexpr t5::config encoder{};
constexpr t5::config decoder{.bidirectional = false};
constexpr bool starts(const t5::config& c, const int (&at)[2][16], int count, int sign) {
  for (int i = 0; i < count; ++i) {
    const std::int64_t n = at[0][i];
    if (t5::bucket(c, sign * n).value != at[1][i] || t5::bucket(c, sign * (n - 1)).value != at[1][i] - 1) return false;
  }
  return true;
}
constexpr int bidirectional_starts[2][16] = {{8, 12, 16, 23, 32, 46, 64, 91}, {8, 9, 10, 11, 12, 13, 14, 15}};
constexpr int causal_starts[2][16] = {{16, 19, 21, 24, 27, 31, 35, 40, 46, 52, 59, 67, 77, 87, 99, 113},
                                      {16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}};
static_assert(starts(encoder, bidirectional_starts, 8, -1), "T5 32/128 bidirectional, keys before the query");
static_assert(t5::bucket(encoder, 91).value == 31 && t5::bucket(encoder, 1).value == 17, "keys after: +16");
static_assert(t5::bucket(encoder, 1000000).value == 31 && t5::bucket(encoder, -1000000).value == 15, "saturates");
static_assert(starts(decoder, causal_starts, 16, -1), "T5 32/128 causal");
static_assert(t5::bucket(decoder, 5).value == 0, "causal: future keys map to bucket 0");
// The exact ties: 2 log2(n/8) = 2, 4, 6 at n = 16, 32, 64 (a float32 term one ulp low would floor lower).
static_assert(t5::bucket(encoder, -16).value == 10 && t5::bucket(encoder, -32).value == 12 &&
              t5::bucket(encoder, -64).value == 14);
static_assert(!t5::validate({.relative_attention_num_buckets = 3}).ok() &&
              !t5::validate({.relative_attention_max_distance = 8}).ok());
static_assert(t5::validate({.relative_attention_max_distance = 9}).ok() &&
              t5::validate({.relative_attention_num_buckets = 2, .bidirectional = false}).ok());

namespace {
constexpr auto ct_table = t5::make_buckets<300>(encoder);
static_assert(ct_table.ok());
}  // namespace

TEST_CASE("t5: the same buckets at compile time and at run time", "[t5]") {
  volatile int buckets = 32;
  const t5::config c{.relative_attention_num_buckets = buckets};
  std::vector<int> rt(601);
  REQUIRE(t5::fill_buckets(c, -300, rt) == posenc::status::ok);
  for (std::size_t i = 0; i < rt.size(); ++i) CHECK(rt[i] == ct_table.value[i]);
}

TEST_CASE("t5: every bucket of a sweep of configs equals the MPFR oracle; the laws hold", "[t5][oracle]") {
  std::uint64_t checked = 0, wrong = 0, laws_broken = 0;
  for (const bool bidirectional : {true, false})
    for (const int buckets : {4, 6, 8, 16, 32, 64, 128, 256})
      for (const std::int64_t max_distance :
           {std::int64_t{0}, std::int64_t{128}, std::int64_t{1000}, std::int64_t{4096}, std::int64_t{1} << 20}) {
        t5::config c{.relative_attention_num_buckets = buckets, .bidirectional = bidirectional};
        const std::int64_t me = (bidirectional ? buckets / 2 : buckets) / 2;
        c.relative_attention_max_distance = max_distance == 0 ? me + 1 : max_distance;
        if (!t5::validate(c).ok()) continue;
        const std::int64_t nb = bidirectional ? buckets / 2 : buckets;
        const std::int64_t range =
            c.relative_attention_max_distance < 3000 ? c.relative_attention_max_distance + 5 : 3000;
        int previous = -1;
        std::vector<int> filled(static_cast<std::size_t>(2 * range + 1));
        REQUIRE(t5::fill_buckets(c, -range, filled) == posenc::status::ok);  // the threshold path
        for (std::int64_t r = -range; r <= range; ++r) {
          const auto got = t5::bucket(c, r);
          if (filled[static_cast<std::size_t>(r + range)] != got.value) ++wrong;
          const int want = oracle_bucket(c, r);
          ++checked;
          if (!got.ok() || got.value != want) {
            if (++wrong <= 10)
              std::printf("  MISS t5 %d/%lld %s rel %lld: got %d (%s), want %d\n", buckets,
                          static_cast<long long>(c.relative_attention_max_distance), bidirectional ? "bi" : "causal",
                          static_cast<long long>(r), got.value, posenc::to_string(got.error), want);
          }
          // Laws: bounded; sign-partitioned when bidirectional; monotone in |distance| on each side
          // (checked on the keys before the query as r rises to 0: the bucket never increases).
          const int b = got.value;
          const bool bounded = b >= 0 && b < buckets;
          const bool partitioned = !bidirectional || ((r > 0) == (b >= nb));
          const bool monotone = r > 0 || previous < 0 || b <= previous;
          if (!(bounded && partitioned && monotone)) ++laws_broken;
          if (r <= 0) previous = b;
        }
        // Saturation: at and past max_distance, the last bucket of the side.
        const auto far = t5::bucket(c, -c.relative_attention_max_distance);
        if (far.value != nb - 1) ++laws_broken;
      }
  std::printf("[t5] %llu buckets, %llu differ from the oracle, %llu law violations\n",
              static_cast<unsigned long long>(checked), static_cast<unsigned long long>(wrong),
              static_cast<unsigned long long>(laws_broken));
  REQUIRE(wrong == 0);
  REQUIRE(laws_broken == 0);
  REQUIRE(checked > 100000);
}

TEST_CASE("t5: the checker can fail", "[t5]") {
  // The oracle disagrees with a bucket one off, at a tie and away from one.
  CHECK(oracle_bucket(encoder, -16) == 10);
  CHECK(oracle_bucket(encoder, -15) == 9);
  CHECK(oracle_bucket(decoder, -113) == 31);
  CHECK(oracle_bucket(decoder, -112) == 30);
}
