// fill_by_head.hpp: a [heads, distances] table filled entry by entry without the GIL, and where
// the fill stopped; shared by the schemes whose bias is one call per head and distance (KERPLE,
// schemes/kerple.cpp; Sandwich, schemes/sandwich.cpp).
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include <posenc/status.hpp>

#include "common.hpp"

namespace posenc::python {

// Where a per-entry fill of a [heads, distances] table stopped and why; the fill runs without the
// GIL, so the ValueError is raised after it, from this record.
struct stop {
  posenc::status error = posenc::status::ok;
  std::size_t head = 0, distance = 0;
};

// out[h n + k] = bias(h, k).value for every head h and distance k < n, up to the first error.
template <class T, class Bias>
stop fill_by_head(std::span<T> out, std::size_t heads, std::size_t n, Bias&& bias) {
  py::gil_scoped_release unlocked;
  for (std::size_t h = 0; h < heads; ++h)
    for (std::size_t k = 0; k < n; ++k) {
      const posenc::result<T> r = bias(h, k);
      if (r.error != posenc::status::ok) return {r.error, h, k};
      out[h * n + k] = r.value;
    }
  return {};
}

// Where s stopped, as the tail of the ValueError that names head and distance.
inline std::string at(const stop& s) {
  return " at head " + std::to_string(s.head) + ", distance " + std::to_string(s.distance);
}

}  // namespace posenc::python
