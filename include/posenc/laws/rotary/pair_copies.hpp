// pair_copies.hpp: law "both elements of a pair hold the pair's value", bit for bit, in the
// table's declared layout: cos[2j] == cos[2j+1] (interleaved) or cos[j] == cos[j + D/2]
// (half-split), and the same for sin. This is the shape of GPT-J's repeat_interleave and HF's
// cat(freqs, freqs) tables (rope/table.hpp); a table declared in the wrong layout fails it at the
// first pair whose neighbour differs. Index: position, pair, and the element of component 1.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rotary/table_view.hpp"

namespace posenc::laws::failed {

// Where a failing pair_copies stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool pair_copies(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<pair_copies>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity pair_copies{failed::pair_copies, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <rotary_table V>
constexpr law_result pair_copies(const V& v) noexcept {
  law_result r =
      make_result("pair copies: both elements of each pair hold the same cos and sin (bits)", &kind::pair_copies);
  if (!well_shaped(v)) {
    r.require(false, {});
    return r;
  }
  const std::size_t d = v.rotary_dim();
  const std::size_t k1_step = v.layout() == rotary_layout::interleaved ? 1 : d / 2;  // component 1 = k0 + this
  const std::size_t k0_step = v.layout() == rotary_layout::interleaved ? 2 : 1;
  for (std::size_t row = 0; row < v.rows(); ++row) {
    const auto* cr = v.cos_row(row);
    const auto* sr = v.sin_row(row);
    for (std::size_t j = 0; j < d / 2; ++j) {
      const std::size_t k0 = j * k0_step, k1 = k0 + k1_step;
      if (detail::same_bits(cr[k0], cr[k1]) && detail::same_bits(sr[k0], sr[k1])) {
        r.pass(1);
      } else {
        r.require(false, {static_cast<std::int64_t>(v.position(row)), static_cast<std::int64_t>(j),
                          static_cast<std::int64_t>(k1)});
      }
    }
  }
  return r;
}

}  // namespace posenc::laws
