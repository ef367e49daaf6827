// bucket_bounded.hpp: law "every bucket lies in the scheme's range": [0, num_buckets - 1] for T5,
// [0, 2k] for Shaw's index, [-(2 mid - 1), 2 mid - 1] for DeBERTa on |r| <= M - 1 (bucket_table.hpp
// derives each; an index past the range reads past the learned embedding table). Measured: how far
// the bucket is outside [lowest, highest] (0 inside), against 0.
//   static_assert(laws::bucket_bounded(laws::bucket_table<int>{b, -200}, laws::t5_bucket_spec(cfg)).holds);
// Index: position = the relative position.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/bucket/table.hpp"
#include "posenc/laws/law_result.hpp"

namespace posenc::laws::failed {

// Where a failing bucket_bounded stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool bucket_bounded(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed<bucket_bounded>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity bucket_bounded{failed::bucket_bounded, law_indices::signed_position};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class I>
constexpr law_result bucket_bounded(const bucket_table<I>& t, const bucket_spec& s) noexcept {
  law_result r = make_result("bucket bounded: lowest <= bucket <= highest", &kind::bucket_bounded);
  for (std::size_t k = 0; k < t.size(); ++k) {
    const std::int64_t rel = t.relative(k);
    if (detail::magnitude(rel) > s.range) continue;
    const std::int64_t b = t[k];
    const double out = b < s.lowest    ? static_cast<double>(s.lowest - b)
                       : b > s.highest ? static_cast<double>(b - s.highest)
                                       : 0.0;
    if (out == 0 && r.checked > 0) {
      r.pass(1);
      continue;
    }
    r.add(out, 0.0, {rel, -1, -1});
  }
  return r;
}

}  // namespace posenc::laws
