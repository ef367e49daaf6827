// rope_theta.hpp: the RoPE frequency theta_j = base^(-2j/d) as a double-double, constexpr: the
// geometric frequency (geometric_frequency.hpp) with the exponent 2j/d.
#pragma once

#include <cstdint>

#include "posenc/math/double_double.hpp"
#include "posenc/math/geometric_frequency.hpp"

namespace posenc::math {

// Relative error bound of rope_theta (geometric_frequency.hpp derives it).
inline constexpr double rope_theta_max_rel_error = geometric_frequency_max_rel_error;

// theta_j = base^(-2j/d) (exact rational exponent) as a normalised double-double with relative
// error at most rope_theta_max_rel_error. Preconditions (the caller validates): 1 < base < 2^960
// (so that theta and its low part are normal doubles), d > 0 even, 0 <= j < d/2.
constexpr double_double rope_theta(double base, int j, int d) noexcept {
  return geometric_frequency(base, 2 * static_cast<std::int64_t>(j), d);
}

}  // namespace posenc::math
