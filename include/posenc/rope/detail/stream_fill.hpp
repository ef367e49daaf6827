// stream_fill.hpp: the fill of a rotary table whose pairs read different position streams and
// different RoPE configs: M-RoPE's t/h/w sections (rope/mrope.hpp) and ND axial RoPE's axes
// (rope/nd.hpp). Each output pair j has a plan: a 1D RoPE config, which of its frequencies, and
// which position stream; the entry of token i is then the 1D entry of that config, at the token's
// position in that stream (rope::sincos / rope::sincos_at, bit for bit): the same scalar function
// that the 1D engine takes for every entry of a position list (math/detail/sincos_table_engine.hpp).
// Rows are written row by row (constant evaluation inserts out-of-order stores in linear time, so
// column-major would be quadratic), the frequencies of up to chunk_columns pairs evaluated once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/math/detail/sincos_table_entry.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/rope/angle.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/table_column.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/real_position.hpp"
#include "posenc/rope/turns.hpp"
#include "posenc/status.hpp"

namespace posenc::rope::detail {

// Where output pair j takes its value from.
struct stream_pair {
  const rope::config* cfg = nullptr;  // the 1D config (validated by the caller)
  int freq_index = 0;                 // which of its pairs' frequencies
  int stream = 0;                     // which position stream; < 0: position 0 in every token
  bool turns = false;                 // the angle is 2 pi p theta (rope/turns.hpp): DINOv3's axes
};

// The rows a multi-stream fill gathers from, when the caller gave less room than they need, are
// allocated in constant evaluation only (C++20 constexpr new, freed before the fill returns), so a
// constexpr table needs no scratch array to get the row path. At run time too little scratch
// means the scalar entries: posenc allocates nothing. The new-expression sits in a branch whose
// whole condition is __builtin_is_constant_evaluated(), which GCC and Clang drop even at -O0;
// behind std::is_constant_evaluated() (a call at -O0) or in a helper function, GCC at -O0 kept a
// call to operator new[] in the object, which would pull the heap into a firmware image.
// Whether constant evaluation allocates `rows` 1D row entries to fill a table part of `entries`
// entries: when they are at most four times as many. There a scalar entry costs about six row
// entries and a copy from the rows a third of one, so beyond that the scalar entries are cheaper,
// and positions far apart (0 and 2^21 in one stream) never ask for millions of rows.
constexpr bool rows_worth_allocating(std::size_t rows, std::size_t entries) noexcept { return rows / 4 <= entries; }

// Rows i < tokens, pairs first_pair <= j < first_pair + pairs of `plan(j)` (a stream_pair), the
// position of token i in stream s given by position(s, i) (a real_position, ok()). fold: times the
// config's attention factor. Returns the first non-ok status.
template <class T, class Plan, class Position>
constexpr posenc::status fill_streams(const Plan& plan, std::size_t pairs, std::size_t tokens, const Position& position,
                                      bool fold, table_dest<T>& dest, std::size_t first_pair = 0) noexcept {
  constexpr std::size_t chunk = posenc::detail::sincos_table::chunk_columns;
  posenc::status st = posenc::status::ok;
  for (std::size_t j0 = 0; j0 < pairs; j0 += chunk) {
    const std::size_t n = pairs - j0 < chunk ? pairs - j0 : chunk;
    stream_pair p[chunk] = {};
    rope::frequency_value f[chunk] = {};
    attention_value af[chunk] = {};
    for (std::size_t jj = 0; jj < n; ++jj) {
      p[jj] = plan(first_pair + j0 + jj);
      f[jj] = rope::frequency_dd(*p[jj].cfg, p[jj].freq_index);
      if (!f[jj].ok()) return f[jj].error;
      if (fold) af[jj] = attention_dd(*p[jj].cfg);
    }
    dest.begin_chunk(first_pair + j0, n);
    for (std::size_t i = 0; i < tokens; ++i)
      for (std::size_t jj = 0; jj < n; ++jj) {
        const real_position at = p[jj].stream < 0 ? real_position{} : position(p[jj].stream, i);
        const auto r = p[jj].turns
                           ? sincos_turns_split<T>(*p[jj].cfg, f[jj], at, p[jj].freq_index)
                           : sincos_at_split<T>(*p[jj].cfg, f[jj], fold ? &af[jj] : nullptr, at, p[jj].freq_index);
        if (st == posenc::status::ok) st = r.error;
        dest.store(i, first_pair + j0, jj, r.value);
      }
  }
  return st;
}

}  // namespace posenc::rope::detail
