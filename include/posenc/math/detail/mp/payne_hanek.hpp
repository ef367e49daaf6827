// payne_hanek.hpp: exact-integer reduction of X = N * 2^e modulo pi/2, for any magnitude.
//
// Payne and Hanek, "Radian reduction for trigonometric functions", SIGNUM Newsletter 18(1), 1983;
// in the integer form of CORE-MATH's binary64 sin (Zimmermann and Hubrecht, src/binary64/sin/sin.c)
// and K. C. Ng, "Argument reduction for huge arguments: good to the last bit" (1992).
//
// X (2/pi) = N sum_i b_i 2^(e-i) with 2/pi = sum_{i>=1} b_i 2^-i. The bits with e - i >= 2 add
// multiples of 4 (N is an integer), which change nothing modulo 4 quadrants, so only a window of
// 2/pi starting near bit e - 1 is multiplied, as exact integers. The result is a fixed-point
// number F in [0, 4) with 64 FW - 2 fraction bits, F = X (2/pi) mod 4.
#pragma once

#include <cstdint>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/constants.hpp"

namespace posenc::detail::mp {

// F (FW limbs, little-endian, value F / 2^(64 FW - 2)) = X (2/pi) mod 4 for X = N 2^e, N of NL
// limbs, with |F - X (2/pi) mod 4| < 2^(3 - 64 FW). Returns false if the 2/pi table is too short
// (never for the inputs of this library: see constants.hpp).
// Error: the window holds W = NL + FW + 1 limbs of 2/pi from limb k0; the bits after it are below
// 2^-(64(k0+W)), so they contribute less than 2^(64 NL + e - 64(k0+W)) = 2^(64 NL - sh) where
// sh = 64(k0+W) - e >= 64(NL+FW) - 1 is the number of fraction bits of the product P = N G:
// below 2^(1 - 64 FW). Dropping P's bits below 2^(2 - 64FW) adds less than 2^(2 - 64 FW).
template <std::size_t FWs, std::size_t NLs>
constexpr bool payne_hanek(const std::uint64_t (&n)[NLs], int e, std::uint64_t (&f)[FWs]) noexcept {
  constexpr int FW = static_cast<int>(FWs), NL = static_cast<int>(NLs);
  constexpr int W = NL + FW + 1;
  const int i0 = e - 1 > 1 ? e - 1 : 1;  // first bit of 2/pi that matters
  const int k0 = (i0 - 1) / 64;
  if (k0 + W > two_over_pi_limbs) return false;
  std::uint64_t p[sz<NL + W>] = {};
  for (int i = 0; i < NL; ++i) {
    std::uint64_t carry = 0;
    for (int j = 0; j < W; ++j) {
      const u128 t = mul_add2(n[i], two_over_pi_table[k0 + W - 1 - j], p[i + j], carry);
      p[i + j] = t.lo;
      carry = t.hi;
    }
    p[i + W] = carry;
  }
  // Bits [s, s + 64 FW) of P, where s = sh - (64 FW - 2) >= 64 NL + 1.
  const int s = 64 * (k0 + W) - e - (64 * FW - 2);
  const int q = s / 64, r = s % 64;
  for (int i = 0; i < FW; ++i) {
    const int k = q + i;
    const std::uint64_t lo = k < NL + W ? p[k] : 0, hi = k + 1 < NL + W ? p[k + 1] : 0;
    f[i] = r == 0 ? lo : (lo >> r) | (hi << (64 - r));
  }
  return true;
}

// F <- -F mod 4 (two's complement over FW limbs): the reduction of -X.
template <std::size_t FW>
constexpr void negate_fixed(std::uint64_t (&f)[FW]) noexcept {
  std::uint64_t c = 1;
  for (std::size_t i = 0; i < FW; ++i) {
    const std::uint64_t v = ~f[i] + c;
    c = (c != 0 && v == 0) ? 1 : 0;
    f[i] = v;
  }
}

// F <- F + G mod 4.
template <std::size_t FW>
constexpr void add_fixed(std::uint64_t (&f)[FW], const std::uint64_t (&g)[FW]) noexcept {
  std::uint64_t c = 0;
  for (std::size_t i = 0; i < FW; ++i) f[i] = add_carry(f[i], g[i], c, c);
}

template <int L>
struct reduced {
  int q;          // quadrant: X = q pi/2 + r (mod 2 pi)
  bigfloat<L> r;  // |r| <= pi/4 (plus the error)
  int err;        // |r - exact r| <= 2^err
};

// From F (error < 2^(ferr) in quarter turns) to q = nearest integer of F (mod 4) and
// r = (F - q) pi/2. Errors: converting F - q to L limbs truncates (< 2 ulp, relative 2^(2-64L));
// pi/2 truncated to L limbs (relative < 2^(1-64L)); the product (relative < 2^(7-64L)). So
// |r - exact| < (pi/2) 2^ferr + |r| 2^(7.5-64L).
template <int L, std::size_t FWs>
constexpr reduced<L> fixed_to_reduced(std::uint64_t (&f)[FWs], int ferr) noexcept {
  constexpr int FW = static_cast<int>(FWs);
  std::uint64_t half[FWs] = {};
  half[FW - 1] = std::uint64_t{1} << 61;  // 1/2 in units of 2^-(64 FW - 2)
  add_fixed(f, half);                     // F + 1/2: its integer part is the quadrant
  const int q = static_cast<int>(f[FW - 1] >> 62);
  f[FW - 1] &= (std::uint64_t{1} << 62) - 1;  // fraction of F + 1/2, in [0, 1)
  const bool neg = (f[FW - 1] >> 61) == 0;    // below 1/2: F - q < 0
  if (neg) {                                  // |F - q| = 1/2 - fraction
    negate_fixed(f);
    add_fixed(f, half);
    f[FW - 1] &= (std::uint64_t{1} << 62) - 1;
  } else {
    f[FW - 1] -= std::uint64_t{1} << 61;
  }
  reduced<L> out{q, from_limbs<L>(f, FW, -(64 * FW - 2), neg), 0};
  out.r = mul(out.r, from_table<L>(pio2_table, 1));
  out.err = max_int(ferr + 1, out.r.top() + 8 - 64 * L) + 1;
  return out;
}

}  // namespace posenc::detail::mp
