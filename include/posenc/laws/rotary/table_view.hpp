// table_view.hpp: a rotary cos/sin table as the laws read it, whoever built it.
//
// A table is rows of rotary_dim entries (cos and sin arrays of the same shape), each row at one
// position, in the interleaved (pair j at elements 2j, 2j+1) or half-split (j, j + rotary_dim/2)
// layout (rotary_layout.hpp). The laws take any type with this interface (concept rotary_table):
//   rows(), rotary_dim(), layout(), position(r), cos_row(r), sin_row(r)
// where cos_row(r) and sin_row(r) point at the rotary_dim entries of row r. (Row pointers, not
// element accessors: in constant evaluation every call costs, and a law reads every element.)
// and five views provide it (the first in laws/rope/table_view.hpp, which reads rope::table):
//   view(t)                             a posenc rope::table
//   view(cos, sin, layout, first)       two C arrays T[N][D] (a header from a Python script, a
//                                       vendor SDK): rows at first, first + 1, ...
//   span_table<T>{cos, sin, D, layout, first}   flat spans of N * D entries (run-time sizes)
//   signed_view(cos, sin, layout, first)        as view(), first a signed position: a vendor table
//   signed_span_table<T>{cos, sin, D, layout, first}  covering [-N, N) starts at first = -N
// Signed views' position(r) is a std::int64_t; the laws read every position through
// detail::position_of (a signed 64-bit value), so each law sees -N as -N. (Exactness needs the
// exact value of each row and takes positions 0 .. rope::max_table_position only: check it on
// the non-negative rows, and parity for the rest; docs/laws.md.)
// Everything is constexpr: a table in a constexpr variable can be checked by static_assert.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/rotary_layout.hpp"

namespace posenc::laws {

template <class V>
concept rotary_table = requires(const V& v, std::size_t r, std::size_t k) {
  typename V::value_type;
  { v.rows() } -> std::convertible_to<std::size_t>;
  { v.rotary_dim() } -> std::convertible_to<std::size_t>;
  { v.layout() } -> std::convertible_to<rotary_layout>;
  { v.position(r) } -> std::convertible_to<std::uint64_t>;
  { v.cos_row(r) } -> std::convertible_to<const typename V::value_type*>;
  { v.sin_row(r) } -> std::convertible_to<const typename V::value_type*>;
};

namespace detail {

// The pair of element k of a row of d elements in layout l (the inverse of rope::pair_index).
constexpr std::size_t pair_of_element(rotary_layout l, std::size_t k, std::size_t d) noexcept {
  return l == rotary_layout::interleaved ? k / 2 : k % (d / 2);
}

// The position of row r as a signed 64-bit value (unsigned views hold positions below 2^63).
template <class V>
constexpr std::int64_t position_of(const V& v, std::size_t r) noexcept {
  return static_cast<std::int64_t>(v.position(r));
}

// Rows at consecutive positions position(0), position(0) + 1, ...: then the row of a position is
// one subtraction away (row_of); otherwise a search.
template <class V>
constexpr bool consecutive(const V& v) noexcept {
  const std::int64_t p0 = position_of(v, 0);
  for (std::size_t row = 1; row < v.rows(); ++row)
    if (position_of(v, row) != p0 + static_cast<std::int64_t>(row)) return false;
  return true;
}

inline constexpr std::size_t no_row = static_cast<std::size_t>(-1);

// The row at position p, or no_row. cons: consecutive(v), computed once by the caller.
template <class V>
constexpr std::size_t row_of(const V& v, std::int64_t p, bool cons) noexcept {
  if (v.rows() == 0) return no_row;
  if (cons) {
    const std::int64_t p0 = position_of(v, 0);
    if (p < p0 || p - p0 >= static_cast<std::int64_t>(v.rows())) return no_row;
    return static_cast<std::size_t>(p - p0);
  }
  for (std::size_t row = 0; row < v.rows(); ++row)
    if (position_of(v, row) == p) return row;
  return no_row;
}

}  // namespace detail

// Two C arrays T[N][D] (or std::array<std::array<T, D>, N>), rows at first, first + 1, ...
template <class T, std::size_t N, std::size_t D>
struct array_table_view {
  using value_type = T;
  const T (*cos)[D];
  const T (*sin)[D];
  rotary_layout lay;
  std::uint64_t first;
  static constexpr std::size_t static_rows = N, static_rotary_dim = D;
  constexpr std::size_t rows() const noexcept { return N; }
  constexpr std::size_t rotary_dim() const noexcept { return D; }
  constexpr rotary_layout layout() const noexcept { return lay; }
  constexpr std::uint64_t position(std::size_t r) const noexcept { return first + r; }
  constexpr const T* cos_row(std::size_t r) const noexcept { return cos[r]; }
  constexpr const T* sin_row(std::size_t r) const noexcept { return sin[r]; }
};
template <class T, std::size_t N, std::size_t D>
constexpr array_table_view<T, N, D> view(const T (&cos)[N][D], const T (&sin)[N][D], rotary_layout lay,
                                         std::uint64_t first_position = 0) noexcept {
  return {cos, sin, lay, first_position};
}

// Flat spans of rows() * rotary_dim entries each (sizes known at run time only).
template <class T>
struct span_table {
  using value_type = T;
  std::span<const T> cos, sin;
  std::size_t dim = 0;
  rotary_layout lay = rotary_layout::half_split;
  std::uint64_t first = 0;
  constexpr std::size_t rows() const noexcept { return dim == 0 ? 0 : cos.size() / dim; }
  constexpr std::size_t rotary_dim() const noexcept { return dim; }
  constexpr rotary_layout layout() const noexcept { return lay; }
  constexpr std::uint64_t position(std::size_t r) const noexcept { return first + r; }
  constexpr const T* cos_row(std::size_t r) const noexcept { return cos.data() + r * dim; }
  constexpr const T* sin_row(std::size_t r) const noexcept { return sin.data() + r * dim; }
};

// Two C arrays T[N][D] whose rows are at first, first + 1, ... with first signed (a table covering
// negative positions, e.g. [-N, N) for a relative-position kernel or a bidirectional model).
template <class T, std::size_t N, std::size_t D>
struct signed_array_table_view {
  using value_type = T;
  const T (*cos)[D];
  const T (*sin)[D];
  rotary_layout lay;
  std::int64_t first;
  static constexpr std::size_t static_rows = N, static_rotary_dim = D;
  constexpr std::size_t rows() const noexcept { return N; }
  constexpr std::size_t rotary_dim() const noexcept { return D; }
  constexpr rotary_layout layout() const noexcept { return lay; }
  constexpr std::int64_t position(std::size_t r) const noexcept { return first + static_cast<std::int64_t>(r); }
  constexpr const T* cos_row(std::size_t r) const noexcept { return cos[r]; }
  constexpr const T* sin_row(std::size_t r) const noexcept { return sin[r]; }
};
template <class T, std::size_t N, std::size_t D>
constexpr signed_array_table_view<T, N, D> signed_view(const T (&cos)[N][D], const T (&sin)[N][D], rotary_layout lay,
                                                       std::int64_t first_position) noexcept {
  return {cos, sin, lay, first_position};
}

// Flat spans with a signed first position.
template <class T>
struct signed_span_table {
  using value_type = T;
  std::span<const T> cos, sin;
  std::size_t dim = 0;
  rotary_layout lay = rotary_layout::half_split;
  std::int64_t first = 0;
  constexpr std::size_t rows() const noexcept { return dim == 0 ? 0 : cos.size() / dim; }
  constexpr std::size_t rotary_dim() const noexcept { return dim; }
  constexpr rotary_layout layout() const noexcept { return lay; }
  constexpr std::int64_t position(std::size_t r) const noexcept { return first + static_cast<std::int64_t>(r); }
  constexpr const T* cos_row(std::size_t r) const noexcept { return cos.data() + r * dim; }
  constexpr const T* sin_row(std::size_t r) const noexcept { return sin.data() + r * dim; }
};

// The shape every law needs: rotary_dim even and nonzero, whole rows, cos and sin alike.
template <rotary_table V>
constexpr bool well_shaped(const V& v) noexcept {
  if constexpr (requires {
                  v.cos.size();
                  v.sin.size();
                }) {
    if (v.cos.size() != v.sin.size() || v.rotary_dim() == 0 || v.cos.size() % v.rotary_dim() != 0) return false;
  }
  return v.rotary_dim() > 0 && v.rotary_dim() % 2 == 0 && v.rows() > 0;
}

}  // namespace posenc::laws
