// remapped_position.hpp: a relative position after a remapping (ReRoPE, Leaky ReRoPE), held as an
// exact rational position / divisor, so that its RoPE angle stays an integer position of a table.
//
// The angle of pair j at the remapped position r' = position / divisor is r' theta_j =
// position * (theta_j / divisor): the row `position` of the RoPE table whose frequencies are divided
// by `divisor`, i.e. HF's linear scaling with factor `divisor` (rope::scaling::linear). divisor 1
// is the plain table. Leaky ReRoPE's w + (rel - w) / k is (k w + rel - w) / k: row k w + rel - w of
// the table scaled by k, an integer row, where the real w + (rel - w) / k is not a double in general
// (leaky_rerope.hpp; docs/rope-remap.md section 2).
#pragma once

#include <cstdint>

namespace posenc::rope {

struct remapped_position {
  std::uint64_t position = 0;  // the row of the table scaled by divisor
  std::uint64_t divisor = 1;   // 1: the plain table

  // The value position / divisor, rounded once to double (for printing; the tables use the pair).
  constexpr double value() const noexcept { return static_cast<double>(position) / static_cast<double>(divisor); }
};

// Exact comparison of a / b with c / d by cross products: positions and divisors are at most 2^21
// in a table (rope::max_table_position), so every product fits 64 bits.
constexpr bool operator==(const remapped_position& x, const remapped_position& y) noexcept {
  return x.position * y.divisor == y.position * x.divisor;
}
constexpr bool less(const remapped_position& x, const remapped_position& y) noexcept {
  return x.position * y.divisor < y.position * x.divisor;
}

}  // namespace posenc::rope
