// test_deberta.cpp: DeBERTa's log buckets against the published figure and an MPFR oracle over a
// sweep of configs; the float32 policy against the exact buckets (where they part, and why);
// the laws; compile time against run time; the preconditions.
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/deberta.hpp"
#include "posenc/verify/deberta_oracle.hpp"
#include "posenc/verify/mpfr.hpp"

namespace {

namespace db = posenc::deberta;
namespace v = posenc::verify;

// The term and the oracle bucket: verify/deberta_oracle.hpp.
using term_value = v::deberta_term_value;
term_value term(std::int64_t a, std::int64_t mid, std::int64_t top, mpfr_prec_t prec) {
  return v::deberta_term(a, mid, top, prec);
}
std::int64_t oracle_bucket(const db::config& c, std::int64_t rel) { return v::deberta_oracle_bucket(c, rel); }

}  // namespace

// ---- published figures, at compile time ----

constexpr db::config v3{};  // deberta-v3-base: position_buckets 256, max_position_embeddings 512
static_assert(db::bucket(v3, 2999).value == 418, "pe-formulas.md 4.2: no clamp, 2999 -> 418");
static_assert(db::bucket(v3, 511).value == 255 && db::bucket(v3, -511).value == -255,
              "|rel| = M - 1: the term is exactly mid - 1 = 127, bucket 128 + 127");
static_assert(db::bucket(v3, 128).value == 128 && db::bucket(v3, -128).value == -128 && db::bucket(v3, 7).value == 7,
              "|rel| <= mid: the bucket is rel");
static_assert(db::bucket(db::hf_float32, v3, 511).value == 255,
              "float32 agrees at the edge when both logs are rounded alike");
static_assert(!db::validate({.position_buckets = 1}).ok() &&
              !db::validate({.position_buckets = 256, .max_relative_positions = 129}).ok());
static_assert(db::validate({.position_buckets = 256, .max_relative_positions = 130}).ok());

namespace {
constexpr auto ct_table = db::make_buckets<200>(v3);  // sized for Clang's default constexpr step limit
static_assert(ct_table.ok());
}  // namespace

TEST_CASE("deberta: the same buckets at compile time and at run time", "[deberta]") {
  volatile int buckets = 256;
  const db::config c{.position_buckets = buckets};
  std::vector<std::int64_t> rt(401);
  REQUIRE(db::fill_buckets(c, -200, rt) == posenc::status::ok);
  for (std::size_t i = 0; i < rt.size(); ++i) CHECK(rt[i] == ct_table.value[i]);
}

TEST_CASE("deberta: exact buckets equal the MPFR oracle; float32 parts only at near-integer terms",
          "[deberta][oracle]") {
  std::uint64_t checked = 0, wrong = 0, laws_broken = 0, parted = 0, parted_far = 0;
  for (const int buckets : {6, 10, 24, 64, 100, 256, 384, 512})
    for (const std::int64_t max_position : {64, 100, 512, 513, 1024, 4096}) {
      const db::config c{.position_buckets = buckets, .max_relative_positions = max_position};
      if (!db::validate(c).ok()) continue;
      const std::int64_t mid = buckets / 2;
      std::int64_t previous = 0;
      for (std::int64_t r = 0; r <= 2 * max_position; ++r) {
        for (const std::int64_t rel : {r, -r}) {
          const auto got = db::bucket(c, rel);
          const std::int64_t want = oracle_bucket(c, rel);
          ++checked;
          if (!got.ok() || got.value != want) {
            if (++wrong <= 10)
              std::printf("  MISS deberta %d/%lld rel %lld: got %lld, want %lld\n", buckets,
                          static_cast<long long>(max_position), static_cast<long long>(rel),
                          static_cast<long long>(got.value), static_cast<long long>(want));
          }
          const auto f32 = db::bucket(db::hf_float32, c, rel);
          if (f32.value != got.value) {
            ++parted;
            // float32 errs by a few ulps of the term (< 2^-16 relative for these terms below 2^10):
            // it can only cross an integer the exact term is that close to.
            const term_value t = term(rel < 0 ? -rel : rel, mid, max_position - 1, 256);
            if (!(t.gap < std::ldexp(std::fabs(static_cast<double>(t.nearest)) + 1, -16))) ++parted_far;
            if (parted <= 8)
              std::printf("  [deberta] float32 parts: %d/%lld rel %lld exact %lld float32 %lld (term %lld + %.3g)\n",
                          buckets, static_cast<long long>(max_position), static_cast<long long>(rel),
                          static_cast<long long>(got.value), static_cast<long long>(f32.value),
                          static_cast<long long>(t.nearest), t.gap);
          }
        }
        // Laws: odd in rel; the identity up to mid; strictly beyond mid never decreasing in |rel|.
        const std::int64_t b = db::bucket(c, r).value;
        if (db::bucket(c, -r).value != -b || (r <= mid && b != r) || b < previous) ++laws_broken;
        previous = b;
      }
    }
  std::printf(
      "[deberta] %llu buckets, %llu differ from the oracle, %llu law violations; float32 parts at %llu (%llu away from "
      "a near-integer term)\n",
      static_cast<unsigned long long>(checked), static_cast<unsigned long long>(wrong),
      static_cast<unsigned long long>(laws_broken), static_cast<unsigned long long>(parted),
      static_cast<unsigned long long>(parted_far));
  REQUIRE(wrong == 0);
  REQUIRE(laws_broken == 0);
  REQUIRE(parted_far == 0);
  REQUIRE(checked > 50000);
}

TEST_CASE("deberta: the checker can fail", "[deberta]") {
  CHECK(oracle_bucket(v3, 511) == 255);
  CHECK(oracle_bucket(v3, 2999) == 418);
  CHECK(oracle_bucket(v3, 129) == 129);
  CHECK(oracle_bucket(v3, 130) != 129);
}
