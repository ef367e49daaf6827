// bucket_saturation.hpp: law "the bucket saturates at max_distance": from |r| = saturates_from on,
// each side's bucket is that side's saturated value (T5: nb - 1 and 2 nb - 1 from max_distance, and
// the causal future all 0; Shaw: 0 and 2k from k; DeBERTa: +-(2 mid - 1) at M - 1, the end of its
// spec's range; bucket_table.hpp derives each). A bit law on integers: 0 or 1 against 0.
//   static_assert(laws::bucket_saturation(laws::bucket_table<int>{b, -200}, laws::t5_bucket_spec(cfg)).holds);
// Index: position = the relative position. A table that reaches no saturated position holds the
// law vacuously (checked == 0).
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/bucket/table.hpp"
#include "posenc/laws/law_result.hpp"

namespace posenc::laws::failed {

// Where a failing bucket_saturation stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool bucket_saturation(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed<bucket_saturation>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity bucket_saturation{failed::bucket_saturation, law_indices::signed_position};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class I>
constexpr law_result bucket_saturation(const bucket_table<I>& t, const bucket_spec& s) noexcept {
  law_result r =
      make_result("bucket saturation: from saturates_from on, the side's saturated bucket", &kind::bucket_saturation);
  for (std::size_t k = 0; k < t.size(); ++k) {
    const std::int64_t rel = t.relative(k), mag = detail::magnitude(rel);
    if (rel == 0 || mag > s.range) continue;
    const bucket_side& side = rel < 0 ? s.negative : s.positive;
    if (side.saturates_from <= 0 || mag < side.saturates_from) continue;
    const bool ok = t[k] == side.saturated;
    if (ok && r.checked > 0) {
      r.pass(1);
      continue;
    }
    r.require(ok, {rel, -1, -1});
  }
  return r;
}

}  // namespace posenc::laws
