// unit_norm.hpp: law "every 2x2 block of a correctly rounded table is a rotation up to rounding":
//   |cos~^2 + sin~^2 - 1| <= (2u + u^2)(1 + 2^-40)  (+ 2^-26 for float16)
// for each pair of each row, read at both of its elements (a table whose second copy of a pair is
// wrong is no rotation either), u = 2^-p the unit roundoff of T. Derivation (docs/laws.md 2):
// cos~ = cos a + dc, sin~ = sin a + ds with |dc| <= u |cos a|, |ds| <= u |sin a| (one rounding to
// nearest; Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., Thm 2.2), so
// cos~^2 + sin~^2 - 1 = 2 (cos a dc + sin a ds) + dc^2 + ds^2 and |.| <= 2u + u^2. A float16
// subnormal sin (|ds| <= 2^-25 absolute) adds at most 2 |sin| |ds| + ds^2 < 2^-26. The square sum
// is evaluated in double-double for double tables (error below 2^-100, covered by the 2^-40
// margin) and in double for the narrower types, whose squares (at most 2 x 24 bits) are exact: the
// sum then errs by at most 2^-52, added to their bound. It is also the norm law:
// R~^T R~ = (cos~^2 + sin~^2) I, so | ||R~ v|| / ||v|| - 1 | <= the same bound.
// Plain tables (attention factor not folded in).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/laws/bounds.hpp"
#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/math/double_double.hpp"

namespace posenc::laws::failed {

// Where a failing unit_norm stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool unit_norm(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<unit_norm>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity unit_norm{failed::unit_norm, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

// unit_norm_bound<T>() is in laws/bounds.hpp (one definition, shared with the MPFR checkers).

template <rotary_table V>
constexpr law_result unit_norm(const V& v) noexcept {
  using T = typename V::value_type;
  law_result r = make_result("unit norm |cos^2 + sin^2 - 1| <= 2u + u^2", &kind::unit_norm);
  if (!well_shaped(v)) {
    r.require(false, {});
    return r;
  }
  const double bound = unit_norm_bound<T>();
  const std::size_t d = v.rotary_dim(), half = d / 2;
  const bool interleaved = v.layout() == rotary_layout::interleaved;
  for (std::size_t row = 0; row < v.rows(); ++row) {
    const T* cr = v.cos_row(row);
    const T* sr = v.sin_row(row);
    std::uint64_t within = 0;  // cases below the worst so far, counted in bulk (one call per row)
    for (std::size_t j = 0; j < half; ++j) {
      for (std::size_t copy = 0; copy < 2; ++copy) {  // both elements of pair j carry its cos and sin
        const std::size_t k = interleaved ? 2 * j + copy : j + copy * half;
        double dev = 0;
        if constexpr (std::is_same_v<T, double>) {
          const double c = cr[k], s = sr[k];
          const auto q = posenc::detail::dd_add(posenc::detail::two_prod(c, c), posenc::detail::two_prod(s, s));
          dev = (q.hi - 1.0) + q.lo;
        } else {
          double c = 0, s = 0;
          if constexpr (std::is_same_v<T, float>)
            c = cr[k], s = sr[k];
          else
            c = detail::to_double(cr[k]), s = detail::to_double(sr[k]);
          dev = (c * c + s * s) - 1.0;
        }
        dev = dev < 0 ? -dev : dev;
        if (dev > r.deviation || !(dev <= bound)) {
          r.add(
              dev, bound,
              {static_cast<std::int64_t>(v.position(row)), static_cast<std::int64_t>(j), static_cast<std::int64_t>(k)});
        } else {
          ++within;
        }
      }
    }
    r.pass(within);
  }
  return r;
}

}  // namespace posenc::laws
