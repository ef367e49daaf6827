// distance_table.hpp: a dense queries x keys block whose entry (i, j) depends only on the distance
// |(first_query + i) - (first_key + j)| (the relative biases of ALiBi, KERPLE, Sandwich), filled
// from one value per distance instead of one evaluation per entry.
//
// Why: every entry of such a block repeats the one up and to the left (a Toeplitz matrix), so only
// its edges, row 0 and column 0, need the scheme's correctly rounded value; every other row is a
// copy of the row above shifted by one. When the queries and keys start at the same position,
// column 0 holds row 0's distances again, and those are copied too. The entries are the values the
// scheme gives for their distance, the same bits however many times they are copied.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "posenc/status.hpp"

namespace posenc::detail {

// The edges whose values a block needs: edge e < keys is row 0's element e; edge keys + t is
// column 0 of row first_row + t, where first_row skips the rows whose column 0 is a copy.
struct distance_block {
  std::size_t queries = 0, keys = 0;
  std::uint64_t first_query = 0, first_key = 0;

  constexpr bool shared() const noexcept { return first_query == first_key; }
  constexpr std::size_t first_row() const noexcept { return shared() ? std::max<std::size_t>(keys, 1) : 1; }
  constexpr std::size_t edges() const noexcept {
    if (queries == 0 || keys == 0) return 0;
    return keys + (queries > first_row() ? queries - first_row() : 0);
  }
  constexpr std::size_t offset(std::size_t e) const noexcept {  // where edge e goes in the block
    return e < keys ? e : (first_row() + (e - keys)) * keys;
  }
  constexpr std::uint64_t distance(std::size_t e) const noexcept {
    const std::uint64_t q = e < keys ? first_query : first_query + (first_row() + (e - keys));
    const std::uint64_t k = e < keys ? first_key + e : first_key;
    return q >= k ? q - k : k - q;
  }

  // Every entry off the edges, once the edges hold their values.
  template <class T>
  constexpr void complete(T* block) const noexcept {
    if (keys == 0) return;
    for (std::size_t i = 1; i < queries; ++i) {
      T* row = block + i * keys;
      if (shared() && i < keys) row[0] = block[i];  // distance i, already in row 0
      std::copy(row - keys, row - 1, row + 1);      // (i, j) = (i - 1, j - 1)
    }
  }
};

// at(k) -> posenc::result<T> for a distance k. The first error is returned; a domain_error stops
// the fill (the rest of the block is left as it was), any other error (overflow) goes on.
template <class T, class At>
constexpr posenc::status fill_distance_block(const distance_block& b, T* block, At&& at) {
  posenc::status st = posenc::status::ok;
  for (std::size_t e = 0; e < b.edges(); ++e) {
    const auto r = at(b.distance(e));
    if (r.error == posenc::status::domain_error) return r.error;
    if (st == posenc::status::ok) st = r.error;
    block[b.offset(e)] = r.value;
  }
  b.complete(block);
  return st;
}

}  // namespace posenc::detail
