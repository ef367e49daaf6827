// laws/bucket/t5_spec.hpp: what T5's buckets promise (a laws::bucket_spec derived from its config),
// for the bucket laws (laws/bucket/: bucket_monotone, bucket_bounded, bucket_saturation,
// bucket_sign_partition). Included by posenc/t5.hpp.
#pragma once

#include <cstdint>

#include "posenc/laws/bucket/table.hpp"
#include "posenc/t5/config.hpp"

namespace posenc::laws {

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

}  // namespace posenc::laws
