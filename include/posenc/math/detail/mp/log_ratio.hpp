// log_ratio.hpp: log(n) / log(base) for integers n >= 1, base >= 2, at 64L bits with a proven error
// bound (the accurate path of math/log_ratio.hpp), and the bigfloat reciprocal it needs.
#pragma once

#include <cstdint>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/exp_log.hpp"

namespace posenc::detail::mp {

// 1/b for b > 0, relative error below 2^(12 - 64L). Method: b scaled to y = b 2^-top in [1/2, 1),
// r0 = 1/y from a double (relative error < 2^-50), then Newton's r <- r + r (1 - y r), which
// squares the relative error each step (e' = e^2) up to the truncations of the step: 1 - y r is
// within (2L + 1) ulp of 1 (the product) plus 2 ulp (the subtraction), r (1 - y r) adds (2L + 1)
// ulp of a value below 2^-40 after the first step, and the sum 2 ulp of r < 2; in all below
// (2L + 6) 2^(2 - 64L) < 2^(10 - 64L) absolute on r in (1, 2], so relative. Steps until 50 2^k
// exceeds 64L + 12: the quadratic term is then below the truncation term. The 2^12 states it with
// margin.
template <int L>
constexpr bigfloat<L> reciprocal(const bigfloat<L>& b) noexcept {
  const int top = b.top();
  const bigfloat<L> y = ldexp(b, -top);  // in [1/2, 1)
  bigfloat<L> r = from_double<L>(1.0 / to_double_approx(y));
  for (int bits = 50; bits < 64 * L + 12; bits *= 2) r = add(r, mul(r, sub(one<L>(), mul(y, r))));
  return ldexp(r, -top);
}

// q = log n * (1 / log base). With x = log n within 2^ex, y = log base within 2^ey (log_approx),
// |log n / log base - x / y| <= (|x| 2^ey / y + 2^ex) / y (1 + 2^-60), and the reciprocal and
// the product add 2^(12 - 64L) + (2L + 1) 2^(1 - 64L) of |q|: below 2^(tq + ey - ty) +
// 2^(ex - ty) + 2^(tq + 13 - 64L), with ty = top(y) - 1 <= log2 y and tq = top(q); stated as the
// largest of the three exponents plus 2. Preconditions: n >= 1, base >= 2, both below 2^53.
template <int L>
constexpr approx<L> log_ratio_approx(std::uint64_t n, std::uint64_t base) noexcept {
  const approx<L> x = log_approx<L>(static_cast<double>(n));
  const approx<L> y = log_approx<L>(static_cast<double>(base));
  const bigfloat<L> q = mul(x.v, reciprocal(y.v));
  const int ty = y.v.top() - 1, tq = q.is_zero() ? -64 * L : q.top();
  const int err = max_int(max_int(tq + y.err - ty, x.err - ty), tq + 13 - 64 * L) + 2;
  return {q, err};
}

}  // namespace posenc::detail::mp
