// sincos_geometric.hpp: cos and sin of the exact angle m * base^(-num/den), correctly rounded into
// double, float, bfloat16 or float16: the scheme-neutral kernel of every geometric positional
// encoding (RoPE's m theta_j with e = 2j/d, the sinusoidal encoding's p 10000^(-2i/d) and
// fairseq's p 10000^(-i/(d/2-1)), XPOS's rotation).
//
//   math::sincos_geometric<T>(m, base, num, den)   posenc::result<sincos_result<T>>
//
// The frequency is the exact real base^(-num/den) (geometric_frequency.hpp: its double-double is
// within 2^-100 relative), the angle m theta is formed by TwoProduct (detail::product_angle, within
// 2^-103 of the product of the double-double), and the fast path's rounding test covers both
// errors; when it cannot decide, detail/mp/sincos_product.hpp evaluates the exact angle at 256 to
// 1024 bits. Whole tables (a dozen operations an entry): sincos_table.hpp.
// Errors: domain_error when !geometric_frequency_args_valid(base, num, den). Never a NaN.
#pragma once

#include <cstdint>

#include "posenc/math/detail/mp/sincos_product.hpp"
#include "posenc/math/detail/product_angle.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/geometric_frequency.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/trig.hpp"
#include "posenc/status.hpp"

namespace posenc::math {

template <class T = double>
constexpr posenc::result<sincos_result<T>> sincos_geometric(std::uint64_t m, double base, std::int64_t num,
                                                            std::int64_t den) noexcept {
  if (!geometric_frequency_args_valid(base, num, den)) return {{}, posenc::status::domain_error};
  if (m == 0) return {{detail::zero_value<T>(), detail::one_value<T>()}, posenc::status::ok};
  const double_double theta = geometric_frequency(base, num, den);
  detail::product_phase phi{};
  sincos_result<T> r{};
  if (detail::product_angle(m, theta, phi)) {
    const double aphi = phi.hi < 0 ? -phi.hi : phi.hi;
    const double err = phi.err + aphi * (geometric_frequency_max_rel_error * 1.0000001);  // |m t - phi| bound
    if (detail::trig_fast<T>(phi.hi, phi.lo, err, detail::want_sin | detail::want_cos, r) ==
        (detail::want_sin | detail::want_cos))
      return {r, posenc::status::ok};
  }
  return {detail::mp::sincos_geometric<T>(m, base, static_cast<std::uint64_t>(num), static_cast<std::uint32_t>(den)),
          posenc::status::ok};
}

}  // namespace posenc::math
