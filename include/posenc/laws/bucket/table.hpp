// laws/bucket/table.hpp: what the bucket laws (bucket_monotone, bucket_bounded, bucket_saturation,
// bucket_sign_partition) read: the bucket (or clipped index) of each relative position of a range,
// posenc's (t5::make_buckets, deberta::make_buckets, shaw::relative_index) or anyone's, and what
// the scheme promises of it (bucket_spec), derived from its config by the scheme's own
// <scheme>_bucket_spec (laws/bucket/<scheme>_spec.hpp, included by posenc/<scheme>.hpp; docs/laws.md
// section 8).
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

namespace detail {

constexpr std::int64_t magnitude(std::int64_t r) noexcept { return r < 0 ? -r : r; }

}  // namespace detail

}  // namespace posenc::laws
