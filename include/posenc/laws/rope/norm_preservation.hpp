// norm_preservation.hpp: law "applying a row of the table to a vector keeps its norm, up to the
// kernel's rounding": for a vector v of rotary_dim elements of storage S and every row of the table,
// w = the apply kernel's rotation of v by that row (rope/apply.hpp's arithmetic, exactly:
// x' = RN_C(RN_C(x c) - RN_C(y s)), y' = RN_C(RN_C(x s) + RN_C(y c)), stored as RN_S; the law calls
// the kernel's own per-pair function, posenc::detail::rotate_pairs), and
//   | ||w|| / ||v|| - 1 | <= kr + u_t  (+ the evaluation's (d + 2) u_d (1 + bound))
// (norm_preservation_bound<S, T>(d), laws/bounds.hpp: kr is one kernel rotation's error bound,
// apply_kernel_bounds<S, T>().norm; docs/laws.md section 3). This is unit_norm seen through the
// kernel: a block off the unit circle by e changes the norm of the pair's part of v by about e/2,
// so for a vector with weight on every pair it fails where unit_norm does (at a smaller margin), and
// it also sees a kernel whose arithmetic is not the contract's.
//
// The vector: the caller's (std::span of S, rotary_dim elements in the table's layout), or by
// default a deterministic one of storage T: 128 values in [-1, 1) from a fixed 64-bit LCG
// (Knuth's MMIX constants), rounded once to T, repeated for wider tables (pair j's elements are
// values 2j mod 128 and 2j + 1 mod 128). A vector of norm 0 or with a non-finite element fails at
// "the table", and so does a rotary_dim past detail::norm_max_rotary_dim = 1024 (the vector is held
// on the stack). The first failure is named by the row's position (pair and element -1: the norm is
// of the whole vector).
// Rows: every row of a table of up to 1024 rows, else every s-th row (s = ceil(rows / 1024)) and the
// last (kernel_grid; {.max_rows = 0} for every row): one kernel rotation per row costs about as much
// in constant evaluation as generating the row (docs/performance.md 2.1).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "posenc/laws/bounds.hpp"
#include "posenc/laws/detail/blocks.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rope/table_view.hpp"
#include "posenc/laws/rotary/relative_dot.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/round.hpp"
#include "posenc/math/sqrt.hpp"
#include "posenc/rope/apply.hpp"

namespace posenc::laws::failed {

// Where a failing norm_preservation stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool norm_preservation(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<norm_preservation>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity norm_preservation{failed::norm_preservation, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

// The rows a kernel law applies the kernel with: every row of a table of up to max_rows rows, else
// every s-th row, s = ceil(rows / max_rows), and the last row (max_rows = 0: every row). The kernel
// costs about as much per pair in constant evaluation as generating the entry, so a 2048-row table
// is checked on 1024 rows to stay below one generation's cost (docs/performance.md 2.1).
struct kernel_grid {
  std::size_t max_rows = 1024;
};

namespace detail {

// The default vector: 2 law_chunk values of S in [-1, 1) from a 64-bit LCG, each rounded once.
template <class S>
constexpr std::array<S, 2 * law_chunk> lcg_vector() noexcept {
  std::array<S, 2 * law_chunk> x{};
  std::uint64_t state = 0x9E3779B97F4A7C15u;  // any fixed seed: the law must hold for every vector
  for (S& e : x) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    const double u = static_cast<double>(state >> 11) * 0x1p-53;  // [0, 1), 53 bits
    e = math::round_to<S>(2 * u - 1).value;
  }
  return x;
}

constexpr std::size_t row_stride(std::size_t rows, kernel_grid g) noexcept {
  return g.max_rows == 0 || rows <= g.max_rows ? 1 : (rows + g.max_rows - 1) / g.max_rows;
}
// The row after row in the grid (rows when done): the stride, then the last row.
constexpr std::size_t next_row(std::size_t row, std::size_t rows, std::size_t stride) noexcept {
  if (row + 1 == rows) return rows;
  return row + stride < rows ? row + stride : rows - 1;
}

// The largest rotary_dim the law takes: the vector is held on the stack in pair order (no heap in
// the core); a wider table fails at "the table".
inline constexpr std::size_t norm_max_rotary_dim = 1024;

// One squared norm of the 2n elements of x, summed as the bound assumes: in double for storage
// narrower than double (the squares are exact), in double-double for double. One call per chunk.
template <class S>
constexpr math::double_double add_squares(math::double_double acc, const S* x, std::size_t count) noexcept {
  for (std::size_t k = 0; k < count; ++k) {
    if constexpr (std::is_same_v<S, double>) {
      acc = posenc::detail::dd_add(acc, posenc::detail::two_prod(x[k], x[k]));
    } else {
      double e = 0;
      if constexpr (std::is_same_v<S, float>)
        e = x[k];
      else
        e = to_double(x[k]);
      acc.hi += e * e;
    }
  }
  return acc;
}

// (||w||^2 - ||v||^2) / ||v||^2 from the two sums (the difference taken before rounding to double,
// so that a double vector's tiny deviation is not lost in ||w||^2's rounding).
constexpr double norm_excess(math::double_double w, math::double_double v) noexcept {
  const auto diff = posenc::detail::dd_add(w, {-v.hi, -v.lo});
  return (diff.hi + diff.lo) / v.hi;
}

// The law on a vector given in pair order: xs[2j], xs[2j + 1] are pair j's elements.
template <class S, rotary_table V>
constexpr law_result norm_preservation_of(const V& v, const std::array<S, norm_max_rotary_dim>& xs,
                                          kernel_grid g) noexcept {
  using T = typename V::value_type;
  using C = rope::compute_t<S>;
  law_result r =
      make_result("norm preservation: | |R~ v| / |v| - 1 | <= kr + u_t (the apply kernel)", &kind::norm_preservation);
  const std::size_t d = v.rotary_dim(), half = d / 2;
  const std::size_t step = v.layout() == rope::layout::interleaved ? 2 : 1;
  const math::double_double nv = add_squares<S>({0, 0}, xs.data(), d);
  if (!(nv.hi > 0) || !(nv.hi < 0x1p1000)) {  // zero, overflowing, infinite or NaN
    r.require(false, {});
    return r;
  }
  const double bound = norm_preservation_bound<S, T>(d);
  // dev = |e| / (1 + sqrt(1 + e)) <= w  <=>  w^2 - 2w <= e <= 2w + w^2: the hot loop compares e
  // with these thresholds (of the bound and of the worst so far, pulled in by 2^-40 so that a case
  // near either goes to add(), which decides on dev itself).
  const double bhi = (2 * bound + bound * bound) * (1 - 0x1p-40), blo = (bound * bound - 2 * bound) * (1 - 0x1p-40);
  double ehi = -1, elo = 1;  // empty until the first case
  std::array<S, 2 * law_chunk> buf{};
  std::array<C, law_chunk> cs{}, sn{};
  const std::size_t stride = row_stride(v.rows(), g);
  for (std::size_t row = 0; row < v.rows(); row = next_row(row, v.rows(), stride)) {
    const T *cr = v.cos_row(row), *sr = v.sin_row(row);
    math::double_double nw{0, 0};
    for (std::size_t j0 = 0; j0 < half; j0 += law_chunk) {
      const std::size_t n = half - j0 < law_chunk ? half - j0 : law_chunk;
      // The pairs of this chunk side by side (the kernel's arithmetic per pair does not depend on
      // where the pair's two elements are: rope/apply.hpp's contract), the row's entries loaded
      // exactly into the compute type as the kernel loads them.
      for (std::size_t i = 0; i < n; ++i) {
        buf[2 * i] = xs[2 * (j0 + i)];
        buf[2 * i + 1] = xs[2 * (j0 + i) + 1];
        if constexpr (std::is_same_v<T, C>) {
          cs[i] = cr[(j0 + i) * step];
          sn[i] = sr[(j0 + i) * step];
        } else {
          cs[i] = posenc::detail::load_exact<C>(cr[(j0 + i) * step]);
          sn[i] = posenc::detail::load_exact<C>(sr[(j0 + i) * step]);
        }
      }
      posenc::detail::rotate_pairs<S, C>(buf.data(), 0, n, 2 * n, rope::layout::interleaved, cs.data(), sn.data());
      nw = add_squares<S>(nw, buf.data(), 2 * n);
    }
    const double e = norm_excess(nw, nv);
    if (e <= ehi && e >= elo) {
      r.pass(1);
      continue;
    }
    const double dev = (e < 0 ? -e : e) / (1 + math::sqrt(1 + e));
    r.add(dev, bound, {position_of(v, row), -1, -1});
    const double w = r.deviation;
    ehi = (2 * w + w * w < bhi ? 2 * w + w * w : bhi) * (1 - 0x1p-40);
    elo = (w * w - 2 * w > blo ? w * w - 2 * w : blo) * (1 - 0x1p-40);
  }
  return r;
}

constexpr law_result norm_preservation_refused() noexcept {
  law_result r =
      make_result("norm preservation: | |R~ v| / |v| - 1 | <= kr + u_t (the apply kernel)", &kind::norm_preservation);
  r.require(false, {});
  return r;
}

}  // namespace detail

// The caller's vector x: rotary_dim elements of storage S (double, float, bfloat16 or float16; the
// table's type must load exactly into S's compute type, rope::compute_t), in the table's layout.
template <rotary_table V, class S>
constexpr law_result norm_preservation(const V& v, std::span<const S> x, kernel_grid g = {}) noexcept {
  const std::size_t d = v.rotary_dim();
  if (!well_shaped(v) || x.size() != d || d > detail::norm_max_rotary_dim) return detail::norm_preservation_refused();
  const std::size_t step = v.layout() == rope::layout::interleaved ? 2 : 1;
  const std::size_t off = v.layout() == rope::layout::interleaved ? 1 : d / 2;
  std::array<S, detail::norm_max_rotary_dim> xs{};
  for (std::size_t j = 0; j < d / 2; ++j) xs[2 * j] = x[j * step], xs[2 * j + 1] = x[j * step + off];
  return detail::norm_preservation_of<S>(v, xs, g);
}
template <rotary_table V, class S, std::size_t K>
constexpr law_result norm_preservation(const V& v, const std::array<S, K>& x, kernel_grid g = {}) noexcept {
  return norm_preservation(v, std::span<const S>(x), g);
}

// The default vector (detail::lcg_vector, repeated) in the table's own type.
template <rotary_table V>
constexpr law_result norm_preservation(const V& v, kernel_grid g = {}) noexcept {
  using T = typename V::value_type;
  if (!well_shaped(v) || v.rotary_dim() > detail::norm_max_rotary_dim) return detail::norm_preservation_refused();
  const std::array<T, 2 * detail::law_chunk> x = detail::lcg_vector<T>();
  std::array<T, detail::norm_max_rotary_dim> xs{};
  for (std::size_t k = 0; k < v.rotary_dim(); ++k) xs[k] = x[k % x.size()];
  return detail::norm_preservation_of<T>(v, xs, g);
}

}  // namespace posenc::laws
