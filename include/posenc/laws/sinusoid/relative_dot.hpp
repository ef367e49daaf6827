// sinusoid_relative_dot.hpp: law "the dot product of two encodings depends on their distance
// alone, and is even in it": P(p) . P(p + k) = sum_i cos(k omega_i), the same for every p, and
// equal to P(p) . P(p - k) (sin a sin b + cos a cos b = cos(a - b), summed over the pairs i < d/2;
// an odd d's extra column is no pair and is left out: the paper's lone sin would add
// sin(p w) sin((p + k) w), which depends on p). docs/laws.md section 6 tabulates how the dot decays
// with k.
// For every difference k of the grid and every row p with a row at p + k: D(p, k) = P(p) . P(p + k)
// is compared with D(p0, k) of the first such row p0, and with D(p, -k) = P(p) . P(p - k) when that
// row exists. Bound (docs/laws.md section 6): each pair's term is within 2e + e^2 of cos(k w),
// e = table_block_error<T>(), so two dots differ by at most 2 n (2e + e^2), n = d/2 pairs; the law
// sums the terms in double-double, and below double each term is one rounding of at most
// 1.01 x 2^-53: sinusoid_dot_bound<T>(n) adds 2 (n 1.01 x 2^-53 + (n^2 + n) 2^-100).
//   static_assert(laws::sinusoid_relative_dot(laws::sinusoid_table<float>{t, cfg}).holds);
// Index: position p, partner p + k (of the pair of rows whose dot strays). A table the law cannot
// read fails at laws::invalid_position.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/laws/bounds.hpp"
#include "posenc/laws/detail/blocks.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/sinusoid/table.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/numeric/fixed_point.hpp"

namespace posenc::laws::failed {

// Where a failing sinusoid_relative_dot stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool sinusoid_relative_dot(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed<sinusoid_relative_dot>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity sinusoid_relative_dot{failed::sinusoid_relative_dot, law_indices::signed_position};

}  // namespace posenc::laws::kind

namespace posenc::laws {

// |D(p, k) - D(p', k)| for two dots of n pairs of T (docs/laws.md section 6).
template <class T>
constexpr double sinusoid_dot_bound(std::size_t n) noexcept {
  const double nn = static_cast<double>(n);
  // 1.01 x 2^-53 per term; a q15/q31 term's two products round too (q31's have 62 bits): 2^-51.
  const double terms = std::is_same_v<T, double> ? 0.0 : nn * (posenc::fixed_point_type<T> ? 0x1p-51 : 0x1.0290p-53);
  return 2 * (nn * table_dot_bound<T>() + terms + (nn * nn + nn) * 0x1p-100);
}

namespace detail {

// P(row x) . P(row y) over the pairs, in double-double.
template <class T>
constexpr math::double_double sinusoid_dot(const sinusoid_table<T>& t, const T* x, const T* y) noexcept {
  math::double_double s{0, 0};
  for (std::size_t i = 0; i < t.pairs(); ++i) {
    const std::size_t ks = t.sin_element(i), kc = t.cos_element(i);
    const block b = block_product<T, true>(x + kc, x + ks, y + kc, y + ks, 0);  // a = c c' + s s'
    s = posenc::detail::dd_add(s, math::double_double{b.a, b.a_lo});
  }
  return s;
}

constexpr double dd_distance(math::double_double a, math::double_double b) noexcept {
  const double d = (a.hi - b.hi) + (a.lo - b.lo);
  return d < 0 ? -d : d;
}

}  // namespace detail

template <class T>
constexpr law_result sinusoid_relative_dot(const sinusoid_table<T>& t, const sinusoid_grid& g = {}) noexcept {
  law_result r = make_result("sinusoid relative dot: P(p) . P(p + k) depends on k alone, = P(p) . P(p - k)",
                             &kind::sinusoid_relative_dot);
  if (!t.valid()) {
    r.require(false, {invalid_position, -1, -1});
    return r;
  }
  const double bound = sinusoid_dot_bound<T>(t.pairs());
  const std::size_t n = t.rows();
  for (const std::int64_t k0 : g.shifts) {
    if (k0 == 0) break;
    const std::int64_t k = k0 == sinusoid_middle ? detail::sinusoid_span(t) / 2 : (k0 < 0 ? -k0 : k0);
    if (k == 0) continue;
    bool have_ref = false;
    math::double_double ref{0, 0};
    for (std::size_t rp = 0; rp < n; ++rp) {
      const std::int64_t p = t.position(rp);
      if (p > INT64_MAX - k || p < INT64_MIN + k) continue;
      const std::size_t ru = t.row_of(p + k);
      if (ru == n) continue;
      const math::double_double up = detail::sinusoid_dot(t, t.row(rp), t.row(ru));
      if (!have_ref) {
        have_ref = true;
        ref = up;
      }
      double dev = detail::dd_distance(up, ref);
      const std::size_t rd = t.row_of(p - k);
      if (rd != n) {
        const double even = detail::dd_distance(up, detail::sinusoid_dot(t, t.row(rp), t.row(rd)));
        dev = even > dev || even != even ? even : dev;
      }
      r.add(dev, bound, {p, -1, -1, p + k});
    }
  }
  return r;
}

}  // namespace posenc::laws
