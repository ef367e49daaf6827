// bucket_sign_partition.hpp: law "a bidirectional bucket tells the sides apart": every bucket at
// r < 0 is below every bucket at r > 0 (T5 bidirectional: [0, nb - 1] and [nb, 2 nb - 1]; DeBERTa:
// negative and positive; Shaw: below and above k), so a key before the query never shares a bucket
// (a learned bias) with a key after it. Each entry is held to its side of the spec's split: at most
// negative_max at r < 0 (T5: nb - 1; DeBERTa: -1; Shaw: k - 1), at least positive_min at r > 0 (nb; 1;
// k + 1), so a wrong entry is named at itself. A spec that is not sign-partitioned (T5 causal)
// checks nothing; one whose negative_max is not below positive_min fails at laws::invalid_position.
// A comparison: 0 or 1 against 0.
//   static_assert(laws::bucket_sign_partition(laws::bucket_table<int>{b, -200}, laws::t5_bucket_spec(cfg)).holds);
// Index: position = the relative position.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/bucket/table.hpp"
#include "posenc/laws/law_result.hpp"

namespace posenc::laws::failed {

// Where a failing bucket_sign_partition stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool bucket_sign_partition(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed<bucket_sign_partition>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity bucket_sign_partition{failed::bucket_sign_partition, law_indices::signed_position};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class I>
constexpr law_result bucket_sign_partition(const bucket_table<I>& t, const bucket_spec& s) noexcept {
  law_result r = make_result("bucket sign partition: every bucket at r < 0 is below every bucket at r > 0",
                             &kind::bucket_sign_partition);
  if (!s.sign_partitioned) return r;
  if (!(s.negative_max < s.positive_min)) {
    r.require(false, {invalid_position, -1, -1});
    return r;
  }
  for (std::size_t k = 0; k < t.size(); ++k) {
    const std::int64_t rel = t.relative(k);
    if (rel == 0 || detail::magnitude(rel) > s.range) continue;
    const bool ok = rel < 0 ? t[k] <= s.negative_max : t[k] >= s.positive_min;
    if (ok && r.checked > 0) {
      r.pass(1);
      continue;
    }
    r.require(ok, {rel, -1, -1});
  }
  return r;
}

}  // namespace posenc::laws
