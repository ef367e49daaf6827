// turns.hpp: reduction of an angle counted in turns, 2 pi X, at 64 L bits: the accurate path of
// math/detail/turn_angle.hpp (rope/detail/angle_mp.hpp's turns variant). Scheme-neutral.
//
// X mod 1 needs no constant and no rounding: its fraction bits are bits of X. In quarter turns,
// F = 4 X mod 4 is X's bits of weight 2^-1 ... 2^-(64 FW) as a fixed-point number with 2 integer
// bits (payne_hanek.hpp's format), and fixed_to_reduced turns F into q and r = (F - q) pi/2.
#pragma once

#include <cstdint>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/constants.hpp"
#include "posenc/math/detail/mp/payne_hanek.hpp"

namespace posenc::detail::mp {

// 2 pi X = q pi/2 + r (mod 2 pi), |r| <= pi/4, for X with |X - exact| <= 2^xerr (turns).
// |X| < 1/8: r = X * 2 pi directly (2 pi = pi/2 * 4 from pio2_table, truncated: relative
// < 2^(1-64L); mul: < 2^(7-64L)), so |r - 2 pi exact| < 2 pi 2^xerr + |r| 2^(7.1-64L).
// Else |X| >= 1/8, X.e >= -2 - 64 L, and the shift X.e + 64 FW >= 126 (FW = L + 2): F holds every
// fraction bit of X exactly (the bits dropped off the top are integers: whole turns). A negative X
// gives -F mod 4. F's error is X's, 2^(xerr + 2) quarter turns; fixed_to_reduced adds the rest.
template <int L>
constexpr reduced<L> reduce_turns(const bigfloat<L>& x, int xerr) noexcept {
  if (x.is_zero() || x.top() <= -3) {
    const bigfloat<L> r = mul(x, from_table<L>(pio2_table, 3));
    return {0, r, max_int(xerr + 3, r.top() + 8 - 64 * L) + 1};
  }
  constexpr int FW = L + 2;
  std::uint64_t f[sz<FW>] = {};
  const int sh = x.e + 64 * FW;
  if (sh < 64 * FW) {  // else X is an integer: F = 0
    const int q = sh / 64, b = sh % 64;
    for (int i = 0; i < FW; ++i) {
      const int k = i - q;  // limb k of X lands in limb i (its low part) and i + 1 (high part)
      const std::uint64_t lo = k >= 0 && k < L ? x.m[k] : 0, below = k - 1 >= 0 && k - 1 < L ? x.m[k - 1] : 0;
      f[i] = b == 0 ? lo : (lo << b) | (below >> (64 - b));
    }
  }
  if (x.neg) negate_fixed(f);
  return fixed_to_reduced<L>(f, xerr + 2);
}

}  // namespace posenc::detail::mp
