// bucket_monotone.hpp: law "a bucket is monotone in |distance| on each side": T5's and DeBERTa's
// log buckets and Shaw's clip are non-decreasing functions of |r| composed with a side's offset or
// sign (bucket_table.hpp), so on each side the bucket moves one way only as |r| grows
// (docs/laws.md section 8). Read for every two neighbouring relative positions r, r + 1 of the
// table (within the spec's range): the one farther from 0 must not be below (a rising side) or
// above (a falling side) the nearer one; the step from 0 to -1 belongs to the negative side.
// A comparison: 0 or 1 against 0.
//   static_assert(laws::bucket_monotone(laws::bucket_table<int>{b, -200}, laws::t5_bucket_spec(cfg)).holds);
// Index: position = the farther relative position, partner = the nearer one.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/bucket/table.hpp"
#include "posenc/laws/law_result.hpp"

namespace posenc::laws::failed {

// Where a failing bucket_monotone stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool bucket_monotone(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed<bucket_monotone>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity bucket_monotone{failed::bucket_monotone, law_indices::signed_position};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class I>
constexpr law_result bucket_monotone(const bucket_table<I>& t, const bucket_spec& s) noexcept {
  law_result r =
      make_result("bucket monotone: the bucket moves one way on each side as |r| grows", &kind::bucket_monotone);
  for (std::size_t k = 0; k + 1 < t.size(); ++k) {
    const std::int64_t a = t.relative(k), b = t.relative(k + 1);
    if (detail::magnitude(a) > s.range || detail::magnitude(b) > s.range) continue;
    const bool positive = a >= 0;  // then b is the farther one
    const std::int64_t near = positive ? t[k] : t[k + 1], far = positive ? t[k + 1] : t[k];
    const bool rises = positive ? s.positive.rises : s.negative.rises;
    const bool ok = rises ? far >= near : far <= near;
    const entry_index at{positive ? b : a, -1, -1, positive ? a : b};
    if (ok && r.checked > 0) {
      r.pass(1);
      continue;
    }
    r.require(ok, at);
  }
  return r;
}

}  // namespace posenc::laws
