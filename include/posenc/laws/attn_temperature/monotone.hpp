// laws/attn_temperature/monotone.hpp: law "the temperature does not decrease with the position":
// the exact scale 1 + a ln(1 + floor((p + 1) / f)) is non-decreasing in p (a >= 0, ln and floor
// increasing) and rounding to nearest is monotone, so no entry is below the one before it.
// A comparison per neighbouring pair: 0 or 1 against 0; a NaN fails.
//   static_assert(laws::temperature_monotone(laws::temperature_table<float>{s, 0, 8}).holds);
// Index: position = the later position, partner = the earlier one.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/attn_temperature/table.hpp"
#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"

namespace posenc::laws::failed {

// Where a failing temperature_monotone stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool temperature_monotone(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed<temperature_monotone>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity temperature_monotone{failed::temperature_monotone, law_indices::signed_position};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class T>
constexpr law_result temperature_monotone(const temperature_table<T>& t) noexcept {
  law_result r = make_result("temperature monotone: non-decreasing in the position", &kind::temperature_monotone);
  if (!t.valid()) {
    r.require(false, {invalid_position, -1, -1});
    return r;
  }
  for (std::size_t i = 1; i < t.size(); ++i) {
    const double before = detail::to_double(t.scales[i - 1]), now = detail::to_double(t.scales[i]);
    const bool ok = before <= now;  // false for a NaN on either side
    if (ok && r.checked > 0) {
      r.pass(1);
      continue;
    }
    r.require(ok, {t.position(i), -1, -1, t.position(i - 1)});
  }
  return r;
}

}  // namespace posenc::laws
