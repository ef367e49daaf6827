// axis_identity_at_zero.hpp: law "an axis at position 0 passes through": in every row, the pairs of
// a stream whose position in that row is 0 hold cos = 1 and sin = +0 in both elements, bit for bit
// (the angle 0 theta is exactly 0). Rotating a head by the row then leaves that axis's elements
// unchanged: FLUX's text tokens at (0, 0, 0) are not rotated at all, an image token at (0, r, c)
// is rotated by its row and column only. Pairs on a stream fixed at 0 (stream_of_pair < 0) are
// checked in every row. The first failure is named by the row (position = token index), pair and
// element.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/streams/table_view.hpp"
#include "posenc/math/round.hpp"

namespace posenc::laws::failed {

constexpr bool axis_identity_at_zero(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<axis_identity_at_zero>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity axis_identity_at_zero{failed::axis_identity_at_zero, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <stream_table V>
constexpr law_result axis_identity_at_zero(const V& v) noexcept {
  using T = typename V::value_type;
  law_result r =
      make_result("axis at position 0: its pairs hold cos = 1, sin = +0 (bits)", &kind::axis_identity_at_zero);
  if (!detail::streams_well_shaped(v)) {
    r.require(false, {});
    return r;
  }
  const std::uint64_t one = detail::bits(math::round_to<T>(1.0).value);
  const std::size_t d = v.rotary_dim();
  for (std::size_t row = 0; row < v.rows(); ++row)
    for (std::size_t j = 0; j < d / 2; ++j) {
      const int s = v.stream_of_pair(j);
      if (s >= 0 && v.stream_position(s, row) != 0) continue;
      for (int t = 0; t < 2; ++t) {
        const std::size_t k = rope::pair_index(v.layout(), j, t, d);
        const bool ok = detail::bits(v.cos_row(row)[k]) == one && detail::bits(v.sin_row(row)[k]) == 0;
        r.require(ok, {static_cast<std::int64_t>(row), static_cast<std::int64_t>(j), static_cast<std::int64_t>(k)});
      }
    }
  return r;
}

}  // namespace posenc::laws
