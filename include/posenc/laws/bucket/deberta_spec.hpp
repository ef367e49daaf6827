// laws/bucket/deberta_spec.hpp: what DeBERTa's buckets promise (a laws::bucket_spec derived from its config),
// for the bucket laws (laws/bucket/: bucket_monotone, bucket_bounded, bucket_saturation,
// bucket_sign_partition). Included by posenc/deberta.hpp.
#pragma once

#include <cstdint>

#include "posenc/deberta/config.hpp"
#include "posenc/laws/bucket/table.hpp"

namespace posenc::laws {

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

}  // namespace posenc::laws
