// identity_at_zero.hpp: law "position 0 is the identity rotation": every row at position 0 holds
// cos = 1 and sin = +0 in every element, bit for bit (the angle 0 * theta_j is exactly 0, and
// RN_T(cos 0) = 1, RN_T(sin 0) = +0). Rows at other positions are not checked; a table with no row
// at position 0 holds the law vacuously (checked == 0).
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/math/round.hpp"

namespace posenc::laws::failed {

// Where a failing identity_at_zero stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool identity_at_zero(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<identity_at_zero>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity identity_at_zero{failed::identity_at_zero, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <rotary_table V>
constexpr law_result identity_at_zero(const V& v) noexcept {
  using T = typename V::value_type;
  law_result r = make_result("identity at position 0: cos = 1, sin = +0 (bits)", &kind::identity_at_zero);
  const std::uint64_t one = detail::bits(math::round_to<T>(1.0).value);
  for (std::size_t row = 0; row < v.rows(); ++row) {
    if (v.position(row) != 0) continue;
    for (std::size_t k = 0; k < v.rotary_dim(); ++k) {
      const bool ok = detail::bits(v.cos_row(row)[k]) == one && detail::bits(v.sin_row(row)[k]) == 0;
      const std::size_t j = detail::pair_of_element(v.layout(), k, v.rotary_dim());
      r.require(ok, {0, static_cast<std::int64_t>(j), static_cast<std::int64_t>(k)});
    }
  }
  return r;
}

}  // namespace posenc::laws
