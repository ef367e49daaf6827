// sincos_table_engine.hpp: the one cos/sin table engine of the library. Rows at positions
// p = start + i (or a listed position), columns j of any frequency source (math/sincos_source.hpp:
// a geometric frequency base^(-e_j), every RoPE scaling, the sinusoidal encodings), each entry
// RN_T(sin(p theta_j)), RN_T(cos(p theta_j)) (times an exact amplitude when one is folded in), at a
// per-entry cost of a dozen operations in constant evaluation.
//
// Method: every row shares the column's frequency theta, and p = p0 + b, p0 = start + a B (B a
// power of two near sqrt(rows)), so with anchors A = cis(p0 theta) and E_b = cis(b theta), each
// accurate to delta <= 2^-54 + 2^-62, an entry is one complex product (angle addition,
// A&S 4.3.16/4.3.17):  cos(p theta) = Ac Ec - As Es,  sin(p theta) = As Ec + Ac Es.
// Error of an entry, all in double: |Ac Ec - Ac* Ec*| <= 2 delta + delta^2 per product (|cos|,
// |sin| <= 1), the two product roundings <= 2^-53 (|Ac Ec| + |As Es|) <= 2^-53 (1 + 4 delta)
// (Cauchy-Schwarz), the final rounding <= 2^-53: total <= 4 delta + 2^-52 + 2^-50 delta <
// e0 = 0x1.02p-51, plus (start + rows) |theta| rel_err for the frequency's own error.
// Folded amplitude af = af.hi + af.lo (|af - (hi + lo)| <= af.err): c af ~ RN(c af.hi), whose
// error is <= e0 |af.hi| + |c| (|af.lo| + af.err) + 2^-53 |RN(c af.hi)|, with a 2^-50 margin.
// A two-ended rounding test then decides each entry (below); the entries it cannot decide, every
// entry of a double table in constant evaluation (anchors at 2^-54 cannot round a double; at run
// time double tables have a double-double row kernel, sincos_table_rows_double.hpp), and every
// entry of a position list (no shared anchors) come from the source's scalar function, so the table is bit for bit
// that function whichever path an entry took, and the chunking and the block size B change how
// much an entry costs, never its bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/math/detail/sincos_table_entry.hpp"
#include "posenc/math/detail/sincos_table_rows.hpp"
#include "posenc/math/detail/sincos_table_rows_constexpr.hpp"
#include "posenc/math/detail/sincos_table_rows_double.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/sincos_source.hpp"
#include "posenc/status.hpp"

namespace posenc::detail::sincos_table {

// Columns j0 <= j < j0 + n of rows i < rows at positions list ? list[i] : start + i, written row
// by row in constant evaluation (GCC's constant evaluator inserts array elements stored out of
// order in linear time, so a column-major fill of a large table is quadratic), column by column at
// run time through sink.store(i, j0, jj, r), jj = j - j0,
// after sink.begin_chunk(j0, n). Returns ok, or the first non-ok status in the order the entries
// were written; af != nullptr folds the amplitude. n <= chunk_columns.
template <class T, class Source, class Sink>
constexpr posenc::status fill_chunk(const Source& src, std::uint64_t start, std::size_t rows, std::size_t j0,
                                    std::size_t n, const std::uint64_t* list, const math::amplitude* af,
                                    Sink& sink) noexcept {
  const std::size_t bmax = n * block_max <= anchor_budget ? block_max : anchor_budget / n;
  std::size_t bsize = 1;
  while (bsize < bmax && bsize * bsize < rows) bsize *= 2;
  column_state col[chunk_columns] = {};
  double ec[anchor_budget] = {}, es[anchor_budget] = {};
  posenc::status st = posenc::status::ok;
  math::sincos_result<T> r{};  // every path of entry() writes both values
  for (std::size_t j = 0; j < n; ++j) {
    column_state& s = col[j];
    s.f = src.frequency(static_cast<int>(j0 + j));
    if (!s.f.ok()) return s.f.error;
    s.ok = list == nullptr && !std::is_same_v<T, double> && s.f.value.hi != 0 && (af == nullptr || af->ok);
    for (std::size_t b = 0; s.ok && b < bsize && b < rows; ++b)
      s.ok = cis_anchor(b, s.f.value, ec[j * bmax + b], es[j * bmax + b]);
    s.e = 0x1.02p-51 + static_cast<double>(start + rows) * dabs(s.f.value.hi) * (s.f.rel_err * 1.0000001);
  }
  sink.begin_chunk(j0, n);
  if (!std::is_constant_evaluated()) {
    // At run time column by column: a column's frequency, anchors and block anchor stay in
    // registers over all of its rows, where the row-major order below reloads them for every entry
    // (with entry() inlined, a 4096 x 64-pair float table: 6.9 -> 5.0 ns per pair from
    // math::sincos_geometric_table, 5.5 from rope::fill_pair_table; docs/performance.md). Every
    // entry comes from the same anchors as below, so the bits are the same (test_ct_rt compares
    // them with constant evaluation's); only the order of the stores differs.
    for (std::size_t j = 0; j < n; ++j) {
      column_state& s = col[j];
      for (std::size_t i0 = 0; i0 < rows; i0 += bsize) {
        if (s.ok) s.ok = cis_anchor(start + i0, s.f.value, s.ac, s.as);
        for (std::size_t i = i0; i < i0 + bsize && i < rows; ++i) {
          const std::uint64_t p = list != nullptr ? list[i] : start + i;
          const posenc::status e =
              entry<T>(src, s, ec + j * bmax, es + j * bmax, i - i0, p, static_cast<int>(j0 + j), af, r);
          if (st == posenc::status::ok) st = e;
          sink.store(i, j0, j, r);
        }
      }
    }
    return st;
  }
  for (std::size_t i0 = 0; i0 < rows; i0 += bsize) {
    for (std::size_t j = 0; j < n; ++j)
      if (col[j].ok) col[j].ok = cis_anchor(start + i0, col[j].f.value, col[j].ac, col[j].as);
    for (std::size_t i = i0; i < i0 + bsize && i < rows; ++i) {
      const std::uint64_t p = list != nullptr ? list[i] : start + i;
      for (std::size_t j = 0; j < n; ++j) {
        const posenc::status e =
            entry<T>(src, col[j], ec + j * bmax, es + j * bmax, i - i0, p, static_cast<int>(j0 + j), af, r);
        if (st == posenc::status::ok) st = e;
        sink.store(i, j0, j, r);
      }
    }
  }
  return st;
}

// All `columns` columns of rows i < rows, chunk by chunk: the state of a column (its frequency, its
// anchors) lives only while its chunk is written, so the stack use is fixed whatever the number of
// columns (about 140 KiB: the state of 128 columns and 2 x 8192 double anchors). Tables of at most
// chunk_columns columns are one chunk, written row by row; wider ones chunk after chunk (at run
// time this costs nothing; in constant evaluation the later chunks' stores land out of order).
// Returns the first non-ok status (ok otherwise); a failing chunk ends the fill (the callers then
// leave the table's contents unspecified).
template <class T, class Source, class Sink>
  requires math::sincos_source<Source, T>
constexpr posenc::status fill_rows(const Source& src, std::uint64_t start, std::size_t rows, std::size_t columns,
                                   const std::uint64_t* list, const math::amplitude* af, Sink& sink) noexcept {
  // Rows off the progression are the double row kernel's alone; every other path reads them only
  // through entry(), which a float kernel's walk would not match.
  static_assert(!has_row_offsets<Source> || std::is_same_v<T, double>,
                "a source with row offsets (sincos_source.hpp) fills double tables only");
  // Tables of consecutive positions with no folded factor: the row paths (the same bits).
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, bfloat16> || std::is_same_v<T, float16>)
    if (!std::is_constant_evaluated() && list == nullptr && runtime_rows_take(af, float_format<T>::max_exponent))
      return fill_rows_runtime<T>(src, start, rows, columns, af, sink);
  if constexpr (std::is_same_v<T, double>)
    if (!std::is_constant_evaluated() && list == nullptr && runtime_rows_double_take(af))
      return fill_rows_runtime_double(src, start, rows, columns, af, sink);
  if constexpr (std::is_same_v<T, float>) {
    // Sinks that write whole rows: runs of floats (the sinusoidal tables, RoPE's expanded tables), or
    // contiguous {sin, cos} pairs (the math tables, RoPE's compact tables; row_pairs(0, 0, 0) is
    // null for a sink whose rows are not pairs).
    bool rows_whole = false;  // not a const bool: that initializer would be constant-evaluated
    if constexpr (has_row_runs<Sink>) rows_whole = true;
    if constexpr (has_row_pairs<Sink>) rows_whole = rows_whole || sink.row_pairs(0, 0, 0) != nullptr;
    if (rows_whole)
      if (std::is_constant_evaluated() && list == nullptr && af == nullptr) {
        for (std::size_t j0 = 0; j0 < columns; j0 += constexpr_columns_max) {
          const std::size_t n = columns - j0 < constexpr_columns_max ? columns - j0 : constexpr_columns_max;
          if (const posenc::status e = fill_chunk_float_constexpr(src, start, rows, j0, n, sink);
              e != posenc::status::ok)
            return e;
        }
        return posenc::status::ok;
      }
  }
  for (std::size_t j0 = 0; j0 < columns; j0 += chunk_columns) {
    const std::size_t n = columns - j0 < chunk_columns ? columns - j0 : chunk_columns;
    if (const posenc::status e = fill_chunk<T>(src, start, rows, j0, n, list, af, sink); e != posenc::status::ok)
      return e;
  }
  return posenc::status::ok;
}

}  // namespace posenc::detail::sincos_table
