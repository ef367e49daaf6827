// evaluate.hpp: rounding a formula of formulas.hpp once into T, by Ziv's strategy (Ziv, ACM TOMS
// 17(3), 1991): the double-double evaluation with its bound and detail::ziv_round<T>; when that
// cannot decide (or a branch was undecided), the bigfloat evaluation at 4, 8 and 16 limbs with
// mp::round_checked<T>.
#pragma once

#include "posenc/math/detail/eval/num_dd.hpp"
#include "posenc/math/detail/eval/num_mp.hpp"
#include "posenc/math/detail/mp/ziv.hpp"
#include "posenc/math/detail/round_once.hpp"
#include "posenc/math/round.hpp"
#include "posenc/math/round_dyadic.hpp"
#include "posenc/status.hpp"

namespace posenc::detail::eval {

template <class T, int L, class F>
constexpr bool round_level(F f, T& out) noexcept {
  const auto a = f(mp_num<L>{});
  return !mp_num<L>::failed(a) && mp::round_checked<T>(a.v, a.err, out);
}

// f(P{}) returns P::value; RN_T of the exact value it approximates. domain_error if no level
// decides (an exact midpoint of T, or a branch tied exactly; neither occurs for valid configs
// except as documented in frequencies.hpp).
template <class T, class F>
constexpr posenc::result<T> round_formula(F f) noexcept {
  T out{};
  const dd_val a = f(dd_num{});
  if (!dd_num::failed(a)) {
    if (a.err == exact_err) return rounded_result(round_dd<T>(a.v.hi, a.v.lo));
    if (a.v.hi != 0 && ziv_round<T>(a.v.hi, a.v.lo, pow2(imax(a.err, -1074)), out)) return rounded_result(out);
  }
  if (round_level<T, 4>(f, out) || round_level<T, 8>(f, out) || round_level<T, 16>(f, out)) return rounded_result(out);
  return {T{}, posenc::status::domain_error};
}

}  // namespace posenc::detail::eval
