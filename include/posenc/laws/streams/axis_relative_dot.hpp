// axis_relative_dot.hpp: law "per axis, attention scores depend on the offsets only": for pair j of
// stream s and two tokens m, n, the block R~_m^T R~_n of the pair (a = c_m c_n + s_m s_n,
// b = c_m s_n - s_m c_n) is a rotation by (p_s(n) - p_s(m)) theta_j up to rounding, so it must be
// the same, within relative_dot_bound<T> (laws/bounds.hpp; the 1D law's bound, docs/laws.md 3),
// for every two token pairs with the same offset on that stream, whatever their offsets on the
// other streams: the product <R_m q, R_n k> of an axial table then depends on the per-axis offsets
// alone (RoFormer's relative property, axis by axis; FLUX, EVA-02, M-RoPE).
// Grid: the token pairs m < n among the first axis_law_max_rows rows; per stream, the first
// axis_law_max_offsets distinct offsets (in row order) are references, every later pair with one of
// those offsets is compared with its reference (a fixed reference, so an error growing with the
// position fails rather than drifts). Offsets are differences of the streams' exact positions
// (exact for integers and for dyadic fractions of a common step). The first failure is named by the
// later token n (position), the pair, and the earlier token m (partner).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "posenc/laws/bounds.hpp"
#include "posenc/laws/detail/blocks.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/streams/table_view.hpp"
#include "posenc/math/sqrt.hpp"

namespace posenc::laws::failed {

constexpr bool axis_relative_dot(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<axis_relative_dot>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity axis_relative_dot{failed::axis_relative_dot, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

inline constexpr std::size_t axis_law_max_rows = 256;
inline constexpr std::size_t axis_law_max_offsets = 32;

template <stream_table V>
constexpr law_result axis_relative_dot(const V& v) noexcept {
  using T = typename V::value_type;
  law_result r =
      make_result("axis relative dot: per axis, R~_m^T R~_n depends on the axis offset only", &kind::axis_relative_dot);
  if (!detail::streams_well_shaped(v)) {
    r.require(false, {});
    return r;
  }
  const std::size_t d = v.rotary_dim(), rows = v.rows() < axis_law_max_rows ? v.rows() : axis_law_max_rows;
  const std::size_t step = v.layout() == rotary_layout::interleaved ? 2 : 1;
  const double bound = relative_dot_bound<T>();
  for (int s = 0; s < v.streams(); ++s) {
    std::array<double, axis_law_max_offsets> offset{};
    std::array<std::size_t, axis_law_max_offsets> ref_m{}, ref_n{};
    std::size_t refs = 0;
    for (std::size_t n = 1; n < rows; ++n)
      for (std::size_t m = 0; m < n; ++m) {
        const double o = v.stream_position(s, n) - v.stream_position(s, m);
        std::size_t i = 0;
        while (i < refs && offset[i] != o) ++i;
        if (i == refs) {
          if (refs < axis_law_max_offsets) offset[refs] = o, ref_m[refs] = m, ref_n[refs] = n, ++refs;
          continue;
        }
        for (std::size_t j = 0; j < d / 2; ++j) {
          if (v.stream_of_pair(j) != s) continue;
          const detail::block x =
              detail::block_product<T, true>(v.cos_row(m), v.sin_row(m), v.cos_row(n), v.sin_row(n), j * step);
          const detail::block y = detail::block_product<T, true>(v.cos_row(ref_m[i]), v.sin_row(ref_m[i]),
                                                                 v.cos_row(ref_n[i]), v.sin_row(ref_n[i]), j * step);
          const double da = (x.a - y.a) + (x.a_lo - y.a_lo), db = (x.b - y.b) + (x.b_lo - y.b_lo);
          r.add(math::sqrt(da * da + db * db), bound,
                {static_cast<std::int64_t>(n), static_cast<std::int64_t>(j), -1, static_cast<std::int64_t>(m)});
        }
      }
  }
  return r;
}

}  // namespace posenc::laws
