// alibi_monotone_bias.hpp: law "ALiBi's bias is 0 at distance 0 and does not increase with the
// distance" (per head): the exact bias -m_h |i - j| decreases strictly with |i - j| (m_h > 0), and
// rounding to nearest is monotone, so the table's entries never increase as the key moves away from
// the query along a row, and the diagonal holds +0 (docs/laws.md section 7). Not strictly: two
// distances can round to one value (bfloat16 holds 8 bits). Read along each row: for two
// neighbouring keys j, j + 1 the one farther from the query must not hold the larger bias; the
// causal table's masked entries are not read. With alibi_relative_bias (the same value along each
// diagonal) this is monotonicity in the distance.
//   static_assert(laws::alibi_monotone_bias(laws::alibi_bias_table<float>{b, heads, q, k}).holds);
// Measured: 0 or 1 (a comparison), against 0. A NaN fails. Index: position = the query, pair = the
// head, element = the farther key; partner = the nearer key.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/alibi/bias_table.hpp"
#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"

namespace posenc::laws::failed {

// Where a failing alibi_monotone_bias stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool alibi_monotone_bias(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed<alibi_monotone_bias>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity alibi_monotone_bias{failed::alibi_monotone_bias, law_indices::query_head_key};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class T>
constexpr law_result alibi_monotone_bias(const alibi_bias_table<T>& t) noexcept {
  law_result r =
      make_result("alibi monotone bias: 0 at distance 0, non-increasing in the distance", &kind::alibi_monotone_bias);
  if (!t.valid()) {
    r.require(false, {invalid_position, -1, -1});
    return r;
  }
  for (std::size_t h = 0; h < t.heads; ++h)
    for (std::size_t i = 0; i < t.queries; ++i) {
      const std::int64_t q = t.query(i);
      for (std::size_t j = 0; j < t.keys; ++j) {
        if (!t.read(i, j)) continue;
        const auto hh = static_cast<std::int64_t>(h);
        const double v = detail::to_double(t.at(h, i, j));
        if (t.key(j) == q) r.require(detail::bits(t.at(h, i, j)) == 0, {q, hh, t.key(j), t.key(j)});  // +0: every bit 0
        if (j + 1 == t.keys || !t.read(i, j + 1)) continue;
        const double w = detail::to_double(t.at(h, i, j + 1));
        // key j + 1 is farther from the query than key j when key j >= query
        const bool ok = t.key(j) >= q ? w <= v : v <= w;
        const std::int64_t far = t.key(j) >= q ? t.key(j + 1) : t.key(j),
                           near = t.key(j) >= q ? t.key(j) : t.key(j + 1);
        if (ok && r.checked > 0) {
          r.pass(1);
          continue;
        }
        r.require(ok, {q, hh, far, near});
      }
    }
  return r;
}

}  // namespace posenc::laws
