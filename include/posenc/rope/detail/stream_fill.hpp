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

// Position streams a multi-stream table reads at most: M-RoPE's three, ND's axes (nd_max_axes).
inline constexpr std::size_t max_position_streams = 8;

// Where output pair j takes its value from.
struct stream_pair {
  const rope::config* cfg = nullptr;  // the 1D config (validated by the caller)
  int freq_index = 0;                 // which of its pairs' frequencies
  int stream = 0;                     // which position stream (< max_position_streams); < 0: position 0
  bool turns = false;                 // the angle is 2 pi p theta (rope/turns.hpp): DINOv3's axes
};

// The rows a multi-stream fill gathers from, when the caller gave less room than they need, are
// allocated in constant evaluation only (C++20 constexpr new, freed before the fill returns), so a
// constexpr table needs no scratch array to get the row path. At run time too little scratch
// means the stack windows below, or the scalar entries: posenc allocates nothing. The new-expression sits in a branch whose
// whole condition is __builtin_is_constant_evaluated(), which GCC and Clang drop even at -O0;
// behind std::is_constant_evaluated() (a call at -O0) or in a helper function, GCC at -O0 kept a
// call to operator new[] in the object, which would pull the heap into a firmware image.
// Whether constant evaluation allocates `rows` 1D row entries to fill a table part of `entries`
// entries: when they are at most four times as many. There a scalar entry costs about six row
// entries and a copy from the rows a third of one, so beyond that the scalar entries are cheaper,
// and positions far apart (0 and 2^21 in one stream) never ask for millions of rows.
constexpr bool rows_worth_allocating(std::size_t rows, std::size_t entries) noexcept { return rows / 4 <= entries; }

// At run time, with too little scratch, a stream's 1D rows come in windows of a fixed buffer on the
// stack instead: the row kernels fill the rows of a window of positions, the tokens whose position
// falls in it take their pairs from them, then the next window. posenc still allocates nothing, and
// the buffer is small beside the row kernels' own state (about 140 KiB: sincos_table_engine.hpp).
// 8 KiB: 1024 float pairs, 512 double pairs.
inline constexpr std::size_t stream_window_bytes = 8192;
template <class T>
inline constexpr std::size_t stream_window_entries = stream_window_bytes / sizeof(math::sincos_result<T>);

// Whether the windows beat the scalar entries for a stream of `width` pairs over positions
// [lo, hi] that `tokens` tokens read. A scalar entry costs about 60 ns at run time, a row entry
// about 1.5 ns and a copy under 1 ns; a window's fill has a set-up (its columns' anchors, a few
// scalar entries' worth) and a pass over the tokens. So: a row fits the buffer and the gather's
// chunk, the rows are at most 16 times the entries they serve, and there are at most four windows
// a pair (a pass over the tokens per window: at most four compares an entry) and a token a window.
template <class T>
constexpr bool stream_windows_pay(std::uint64_t lo, std::uint64_t hi, std::size_t width, std::size_t tokens) noexcept {
  constexpr std::size_t chunk = posenc::detail::sincos_table::chunk_columns;
  if (width == 0 || width > chunk || width > stream_window_entries<T> || hi < lo) return false;
  const std::uint64_t rows = hi - lo + 1, per_window = stream_window_entries<T> / width;
  const std::uint64_t windows = (rows + per_window - 1) / per_window;
  return rows <= 16 * static_cast<std::uint64_t>(tokens) && windows <= 4 * width && windows <= tokens;
}

// The windowed fill of one stream (stream_windows_pay said yes): fill_window(p0, rows, buffer) writes
// the 1D rows p0 .. p0 + rows - 1 of the stream's pairs into buffer, `width` pairs a row, and
// returns a status; position_of(i) is token i's position in the stream, in [lo, hi]; the stream's
// k-th pair goes to pair j0 + column[k] of the token's row in dest (dest.begin_chunk(j0, n) done
// by the caller, column[k] < n); negative_of(i): token i's position is the negative of that row's
// (ND's negative coordinates: sin negated). Returns the first non-ok status of a window's fill.
struct never_negative {
  constexpr bool operator()(std::size_t) const noexcept { return false; }
};
template <class T, class FillWindow, class PositionOf, class NegativeOf = never_negative>
posenc::status fill_stream_windows(std::uint64_t lo, std::uint64_t hi, std::size_t width, std::size_t tokens,
                                   const FillWindow& fill_window, const PositionOf& position_of,
                                   const std::size_t* column, std::size_t j0, table_dest<T>& dest,
                                   const NegativeOf& negative_of = {}) noexcept {
  math::sincos_result<T> buffer[stream_window_entries<T>];
  const std::uint64_t per_window = stream_window_entries<T> / width;
  for (std::uint64_t p0 = lo; p0 <= hi; p0 += per_window) {
    const auto rows = static_cast<std::size_t>(hi - p0 + 1 < per_window ? hi - p0 + 1 : per_window);
    if (const posenc::status st = fill_window(p0, rows, buffer); st != posenc::status::ok) return st;
    for (std::size_t i = 0; i < tokens; ++i) {
      const std::uint64_t at = position_of(i) - p0;  // wraps past rows when below p0
      if (at >= rows) continue;
      const math::sincos_result<T>* const from = buffer + static_cast<std::size_t>(at) * width;
      if (negative_of(i)) {
        for (std::size_t k = 0; k < width; ++k)
          dest.store(i, j0, column[k], math::sincos_result<T>{negated(from[k].sin), from[k].cos});
      } else if (dest.pairs != nullptr) {
        math::sincos_result<T>* const to = dest.pairs + i * dest.stride + j0;
        for (std::size_t k = 0; k < width; ++k) to[column[k]] = from[k];
      } else {
        for (std::size_t k = 0; k < width; ++k) dest.store(i, j0, column[k], from[k]);
      }
    }
  }
  return posenc::status::ok;
}

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
    // A token's position in each stream the chunk reads, once a token, not once an entry.
    bool used[max_position_streams] = {};
    for (std::size_t jj = 0; jj < n; ++jj)
      if (p[jj].stream >= 0) used[p[jj].stream] = true;
    dest.begin_chunk(first_pair + j0, n);
    for (std::size_t i = 0; i < tokens; ++i) {
      real_position pos[max_position_streams + 1] = {};  // pos[0]: position 0 (stream < 0)
      for (int s = 0; s < static_cast<int>(max_position_streams); ++s)
        if (used[s]) pos[s + 1] = position(s, i);
      for (std::size_t jj = 0; jj < n; ++jj) {
        const real_position& at = pos[p[jj].stream + 1];
        const auto r = p[jj].turns
                           ? sincos_turns_split<T>(*p[jj].cfg, f[jj], at, p[jj].freq_index)
                           : sincos_at_split<T>(*p[jj].cfg, f[jj], fold ? &af[jj] : nullptr, at, p[jj].freq_index);
        if (st == posenc::status::ok) st = r.error;
        dest.store(i, first_pair + j0, jj, r.value);
      }
    }
  }
  return st;
}

}  // namespace posenc::rope::detail
