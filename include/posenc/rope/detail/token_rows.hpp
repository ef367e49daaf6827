// token_rows.hpp: one fill of a position stream's 1D rows written straight into the rows of the
// tokens that read them, with no buffer and no gather: the path of an ND axis whose tokens' row
// indices never go back (rope/nd.hpp), at run time and for compact float tables in constant
// evaluation. Every token at its own row (a 1D stream of distinct positions on an axis), or a
// grid's row axis (W tokens a row): the row kernels visit rows in increasing order within each
// slice of columns, so a cursor over the tokens finds the tokens at each row in time linear in
// the tokens a slice. Before it, an axis without scratch came in 8 KiB stack windows
// (stream_fill.hpp), each paying a fill's set-up (E_1, the E_b chain, an anchor a column) every
// 16 to 32 rows: 0.27x the 1D table where every token had its own row (docs/performance.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/math/sincos_result.hpp"
#include "posenc/rope/detail/table_column.hpp"

namespace posenc::rope::detail {

// How a stream's rows run along the tokens: back somewhere; never back; or each token at the row
// after the previous token's (every token its own row, none skipped: a 1D stream).
enum class row_order : unsigned char { goes_back, nondecreasing, consecutive };

// A stream's row range and row_order, found in the pass that computes its tokens' rows (grid_axis,
// near_grid_axis: a pass of its own cost as much again): one add a token, in token order. It also
// finds whether the rows are a progression, first + step i (step >= 0, the same between every two
// tokens): every axis such a progression, an ND table is one fill of whole rows (rope/nd.hpp).
struct row_scan {
  std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
  std::uint64_t before = 0;  // the last token's row
  std::uint64_t first = 0;   // the first token's row
  std::uint64_t step = 0;    // the second token's row less the first's (once stepped)
  bool ordered = true, stepped = false, uniform = true;
  constexpr void add(std::uint64_t r, bool first_token) noexcept {
    lo = r < lo ? r : lo;
    hi = r > hi ? r : hi;
    ordered = ordered && r >= before;
    if (first_token) first = r;
    if (!first_token && !stepped) step = r - before, stepped = true;  // wraps when r < before: not ordered
    uniform = uniform && (first_token || r - before == step);
    before = r;
  }
  // The rows seen so far, from `seen` tokens, times 2^more (grid_axis's finer grid): the same
  // order and the same uniformity, the step times 2^more (steps of one no longer).
  constexpr void rescale(int more, std::size_t seen) noexcept {
    if (seen == 0) return;
    lo <<= more, hi <<= more, before <<= more, first <<= more, step <<= more;
  }
  // Rows first + step i along the tokens, step >= 0.
  constexpr bool progression() const noexcept { return ordered && uniform; }
  constexpr row_order order() const noexcept {
    if (!ordered) return row_order::goes_back;
    return uniform && (!stepped || step == 1) ? row_order::consecutive : row_order::nondecreasing;
  }
};

// The tokens at a row of a stream whose rows never go back along the tokens: row_of(k) is token
// k's row, nondecreasing in k. seek(p) sets [first, last) to the tokens at row p (empty when none
// holds it): forward from the last row sought, from token 0 when p is below it (the next slice
// of columns starts again at the first row). Consecutive rows (token k at row base + k) need no
// search: the kernels seek once a row and a slice, and where every token has its own row the
// search cost a fifth of a double row's entries.
template <class RowOf>
struct token_walk {
  RowOf row_of;
  std::size_t tokens = 0;
  bool consecutive = false;  // token k at row base + k
  std::uint64_t base = 0;
  std::uint64_t row = ~std::uint64_t{0};  // the row last sought (none yet: every p is below it)
  std::size_t first = 0, last = 0;
  std::uint64_t next = 0;                        // row_of(last), when last < tokens
  std::uint64_t before_row = ~std::uint64_t{0};  // constant evaluation: the row sought before it, and its tokens
  std::size_t before_first = 0, before_last = 0;

  // Each token's row is computed once a pass (the row after a run is kept in next): a row costs a
  // conversion from double.
  constexpr void seek(std::uint64_t p) noexcept {
    if (p == row) return;
    if (std::is_constant_evaluated()) before_row = row, before_first = first, before_last = last;
    if (consecutive) {  // p in [base, base + tokens): the kernels ask only for the fill's rows
      first = static_cast<std::size_t>(p - base), last = first + 1, row = p;
      return;
    }
    std::size_t k = last;
    std::uint64_t r = next;
    if (p < row) k = 0, r = tokens > 0 ? row_of(0) : 0;  // from the first token (row: ~0 before the first seek)
    while (k < tokens && r < p)
      if (++k < tokens) r = row_of(k);
    first = k;
    while (k < tokens && r == p)
      if (++k < tokens) r = row_of(k);
    last = k, next = r, row = p;
  }
  // The tokens at row p, which may be the row before the last sought: constant evaluation's
  // two-row pass asks for rows i and i + 1, then ends row i.
  struct token_range {
    std::size_t first, last;
  };
  constexpr token_range at(std::uint64_t p) noexcept {
    if (p == before_row && p != row) return {before_first, before_last};
    seek(p);
    return {first, last};
  }
};

// The row kernels' sink (math/detail/sincos_table_engine.hpp) for rows lo + i of one stream,
// whose column jj of chunk j0 is pair first + j0 + jj of the table: an entry goes to each token at
// its row, its sin through negate(sin, x, column) at a negative coordinate x (rope/nd.hpp: RN(-y)
// = -RN(y), but for a turns axis's exact zeros). The run-time kernels hand over a row's slice of
// columns at once (store_slice: one seek and one test of the sign a token, not an entry);
// constant evaluation's float kernel writes rows in place (row_pairs, end_row). store, an entry at
// a time, is the engine's general path (fill_chunk), which the ND fills do not reach; it keeps
// the sink complete for it.
template <class T, class RowOf, class Negate>
struct token_rows_sink {
  token_walk<RowOf>* walk = nullptr;  // shared with a source that seeks the same rows (near-grid offsets)
  std::uint64_t lo = 0;
  std::size_t first = 0;
  table_dest<T>* dest = nullptr;
  const double* x = nullptr;  // the tokens' coordinates (their signs)
  Negate negate;
  // GCC's constant evaluation, the axis whose pairs start each row (first == 0, one slice of
  // columns): after a token's pairs, end_row first stores the rest of its row, [first + n,
  // stride), as zeros, for the later axes to overwrite. Every element is then first stored in
  // order, which GCC's evaluator needs to store in constant time (rope/nd.hpp, fill_nd), with no
  // pass of zeros over the whole table before the axes.
  bool zero_rest_of_row = false;

  constexpr void begin_chunk(std::size_t j0, std::size_t n) noexcept { dest->begin_chunk(first + j0, n); }
  // Constant evaluation's float kernel (math/detail/sincos_table_rows_constexpr.hpp) writes a
  // compact row in place: the first token's at the row, as its |x| gives it (null: no token
  // reads the row, which the walk steps past); end_row then copies it to the row's other tokens
  // and negates sin where a token's coordinate is negative, the first token's last (its values
  // are the others' source). Only compact float tables take this sink in constant evaluation.
  static constexpr bool skips_unread_rows = true;
  constexpr math::sincos_result<float>* row_pairs(std::size_t i, std::size_t j0, std::size_t) noexcept
    requires std::is_same_v<T, float>
  {
    if (dest->pairs == nullptr) return nullptr;
    walk->seek(lo + i);
    return walk->first < walk->last ? dest->pairs + walk->first * dest->stride + first + j0 : nullptr;
  }
  constexpr void end_row(std::size_t i, std::size_t j0, std::size_t n) noexcept {
    if (dest->pairs == nullptr) return;
    const auto tk = walk->at(lo + i);
    if (tk.first == tk.last) return;
    math::sincos_result<T>* const from = dest->pairs + tk.first * dest->stride + first + j0;
    const std::size_t rest = zero_rest_of_row ? dest->stride - (first + j0 + n) : 0;
    for (std::size_t k = tk.first; k < tk.last; ++k) {
      math::sincos_result<T>* const to = dest->pairs + k * dest->stride + first + j0;
      if (k == tk.first) {  // the kernel's own row
      } else if (x[k] < 0) {
        for (std::size_t j = 0; j < n; ++j)
          to[j] = math::sincos_result<T>{negate(from[j].sin, x[k], j0 + j), from[j].cos};
      } else {
        for (std::size_t j = 0; j < n; ++j) to[j] = from[j];
      }
      for (std::size_t j = n; j < n + rest; ++j) to[j] = math::sincos_result<T>{};
    }
    if (x[tk.first] < 0)
      for (std::size_t j = 0; j < n; ++j) from[j].sin = negate(from[j].sin, x[tk.first], j0 + j);
  }
  constexpr void store(std::size_t i, std::size_t j0, std::size_t jj, const math::sincos_result<T>& r) noexcept {
    walk->seek(lo + i);
    for (std::size_t k = walk->first; k < walk->last; ++k)
      dest->store(k, first + j0, jj, x[k] < 0 ? math::sincos_result<T>{negate(r.sin, x[k], j0 + jj), r.cos} : r);
  }
  [[gnu::always_inline]] void store_slice(std::size_t i, std::size_t j0, std::size_t s0, std::size_t w, const T* sn,
                                          const T* cs) noexcept {
    walk->seek(lo + i);
    const std::size_t last = walk->last;
    for (std::size_t k = walk->first; k < last; ++k) {
      const double xk = x[k];
      if (dest->pairs != nullptr) {
        math::sincos_result<T>* const to = dest->pairs + k * dest->stride + first + j0 + s0;
        if (xk < 0) {  // -0.0: not (sin 0 stays +0)
          for (std::size_t j = 0; j < w; ++j) to[j] = math::sincos_result<T>{negate(sn[j], xk, j0 + s0 + j), cs[j]};
        } else {
          for (std::size_t j = 0; j < w; ++j) to[j] = math::sincos_result<T>{sn[j], cs[j]};
        }
      } else if (xk < 0) {
        for (std::size_t j = 0; j < w; ++j)
          dest->store(k, first + j0, s0 + j, math::sincos_result<T>{negate(sn[j], xk, j0 + s0 + j), cs[j]});
      } else {
        for (std::size_t j = 0; j < w; ++j) dest->store(k, first + j0, s0 + j, math::sincos_result<T>{sn[j], cs[j]});
      }
    }
  }
};

}  // namespace posenc::rope::detail
