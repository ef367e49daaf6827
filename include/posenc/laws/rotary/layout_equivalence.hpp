// layout_equivalence.hpp: law "an interleaved and a half-split table are one permutation apart,
// bit for bit": for every row, element 2j + t of the interleaved row equals element j + t D/2 of
// the half-split row, cos and sin, t = 0, 1 (GPT-J's repeat_interleave layout against HF's
// cat(freqs, freqs); rope/layout.hpp; HF convert_llama_weights_to_hf.py permute), and the rows
// are at the same positions. Index: position, pair, and the interleaved element.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rotary/table_view.hpp"

namespace posenc::laws::failed {

// Where a failing layout_equivalence stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool layout_equivalence(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<layout_equivalence>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity layout_equivalence{failed::layout_equivalence, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <rotary_table A, rotary_table B>
constexpr law_result layout_equivalence(const A& interleaved, const B& half_split) noexcept {
  law_result r = make_result("layout equivalence: interleaved element 2j+t == half-split element j+tD/2 (bits)",
                             &kind::layout_equivalence);
  const std::size_t d = interleaved.rotary_dim();
  if (!well_shaped(interleaved) || !well_shaped(half_split) || half_split.rotary_dim() != d ||
      half_split.rows() != interleaved.rows() || interleaved.layout() != rotary_layout::interleaved ||
      half_split.layout() != rotary_layout::half_split) {
    r.require(false, {});
    return r;
  }
  for (std::size_t row = 0; row < interleaved.rows(); ++row) {
    const auto p = static_cast<std::int64_t>(interleaved.position(row));
    r.require(interleaved.position(row) == half_split.position(row), {p, -1, -1});
    const auto *ic = interleaved.cos_row(row), *is = interleaved.sin_row(row);
    const auto *hc = half_split.cos_row(row), *hs = half_split.sin_row(row);
    for (std::size_t j = 0; j < d / 2; ++j)
      for (std::size_t t = 0; t < 2; ++t) {
        const std::size_t a = 2 * j + t, b = j + t * (d / 2);
        if (detail::same_bits(ic[a], hc[b]) && detail::same_bits(is[a], hs[b]))
          r.pass(1);
        else
          r.require(false, {p, static_cast<std::int64_t>(j), static_cast<std::int64_t>(a)});
      }
  }
  return r;
}

}  // namespace posenc::laws
