// ziv_fixed.hpp: Ziv's rounding test (ziv.hpp) onto the fixed-point grid 2^-F of q15/q31
// (math/round_fixed.hpp): every real within 2^err of a bigfloat v rounds (RN_even) to the same
// integer k = RN(x 2^F), or the test says it cannot tell. The accurate path of the fixed-point
// tables when their fast value sits exactly on a grid midpoint.
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/detail/mp/bigfloat.hpp"
#include "posenc/math/detail/mp/ziv.hpp"
#include "posenc/math/round_dyadic.hpp"

namespace posenc::detail::mp {

// RN_even(v 2^F) of a dyadic v (round_dyadic.hpp's representation: (-1)^neg (M + s) 2^exponent,
// M = hi 2^64 + lo, s a sticky fraction that only breaks ties), clamped to +-2^62.
constexpr std::int64_t grid_round_dyadic(const dyadic& v, int fraction_bits) noexcept {
  constexpr std::uint64_t big = std::uint64_t{1} << 62;
  const int len = v.hi != 0 ? 128 - std::countl_zero(v.hi) : 64 - std::countl_zero(v.lo);
  const long long n = -(static_cast<long long>(v.exponent) + fraction_bits);  // bits below the grid
  std::uint64_t kept = 0;
  if (len == 0) {
    kept = 0;  // (M + s) < 1 with M = 0 never reaches half a grid step when n >= 1; n <= 0: s < 1 step
  } else if (n <= 0) {
    kept = len - n > 62 ? big : v.lo << (-n);  // exact integer (len <= 62 + n means hi == 0)
  } else if (n > 128) {
    kept = 0;  // (M + s) 2^-n < 2^(128 - n) <= 1/2, never equal to it
  } else {
    const int sh = static_cast<int>(n);  // 1 <= sh <= 128
    if (sh < 64 && (v.hi >> sh) != 0) {
      kept = big;
    } else {
      kept = sh >= 64 ? (sh == 128 ? 0 : v.hi >> (sh - 64)) : (v.lo >> sh) | (v.hi << (64 - sh));
      if (kept >= big) kept = big;
      const int b = sh - 1;  // the round bit
      const bool round = ((b >= 64 ? v.hi >> (b - 64) : v.lo >> b) & 1u) != 0;
      const bool rest = v.sticky || (b >= 64 ? (v.lo != 0 || (v.hi & ((std::uint64_t{1} << (b - 64)) - 1)) != 0)
                                             : (v.lo & ((std::uint64_t{1} << b) - 1)) != 0);
      if (kept < big && round && (rest || (kept & 1u) != 0)) ++kept;
    }
  }
  const auto k = static_cast<std::int64_t>(kept);
  return v.negative ? -k : k;
}

// true iff every real within 2^err of v rounds to the same grid integer; then out is it. As
// round_checked (ziv.hpp) with the grid in place of a format; v == 0 decides 0 when the whole
// enclosure is within half a step.
template <int L>
constexpr bool grid_round_checked(const bigfloat<L>& v, int err, int fraction_bits, std::int64_t& out) noexcept {
  if (v.is_zero()) {
    out = 0;
    return err < -fraction_bits - 1;
  }
  const int t = max_int(err - v.e, 0);
  if (t > 64 * L - 4) return false;
  std::uint64_t lo[sz<L + 1>] = {}, hi[sz<L + 1>] = {};
  std::uint64_t cl = 0, ch = 0;
  for (int i = 0; i <= L; ++i) {
    const std::uint64_t mi = i < L ? v.m[i] : 0;
    const std::uint64_t bit = (i == t / 64) ? std::uint64_t{1} << (t % 64) : 0;
    lo[i] = sub_borrow(mi, bit, cl, cl);
    hi[i] = add_carry(mi, bit, ch, ch);
  }
  const std::int64_t a = grid_round_dyadic(limbs_to_dyadic(lo, L + 1, v.e, v.neg), fraction_bits);
  const std::int64_t b = grid_round_dyadic(limbs_to_dyadic(hi, L + 1, v.e, v.neg), fraction_bits);
  out = a;
  return a == b;
}

}  // namespace posenc::detail::mp
