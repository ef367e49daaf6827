// laws/attn_temperature/steps.hpp: law "the temperature changes only at p = k floor_scale - 1":
// floor((p + 1) / f) is the same for p - 1 and p unless f divides p + 1, so between steps the exact
// scale is constant and every entry holds the bits of the one before it; the step itself is at
// p = f - 1, 2f - 1, ... (the +1 of HF's cache_position + 1: Llama-4's first step is at 8191, not
// 8192). A comparison per neighbouring pair off the steps: 0 or 1 against 0.
//   static_assert(laws::temperature_steps(laws::temperature_table<float>{s, 0, 8}).holds);
// Index: position = the later position, partner = the earlier one.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/attn_temperature/table.hpp"
#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"

namespace posenc::laws::failed {

// Where a failing temperature_steps stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool temperature_steps(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed<temperature_steps>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity temperature_steps{failed::temperature_steps, law_indices::signed_position};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class T>
constexpr law_result temperature_steps(const temperature_table<T>& t) noexcept {
  law_result r = make_result("temperature steps: constant between p = k floor_scale - 1", &kind::temperature_steps);
  if (!t.valid()) {
    r.require(false, {invalid_position, -1, -1});
    return r;
  }
  for (std::size_t i = 1; i < t.size(); ++i) {
    const std::int64_t p = t.position(i);
    if (t.step_at(p)) continue;
    const bool ok = detail::same_bits(t.scales[i - 1], t.scales[i]);
    if (ok && r.checked > 0) {
      r.pass(1);
      continue;
    }
    r.require(ok, {p, -1, -1, p - 1});
  }
  return r;
}

}  // namespace posenc::laws
