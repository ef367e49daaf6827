// table_view.hpp: a posenc rope::table as the laws read it (concept rotary_table,
// laws/rotary/table_view.hpp, which has the views of tables posenc did not build). Apart so that
// the laws of any rotary table do not depend on RoPE's headers.
#pragma once

#include <cstddef>
#include <cstdint>

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

}  // namespace posenc::laws
