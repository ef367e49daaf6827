// angle_mp.hpp: the accurate path of posenc::rope::sincos (angle.hpp): cos and sin of the exact
// real m * theta_j, theta_j the exact scaled frequency of any RoPE scaling, optionally times the
// exact attention factor, correctly rounded by Ziv's loop (Ziv, ACM TOMS 17(3), 1991).
//
// At 64 L bits: theta from rope::frequency_mp<L> (absolute error 2^f.err), X = m theta (mul_small:
// the inherited error times m < 2^(64 - clz m), plus < 2 ulp of truncation), X reduced modulo pi/2
// by exact Payne-Hanek on X's limbs (payne_hanek.hpp, error 2^(3 - 64 FW) quarter turns), and
// sin/cos of the reduced argument (mp/trig.hpp sincos_from_reduced). This is
// detail/mp/sincos_product.hpp's geometric_sincos_approx with the frequency formula of
// frequencies.hpp in place of base^(-num/den), through the same Ziv pair loop (mp::ziv_pair).
// Turns (rope/turns.hpp, DINOv3): the angle is 2 pi X; X's fraction is exact in its bits and the
// reduction is mp::reduce_turns (math/detail/mp/turns.hpp) in place of Payne-Hanek.
// Folded attention factor af: the products sin X * af, cos X * af by mp_num<L>::mul, whose bound
// covers both operands' errors and the truncation (num_mp.hpp).
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/payne_hanek.hpp"
#include "posenc/math/detail/mp/sincos_product.hpp"
#include "posenc/math/detail/mp/trig.hpp"
#include "posenc/math/detail/mp/turns.hpp"
#include "posenc/math/detail/mp/ziv.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/status.hpp"

namespace posenc::rope::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// A failed level: an error bound that mp::ziv_pair never rounds.
template <int L>
constexpr mp::sincos_approx<L> failed_sincos() noexcept {
  return {{mp::bigfloat<L>{}, mp::undecided_err}, {mp::bigfloat<L>{}, mp::undecided_err}};
}

// The exact attention factor at 64 L bits (explicit YaRN/LongRoPE value exactly, as frequencies.hpp).
template <int L>
constexpr mp::approx<L> attention_mp(const rope::config& c) noexcept {
  const bool takes_explicit = c.rope_type == rope::scaling::yarn || c.rope_type == rope::scaling::longrope;
  if (takes_explicit && c.attention_factor.has_value()) return eval::mp_num<L>::of(*c.attention_factor);
  return rope::detail::attention_eval<eval::mp_num<L>>(c);
}

// cos/sin(m 2^s theta_j) (times af when fold) at 64 L bits with absolute error bounds. m >= 1,
// validate(c).ok(), j a rotating pair. s = scale_exp scales the position by a power of two (a real
// position m 2^s, real_position.hpp): X and its error bound scale exactly with it. turns: the
// angle is 2 pi X (X counts turns).
template <int L>
constexpr mp::sincos_approx<L> scaled_sincos_approx(const rope::config& c, std::uint64_t m, int j, bool fold,
                                                    int scale_exp = 0, bool turns = false) noexcept {
  const mp::approx<L> th = rope::frequency_mp<L>(c, j);
  if (eval::mp_num<L>::failed(th) || th.v.is_zero() || th.v.neg) return failed_sincos<L>();
  mp::bigfloat<L> x = mp::mul_small(th.v, m);
  x.e += scale_exp;
  const int xerr = mp::max_int(th.err + 64 - std::countl_zero(m), x.top() - scale_exp + 2 - 64 * L) + 1 + scale_exp;
  mp::sincos_approx<L> r{};
  if (turns) {
    r = mp::sincos_from_reduced(mp::reduce_turns(x, xerr));
  } else if (x.top() <= -1) {
    r = mp::sincos_from_reduced(mp::reduced<L>{0, x, xerr});
  } else {
    constexpr int FW = L + 2;
    std::uint64_t f[mp::sz<FW>] = {};
    if (!mp::payne_hanek(x.m, x.e, f)) return failed_sincos<L>();
    mp::reduced<L> red = mp::fixed_to_reduced<L>(f, 3 - 64 * FW);
    red.err = mp::max_int(red.err, xerr) + 1;  // the computed X moves r by at most its own error
    r = mp::sincos_from_reduced(red);
  }
  if (!fold) return r;
  const mp::approx<L> af = attention_mp<L>(c);
  if (eval::mp_num<L>::failed(af)) return failed_sincos<L>();
  return {eval::mp_num<L>::mul(r.sin, af), eval::mp_num<L>::mul(r.cos, af)};
}

// Ziv's pair loop at 4, 8 and 16 limbs (mp::ziv_pair). Unlike the math core's exact
// transcendental values (mp::ziv_pair_or_nearest), a scaled frequency can carry an undecided
// branch (a comparison tied exactly, as frequencies.hpp documents), so this never guesses: an
// undecided value gives status::domain_error.
template <class T>
constexpr posenc::result<math::sincos_result<T>> scaled_sincos_mp(const rope::config& c, std::uint64_t m, int j,
                                                                  bool fold, int scale_exp = 0,
                                                                  bool turns = false) noexcept {
  math::sincos_result<T> out{};
  bool ok_s = false, ok_c = false;
  if (mp::ziv_pair<T>(
          [&c, m, j, fold, scale_exp, turns](auto lv) {
            return scaled_sincos_approx<decltype(lv)::value>(c, m, j, fold, scale_exp, turns);
          },
          out, ok_s, ok_c))
    return {out, posenc::status::ok};
  return {out, posenc::status::domain_error};
}

}  // namespace posenc::rope::detail
