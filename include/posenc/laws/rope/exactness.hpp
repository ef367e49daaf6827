// exactness.hpp: law "every entry is within max_ulp units in the last place of the exact value of
// the described table" (max_ulp = 0: correctly rounded, posenc's contract). The table is described
// by a RoPE config (any scaling), its dtype and layout (the view's), its rows' positions, and
// whether the attention factor is folded in; the exact entries are RN_T(cos(p theta_j)) and
// RN_T(sin(p theta_j)) of the exact scaled frequency (rope/angle.hpp), or RN_T(af cos), RN_T(af sin)
// folded. Every element of every row is compared, not a sample.
//
//   constexpr float vendor_cos[2048][128] = {...}, vendor_sin[2048][128] = {...};
//   static_assert(posenc::laws::exactness(posenc::laws::view(vendor_cos, vendor_sin,
//                     posenc::rope::layout::half_split), llama31, {.max_ulp = 1}).holds);
//
// Cost: views with sizes known at compile time and consecutive positions are compared, in
// constant evaluation, by the table engine itself as it computes the exact table (a comparing
// sink, no reference stored: about 0.9x (GCC) and 1.2x (Clang) of generating the table, docs/
// performance.md 2.1; rotary dims up to 256), or against blocks of rope::make_pair_table (wider
// rows, and at run time); at run time, views of run-time sizes with consecutive positions are
// compared against rope::fill_pair_table blocks (32 KiB of stack); the rest (position lists, and
// run-time sizes in constant evaluation) evaluate each element with rope::sincos. A config that
// fails validate() or a rotary dim that is not rotary_dim(cfg) fails the law at "the table"; so
// does a position past rope::max_table_position in a view of static sizes (the engine takes
// positions up to it), while a view of run-time sizes compares such rows entry by entry
// (rope::sincos takes any position).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rope/table_view.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/rope/angle.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/fixed_point_table.hpp"
#include "posenc/rope/table.hpp"

namespace posenc::laws::failed {

// Where a failing exactness stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool exactness(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<exactness>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity exactness{failed::exactness, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

struct exactness_options {
  std::uint64_t max_ulp = 0;    // the largest distance allowed, in ulp of the table's type
  bool fold_attention = false;  // the table holds af cos, af sin (HF's attention_scaling folded in)
};

namespace detail {

// Element k of a row against its exact value e, cos and sin. Equal bits (the common case) cost two
// comparisons; only a difference computes the distance.
template <class T>
constexpr void compare_entry(law_result& r, T c, T s, T ec, T es, double max_ulp, entry_index at) noexcept {
  if (same_bits(c, ec) && same_bits(s, es)) {
    if (r.checked == 0)
      r.add(0.0, max_ulp, at);
    else
      r.pass(1);
    return;
  }
  const std::uint64_t dc = ulp_distance(c, ec), ds = ulp_distance(s, es);
  r.add(static_cast<double>(dc > ds ? dc : ds), max_ulp, at);
}

// consecutive(v) is in table_view.hpp (shared with the laws over two rows).

// One row's elements against the row's exact pairs ref[j] (j the pair of element k), in element
// order, recording each difference; returns how many were equal. Used by every path that has the
// exact pairs of a row (reference blocks, the comparing sink), so the first failure and the worst
// case are always those of an element-by-element walk.
template <class T>
constexpr std::uint64_t compare_row_elements(law_result& r, const T* cr, const T* sr, const math::sincos_result<T>* ref,
                                             rope::layout lay, std::size_t d, std::int64_t p, double max_ulp) noexcept {
  std::uint64_t equal = 0;
  for (std::size_t k = 0; k < d; ++k) {
    const std::size_t j = pair_of_element(lay, k, d);
    if (same_bits(cr[k], ref[j].cos) && same_bits(sr[k], ref[j].sin)) {
      ++equal;
      continue;
    }
    compare_entry(r, cr[k], sr[k], ref[j].cos, ref[j].sin, max_ulp,
                  {p, static_cast<std::int64_t>(j), static_cast<std::int64_t>(k)});
  }
  return equal;
}

// A row's equal elements, counted in bulk (one call per row: the common case stays cheap); the
// first case of the law sets the worst index.
constexpr void pass_row(law_result& r, std::uint64_t equal, std::int64_t p, double max_ulp) noexcept {
  if (r.checked == 0 && equal > 0) {
    r.add(0.0, max_ulp, {p, 0, 0});
    --equal;
  }
  r.pass(equal);
}

// Rows of v against the engine's compact reference (rope::make_pair_table: one {sin, cos} per
// pair, half the stores of an expanded table, which is most of the law's cost in constant
// evaluation), built in blocks of K rows. A row is first compared pair by pair, both elements of
// each pair at once; only a row with a difference is walked element by element (in element order,
// so the first failure and the worst case are the ones of an element-by-element walk).
template <rope::layout L, std::size_t K, std::size_t D, rotary_table V>
constexpr bool compare_blocks(law_result& r, const V& v, const rope::config& c, exactness_options o) noexcept {
  using T = typename V::value_type;
  constexpr std::size_t half = D / 2;
  const std::size_t n = v.rows();
  const double max_ulp = static_cast<double>(o.max_ulp);
  for (std::size_t base = 0; base < n; base += K) {
    const std::size_t first = base + K <= n ? base : n - K;  // the last block overlaps the one before
    const auto ref = rope::make_pair_table<T, K, half>(
        c, {.start = static_cast<std::uint64_t>(position_of(v, 0)) + first, .fold_attention = o.fold_attention});
    if (!ref.ok()) return false;
    for (std::size_t row = base; row < base + K && row < n; ++row) {
      const T *cr = v.cos_row(row), *sr = v.sin_row(row);
      const math::sincos_result<T>* er = ref.value.row(row - first);
      const auto p = static_cast<std::int64_t>(v.position(row));
      bool row_equal = true;
      for (std::size_t j = 0; j < half && row_equal; ++j) {
        const std::size_t k0 = L == rope::layout::interleaved ? 2 * j : j;
        const std::size_t k1 = L == rope::layout::interleaved ? 2 * j + 1 : j + half;
        row_equal = same_bits(cr[k0], er[j].cos) && same_bits(sr[k0], er[j].sin) && same_bits(cr[k1], er[j].cos) &&
                    same_bits(sr[k1], er[j].sin);
      }
      pass_row(r, row_equal ? D : compare_row_elements(r, cr, sr, er, L, D, p, max_ulp), p, max_ulp);
    }
  }
  return true;
}

// Rows [first, last) of v against rope::sincos / rope::attention_sincos, element by element in row
// order (so the first failure is the first in the row). false: an exact value could not be formed
// (a folded entry that overflows T), recorded as a failure at its position.
template <rotary_table V>
constexpr bool compare_rows_scalar(law_result& r, const V& v, const rope::config& c, exactness_options o,
                                   std::size_t first, std::size_t last) noexcept {
  using T = typename V::value_type;
  const std::size_t d = v.rotary_dim();
  const double max_ulp = static_cast<double>(o.max_ulp);
  for (std::size_t row = first; row < last; ++row) {
    const auto p = static_cast<std::int64_t>(v.position(row));
    const auto m = static_cast<std::uint64_t>(p);
    if constexpr (posenc::fixed_point_type<T>) {  // no scalar q15/q31 entry: the row's pairs at its position
      std::vector<math::sincos_result<T>> e(d / 2);
      const std::uint64_t at[1] = {m};
      if (!rope::fill_pair_table<T>(c, std::span<const std::uint64_t>(at), std::span<math::sincos_result<T>>(e),
                                    o.fold_attention)
               .ok()) {
        r.require(false, {p, -1, -1});
        return false;
      }
      pass_row(r, compare_row_elements(r, v.cos_row(row), v.sin_row(row), e.data(), v.layout(), d, p, max_ulp), p,
               max_ulp);
    } else {
      for (std::size_t k = 0; k < d; ++k) {
        const std::size_t j = pair_of_element(v.layout(), k, d);
        const auto e = o.fold_attention ? rope::attention_sincos<T>(c, m, static_cast<int>(j))
                                        : rope::sincos<T>(c, m, static_cast<int>(j));
        if (!e.ok()) {
          r.require(false, {p, -1, -1});
          return false;
        }
        compare_entry(r, v.cos_row(row)[k], v.sin_row(row)[k], e.value.cos, e.value.sin, max_ulp,
                      {p, static_cast<std::int64_t>(j), static_cast<std::int64_t>(k)});
      }
    }
  }
  return true;
}

// Constant evaluation, one chunk of columns (rotary dims up to 2 x sincos_table::chunk_columns):
// the table engine computes the exact table row by row and hands each pair to this sink, which
// compares it with the view's two elements of that pair instead of storing it, so no reference
// block is written and read back (that was a third of the law's cost on Clang). The engine hands
// over a row's pairs consecutively and in order here; the sink keeps the row's exact pairs, and a
// row with a difference is walked again element by element against them, so the first failure and
// the worst case are those of an element-by-element walk.
template <rotary_table V>
struct compare_sink {
  using T = typename V::value_type;
  law_result* r;
  const V* v;
  const rope::config* c;
  exactness_options o;
  std::size_t half;
  bool interleaved;
  bool clean = true;
  const T* cr = nullptr;
  const T* sr = nullptr;
  math::sincos_result<T> row_ref[posenc::detail::sincos_table::chunk_columns] = {};  // the row's exact pairs

  constexpr void begin_chunk(std::size_t, std::size_t) noexcept {}
  constexpr void store(std::size_t i, std::size_t j0, std::size_t jj, const math::sincos_result<T>& e) noexcept {
    const std::size_t j = j0 + jj;
    if (j == 0) cr = v->cos_row(i), sr = v->sin_row(i);
    const std::size_t k0 = interleaved ? 2 * j : j, k1 = interleaved ? 2 * j + 1 : j + half;
    row_ref[j] = e;
    clean = clean && same_bits(cr[k0], e.cos) && same_bits(sr[k0], e.sin) && same_bits(cr[k1], e.cos) &&
            same_bits(sr[k1], e.sin);
    if (j + 1 < half) return;
    const auto p = position_of(*v, i);
    const double max_ulp = static_cast<double>(o.max_ulp);
    const rope::layout lay = interleaved ? rope::layout::interleaved : rope::layout::half_split;
    pass_row(*r, clean ? 2 * half : compare_row_elements(*r, cr, sr, row_ref, lay, 2 * half, p, max_ulp), p, max_ulp);
    clean = true;
  }
};

// The law over a whole view of consecutive positions through compare_sink; false when the engine
// refuses (a position past rope::max_table_position, a folded entry that overflows T).
template <rotary_table V>
constexpr bool compare_in_engine(law_result& r, const V& v, const rope::config& c, exactness_options o) noexcept {
  using T = typename V::value_type;
  if constexpr (posenc::fixed_point_type<T>) {  // not called: the engine's sink holds float rows
    return false;
  } else {
    const std::int64_t p0 = position_of(v, 0);
    const std::size_t n = v.rows(), half = v.rotary_dim() / 2;
    if (p0 < 0 || static_cast<std::uint64_t>(p0) > rope::max_table_position ||
        n - 1 > rope::max_table_position - static_cast<std::uint64_t>(p0))
      return false;
    compare_sink<V> sink{&r, &v, &c, o, half, v.layout() == rope::layout::interleaved};
    const posenc::rope::detail::attention_value af =
        o.fold_attention ? posenc::rope::detail::attention_dd(c) : posenc::rope::detail::attention_value{};
    const posenc::rope::detail::rope_source src{&c};
    return posenc::detail::sincos_table::fill_rows<T>(src, static_cast<std::uint64_t>(p0), n, half, nullptr,
                                                      o.fold_attention ? &af : nullptr, sink) == posenc::status::ok;
  }
}

// Whether a fill succeeded: a floating fill returns its status, a q15/q31 fill a fixed_fill_status
// (whose saturation count is no failure).
constexpr bool filled(posenc::status st) noexcept { return st == posenc::status::ok; }
constexpr bool filled(const posenc::fixed_fill_status& st) noexcept { return st.ok(); }

// Pairs of the run-time reference block (compact rows, rope::fill_pair_table): 2048 x 16 bytes =
// 32 KiB of stack for double.
inline constexpr std::size_t reference_pairs = 2048;

// Rows of v (consecutive positions, sizes known at run time only) against the table engine's
// compact reference, reference_pairs / (d/2) rows at a time: the cost of generating the table,
// not of a scalar evaluation per pair. A block the engine refuses (a position past
// rope::max_table_position, a folded entry that overflows T) goes through compare_rows_scalar,
// which names the failure as the scalar path does. Run time only: in constant evaluation a refusal
// of the engine is a compile error.
template <rotary_table V>
bool compare_filled(law_result& r, const V& v, const rope::config& c, exactness_options o) noexcept {
  using T = typename V::value_type;
  const std::size_t d = v.rotary_dim(), half = d / 2, n = v.rows();
  const auto p0 = position_of(v, 0);
  if (half > reference_pairs || p0 < 0) return compare_rows_scalar(r, v, c, o, 0, n);
  const std::size_t block = reference_pairs / half;
  const double max_ulp = static_cast<double>(o.max_ulp);
  const rope::layout lay = v.layout();
  std::array<math::sincos_result<T>, reference_pairs> ref;
  for (std::size_t base = 0; base < n; base += block) {
    const std::size_t rows = n - base < block ? n - base : block;
    const std::uint64_t start = static_cast<std::uint64_t>(p0) + base;
    const bool in_range = start <= rope::max_table_position && rows - 1 <= rope::max_table_position - start;
    if (!in_range || !filled(rope::fill_pair_table<T>(c, std::span<math::sincos_result<T>>(ref.data(), rows * half),
                                                      {.start = start, .fold_attention = o.fold_attention}))) {
      if (!compare_rows_scalar(r, v, c, o, base, base + rows)) return false;
      continue;
    }
    for (std::size_t row = base; row < base + rows; ++row) {
      const T *cr = v.cos_row(row), *sr = v.sin_row(row);
      const math::sincos_result<T>* er = ref.data() + (row - base) * half;
      const auto p = static_cast<std::int64_t>(start + (row - base));
      pass_row(r, compare_row_elements(r, cr, sr, er, lay, d, p, max_ulp), p, max_ulp);
    }
  }
  return true;
}

}  // namespace detail

template <rotary_table V>
constexpr law_result exactness(const V& v, const rope::config& c, exactness_options o = {}) noexcept {
  law_result r = make_result("exactness: every entry within max_ulp of the exact described table", &kind::exactness);
  if (!well_shaped(v) || !rope::validate(c).ok() || v.rotary_dim() != static_cast<std::size_t>(rope::rotary_dim(c))) {
    r.require(false, {});
    return r;
  }
  // A signed view's negative rows have no exact value here (rope::sincos takes positions from 0):
  // the first one fails the law at its position (docs/laws.md: check parity for them).
  if constexpr (std::is_signed_v<decltype(v.position(0))>)
    for (std::size_t row = 0; row < v.rows(); ++row)
      if (detail::position_of(v, row) < 0) {
        r.require(false, {detail::position_of(v, row), -1, -1});
        return r;
      }
  if constexpr (requires {
                  V::static_rows;
                  V::static_rotary_dim;
                }) {
    // Blocks of 256 rows in constant evaluation (fewer anchors to set up: measured 0.9x of the
    // generation's time on Clang against 1.8x with 64), 16 at run time (the block is a local: 16 x
    // 128 doubles x 2 is 32 KiB of stack).
    constexpr std::size_t N = V::static_rows, D = V::static_rotary_dim;
    constexpr std::size_t Kc = N < 256 ? N : 256, Kr = N < 16 ? N : 16;
    if (detail::consecutive(v)) {
      const bool il = v.layout() == rope::layout::interleaved;
      bool built = false;
      // (q15/q31 tables take the reference blocks: the comparing sink holds the engine's float rows.)
      if (std::is_constant_evaluated() && D / 2 <= posenc::detail::sincos_table::chunk_columns &&
          !posenc::fixed_point_type<typename V::value_type>)
        built = detail::compare_in_engine(r, v, c, o);
      else if (std::is_constant_evaluated())
        built = il ? detail::compare_blocks<rope::layout::interleaved, Kc, D>(r, v, c, o)
                   : detail::compare_blocks<rope::layout::half_split, Kc, D>(r, v, c, o);
      else
        built = il ? detail::compare_blocks<rope::layout::interleaved, Kr, D>(r, v, c, o)
                   : detail::compare_blocks<rope::layout::half_split, Kr, D>(r, v, c, o);
      if (!built) r.require(false, {});
      return r;
    }
  }
  if (!std::is_constant_evaluated() && detail::consecutive(v)) {
    detail::compare_filled(r, v, c, o);
    return r;
  }
  detail::compare_rows_scalar(r, v, c, o, 0, v.rows());
  return r;
}

}  // namespace posenc::laws
