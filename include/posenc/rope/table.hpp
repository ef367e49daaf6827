// table.hpp: fixed-size, correctly rounded RoPE cos/sin tables of any scaling, built in constant
// evaluation (constexpr / constinit variables that land in .rodata) or at run time, same bits.
//
//   rope::table<T, Positions, RotaryDim, Layout>   cos[p][k], sin[p][k], k < RotaryDim, row-major:
//       both elements of pair j hold cos/sin of pair j, at (2j, 2j+1) for layout::interleaved
//       (GPT-J's repeat_interleave(sin, 2), Meta's view) or (j, j + RotaryDim/2) for
//       layout::half_split (HF's emb = cat(freqs, freqs); cos = emb.cos(), GPT-NeoX). This is the
//       shape firmware multiplies element-wise: out = x * cos + rotate(x) * sin, one load per lane,
//       no index arithmetic; the two layouts are permutations of each other, bit for bit.
//   rope::pair_table<T, Positions, Pairs>          compact {sin, cos} per pair (half the memory),
//       the row format of math::sincos_geometric_table and of apply.hpp's table kernels.
//   make_table / make_pair_table: rows for positions [start, start + N) or for a given list
//       (KV-cache decode, StreamingLLM cache slots); entries RN_T(cos/sin(p theta_j)) of the exact
//       scaled frequency (angle.hpp, rope::sincos), or RN_T(af cos), RN_T(af sin) when the
//       attention factor is folded in as HF does, but rounded once (rope::attention_sincos).
//       Both are rope::fill_table / fill_pair_table (fill.hpp) on the table's own arrays; use
//       those directly for a size known only at run time, or for memory of your own.
//
// Errors (posenc::result, never truncation): domain_error when validate(cfg) fails, RotaryDim !=
// rotary_dim(cfg), or a position exceeds max_table_position = 2^21; overflow when a folded entry
// does not fit T (e.g. float16 with a large explicit attention_factor). T = posenc::q15 or q31
// (fixed_point_table.hpp): values saturate instead, and `saturated` counts them. At compile time:
//   constexpr posenc::rope::config cfg{...};
//   static_assert(posenc::rope::validate(cfg).ok(), "RoPE config invalid");        // names nothing yet
//   static_assert(posenc::rope::check_table(cfg, 4096, 128).ok(), "table shape");  // message: .message
//   constexpr auto t = posenc::rope::make_table<float, 4096, 128>(cfg);
//   static_assert(t.ok(), "RoPE table: see posenc::to_string(t.error)");
// (a config is not a structural type, so it cannot be a template argument: the checks are values).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/rope/angle.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/fixed_point_table.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/validate.hpp"
#include "posenc/status.hpp"

namespace posenc::rope {

template <class T, std::size_t Positions, std::size_t RotaryDim, layout Layout = layout::half_split>
struct table {
  static_assert(Positions > 0, "posenc: a RoPE table needs at least one position");
  static_assert(RotaryDim > 0 && RotaryDim % 2 == 0, "posenc: RotaryDim must be even and nonzero");
  using value_type = T;
  static constexpr std::size_t positions = Positions;
  static constexpr std::size_t rotary_dim = RotaryDim;
  static constexpr std::size_t pairs = RotaryDim / 2;
  static constexpr layout layout_kind = Layout;

  std::array<T, Positions * RotaryDim> cos{};
  std::array<T, Positions * RotaryDim> sin{};
  std::array<std::uint32_t, Positions> position{};  // the position of each row
  std::uint64_t saturated = 0;  // values clamped to q15/q31's range (fixed_point_table.hpp); 0 for floating types

  constexpr const T* cos_row(std::size_t row) const noexcept { return cos.data() + row * RotaryDim; }
  constexpr const T* sin_row(std::size_t row) const noexcept { return sin.data() + row * RotaryDim; }
  // Pair j of a row as {sin, cos}.
  constexpr math::sincos_result<T> pair(std::size_t row, std::size_t j) const noexcept {
    const std::size_t k = row * RotaryDim + pair_index(Layout, j, 0, RotaryDim);
    return {sin[k], cos[k]};
  }
};

template <class T, std::size_t Positions, std::size_t Pairs>
struct pair_table {
  static_assert(Positions > 0 && Pairs > 0, "posenc: a RoPE table needs positions and pairs");
  using value_type = T;
  static constexpr std::size_t positions = Positions;
  static constexpr std::size_t pairs = Pairs;
  std::array<math::sincos_result<T>, Positions * Pairs> data{};  // data[row * Pairs + j]
  std::array<std::uint32_t, Positions> position{};
  std::uint64_t saturated = 0;  // values clamped to q15/q31's range (fixed_point_table.hpp); 0 for floating types
  constexpr const math::sincos_result<T>* row(std::size_t r) const noexcept { return data.data() + r * Pairs; }
};

}  // namespace posenc::rope

namespace posenc::rope::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// A fill's outcome into the table: the status, and for q15/q31 the saturation count.
template <class Table>
constexpr posenc::status record(Table&, posenc::status s) noexcept {
  return s;
}
template <class Table>
constexpr posenc::status record(Table& t, const fixed_fill_status& s) noexcept {
  t.saturated = s.saturated;
  return s.error;
}

// A table of a fixed type through the public fill, in place (a table holding one, as StreamingLLM's
// step table does, builds it there, not in a copy): the positions column, then the fill on the
// table's arrays. The fill takes its rows from the spans' sizes, so the table's own width is
// checked here first: a RotaryDim (Pairs) other than the config's would otherwise be filled as
// rows of another width.
template <class Table>
constexpr posenc::status build_into(Table& t, const rope::config& c, std::uint64_t start, const std::uint64_t* list,
                                    bool fold) noexcept {
  using T = typename Table::value_type;
  constexpr std::size_t N = Table::positions;
  for (std::size_t i = 0; i < N; ++i) t.position[i] = static_cast<std::uint32_t>(list != nullptr ? list[i] : start + i);
  if (static_cast<std::size_t>(rope::rotary_dim(c)) != 2 * Table::pairs)
    return table_failure("table RotaryDim differs from rotary_dim(cfg)").error;
  const rope::table_options o{.start = start, .fold_attention = fold};
  if constexpr (requires { Table::rotary_dim; }) {
    const std::span<T> cos(t.cos), sin(t.sin);
    return record(t, list != nullptr ? rope::fill_table<T>(c, std::span<const std::uint64_t>(list, N), cos, sin,
                                                           Table::layout_kind, fold)
                                     : rope::fill_table<T>(c, cos, sin, Table::layout_kind, o));
  } else {
    const std::span<math::sincos_result<T>> out(t.data);
    return record(t, list != nullptr ? rope::fill_pair_table<T>(c, std::span<const std::uint64_t>(list, N), out, fold)
                                     : rope::fill_pair_table<T>(c, out, o));
  }
}

// build_into for a table that is a member of the caller's result (r.value, r.value.rows). In
// constant evaluation the table is built in a local and copied there once: a store into the
// member is one member deeper than into the local, and GCC's evaluator resolves each store member
// by member (the copy is one native copy of the array; make_table 0.92x GCC's instructions per
// entry, StreamingLLM's step table 1.10x to 1.00x make_table's, docs/performance.md section 7).
// At run time, in place: a copy costs about what the fill does.
template <class Table>
constexpr posenc::status build_member(Table& member, const rope::config& c, std::uint64_t start,
                                      const std::uint64_t* list, bool fold) noexcept {
  if (!std::is_constant_evaluated()) return build_into(member, c, start, list, fold);
  Table t{};
  const posenc::status s = build_into(t, c, start, list, fold);
  member = t;
  return s;
}

template <class Table>
constexpr posenc::result<Table> build(const rope::config& c, std::uint64_t start, const std::uint64_t* list,
                                      bool fold) noexcept {
  posenc::result<Table> r{};
  r.error = build_member(r.value, c, start, list, fold);
  return r;
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

// Rows for positions o.start + i, i < Positions.
template <class T, std::size_t Positions, std::size_t RotaryDim, layout Layout = layout::half_split>
constexpr posenc::result<table<T, Positions, RotaryDim, Layout>> make_table(const config& c,
                                                                            table_options o = {}) noexcept {
  return rope::detail::build<table<T, Positions, RotaryDim, Layout>>(c, o.start, nullptr, o.fold_attention);
}

// Rows for the given positions (any order, repeats allowed), e.g. KV-cache slots.
template <class T, std::size_t Positions, std::size_t RotaryDim, layout Layout = layout::half_split>
constexpr posenc::result<table<T, Positions, RotaryDim, Layout>> make_table(
    const config& c, const std::array<std::uint64_t, Positions>& at, bool fold_attention = false) noexcept {
  return rope::detail::build<table<T, Positions, RotaryDim, Layout>>(c, 0, at.data(), fold_attention);
}

template <class T, std::size_t Positions, std::size_t Pairs>
constexpr posenc::result<pair_table<T, Positions, Pairs>> make_pair_table(const config& c,
                                                                          table_options o = {}) noexcept {
  return rope::detail::build<pair_table<T, Positions, Pairs>>(c, o.start, nullptr, o.fold_attention);
}

template <class T, std::size_t Positions, std::size_t Pairs>
constexpr posenc::result<pair_table<T, Positions, Pairs>> make_pair_table(
    const config& c, const std::array<std::uint64_t, Positions>& at, bool fold_attention = false) noexcept {
  return rope::detail::build<pair_table<T, Positions, Pairs>>(c, 0, at.data(), fold_attention);
}

}  // namespace posenc::rope
