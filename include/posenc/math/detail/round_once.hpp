// round_once.hpp: the one ending of every correctly rounded scalar function in posenc. A real is
// first known fast, as a double-double hi + lo within an absolute bound err; Ziv's test
// (ziv_round, math/round.hpp) rounds it when the whole enclosure lies in one cell of T. Otherwise
// Ziv's loop (mp/ziv.hpp) evaluates it again at 256, 512 and 1024 bits. The schemes (ALiBi,
// KERPLE, Sandwich) and math's own functions call this instead of writing the two steps each.
//
// rounded_result gives a rounded value its status: overflow when it rounded to an infinity (the
// reals posenc rounds are finite, so an infinity only comes from rounding past T's range).
#pragma once

#include "posenc/math/detail/mp/ziv.hpp"
#include "posenc/math/round.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/status.hpp"

namespace posenc::detail {

// A real known as hi + lo within err (absolute, err >= 0); err < 0: no fast value (the caller's
// fast formula does not apply), go straight to the accurate path.
struct fast_value {
  double hi = 0.0, lo = 0.0, err = -1.0;
};

// RN_T of the real that fast approximates and accurate(mp::level<L>{}) encloses (an mp::approx<L>).
template <class T, class Accurate>
constexpr T round_once(const fast_value& fast, Accurate accurate) noexcept {
  T out{};
  if (fast.err >= 0 && ziv_round<T>(fast.hi, fast.lo, fast.err, out)) return out;
  return mp::ziv_loop<T>(accurate);
}

// v with status overflow when it is infinite (exponent field all ones), else ok.
template <class T>
constexpr posenc::result<T> rounded_result(T v) noexcept {
  using F = float_format<T>;
  const auto all_ones = F::to_bits(mp::special_value<T>(false, false));
  return {v, (F::to_bits(v) & all_ones) == all_ones ? posenc::status::overflow : posenc::status::ok};
}

}  // namespace posenc::detail
