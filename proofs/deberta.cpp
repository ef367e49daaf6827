// deberta.cpp: DeBERTa-v2/v3's log buckets, proved by compiling (static_assert walls).
//  1. exact known values (deberta/bucket.hpp, HF make_log_bucket_position, r = query - key), 256
//     buckets and 512 positions: mid = 128, |r| <= 128 is r itself; at |r| = 511 = M - 1 the term
//     (mid - 1) log(|r|/mid) / log((M - 1)/mid) is exactly mid - 1 = 127: bucket +-255; no clamp:
//     2999 gives 418 (the header's derivation);
//  2. the bucket laws (docs/laws.md section 8) on a small 16/40 config over its whole range
//     r = -39 .. 39, and for deberta-v3's 256/512 on the windows r = -511 .. -448 and 448 .. 511
//     (the log buckets; the whole range is past Clang's default constexpr step limit): monotone in
//     |r| with the sign of r, within +-255, reaching it at +-511, and the sides apart.
#include <array>
#include <cstdint>
#include <span>

#include <posenc/deberta.hpp>
#include <posenc/laws.hpp>

namespace {

namespace db = posenc::deberta;
namespace laws = posenc::laws;

constexpr db::config v3{};

// 1.
static_assert(db::bucket(v3, 0).value == 0 && db::bucket(v3, 128).value == 128 && db::bucket(v3, -128).value == -128);
static_assert(db::bucket(v3, 511).value == 255 && db::bucket(v3, -511).value == -255, "the term is exactly mid - 1");
static_assert(db::bucket(v3, 2999).value == 418, "no clamp past M - 1");

// 2.
constexpr std::array<std::int64_t, 64> window(std::int64_t first) {
  std::array<std::int64_t, 64> a{};
  static_cast<void>(db::fill_buckets(v3, first, std::span<std::int64_t>(a)));
  return a;
}
constexpr auto below = window(-511), above = window(448);
constexpr laws::bucket_spec sv = laws::deberta_bucket_spec(v3);
constexpr bool all_hold(const laws::bucket_table<std::int64_t>& t) {
  return laws::require(laws::bucket_monotone(t, sv)) && laws::require(laws::bucket_bounded(t, sv)) &&
         laws::require(laws::bucket_saturation(t, sv)) && laws::require(laws::bucket_sign_partition(t, sv)) &&
         laws::bucket_saturation(t, sv).checked == 1;
}
static_assert(all_hold(laws::bucket_table<std::int64_t>{below, -511}) &&
                  all_hold(laws::bucket_table<std::int64_t>{above, 448}),
              "deberta-v3: the last 64 relative positions on each side");
constexpr db::config small{.position_buckets = 16, .max_relative_positions = 40};
constexpr auto bs = db::make_buckets<39>(small).value;
constexpr laws::bucket_table<std::int64_t> ts{bs, -39};
constexpr laws::bucket_spec ss = laws::deberta_bucket_spec(small);
static_assert(laws::require(laws::bucket_monotone(ts, ss)) && laws::require(laws::bucket_bounded(ts, ss)) &&
              laws::require(laws::bucket_saturation(ts, ss)) && laws::require(laws::bucket_sign_partition(ts, ss)));

// Each law is able to fail: past M - 1 the raw bucket leaves the spec's bounds (the attention
// clamps at use), which is why the spec's range is |r| <= M - 1.
constexpr auto wide = db::make_buckets<60>(small).value;
constexpr laws::bucket_spec unranged{ss.lowest, ss.highest, INT64_MAX, ss.negative, ss.positive, true, -1, 1};
static_assert(!laws::bucket_bounded(laws::bucket_table<std::int64_t>{wide, -60}, unranged).holds);

}  // namespace
