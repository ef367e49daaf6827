// composition.hpp: law "rotations compose": R_m R_n = R_{m+n} (the group property behind RoFormer
// eq. 16; Su et al., arXiv:2104.09864), on a table: per pair j, the product of the blocks at
// positions m and n, a = c_m c_n - s_m s_n, b = s_m c_n + c_m s_n, against the block at m + n:
//   ||R~_m R~_n - R~_{m+n}||_2 <= (3u + u^2) (1 + 2^-40) (+ 2^-52 for types narrower than double)
// (composition_bound<T>, laws/bounds.hpp: R~ = R + E, ||E|| <= u, so R~_m R~_n - R~_{m+n} =
// E_m R_n + R_m E_n + E_m E_n - E_{m+n}; docs/laws.md section 3). It needs rows at m, n and m + n,
// all in the table.
//
// The grid (composition_grid): a short list of factors n (positions that must be rows of the table;
// default: 1; laws::middle_row stands for the middle row's position), each against every row m
// whose m + n is also a row. With n = 1 this is the step R_{m+1} = R_m R_1 at every row (any single
// wrong row fails it). Cost of the default: N - 1 block products of the pairs, about a third of a
// table generation's (docs/performance.md 2.1). A table whose first position p0 is past 1 has no
// row at n = 1: the law then holds vacuously (checked == 0) on that factor.
// The first failure is named by the row checked, position = m + n, the pair, and n (partner): a
// single wrong row k is named as position k when k - n is a row (k >= p0 + 1 for n = 1).
// Plain tables (attention factor not folded in).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/laws/bounds.hpp"
#include "posenc/laws/detail/blocks.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rotary/relative_dot.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/math/sqrt.hpp"

namespace posenc::laws::failed {

// Where a failing composition stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool composition(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<composition>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity composition{failed::composition, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

struct composition_grid {
  // Factors n (positions of rows of the table); 0 ends the list (R_m R_0 = R_m is identity_at_zero's).
  std::array<std::uint64_t, 4> factors{1, 0, 0, 0};
};

template <rotary_table V>
constexpr law_result composition(const V& v, composition_grid grid = {}) noexcept {
  using T = typename V::value_type;
  law_result r = make_result("composition: R~_m R~_n = R~_{m+n} within 3u + u^2", &kind::composition);
  if (!well_shaped(v)) {
    r.require(false, {});
    return r;
  }
  const bool cons = detail::consecutive(v);
  const std::size_t n_rows = v.rows(), d = v.rotary_dim(), half = d / 2;
  const std::size_t step = v.layout() == rotary_layout::interleaved ? 2 : 1;
  // The factors, as rows of the table, without repeats; a factor that is not a row is skipped.
  std::array<std::size_t, 4> factor_row{};
  std::array<std::int64_t, 4> factor{};
  std::size_t nf = 0;
  for (const std::uint64_t g : grid.factors) {
    if (g == 0) break;
    const std::int64_t f = g == middle_row ? detail::position_of(v, n_rows / 2) : static_cast<std::int64_t>(g);
    const std::size_t row = detail::row_of(v, f, cons);
    bool seen = row == detail::no_row || f == 0;
    for (std::size_t i = 0; i < nf; ++i) seen = seen || factor[i] == f;
    if (!seen) factor[nf] = f, factor_row[nf++] = row;
  }
  // Squares in the hot loop; near the bound add() decides on the square root (relative_dot.hpp).
  const double bound = composition_bound<T>(), bound2 = bound * bound * (1 - 0x1p-40);
  double worst2 = -1;
  for (std::size_t t = 0; t < n_rows; ++t) {  // the row at m + n, in row order: the first failure is first
    const std::int64_t pt = detail::position_of(v, t);
    const T *ct = v.cos_row(t), *st = v.sin_row(t);
    for (std::size_t i = 0; i < nf; ++i) {
      const std::size_t m = detail::row_of(v, pt - factor[i], cons);
      if (m == detail::no_row) continue;
      const T *cm = v.cos_row(m), *sm = v.sin_row(m), *cn = v.cos_row(factor_row[i]), *sn = v.sin_row(factor_row[i]);
      std::uint64_t within = 0;  // counted in bulk: one call per row pair
      for (std::size_t j = 0; j < half; ++j) {
        const std::size_t k = j * step;
        double da = 0, db = 0;
        if constexpr (std::is_same_v<T, double>) {
          const detail::block x = detail::block_product<T, false>(cm, sm, cn, sn, k);
          da = (x.a - ct[k]) + x.a_lo, db = (x.b - st[k]) + x.b_lo;
        } else {
          // block_product's formula written out: a call per pair costs about a third more in
          // constant evaluation.
          double x1 = 0, y1 = 0, x2 = 0, y2 = 0, c = 0, s = 0;  // c, s: the entries at m + n
          if constexpr (std::is_same_v<T, float>)
            x1 = cm[k], y1 = sm[k], x2 = cn[k], y2 = sn[k], c = ct[k], s = st[k];
          else
            x1 = detail::to_double(cm[k]), y1 = detail::to_double(sm[k]), x2 = detail::to_double(cn[k]),
            y2 = detail::to_double(sn[k]), c = detail::to_double(ct[k]), s = detail::to_double(st[k]);
          da = (x1 * x2 - y1 * y2) - c, db = (y1 * x2 + x1 * y2) - s;
        }
        const double dev2 = da * da + db * db;  // ||X - Y||_2^2 (detail/blocks.hpp)
        if (dev2 <= worst2 && dev2 <= bound2) {
          ++within;
          continue;
        }
        worst2 = dev2 > worst2 ? dev2 : worst2;
        r.add(math::sqrt(dev2), bound, {pt, static_cast<std::int64_t>(j), -1, factor[i]});
      }
      r.pass(within);
    }
  }
  return r;
}

}  // namespace posenc::laws
