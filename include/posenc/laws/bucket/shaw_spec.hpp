// laws/bucket/shaw_spec.hpp: what Shaw et al.'s clipped indices promise (a laws::bucket_spec derived
// from the clip k), for the bucket laws (laws/bucket/: bucket_monotone, bucket_bounded, bucket_saturation,
// bucket_sign_partition). Included by posenc/shaw.hpp.
#pragma once

#include <cstdint>

#include "posenc/laws/bucket/table.hpp"

namespace posenc::laws {

// Shaw et al. (tensor2tensor _generate_relative_positions_matrix, r = key - query): clip(r, -k, k) + k,
// in [0, 2k], 0 from r <= -k and 2k from r >= k; the negative side falls.
constexpr bucket_spec shaw_bucket_spec(std::int64_t max_relative_position) noexcept {
  const std::int64_t k = max_relative_position;
  return {0, 2 * k, INT64_MAX, {false, k, 0}, {true, k, 2 * k}, true, k - 1, k + 1};
}

}  // namespace posenc::laws
