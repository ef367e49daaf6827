// relative_dot.hpp: law "attention scores depend on the relative position only" (RoFormer, Su et
// al., arXiv:2104.09864, section 3.2: <R_m q, R_n k> = q^T R_m^T R_n k = q^T R_{n-m} k), on a table:
// per pair j the block R~_m^T R~_n (a = c_m c_n + s_m s_n, b = c_m s_n - s_m c_n) must be the same,
// up to rounding, for every two rows with the same difference n - m. Each such block is within
// 2u + u^2 of the exact R_{n-m} (laws/bounds.hpp table_dot_bound), so two of them differ by at most
//   ||R~_m^T R~_n - R~_m'^T R~_n'||_2 <= 2 (2u + u^2) (1 + 2^-40) (+ 2^-51 for types narrower than double)
// (relative_dot_bound<T>; derivation in docs/laws.md section 3). For any q, k the score's change is
// then at most that times |q| |k|. A table whose frequencies are wrong but whose angles are exact
// multiples p theta'_j still holds this law (it is exactness's job to see the frequencies); a table
// whose angles are not linear in the position (a row at the wrong position, an angle rounded in
// float32 before the cos: HF's float32 pipeline, whose error grows with the position) fails it.
//
// The grid (relative_dot_grid): every row n is paired with the row at n - delta for each delta of
// a short list (default: 1; laws::middle_row stands for half the table's span), and its blocks are
// compared with the reference blocks of that delta, those of the first row pair (in row order) with
// that difference: a fixed reference, so that an error growing with the position (a float32 angle)
// fails instead of drifting past comparisons of neighbours. Cost of the default: one block product
// per pair and row, about half a table generation's (docs/performance.md 2.1). The first failure
// is named by the later row n (position), pair j, and m (partner): a single wrong row k is named as
// position k, unless it is in the reference pair itself (then every other pair with that
// difference fails, the first at the second row pair).
// Plain tables (attention factor not folded in: then R~^T R~ carries af^2 and the bound is af^2 x).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/laws/bounds.hpp"
#include "posenc/laws/detail/blocks.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/math/sqrt.hpp"

namespace posenc::laws::failed {

// Where a failing relative_dot stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool relative_dot(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<relative_dot>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity relative_dot{failed::relative_dot, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

// Stands for "half the table's span": position(rows / 2) - position(0) in relative_dot_grid, and
// position(rows / 2) in composition_grid.
inline constexpr std::uint64_t middle_row = ~std::uint64_t{0};

struct relative_dot_grid {
  // Differences n - m (> 0); 0 ends the list.
  std::array<std::uint64_t, 4> differences{1, 0, 0, 0};
};

namespace detail {

// Pairs are processed in chunks of this many (the reference blocks of a chunk live on the stack:
// 4 differences x 64 blocks x 32 bytes = 8 KiB at run time); a 128-dimension table is one chunk.
inline constexpr std::size_t law_chunk = 64;

// The first failure in row order across chunks: (row, list index, pair) is compared as a key.
struct first_key {
  std::size_t row = no_row, item = 0, pair = 0;
  constexpr bool before(std::size_t r, std::size_t i, std::size_t j) const noexcept {
    return r < row || (r == row && (i < item || (i == item && j < pair)));
  }
};

}  // namespace detail

template <rotary_table V>
constexpr law_result relative_dot(const V& v, relative_dot_grid grid = {}) noexcept {
  using T = typename V::value_type;
  law_result r =
      make_result("relative dot: R~_m^T R~_n depends on n - m only (blocks within 2(2u + u^2))", &kind::relative_dot);
  if (!well_shaped(v)) {
    r.require(false, {});
    return r;
  }
  const bool cons = detail::consecutive(v);
  const std::size_t n_rows = v.rows(), d = v.rotary_dim(), half = d / 2;
  const std::size_t step = v.layout() == rotary_layout::interleaved ? 2 : 1;  // element of pair j: j * step
  // The differences, resolved and without repeats.
  std::array<std::int64_t, 4> delta{};
  std::size_t nd = 0;
  for (const std::uint64_t g : grid.differences) {
    if (g == 0) break;
    const std::int64_t dl =
        g == middle_row ? detail::position_of(v, n_rows / 2) - detail::position_of(v, 0) : static_cast<std::int64_t>(g);
    bool seen = dl <= 0;
    for (std::size_t i = 0; i < nd; ++i) seen = seen || delta[i] == dl;
    if (!seen) delta[nd++] = dl;
  }
  // The hot loop compares squares; a case near the bound goes to add(), which decides on the square
  // root (so that holds and the printed figures agree to the last bit).
  const double bound = relative_dot_bound<T>(), bound2 = bound * bound * (1 - 0x1p-40);
  double worst2 = -1;
  detail::first_key first;
  entry_index first_at{};
  for (std::size_t j0 = 0; j0 < half; j0 += detail::law_chunk) {
    const std::size_t j1 = half - j0 < detail::law_chunk ? half : j0 + detail::law_chunk;
    // The reference row pair of each difference, and its blocks for this chunk.
    std::array<std::size_t, 4> ref_m{}, ref_n{};
    std::array<std::array<detail::block, detail::law_chunk>, 4> ref{};
    for (std::size_t i = 0; i < nd; ++i) {
      ref_n[i] = ref_m[i] = detail::no_row;
      for (std::size_t n = 0; n < n_rows && ref_n[i] == detail::no_row; ++n) {
        const std::size_t m = detail::row_of(v, detail::position_of(v, n) - delta[i], cons);
        if (m != detail::no_row) ref_m[i] = m, ref_n[i] = n;
      }
      if (ref_n[i] == detail::no_row) continue;
      for (std::size_t j = j0; j < j1; ++j)
        ref[i][j - j0] = detail::block_product<T, true>(v.cos_row(ref_m[i]), v.sin_row(ref_m[i]), v.cos_row(ref_n[i]),
                                                        v.sin_row(ref_n[i]), j * step);
    }
    for (std::size_t n = 0; n < n_rows; ++n) {
      const std::int64_t pn = detail::position_of(v, n);
      for (std::size_t i = 0; i < nd; ++i) {
        if (ref_n[i] == detail::no_row || n < ref_n[i]) continue;
        const std::size_t m = detail::row_of(v, pn - delta[i], cons);
        if (m == detail::no_row || (n == ref_n[i] && m == ref_m[i])) continue;
        const T *cm = v.cos_row(m), *sm = v.sin_row(m), *cn = v.cos_row(n), *sn = v.sin_row(n);
        std::uint64_t within = 0;  // counted in bulk: one call per row pair
        for (std::size_t j = j0; j < j1; ++j) {
          const std::size_t k = j * step;
          const detail::block& y = ref[i][j - j0];
          double da = 0, db = 0;
          if constexpr (std::is_same_v<T, double>) {
            const detail::block x = detail::block_product<T, true>(cm, sm, cn, sn, k);
            da = (x.a - y.a) + (x.a_lo - y.a_lo), db = (x.b - y.b) + (x.b_lo - y.b_lo);
          } else {
            // block_product's formula written out (the same operations, so the same bits as the
            // reference's): a call per pair costs about a third more in constant evaluation.
            double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
            if constexpr (std::is_same_v<T, float>)
              x1 = cm[k], y1 = sm[k], x2 = cn[k], y2 = sn[k];
            else
              x1 = detail::to_double(cm[k]), y1 = detail::to_double(sm[k]), x2 = detail::to_double(cn[k]),
              y2 = detail::to_double(sn[k]);
            da = (x1 * x2 + y1 * y2) - y.a, db = (x1 * y2 - y1 * x2) - y.b;
          }
          const double dev2 = da * da + db * db;  // ||X - Y||_2^2 (detail/blocks.hpp)
          if (dev2 <= worst2 && dev2 <= bound2) {
            ++within;
            continue;
          }
          const entry_index at{pn, static_cast<std::int64_t>(j), -1, detail::position_of(v, m)};
          const double dev = math::sqrt(dev2);
          worst2 = dev2 > worst2 ? dev2 : worst2;
          r.add(dev, bound, at);
          if (!(dev <= bound) && first.before(n, i, j)) first = {n, i, j}, first_at = at;
        }
        r.pass(within);
      }
    }
  }
  if (!r.holds) r.first_failure = first_at;
  return r;
}

}  // namespace posenc::laws
