// bucket_table.hpp: what the bucket laws (bucket_monotone, bucket_bounded, bucket_saturation,
// bucket_sign_partition) read: the bucket (or clipped index) of each relative position of a range,
// posenc's (t5::make_buckets, deberta::make_buckets, shaw::relative_index) or anyone's, and what
// the scheme promises of it (bucket_spec), derived from its config by t5_bucket_spec,
// deberta_bucket_spec and shaw_bucket_spec (docs/laws.md section 8).
//
//   constexpr auto b = posenc::t5::make_buckets<200>(cfg).value;            // r = -200 .. 200
//   constexpr laws::bucket_table<int> t{b, -200};
//   static_assert(laws::bucket_monotone(t, laws::t5_bucket_spec(cfg)).holds);
//
// Relative position r is the scheme's own: T5 key - query, DeBERTa query - key, Shaw key - query.
// The negative side is r < 0, the positive side r > 0; a side "rises" when its bucket does not
// decrease as |r| grows, "falls" when it does not increase.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/deberta/config.hpp"
#include "posenc/t5/config.hpp"

namespace posenc::laws {

template <class I>
struct bucket_table {
  using value_type = I;
  std::span<const I> buckets;  // buckets[r - first] is the bucket of relative position r
  std::int64_t first = 0;

  constexpr std::size_t size() const noexcept { return buckets.size(); }
  constexpr std::int64_t relative(std::size_t k) const noexcept { return first + static_cast<std::int64_t>(k); }
  constexpr std::int64_t operator[](std::size_t k) const noexcept { return static_cast<std::int64_t>(buckets[k]); }
};
template <class I, std::size_t N>
bucket_table(const std::array<I, N>&, std::int64_t) -> bucket_table<I>;

struct bucket_side {
  bool rises = true;                // the bucket does not decrease (true) or not increase as |r| grows
  std::int64_t saturates_from = 0;  // from this |r| on the bucket is `saturated` (0: no saturation)
  std::int64_t saturated = 0;
};

struct bucket_spec {
  std::int64_t lowest = 0, highest = 0;  // every bucket of |r| <= range lies in [lowest, highest]
  std::int64_t range = INT64_MAX;        // the laws read |r| <= range only
  bucket_side negative{}, positive{};
  // Bidirectional schemes: every bucket at r < 0 is at most negative_max, every bucket at r > 0 at
  // least positive_min, negative_max < positive_min.
  bool sign_partitioned = false;
  std::int64_t negative_max = 0, positive_min = 0;
};

// T5 (HF T5Attention._relative_position_bucket, r = key - query): nb = num_buckets (halved when
// bidirectional). Bidirectional: r <= 0 gives |r| mapped into [0, nb - 1], r > 0 into
// [nb, 2 nb - 1]; both rise, and from |r| = max_distance the log term is >= its cap, so the buckets
// are nb - 1 and 2 nb - 1. Causal: r < 0 rises to num_buckets - 1 from max_distance; every r >= 0 is
// bucket 0 (saturated from |r| = 1).
constexpr bucket_spec t5_bucket_spec(const t5::config& c) noexcept {
  const std::int64_t n = c.relative_attention_num_buckets, md = c.relative_attention_max_distance;
  if (c.bidirectional) return {0, n - 1, INT64_MAX, {true, md, n / 2 - 1}, {true, md, n - 1}, true, n / 2 - 1, n / 2};
  return {0, n - 1, INT64_MAX, {true, md, n - 1}, {true, 1, 0}, false, 0, 0};
}

// DeBERTa-v2/v3 (HF make_log_bucket_position, r = query - key), mid = position_buckets / 2,
// M = max_relative_positions: |r| <= mid is r itself, past it sign(r) (mid + ceil((mid - 1)
// log(|r|/mid) / log((M - 1)/mid))), which is exactly sign(r) (2 mid - 1) at |r| = M - 1. The raw
// bucket has no clamp (it keeps growing past M - 1; the attention clamps at use), so the spec
// describes |r| <= M - 1: bounds +-(2 mid - 1), reached at |r| = M - 1; the negative side falls;
// the sides are below -1 and above 1 (|r| >= 1 maps to |bucket| >= 1).
constexpr bucket_spec deberta_bucket_spec(const deberta::config& c) noexcept {
  const std::int64_t mid = c.position_buckets / 2, top = c.max_relative_positions - 1;
  return {-(2 * mid - 1), 2 * mid - 1, top, {false, top, -(2 * mid - 1)}, {true, top, 2 * mid - 1}, true, -1, 1};
}

// Shaw et al. (tensor2tensor _generate_relative_positions_matrix, r = key - query): clip(r, -k, k) + k,
// in [0, 2k], 0 from r <= -k and 2k from r >= k; the negative side falls.
constexpr bucket_spec shaw_bucket_spec(std::int64_t max_relative_position) noexcept {
  const std::int64_t k = max_relative_position;
  return {0, 2 * k, INT64_MAX, {false, k, 0}, {true, k, 2 * k}, true, k - 1, k + 1};
}

namespace detail {

constexpr std::int64_t magnitude(std::int64_t r) noexcept { return r < 0 ? -r : r; }

}  // namespace detail

}  // namespace posenc::laws
