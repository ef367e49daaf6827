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
//       the row format of math::rope_sincos_table and of apply.hpp's table kernels.
//   make_table / make_pair_table: rows for positions [start, start + N) or for a given list
//       (KV-cache decode, StreamingLLM cache slots); entries RN_T(cos/sin(p theta_j)) of the exact
//       scaled frequency (angle.hpp, rope::sincos), or RN_T(af cos), RN_T(af sin) when the
//       attention factor is folded in as HF does, but rounded once (rope::attention_sincos).
//
// Errors (posenc::result, never truncation): domain_error when validate(cfg) fails, RotaryDim !=
// rotary_dim(cfg), or a position exceeds max_table_position = 2^21; overflow when a folded entry
// does not fit T (e.g. float16 with a large explicit attention_factor). At compile time:
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

#include "posenc/math/sincos_result.hpp"
#include "posenc/rope/angle.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/table_column.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/validate.hpp"
#include "posenc/status.hpp"

namespace posenc::rope {

// The largest position a table accepts (the range; angles stay below 2^21 rad for
// theta <= 1, inside the fast reduction's range).
inline constexpr std::uint64_t max_table_position = std::uint64_t{1} << 21;

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
  constexpr const math::sincos_result<T>* row(std::size_t r) const noexcept { return data.data() + r * Pairs; }
};

struct table_options {
  std::uint64_t start = 0;      // first position of a consecutive table
  bool fold_attention = false;  // entries af cos, af sin (HF's attention_scaling), rounded once
};

// The preconditions of a table of `positions` rows starting at `start` and `rotary_dim_` columns.
constexpr validation check_table(const config& c, std::size_t positions, std::size_t rotary_dim_,
                                 std::uint64_t start = 0) noexcept {
  if (const validation v = validate(c); !v) return v;
  if (rotary_dim_ != static_cast<std::size_t>(rotary_dim(c))) return {posenc::status::domain_error, "table RotaryDim differs from rotary_dim(cfg)"};
  if (positions == 0 || start > max_table_position || positions - 1 > max_table_position - start)
    return {posenc::status::domain_error, "table positions past 2^21"};
  return {};
}

}  // namespace posenc::rope

namespace posenc::detail::ropet {

template <class Table>
constexpr posenc::result<Table> build(const rope::config& c, std::uint64_t start, const std::uint64_t* list,
                                      bool fold) noexcept {
  using T = typename Table::value_type;
  posenc::result<Table> r{};
  constexpr std::size_t N = Table::positions, P = Table::pairs;
  std::size_t D = 2 * P;
  if constexpr (requires { Table::rotary_dim; }) D = Table::rotary_dim;
  std::uint64_t top = start;
  for (std::size_t i = 0; i < N; ++i) {
    const std::uint64_t p = list != nullptr ? list[i] : start + i;
    top = p > top ? p : top;
    r.value.position[i] = static_cast<std::uint32_t>(p);
  }
  if (!rope::check_table(c, N, D, 0).ok() || top > rope::max_table_position) {
    r.error = posenc::status::domain_error;
    return r;
  }
  const attention_value af = fold ? attention_dd(c) : attention_value{};
  const attention_value* afp = fold ? &af : nullptr;
  if constexpr (requires { Table::rotary_dim; }) {
    std::size_t k0[P] = {}, k1[P] = {};
    for (std::size_t j = 0; j < P; ++j) {
      k0[j] = rope::pair_index(Table::layout_kind, j, 0, D);
      k1[j] = rope::pair_index(Table::layout_kind, j, 1, D);
    }
    r.error = fill_rows<T, P>(c, start, N, list, afp, table_dest<T>{r.value.cos.data(), r.value.sin.data(), nullptr, D, k0, k1});
  } else {
    r.error = fill_rows<T, P>(c, start, N, list, afp, table_dest<T>{nullptr, nullptr, r.value.data.data(), P, nullptr, nullptr});
  }
  return r;
}

}  // namespace posenc::detail::ropet

namespace posenc::rope {

// Rows for positions o.start + i, i < Positions.
template <class T, std::size_t Positions, std::size_t RotaryDim, layout Layout = layout::half_split>
constexpr posenc::result<table<T, Positions, RotaryDim, Layout>> make_table(const config& c, table_options o = {}) noexcept {
  return detail::ropet::build<table<T, Positions, RotaryDim, Layout>>(c, o.start, nullptr, o.fold_attention);
}

// Rows for the given positions (any order, repeats allowed), e.g. KV-cache slots.
template <class T, std::size_t Positions, std::size_t RotaryDim, layout Layout = layout::half_split>
constexpr posenc::result<table<T, Positions, RotaryDim, Layout>> make_table(const config& c,
                                                                            const std::array<std::uint64_t, Positions>& at,
                                                                            bool fold_attention = false) noexcept {
  return detail::ropet::build<table<T, Positions, RotaryDim, Layout>>(c, 0, at.data(), fold_attention);
}

template <class T, std::size_t Positions, std::size_t Pairs>
constexpr posenc::result<pair_table<T, Positions, Pairs>> make_pair_table(const config& c, table_options o = {}) noexcept {
  return detail::ropet::build<pair_table<T, Positions, Pairs>>(c, o.start, nullptr, o.fold_attention);
}

template <class T, std::size_t Positions, std::size_t Pairs>
constexpr posenc::result<pair_table<T, Positions, Pairs>> make_pair_table(const config& c,
                                                                          const std::array<std::uint64_t, Positions>& at,
                                                                          bool fold_attention = false) noexcept {
  return detail::ropet::build<pair_table<T, Positions, Pairs>>(c, 0, at.data(), fold_attention);
}

}  // namespace posenc::rope
