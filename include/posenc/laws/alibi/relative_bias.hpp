// alibi_relative_bias.hpp: law "ALiBi's bias depends on query - key alone" (per head): B[h][i][j]
// = -m_h (i - j) (causal) or -m_h |i - j| (symmetric), so every entry holds the bits of its
// neighbour along the diagonal, B[h][i-1][j-1] (docs/laws.md section 7). A bit law: the biases are
// one rounding of a value that depends on i - j alone, so equal bits are the contract, not an
// approximation. The causal table's masked entries (key after query) are not read.
//   static_assert(laws::alibi_relative_bias(laws::alibi_bias_table<float>{b, heads, q, k}).holds);
// Index: position = the query's position, pair = the head, element = the key's position, partner =
// the key of the neighbour compared with (at query - 1). A wrong entry is named at itself, unless it is the first
// of its diagonal (first query or first key): then at its successor on the diagonal. A table of
// another size fails at laws::invalid_position.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/alibi/bias_table.hpp"
#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"

namespace posenc::laws::failed {

// Where a failing alibi_relative_bias stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool alibi_relative_bias(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed<alibi_relative_bias>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity alibi_relative_bias{failed::alibi_relative_bias, law_indices::query_head_key};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class T>
constexpr law_result alibi_relative_bias(const alibi_bias_table<T>& t) noexcept {
  law_result r = make_result("alibi relative bias: B[h][i][j] depends on i - j alone", &kind::alibi_relative_bias);
  if (!t.valid()) {
    r.require(false, {invalid_position, -1, -1});
    return r;
  }
  for (std::size_t h = 0; h < t.heads; ++h)
    for (std::size_t i = 1; i < t.queries; ++i)
      for (std::size_t j = 1; j < t.keys; ++j) {
        if (!t.read(i, j)) continue;  // then (i - 1, j - 1) is masked too
        const bool same = detail::same_bits(t.at(h, i, j), t.at(h, i - 1, j - 1));
        if (same) {
          if (r.checked == 0)
            r.require(true, {t.query(i), static_cast<std::int64_t>(h), t.key(j), t.key(j - 1)});
          else
            r.pass(1);
          continue;
        }
        r.require(false, {t.query(i), static_cast<std::int64_t>(h), t.key(j), t.key(j - 1)});
      }
  return r;
}

}  // namespace posenc::laws
