// dyadic_frequency.hpp: the RoPE frequencies that are exact dyadics, theta_j = 2^-t, known without
// evaluating them, and what follows for angles so small that no enclosure of theta_j decides them.
//
// The default scaling's theta_j = base^(-2j/d) is 1 at j = 0, and 2^(-2jk/d) for base = 2^k when d
// divides 2jk (else irrational, or a rational that is not a dyadic: math/geometric_frequency.hpp).
// Such a frequency makes the angle x theta_j an exact dyadic, and two entries then need more than
// the double-double and multiprecision enclosures give:
// - in turns (rope/turns.hpp), the exact quarter turns;
// - in radians, an angle a below 2^-600 that is a midpoint of the target type (a double table at a
//   subnormal angle: x = 2^-1074, theta = 1/2 gives a = 2^-1075, half the least subnormal).
//   sin a = a - delta with 0 < delta < a^3 / 6, so sin a sits within 2^-2150 a of the midpoint,
//   and the multiprecision loop (up to 1024 bits) gave up with domain_error. No enclosure is
//   needed: with a = m 2^E, m < 2^64 and a < 2^-600, delta < a^3 / 6 < 2^(E - 64), an interval
//   below a that holds no value and no midpoint of the type. So RN(sin a) is RN(a - eps) for any
//   0 < eps < 2^(E - 64): a itself where a is a value of the type, the neighbour toward zero where
//   a is a midpoint, RN(a) otherwise. And 0 < 1 - cos a < a^2 / 2 < 2^-1200 gives RN(cos a) = 1.
//   docs/rope-streams.md section 2 has the argument.
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/geometric_frequency.hpp"
#include "posenc/math/round_dyadic.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/frequencies.hpp"

namespace posenc::rope::detail {

// t when theta_j = 2^-t exactly (the default scaling: j = 0, or base = 2^k with d dividing 2jk),
// else false. Other scalings: false (their dyadic frequencies, e.g. linear by a power of two, are
// not detected).
constexpr bool dyadic_frequency_exponent(const rope::config& c, int j, int& t) noexcept {
  if (c.rope_type != rope::scaling::default_) return false;
  if (j == 0) {
    t = 0;
    return true;
  }
  const std::int64_t k = posenc::detail::power_of_two_exponent(c.rope_theta), d = rope::rotary_dim(c);
  if (k == 0 || d <= 0 || (2 * j * k) % d != 0 || 2 * j * k / d > 1000) return false;
  t = static_cast<int>(2 * j * k / d);
  return true;
}

// theta_j as a double when it is a dyadic (dyadic_frequency_exponent).
constexpr bool exact_dyadic_frequency(const rope::config& c, int j, double& theta) noexcept {
  int t = 0;
  if (!dyadic_frequency_exponent(c, j, t)) return false;
  theta = posenc::detail::pow2(-t);
  return true;
}

// {RN_T(sin a), RN_T(cos a)} for a = m 2^e theta_j > 0 (m >= 1), when theta_j is a dyadic and
// a < 2^-600 (the header comment); false otherwise (the caller's enclosures then decide).
template <class T>
constexpr bool tiny_dyadic_sincos(const rope::config& c, std::uint64_t m, int e, int j,
                                  math::sincos_result<T>& out) noexcept {
  int t = 0;
  if (m == 0 || !dyadic_frequency_exponent(c, j, t)) return false;
  const int E = e - t;  // a = m 2^E
  if (64 - std::countl_zero(m) + E > -600) return false;
  // a - eps, eps in (0, 2^(E - 64)): the mantissa m 2^64 - 1 at 2^(E - 64), with a sticky
  // fraction; its 65 bits or more reach below the result's last bit, as round_dyadic needs.
  out.sin = posenc::detail::round_dyadic<T>({false, E - 64, m - 1, ~std::uint64_t{0}, true});
  out.cos = posenc::detail::round_dyadic<T>({false, 0, 0, 1, false});
  return true;
}

}  // namespace posenc::rope::detail
