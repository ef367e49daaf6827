// xpos_relative_scale.hpp: law "XPOS's scaled, rotated score depends on n - m alone" (Sun et al.,
// ACL 2023, eq. 4; torchscale xpos_relative_position.py): q at position n is multiplied by
// zeta_j^(n/s) and rotated by R_n, k at m by zeta_j^(-m/s) and R_m, so pair j of their dot product
// is q^T G k with G = zeta_j^((n - m)/s) R_n^T R_m: a function of n - m. With the table's entries
// and scales rounded, G~ = sigma~_n iota~_m R~_n^T R~_m (sigma = xpos::scale, iota =
// xpos::inverse_scale). For every difference Delta of the grid and every row n with a row at
// m = n - Delta, pair j's G~ is compared with the first such row pair's G~', relative to it:
//   dev = || G~ / (sigma~' iota~') - R~_{n'}^T R~_{m'} ||_2   (blocks [[a, -b], [b, a]], as relative_dot)
// held to xpos_relative_bound<S, T>() = 4u_s/(1 - u_s)^2 (1 + f) + 2f + 2^-49, f = table_dot_bound<T>(),
// u_s = unit_roundoff<S>() (docs/laws.md section 9 derives it; 2^-49 is the law's evaluation in
// double). The bound reads normal scales: a subnormal scale (float16 past about 4000 positions at
// scale_base 512) may fail it.
// Not a law of q15/q31 scales (xpos/fixed_point_scale.hpp): it reads the scales and the inverse
// scales of the same rows, and one of the two exceeds 1 at every position but 0 (the scales for
// n < 0, the inverse scales for n > 0), so it saturates to 1 - 2^-F and G~ loses its zeta^(n - m)
// factor: no bound from the rounding holds (docs/fixed-point.md). Not opted in (fixed_point_too).
//   constexpr auto rot = posenc::rope::make_table<float, 32, 16, posenc::rope::layout::interleaved>(rcfg).value;
//   constexpr auto sc = posenc::xpos::make_scale_table<float, 32, 8>(xcfg).value;
//   constexpr auto inv = posenc::xpos::make_scale_table<float, 32, 8>(xcfg, 0, true).value;
//   static_assert(laws::xpos_relative_scale(laws::view(rot), std::span<const float>(sc), std::span<const float>(inv)).holds);
// Row r of sigma and iota (rotary_dim/2 values each) belongs to the view's row r. Index: position
// n (q's), pair j, element -1, partner m (k's). A shape mismatch fails at laws::invalid_position.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/laws/bounds.hpp"
#include "posenc/laws/detail/blocks.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/math/sqrt.hpp"

namespace posenc::laws::failed {

// Where a failing xpos_relative_scale stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool xpos_relative_scale(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed<xpos_relative_scale>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity xpos_relative_scale{failed::xpos_relative_scale, law_indices::signed_position};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class S, class T>
constexpr double xpos_relative_bound() noexcept {
  const double u = unit_roundoff<S>(), f = table_dot_bound<T>();
  return 4 * u / ((1 - u) * (1 - u)) * (1 + f) + 2 * f + 0x1p-49;
}

struct xpos_grid {
  std::array<std::int64_t, 4> differences{1, 0, 0, 0};  // n - m; 0 ends the list
};

template <rotary_table V, class S>
constexpr law_result xpos_relative_scale(const V& v, std::span<const S> sigma, std::span<const S> iota,
                                         const xpos_grid& g = {}) noexcept {
  using T = typename V::value_type;
  law_result r = make_result("xpos relative scale: zeta^(n/s) zeta^(-m/s) R~_n^T R~_m depends on n - m alone",
                             &kind::xpos_relative_scale);
  const std::size_t rows = v.rows(), half = v.rotary_dim() / 2;
  if (v.rotary_dim() < 2 || v.rotary_dim() % 2 != 0 || sigma.size() != rows * half || iota.size() != rows * half) {
    r.require(false, {invalid_position, -1, -1});
    return r;
  }
  const std::size_t step = v.layout() == rotary_layout::interleaved ? 2 : 1;
  const bool cons = detail::consecutive(v);
  const double bound = xpos_relative_bound<S, T>(), bound2 = bound * bound;
  for (const std::int64_t delta : g.differences) {
    if (delta == 0) break;
    std::size_t ref_n = detail::no_row, ref_m = detail::no_row;
    for (std::size_t rn = 0; rn < rows; ++rn) {
      const std::int64_t n = detail::position_of(v, rn);
      const std::size_t rm = detail::row_of(v, n - delta, cons);
      if (rm == detail::no_row) continue;
      if (ref_n == detail::no_row) ref_n = rn, ref_m = rm;
      for (std::size_t j = 0; j < half; ++j) {
        const std::size_t k = j * step;
        const detail::block b =
            detail::block_product<T, true>(v.cos_row(rn), v.sin_row(rn), v.cos_row(rm), v.sin_row(rm), k);
        const detail::block b0 =
            detail::block_product<T, true>(v.cos_row(ref_n), v.sin_row(ref_n), v.cos_row(ref_m), v.sin_row(ref_m), k);
        const double p = detail::to_double(sigma[rn * half + j]) * detail::to_double(iota[rm * half + j]);
        const double p0 = detail::to_double(sigma[ref_n * half + j]) * detail::to_double(iota[ref_m * half + j]);
        const double rho = p / p0;
        const double da = rho * (b.a + b.a_lo) - (b0.a + b0.a_lo), db = rho * (b.b + b.b_lo) - (b0.b + b0.b_lo);
        const double e2 = da * da + db * db;
        const entry_index at{n, static_cast<std::int64_t>(j), -1, n - delta};
        if (e2 <= bound2 * (1 - 0x1p-40) && r.checked > 0 && e2 <= r.deviation * r.deviation) {
          r.pass(1);
          continue;
        }
        r.add(math::sqrt(e2), bound, at);
      }
    }
  }
  return r;
}

}  // namespace posenc::laws
