// layout.hpp: law "the two layouts are one permutation apart, bit for bit" (layout.hpp;
// pe-formulas.md 1.4; HF convert_llama_weights_to_hf.py permute):
//  tables:  element 2j+t of an interleaved row == element j + t D/2 of the half-split row, for the
//           same config and positions (GPT-J repeat_interleave vs HF cat(freqs, freqs));
//  kernel:  rotating the interleaved vector then permuting == rotating the permuted vector, bits,
//           forward and inverse (moved from tests/test_rope_apply.cpp check_layout_commutes; the
//           permutation is written out independently of layout.hpp, as HF's permute reads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "posenc/rope/apply.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/table.hpp"
#include "posenc/verify/law_measures/norm.hpp"
#include "posenc/verify/law_measures/report.hpp"
#include "posenc/verify/mpfr.hpp"

namespace posenc::verify::law_measures {

template <class T, std::size_t N, std::size_t D>
law_report check_table_layouts(const rope::table<T, N, D, rope::layout::interleaved>& il,
                               const rope::table<T, N, D, rope::layout::half_split>& hs) {
  law_report r = make_report("layout: interleaved table == half-split table permuted (bits)");
  for (std::size_t row = 0; row < N; ++row) {
    r.require(il.position[row] == hs.position[row], [&] { return describe("row %zu: positions differ", row); });
    for (std::size_t j = 0; j < D / 2; ++j)
      for (std::size_t t = 0; t < 2; ++t) {
        const std::size_t a = row * D + 2 * j + t, b = row * D + j + t * (D / 2);
        const bool same = verify::detail::to_bits64(il.cos[a]) == verify::detail::to_bits64(hs.cos[b]) &&
                          verify::detail::to_bits64(il.sin[a]) == verify::detail::to_bits64(hs.sin[b]);
        r.require(same,
                  [&] { return describe("position %u pair %zu component %zu: bits differ", il.position[row], j, t); });
      }
  }
  return r;
}

// The half-split result rh against the interleaved result ri permuted, bit for bit (the
// comparison of check_rotate_then_permute; tests feed it outputs one bit apart to show it fails).
template <class S>
void compare_layout_outputs(law_report& r, const std::vector<S>& ri, const std::vector<S>& rh, std::size_t head_dim,
                            std::size_t d, std::uint64_t m, const char* dir) {
  for (std::size_t k = 0; k < rh.size(); ++k) {
    const std::size_t h = k / head_dim,
                      q = k % head_dim;  // HF permute: half-split q <- interleaved 2(q mod d/2) + q div (d/2)
    const std::size_t src = q < d ? h * head_dim + 2 * (q % (d / 2)) + q / (d / 2) : k;
    r.require(verify::detail::to_bits64(rh[k]) == verify::detail::to_bits64(ri[src]), [&] {
      return describe("m=%llu %s element %zu: half-split %a, interleaved permuted %a",
                      static_cast<unsigned long long>(m), dir, k, verify::detail::to_double(rh[k]),
                      verify::detail::to_double(ri[src]));
    });
  }
}

// x: heads * head_dim elements of S in the interleaved layout; m: the position.
template <class S, class TT>
law_report check_rotate_then_permute(const rope::config& c, const std::vector<S>& x, std::size_t heads,
                                     std::size_t head_dim, std::uint64_t m) {
  law_report r = make_report("layout: rotate then permute == permute then rotate (bits)");
  const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(c));
  const rope::apply_shape si{.heads = heads, .head_dim = head_dim, .rotary_dim = d, .lay = rope::layout::interleaved};
  rope::apply_shape sh = si;
  sh.lay = rope::layout::half_split;
  std::vector<S> xh(x.size()), ri(x.size()), rh(x.size());
  bool ok = rope::permute_rows(x.data(), xh.data(), heads, head_dim, d, 1, true) == posenc::status::ok;
  const auto row = table_row<TT>(c, m, ok);
  for (rope::direction dir : {rope::direction::forward, rope::direction::inverse}) {
    ok = ok && rope::rotate_copy(x.data(), ri.data(), si, row.data(), dir) == posenc::status::ok;
    ok = ok && rope::rotate_copy(xh.data(), rh.data(), sh, row.data(), dir) == posenc::status::ok;
    r.require(ok,
              [&] { return describe("m=%llu: the library reported an error", static_cast<unsigned long long>(m)); });
    compare_layout_outputs(r, ri, rh, head_dim, d, m, dir == rope::direction::forward ? "forward" : "inverse");
  }
  return r;
}

}  // namespace posenc::verify::law_measures
