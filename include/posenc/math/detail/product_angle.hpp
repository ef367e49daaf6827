// product_angle.hpp: the angle phi = m * theta of a position m and a frequency theta given as a
// double-double, formed with a stated error, for the fast paths of every geometric encoding
// (sincos_product.hpp, sincos_geometric.hpp, the table engine sincos_table_engine.hpp, rope/).
#pragma once

#include <cstdint>

#include "posenc/math/double_double.hpp"
#include "posenc/math/round.hpp"

namespace posenc::detail {

// phi = m * theta as hi + lo with |hi + lo - m (theta.hi + theta.lo)| <= err.
struct product_phase {
  double hi;
  double lo;
  double err;
};

// false when the fast path cannot form phi exactly enough: m >= 2^53 (not a double), theta not
// finite, or |theta.hi| outside [2^-900, 2^900] (TwoProduct needs no underflow and no Veltkamp
// overflow). Error: m theta.hi is exact (Dekker); RN(m theta.lo) errs by <= 2^-53 |m theta.lo| <=
// 2^-106 |phi| and the sum p.lo + m theta.lo by <= 2^-53 * 2^-52 |phi|; so err <= 2^-104 |phi| <
// 2^-103 |hi|.
constexpr bool product_angle(std::uint64_t m, math::double_double theta, product_phase& out) noexcept {
  const double at = theta.hi < 0 ? -theta.hi : theta.hi;
  if (m >= (std::uint64_t{1} << 53) || !(at >= 0x1p-900 && at <= 0x1p900)) return false;
  const double md = static_cast<double>(m);  // exact below 2^53
  const math::double_double p = two_prod(md, theta.hi);
  const math::double_double s = fast_two_sum(p.hi, p.lo + md * theta.lo);  // |p.hi| >= |rest|
  out = {s.hi, s.lo, (s.hi < 0 ? -s.hi : s.hi) * 0x1p-103};
  return true;
}

// RN_T(1) and RN_T(+0): cos and sin of an angle that is exactly 0.
template <class T>
constexpr T one_value() noexcept {
  return round_dd<T>(1.0, 0.0);
}
template <class T>
constexpr T zero_value() noexcept {
  return round_dd<T>(0.0, 0.0);
}

}  // namespace posenc::detail
