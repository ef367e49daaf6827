// pair_table_view.hpp: a compact rotary table (one cos and one sin per pair, the firmware layout:
// `posenc emit rope --layout pairs`, rope::pair_table) as the laws read it.
//
// A compact table has rows of rotary_dim/2 values, pair j's cos and sin once, and no element
// order: the kernel (rope::rotate) reads pair j for elements (j, j + rotary_dim/2) of a half-split
// head or (2j, 2j + 1) of an interleaved one. The laws read expanded rows (concept rotary_table,
// table_view.hpp), so a compact table is checked through its expansion in the element order it
// will be applied in: expanded(v, layout) copies every value, bit for bit, into both elements of
// its pair (rope::expand_row's map). Every law that reads an expanded table then reads each
// value of the compact one (a wrong bit anywhere fails the law that would catch it in an expanded
// table); pair_copies holds by construction, and the two layouts of one compact table are
// layout_equivalent by construction.
//
// Any type with this interface is a compact table (concept pair_rotary_table):
//   rows(), pairs(), position(r), cos_at(r, j), sin_at(r, j), and static_rows, static_pairs
// (the expansion is a fixed-size value, built in constant evaluation: no heap). Views:
//   pair_view(cos, sin, first)   two C arrays T[N][P] (an emitted header's <name>_cos, <name>_sin)
//   pair_view(t)                 a posenc rope::pair_table (laws/rope/table_view.hpp)
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>

#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/rotary_layout.hpp"

namespace posenc::laws {

template <class V>
concept pair_rotary_table = requires(const V& v, std::size_t r, std::size_t j) {
  typename V::value_type;
  { V::static_rows } -> std::convertible_to<std::size_t>;
  { V::static_pairs } -> std::convertible_to<std::size_t>;
  { v.rows() } -> std::convertible_to<std::size_t>;
  { v.pairs() } -> std::convertible_to<std::size_t>;
  { v.position(r) } -> std::convertible_to<std::uint64_t>;
  { v.cos_at(r, j) } -> std::convertible_to<typename V::value_type>;
  { v.sin_at(r, j) } -> std::convertible_to<typename V::value_type>;
};

// Two C arrays T[N][P], rows at first, first + 1, ...
template <class T, std::size_t N, std::size_t P>
struct array_pair_view {
  using value_type = T;
  const T (*cos)[P];
  const T (*sin)[P];
  std::uint64_t first;
  static constexpr std::size_t static_rows = N, static_pairs = P;
  constexpr std::size_t rows() const noexcept { return N; }
  constexpr std::size_t pairs() const noexcept { return P; }
  constexpr std::uint64_t position(std::size_t r) const noexcept { return first + r; }
  constexpr T cos_at(std::size_t r, std::size_t j) const noexcept { return cos[r][j]; }
  constexpr T sin_at(std::size_t r, std::size_t j) const noexcept { return sin[r][j]; }
};
template <class T, std::size_t N, std::size_t P>
constexpr array_pair_view<T, N, P> pair_view(const T (&cos)[N][P], const T (&sin)[N][P],
                                             std::uint64_t first_position = 0) noexcept {
  return {cos, sin, first_position};
}

// The expansion of a compact table in one element order: a rotary_table that owns its rows.
template <class T, std::size_t N, std::size_t P>
struct expanded_pair_table {
  using value_type = T;
  static constexpr std::size_t static_rows = N, static_rotary_dim = 2 * P;
  std::array<T, N * 2 * P> cos{};
  std::array<T, N * 2 * P> sin{};
  std::array<std::uint64_t, N> positions{};
  rotary_layout lay = rotary_layout::half_split;
  constexpr std::size_t rows() const noexcept { return N; }
  constexpr std::size_t rotary_dim() const noexcept { return 2 * P; }
  constexpr rotary_layout layout() const noexcept { return lay; }
  constexpr std::uint64_t position(std::size_t r) const noexcept { return positions[r]; }
  constexpr const T* cos_row(std::size_t r) const noexcept { return cos.data() + r * 2 * P; }
  constexpr const T* sin_row(std::size_t r) const noexcept { return sin.data() + r * 2 * P; }
};

// Pair j of each row into elements (j, j + P) (half-split) or (2j, 2j + 1) (interleaved).
template <pair_rotary_table V>
constexpr auto expanded(const V& v, rotary_layout l) noexcept {
  using T = typename V::value_type;
  constexpr std::size_t N = V::static_rows, P = V::static_pairs;
  expanded_pair_table<T, N, P> e{};
  e.lay = l;
  for (std::size_t r = 0; r < N; ++r) {
    e.positions[r] = v.position(r);
    for (std::size_t j = 0; j < P; ++j)
      for (std::size_t t = 0; t < 2; ++t) {
        const std::size_t k = r * 2 * P + (l == rotary_layout::interleaved ? 2 * j + t : j + t * P);
        e.cos[k] = v.cos_at(r, j);
        e.sin[k] = v.sin_at(r, j);
      }
  }
  return e;
}

}  // namespace posenc::laws
