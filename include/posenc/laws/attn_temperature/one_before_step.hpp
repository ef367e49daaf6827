// laws/attn_temperature/one_before_step.hpp: law "the temperature is exactly 1 before the first
// step": for p < floor_scale - 1, floor((p + 1) / floor_scale) = 0 and the exact scale is
// 1 + a ln 1 = 1, a value of every dtype, so the entry holds 1's bits (HF leaves q untouched there).
// A comparison per entry: 0 or 1 against 0; a NaN fails.
//   static_assert(laws::temperature_one_before_step(laws::temperature_table<float>{s, 0, 8}).holds);
// Index: position = the entry's position.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/attn_temperature/table.hpp"
#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"

namespace posenc::laws::failed {

// Where a failing temperature_one_before_step stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool temperature_one_before_step(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed<temperature_one_before_step>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity temperature_one_before_step{failed::temperature_one_before_step,
                                                          law_indices::signed_position};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class T>
constexpr law_result temperature_one_before_step(const temperature_table<T>& t) noexcept {
  law_result r =
      make_result("temperature one before step: 1 exactly for p < floor_scale - 1", &kind::temperature_one_before_step);
  if (!t.valid()) {
    r.require(false, {invalid_position, -1, -1});
    return r;
  }
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::int64_t p = t.position(i);
    if (p >= t.floor_scale - 1) break;
    const bool ok = detail::to_double(t.scales[i]) == 1.0;
    if (ok && r.checked > 0) {
      r.pass(1);
      continue;
    }
    r.require(ok, {p, -1, -1});
  }
  return r;
}

}  // namespace posenc::laws
