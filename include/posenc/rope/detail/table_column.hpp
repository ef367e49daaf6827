// table_column.hpp: the rows of a scaled RoPE cos/sin table, written by the library's one cos/sin
// table engine (math/detail/sincos_table_engine.hpp) from a RoPE frequency source; the engine of
// rope/fill.hpp (and through it of table.hpp).
//
// The source: column j's frequency is rope::frequency_dd(cfg, j) (every scaling, with its relative
// error bound), and an entry the engine's test cannot decide comes from sincos_with (angle.hpp):
// the same bits as rope::sincos / rope::attention_sincos. The sink writes pair j of row i to both
// elements of the pair in the table's layout, or to a compact {sin, cos} row.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "posenc/math/detail/sincos_table_engine.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/sincos_source.hpp"
#include "posenc/rope/angle.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/status.hpp"

namespace posenc::rope::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// The frequency source of every RoPE scaling.
struct rope_source {
  const rope::config* c;
  // frequencies[j] == rope::frequency_dd(*c, j), or any theta_j with an honest rel_err, when the
  // caller evaluated them once for several fills of one config (M-RoPE's text runs, Leaky ReRoPE's
  // two tables): a frequency costs a few hundred ns, a 64-pair fill's set-up about 17 us of them.
  // The entries' bits do not depend on it (a frequency only decides which path an entry takes).
  const math::frequency_value* frequencies = nullptr;
  constexpr math::frequency_value frequency(int j) const noexcept {
    return frequencies != nullptr ? frequencies[j] : rope::frequency_dd(*c, j);
  }
  // Read by the double row kernel where frequency()'s bound is too loose to decide doubles.
  constexpr math::frequency_value frequency_accurate(int j) const noexcept {
    return rope::frequency_dd_accurate(*c, j);
  }
  template <class T>
  constexpr posenc::result<math::sincos_result<T>> entry(const math::frequency_value& f, const math::amplitude* af,
                                                         std::uint64_t p, int j) const noexcept {
    return sincos_with<T>(*c, f, af, p, j);
  }
};

// Where the values go: pair j of row i at cos/sin[i * stride + pair_index(lay, j, t, stride)],
// t = 0, 1 (both elements of the pair, expanded tables), or at pairs[i * stride + j] (compact
// tables) when pairs != nullptr.
template <class T>
struct table_dest {
  T* cos;
  T* sin;
  math::sincos_result<T>* pairs;
  std::size_t stride;
  rope::layout lay;
  // The element offsets of the chunk's pairs in a row (begin_chunk).
  std::size_t k0[sincos_table::chunk_columns] = {}, k1[sincos_table::chunk_columns] = {};

  // The constant-evaluation row path's chunks (up to 512 pairs) write through row_runs, never store.
  constexpr void begin_chunk(std::size_t j0, std::size_t n) noexcept {
    if (pairs != nullptr || n > sincos_table::chunk_columns) return;
    for (std::size_t j = 0; j < n; ++j) {
      k0[j] = rope::pair_index(lay, j0 + j, 0, stride);
      k1[j] = rope::pair_index(lay, j0 + j, 1, stride);
    }
  }
  // The first copy of each pair of an expanded row is written in place by the row kernels, with no
  // call an entry; the second copies follow. At run time (half-split rows only,
  // sincos_table_rows.hpp) fill() copies every row's first half to its second (copy_second_halves).
  // In constant evaluation (sincos_table_rows_constexpr.hpp) end_row copies each row's right after
  // it, so that the table's elements are stored in order, or for interleaved rows within the row
  // (GCC's evaluator inserts an element stored before the last one in time linear in what follows).
  constexpr bool row_runs(std::size_t i, std::size_t j0, std::size_t n, sincos_table::row_runs<T>& r) noexcept {
    const bool interleaved = lay != rope::layout::half_split;
    if (pairs != nullptr || (interleaved && !std::is_constant_evaluated())) return false;
    r.sin = sin + i * stride + (interleaved ? 2 * j0 : j0);
    r.cos = cos + i * stride + (interleaved ? 2 * j0 : j0);
    r.sin_stride = r.cos_stride = interleaved ? 2 : 1;
    r.cos_count = n;
    return true;
  }
  constexpr void end_row(std::size_t i, std::size_t j0, std::size_t n) noexcept {
    if (!std::is_constant_evaluated() || pairs != nullptr) return;
    T* const c = cos + i * stride;
    T* const s = sin + i * stride;
    if (lay == rope::layout::half_split) {
      const std::size_t half = stride / 2;
      for (std::size_t j = j0; j < j0 + n; ++j) c[half + j] = c[j];
      for (std::size_t j = j0; j < j0 + n; ++j) s[half + j] = s[j];
    } else {
      for (std::size_t j = 2 * j0; j < 2 * (j0 + n); j += 2) c[j + 1] = c[j], s[j + 1] = s[j];
    }
  }
  // A compact table's row as contiguous {sin, cos} pairs, which the constant-evaluation row path
  // stores in place (sincos_table_rows_constexpr.hpp); null for expanded tables, which keep the
  // column path there (above).
  constexpr math::sincos_result<T>* row_pairs(std::size_t i, std::size_t j0, std::size_t) const noexcept {
    return pairs != nullptr ? pairs + i * stride + j0 : nullptr;
  }
  // After the row kernel wrote the first copies of pairs [0, n) (row_runs): their second copies.
  void copy_second_halves(std::size_t rows, std::size_t n) const noexcept {
    if (pairs != nullptr || lay != rope::layout::half_split) return;
    const std::size_t half = stride / 2;
    for (std::size_t i = 0; i < rows; ++i) {
      std::memcpy(static_cast<void*>(cos + i * stride + half), cos + i * stride, n * sizeof(T));
      std::memcpy(static_cast<void*>(sin + i * stride + half), sin + i * stride, n * sizeof(T));
    }
  }
  // Pairs [j0, pairs per row) of every row hold the same value v (proportional's pairs of frequency
  // 0). Their elements are contiguous in each array in every layout: half-split [j0, D/2) and
  // [D/2 + j0, D), interleaved [2 j0, D) (both elements of a pair hold its value), compact [j0, D/2).
  constexpr void fill_constant_pairs(std::size_t rows, std::size_t j0, const math::sincos_result<T>& v) noexcept {
    for (std::size_t i = 0; i < rows; ++i) {
      if (pairs != nullptr) {
        std::fill(pairs + i * stride + j0, pairs + (i + 1) * stride, v);
      } else if (lay == rope::layout::half_split) {
        const std::size_t half = stride / 2;
        std::fill(cos + i * stride + j0, cos + i * stride + half, v.cos);
        std::fill(cos + i * stride + half + j0, cos + (i + 1) * stride, v.cos);
        std::fill(sin + i * stride + j0, sin + i * stride + half, v.sin);
        std::fill(sin + i * stride + half + j0, sin + (i + 1) * stride, v.sin);
      } else {
        std::fill(cos + i * stride + 2 * j0, cos + (i + 1) * stride, v.cos);
        std::fill(sin + i * stride + 2 * j0, sin + (i + 1) * stride, v.sin);
      }
    }
  }
  constexpr void store(std::size_t i, std::size_t j0, std::size_t jj, const math::sincos_result<T>& r) noexcept {
    if (pairs != nullptr) {
      pairs[i * stride + j0 + jj] = r;
    } else if constexpr (requires { r.cos.bits; }) {  // a scalar store, not a class assignment
      cos[i * stride + k0[jj]].bits = r.cos.bits;
      sin[i * stride + k0[jj]].bits = r.sin.bits;
      cos[i * stride + k1[jj]].bits = r.cos.bits;
      sin[i * stride + k1[jj]].bits = r.sin.bits;
    } else {
      cos[i * stride + k0[jj]] = r.cos;
      sin[i * stride + k0[jj]] = r.sin;
      cos[i * stride + k1[jj]] = r.cos;
      sin[i * stride + k1[jj]] = r.sin;
    }
  }
};

// The destination's rows from `row` on (width elements a row in cos and sin, or pairs a row).
template <class T>
constexpr table_dest<T> rows_from(table_dest<T> d, std::size_t row, std::size_t width) noexcept {
  if (d.pairs != nullptr)
    d.pairs += row * width;
  else
    d.cos += row * width, d.sin += row * width;
  return d;
}

// Pairs j < pairs of rows i < rows at positions list ? list[i] : start + i. Returns the first
// non-ok status (ok otherwise); af != nullptr folds the attention factor; frequencies as in
// rope_source.
template <class T>
constexpr posenc::status fill_rows(const rope::config& c, std::uint64_t start, std::size_t rows, std::size_t pairs,
                                   const std::uint64_t* list, const attention_value* af, table_dest<T>& d,
                                   const math::frequency_value* frequencies = nullptr) noexcept {
  const rope_source src{&c, frequencies};
  return sincos_table::fill_rows<T>(src, start, rows, pairs, list, af, d);
}

}  // namespace posenc::rope::detail
