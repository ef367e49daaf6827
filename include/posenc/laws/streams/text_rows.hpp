// text_rows.hpp: law "an M-RoPE text token is a 1D RoPE token": a row whose three positions are
// equal (t = h = w = p, HF get_rope_index's text tokens) holds, in every element, the bits of the
// 1D table's row at p of the text config (rope::sincos<T>(cfg.text, p, j)). Pairs on ggml's fourth
// stream (interleaved_ggml's tail: llama.cpp feeds it 0) are the exception the law names: there the
// text row is the 1D row only at p = 0, so those pairs are checked against position 0, which is
// what the ggml layout computes (and what makes it part from HF's at Qwen3-VL's pairs 61 and 62).
// Rows of vision tokens (positions not all equal) are not checked; checked == 0 when none is text.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/streams/table_view.hpp"
#include "posenc/rope/angle.hpp"

namespace posenc::laws::failed {

constexpr bool mrope_text_rows(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<mrope_text_rows>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity mrope_text_rows{failed::mrope_text_rows, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class T>
constexpr law_result mrope_text_rows(const mrope_view<T>& v) noexcept {
  law_result r = make_result("M-RoPE text tokens (t = h = w) hold the 1D RoPE row (bits)", &kind::mrope_text_rows);
  if (!detail::streams_well_shaped(v) || !rope::validate(*v.cfg)) {
    r.require(false, {});
    return r;
  }
  const rope::checked_config text{v.cfg->text};
  const std::size_t d = v.rotary_dim();
  for (std::size_t row = 0; row < v.rows(); ++row) {
    const std::uint64_t p = v.positions[row];
    if (v.positions[v.rows() + row] != p || v.positions[2 * v.rows() + row] != p) continue;
    for (std::size_t j = 0; j < d / 2; ++j) {
      const std::uint64_t at = v.stream_of_pair(j) < 0 ? 0 : p;
      const auto e = rope::sincos<T>(text, at, static_cast<int>(j));
      for (int t = 0; t < 2; ++t) {
        const std::size_t k = rope::pair_index(v.layout(), j, t, d);
        const bool ok = e.ok() && detail::same_bits(v.cos_row(row)[k], e.value.cos) &&
                        detail::same_bits(v.sin_row(row)[k], e.value.sin);
        r.require(ok, {static_cast<std::int64_t>(p), static_cast<std::int64_t>(j), static_cast<std::int64_t>(k)});
      }
    }
  }
  return r;
}

}  // namespace posenc::laws
