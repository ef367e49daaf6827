// t5.cpp: T5's relative-position buckets, proved by compiling (static_assert walls).
//  1. exact known values (t5/bucket.hpp's derivation, HF _relative_position_bucket): 32 buckets and
//     max_distance 128, bidirectional: nb = 16 per side, max_exact 8, K = 8, and the log term
//     8 log(n/8) / log 16 = 2 log2(n/8) is exactly 2, 4, 6 at n = 16, 32, 64: buckets 10, 12, 14;
//     n = 8 .. 15 is bucket 8 or 9; from 128 on 15; a key after the query adds 16. Causal: nb = 32,
//     max_exact 16, K = 16, term 16 log(n/16) / log 8: exactly 16/3 at n = 32 (bucket 16 + 5), 32/3
//     at 64 (16 + 10); it reaches 5 at n = 16 8^(5/16) = 30.6...: n = 30 is bucket 20 (term 4.84...),
//     n = 31 bucket 21 (5.09...); every key at or after the query is bucket 0;
//  2. the bucket laws (docs/laws.md section 8): monotone in |r|, within [0, 31], saturated from 128,
//     and (bidirectional) the sides apart, on r = -200 .. 200.
#include <posenc/laws.hpp>
#include <posenc/t5.hpp>

namespace {

namespace t5 = posenc::t5;
namespace laws = posenc::laws;

constexpr t5::config bi{};
constexpr t5::config causal{.bidirectional = false};

// 1. r = key - query: a key before the query is r < 0.
static_assert(t5::bucket(bi, 0).value == 0 && t5::bucket(bi, -7).value == 7 && t5::bucket(bi, 7).value == 23);
static_assert(t5::bucket(bi, -16).value == 10 && t5::bucket(bi, -32).value == 12 && t5::bucket(bi, -64).value == 14,
              "exact ties 2 log2(n/8) = 2, 4, 6");
static_assert(t5::bucket(bi, -15).value == 9 && t5::bucket(bi, -31).value == 11 && t5::bucket(bi, -63).value == 13,
              "one below each tie");
static_assert(t5::bucket(bi, -127).value == 15 && t5::bucket(bi, -128).value == 15 && t5::bucket(bi, 1000).value == 31);
static_assert(t5::bucket(causal, 5).value == 0 && t5::bucket(causal, -15).value == 15);
static_assert(t5::bucket(causal, -32).value == 21 && t5::bucket(causal, -31).value == 21 &&
                  t5::bucket(causal, -30).value == 20,
              "16 log(32/16)/log 8 = 16/3; the term passes 5 between n = 30 and 31");
static_assert(t5::bucket(causal, -64).value == 26, "16 log 4 / log 8 = 32/3");
static_assert(t5::bucket(causal, -128).value == 31 && t5::bucket(causal, -5000).value == 31);

// 2. The laws.
constexpr auto bb = t5::make_buckets<200>(bi).value;
constexpr laws::bucket_table<int> tb{bb, -200};
static_assert(laws::require(laws::bucket_monotone(tb, laws::t5_bucket_spec(bi))));
static_assert(laws::require(laws::bucket_bounded(tb, laws::t5_bucket_spec(bi))));
static_assert(laws::require(laws::bucket_saturation(tb, laws::t5_bucket_spec(bi))));
static_assert(laws::require(laws::bucket_sign_partition(tb, laws::t5_bucket_spec(bi))));
constexpr auto bc = t5::make_buckets<200>(causal).value;
constexpr laws::bucket_table<int> tc{bc, -200};
static_assert(laws::require(laws::bucket_monotone(tc, laws::t5_bucket_spec(causal))));
static_assert(laws::require(laws::bucket_bounded(tc, laws::t5_bucket_spec(causal))));
static_assert(laws::require(laws::bucket_saturation(tc, laws::t5_bucket_spec(causal))));

// Each law is able to fail: the causal buckets are not sign-partitioned, and read as bidirectional
// ones they break the bidirectional spec.
static_assert(!laws::bucket_sign_partition(tc, laws::t5_bucket_spec(bi)).holds);
static_assert(!laws::bucket_saturation(tc, laws::t5_bucket_spec(bi)).holds);

}  // namespace
