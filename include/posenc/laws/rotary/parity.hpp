// parity.hpp: law "cos is even and sin is odd, bit for bit": for every row at a position p > 0 of a
// table that also has a row at -p, every element holds cos(-p) == cos(p) and sin(-p) == -sin(p),
// the same bits (sin negated by its sign bit). The angle -p theta_j is exactly the negative of
// p theta_j, cos(-a) = cos a, sin(-a) = -sin a, and rounding to nearest even is symmetric
// (RN(-x) = -RN(x)), so a correctly rounded table satisfies it exactly; a table computed by an
// asymmetric method (a float32 recurrence run forward from -N, a rounding toward -inf, an angle
// reduced differently for negative arguments) does not. One exception, the exact zero: a pair
// whose frequency is 0 (HF v5 proportional's non-rotating pairs) has sin = exactly 0 on both sides,
// whose correct rounding is +0 on both; a zero sin at -p is accepted against a zero sin at p.
//
// A table covering negative positions is read through a signed view (laws/rotary/table_view.hpp):
//   constexpr float vendor_cos[2 * N][D] = {...}, vendor_sin[2 * N][D] = {...};   // [-N, N)
//   static_assert(posenc::laws::parity(posenc::laws::signed_view(vendor_cos, vendor_sin,
//                     posenc::rotary_layout::half_split, -N)).holds);
// or signed_span_table<T>{cos, sin, D, layout, -N}. Rows at p with no row at -p, and the row at 0,
// are not checked; a table without negative positions holds the law vacuously (checked == 0).
// The first failure is named by the positive position p (position), the pair, the element, and -p
// (partner): a wrong entry at +p or at -p is named as p. Cost: one pass over the rows at p > 0
// (half the table), two bit comparisons per element.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/numeric/format.hpp"

namespace posenc::laws::failed {

// Where a failing parity stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool parity(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at<parity>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity parity{failed::parity, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <rotary_table V>
constexpr law_result parity(const V& v) noexcept {
  using T = typename V::value_type;
  using U = typename posenc::detail::float_format<T>::storage;
  constexpr U sign = static_cast<U>(U{1} << (8 * sizeof(U) - 1));
  law_result r = make_result("parity: cos(-p) = cos(p), sin(-p) = -sin(p) (bits)", &kind::parity);
  if (!well_shaped(v)) {
    r.require(false, {});
    return r;
  }
  const bool cons = detail::consecutive(v);
  const std::size_t d = v.rotary_dim();
  for (std::size_t row = 0; row < v.rows(); ++row) {
    const std::int64_t p = detail::position_of(v, row);
    if (p <= 0) continue;
    const std::size_t mirror = detail::row_of(v, -p, cons);
    if (mirror == detail::no_row) continue;
    const T *cp = v.cos_row(row), *sp = v.sin_row(row), *cm = v.cos_row(mirror), *sm = v.sin_row(mirror);
    std::uint64_t same = 0;  // counted in bulk, one call per row
    for (std::size_t k = 0; k < d; ++k) {
      const U sb = static_cast<U>(posenc::detail::float_format<T>::to_bits(sp[k]));
      const U mb = static_cast<U>(posenc::detail::float_format<T>::to_bits(sm[k]));
      const bool sin_ok = mb == static_cast<U>(sb ^ sign) || ((sb & ~sign) == 0 && (mb & ~sign) == 0);
      if (sin_ok && detail::same_bits(cp[k], cm[k])) {
        ++same;
        continue;
      }
      r.require(false, {p, static_cast<std::int64_t>(detail::pair_of_element(v.layout(), k, d)),
                        static_cast<std::int64_t>(k), -p});
    }
    if (r.checked == 0 && same > 0) {  // the first case sets the worst index
      r.require(true, {p, 0, 0, -p});
      --same;
    }
    r.pass(same);
  }
  return r;
}

}  // namespace posenc::laws
