// sincos_product.hpp: cos and sin of the exact real m * theta, theta a double-double, correctly
// rounded in double, float, bfloat16 or float16 (docs/internals.md, "angle entry points").
//
//   math::sincos_product<T>(m, theta)   posenc::result<sincos_result<T>>: RN_T(sin), RN_T(cos) of
//                                       the exact real m * (theta.hi + theta.lo)
//
// For a frequency held exactly as a double-double (an inv_freq table read from a model, a
// framework's float32 frequency widened): the product is exact real arithmetic on the given
// numbers. A frequency given by a formula is sincos_geometric.hpp's job (it also bounds the
// frequency's own error). Whole tables: sincos_table.hpp.
// The angle is formed as a double-double (detail/product_angle.hpp, within 2^-103 |m theta|) and
// reduced and evaluated by the fast path of posenc::math::sin/cos (trig.hpp), whose rounding test
// covers the angle's error; when it cannot decide, detail/mp/sincos_product.hpp does (exact
// product, exact Payne-Hanek reduction, Ziv's loop).
// Domain: any m < 2^64 and finite theta.hi, theta.lo; invalid_input otherwise. Never a NaN.
#pragma once

#include <cstdint>

#include "posenc/math/detail/mp/sincos_product.hpp"
#include "posenc/math/detail/product_angle.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/trig.hpp"
#include "posenc/status.hpp"

namespace posenc::math {

template <class T = double>
constexpr posenc::result<sincos_result<T>> sincos_product(std::uint64_t m, double_double theta) noexcept {
  if (detail::trig_special(theta.hi) || detail::trig_special(theta.lo)) return {{}, posenc::status::invalid_input};
  if (m == 0 || (theta.hi == 0 && theta.lo == 0))
    return {{detail::zero_value<T>(), detail::one_value<T>()}, posenc::status::ok};
  detail::product_phase phi{};
  sincos_result<T> r{};
  if (detail::product_angle(m, theta, phi) &&
      detail::trig_fast<T>(phi.hi, phi.lo, phi.err, detail::want_sin | detail::want_cos, r) ==
          (detail::want_sin | detail::want_cos))
    return {r, posenc::status::ok};
  return {detail::mp::sincos_product<T>(m, theta), posenc::status::ok};
}

}  // namespace posenc::math
