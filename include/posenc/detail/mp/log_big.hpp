// log_big.hpp: log(x) for a bigfloat x > 0 (exp_log.hpp's log_approx takes a double), at 64L bits
// with the same proven error bound: for logs of exact values wider than a double, such as
// KERPLE's 1 + a k (a a double, k an integer).
#pragma once

#include <cstdint>

#include "posenc/detail/mp/bigfloat.hpp"
#include "posenc/detail/mp/constants.hpp"
#include "posenc/detail/mp/exp_log.hpp"

namespace posenc::detail::mp {

// x = y 2^E with y in [sqrt(1/2), sqrt(2)) exact (a power-of-two scaling). Then log_approx's steps
// and its error analysis unchanged (exp_log.hpp): y0 = log(y) from a double (the truncation of y to
// 53 bits only moves the starting point: t = w y - 1 stays below 2^-40, where log1p_small holds),
// w = exp(-y0), t = w y - 1, log y = y0 + log1p(t), plus E ln2.
template <int L>
constexpr approx<L> log_approx_big(const bigfloat<L>& x) noexcept {
  int big_e = x.top();
  bigfloat<L> y = ldexp(x, -big_e);                            // in [1/2, 1)
  if (y.m[L - 1] < 0xB504F333F9DE6484u) y = ldexp(y, 1), --big_e;  // below sqrt(1/2) 2^64: double it
  const double y0 = log_double_approx(to_double_approx(y));
  const approx<L> w = exp_approx<L>(from_double<L>(-y0), exact_err);
  const bigfloat<L> t = sub(mul(w.v, y), one<L>());
  bigfloat<L> ly = add(from_double<L>(y0), log1p_small(t));
  int err = max_int(w.err + 1, 8 - 64 * L) + 2;
  if (big_e != 0) {
    const bigfloat<L> el = mul_small(from_table<L>(ln2_table, 0), static_cast<std::uint64_t>(big_e < 0 ? -big_e : big_e));
    ly = add(big_e < 0 ? negate(el) : el, ly);
    err = max_int(err, 13 - 64 * L) + 1;
  }
  return {ly, err};
}

}  // namespace posenc::detail::mp
