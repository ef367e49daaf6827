// table_view.hpp: a posenc rope::table as the laws read it (concept rotary_table,
// laws/rotary/table_view.hpp, which has the views of tables posenc did not build). Apart so that
// the laws of any rotary table do not depend on RoPE's headers. pair_view(rope::pair_table) reads a
// compact table (laws/rotary/pair_table_view.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/rotary/pair_table_view.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/table.hpp"

namespace posenc::laws {

// A posenc rope::table.
template <class T, std::size_t N, std::size_t D, rope::layout L>
struct posenc_table_view {
  using value_type = T;
  const rope::table<T, N, D, L>* t;
  static constexpr std::size_t static_rows = N, static_rotary_dim = D;
  constexpr std::size_t rows() const noexcept { return N; }
  constexpr std::size_t rotary_dim() const noexcept { return D; }
  constexpr rope::layout layout() const noexcept { return L; }
  constexpr std::uint64_t position(std::size_t r) const noexcept { return t->position[r]; }
  constexpr const T* cos_row(std::size_t r) const noexcept { return t->cos.data() + r * D; }
  constexpr const T* sin_row(std::size_t r) const noexcept { return t->sin.data() + r * D; }
};
template <class T, std::size_t N, std::size_t D, rope::layout L>
constexpr posenc_table_view<T, N, D, L> view(const rope::table<T, N, D, L>& t) noexcept {
  return {&t};
}

// A posenc rope::pair_table (compact rows, the firmware layout): read through
// expanded(pair_view(t), layout) (laws/rotary/pair_table_view.hpp).
template <class T, std::size_t N, std::size_t P>
struct posenc_pair_table_view {
  using value_type = T;
  const rope::pair_table<T, N, P>* t;
  static constexpr std::size_t static_rows = N, static_pairs = P;
  constexpr std::size_t rows() const noexcept { return N; }
  constexpr std::size_t pairs() const noexcept { return P; }
  constexpr std::uint64_t position(std::size_t r) const noexcept { return t->position[r]; }
  constexpr T cos_at(std::size_t r, std::size_t j) const noexcept { return t->data[r * P + j].cos; }
  constexpr T sin_at(std::size_t r, std::size_t j) const noexcept { return t->data[r * P + j].sin; }
};
template <class T, std::size_t N, std::size_t P>
constexpr posenc_pair_table_view<T, N, P> pair_view(const rope::pair_table<T, N, P>& t) noexcept {
  return {&t};
}

}  // namespace posenc::laws
