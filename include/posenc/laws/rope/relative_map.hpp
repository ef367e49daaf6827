// relative_map.hpp: laws of a relative-position remapping rel -> rel' (ReRoPE's min(rel, w), Leaky
// ReRoPE's w + (rel - w) / k; rope/rerope.hpp, rope/leaky_rerope.hpp), on any callable
// map(std::uint64_t rel) -> rope::remapped_position, over rel = 0 .. n - 1. Exact: remapped
// positions are rationals position / divisor compared by cross products (remapped_position.hpp).
//   relative_map_window(map, w, n)      rel' = rel for rel < w (the window keeps plain RoPE), and
//                                       rel' = w at rel = w (no jump at the edge)
//   relative_map_monotone(map, n, strict)  rel' never decreases (strict: always increases) with rel:
//                                       attention still orders keys by distance
//   relative_map_slope(map, from, n, step, rise)  rel'(rel + step) - rel'(rel) = rise for
//                                       from <= rel: ReRoPE step 1 rise 0 (constant past w),
//                                       Leaky step k rise 1 (slope 1/k past w)
// Measured: 0 or 1 (a comparison) against 0. Index: position = rel, partner = the other rel.
#pragma once

#include <cstdint>

#include "posenc/laws/law_result.hpp"
#include "posenc/rope/remapped_position.hpp"

namespace posenc::laws::failed {

constexpr bool relative_map_window(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<relative_map_window>(position) && pair + element > 0;
}
constexpr bool relative_map_monotone(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<relative_map_monotone>(position) && pair + element > 0;
}
constexpr bool relative_map_slope(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<relative_map_slope>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity relative_map_window{failed::relative_map_window, law_indices::rotary};
inline constexpr law_identity relative_map_monotone{failed::relative_map_monotone, law_indices::rotary};
inline constexpr law_identity relative_map_slope{failed::relative_map_slope, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class Map>
constexpr law_result relative_map_window(Map map, std::uint64_t window, std::uint64_t n) noexcept {
  law_result r = make_result("relative map window: rel' = rel for rel <= w", &kind::relative_map_window);
  for (std::uint64_t rel = 0; rel < n && rel <= window; ++rel) {
    const rope::remapped_position m = map(rel);
    r.require(m.divisor != 0 && m == rope::remapped_position{rel, 1}, {static_cast<std::int64_t>(rel), -1, -1});
  }
  return r;
}

template <class Map>
constexpr law_result relative_map_monotone(Map map, std::uint64_t n, bool strict) noexcept {
  law_result r = make_result("relative map monotone: rel' does not decrease with rel", &kind::relative_map_monotone);
  for (std::uint64_t rel = 0; rel + 1 < n; ++rel) {
    const rope::remapped_position a = map(rel), b = map(rel + 1);
    const bool ok = a.divisor != 0 && b.divisor != 0 && (strict ? rope::less(a, b) : !rope::less(b, a));
    r.require(ok, {static_cast<std::int64_t>(rel + 1), -1, -1, static_cast<std::int64_t>(rel)});
  }
  return r;
}

// c / d - a / b = rise  <=>  c b - a d = rise b d, in signed 64 bits (positions and divisors are at
// most 2^22 and 2^21 in a table, so each product is below 2^43).
template <class Map>
constexpr law_result relative_map_slope(Map map, std::uint64_t from, std::uint64_t n, std::uint64_t step,
                                        std::int64_t rise) noexcept {
  law_result r =
      make_result("relative map slope: rel'(rel + step) - rel'(rel) = rise past the window", &kind::relative_map_slope);
  for (std::uint64_t rel = from; rel + step < n; ++rel) {
    const rope::remapped_position x = map(rel), y = map(rel + step);
    const auto a = static_cast<std::int64_t>(x.position), b = static_cast<std::int64_t>(x.divisor),
               c = static_cast<std::int64_t>(y.position), d = static_cast<std::int64_t>(y.divisor);
    r.require(b != 0 && d != 0 && c * b - a * d == rise * b * d,
              {static_cast<std::int64_t>(rel + step), -1, -1, static_cast<std::int64_t>(rel)});
  }
  return r;
}

}  // namespace posenc::laws
