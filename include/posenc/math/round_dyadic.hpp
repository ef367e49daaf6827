// round_dyadic.hpp: correct rounding (to nearest, ties to even) of an exact binary number
// (-1)^s * m * 2^e, m up to 128 bits, into double, float, bfloat16 or float16, and the bit-level
// encoder that round.hpp shares.
//
// Integer arithmetic on bit patterns only, so compile time and run time give the same bits and
// subnormal results are exact. Sources: IEEE 754-2008 4.3.1 (roundTiesToEven), 7.4 (overflow gives
// infinity in round-to-nearest), 3.4 (binary interchange encoding).
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/numeric/format.hpp"

namespace posenc::detail {

// value = (-1)^negative * (mantissa + s) * 2^exponent, mantissa = hi * 2^64 + lo,
// where s = 0 if !sticky and 0 < s < 1 if sticky. mantissa == 0 && !sticky means a signed zero.
// Precondition when sticky: the mantissa reaches at least two bits below the last bit of the
// result (so s only breaks ties); otherwise s is treated as infinitesimal.
struct dyadic {
  bool negative;
  int exponent;
  std::uint64_t hi;
  std::uint64_t lo;
  bool sticky;
};

// Derived constants of a format. q is an ulp exponent: a value of T is kept * 2^q with
// kept < 2^precision, q >= qmin.
template <class T>
struct round_consts {
  using F = float_format<T>;
  static constexpr int P = F::precision;
  static constexpr int qmin = F::min_exponent - F::precision + 1;  // exponent of min subnormal
  static constexpr int qmax = F::max_exponent - F::precision + 1;  // ulp exponent of max
  static constexpr std::uint64_t inf_bits =                        // field all ones, fraction 0
      static_cast<std::uint64_t>(F::max_exponent - F::min_exponent + 2) << (F::precision - 1);
  static constexpr std::uint64_t sign_bit = std::uint64_t{1} << (sizeof(typename F::storage) * 8 - 1);
};

inline constexpr std::uint64_t round_dbl_sign = 0x8000000000000000u;
inline constexpr std::uint64_t round_dbl_frac = 0x000FFFFFFFFFFFFFu;

// 2^k as a double, exactly, for -1074 <= k <= 1023 (no arithmetic, so no constexpr overflow).
constexpr double pow2(int k) noexcept {
  return k >= -1022 ? std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52)
                    : std::bit_cast<double>(std::uint64_t{1} << (k + 1074));
}

// The T with value (-1)^neg * kept * 2^q, for q >= qmin and kept <= 2^P (a carry out of the
// fraction moves into the exponent field by itself: the encoding is monotone). Field arithmetic:
// for a normal value the biased field is E - emin + 1 = (q - qmin) + [kept >= 2^(P-1)].
template <class T>
constexpr T round_encode(bool neg, int q, std::uint64_t kept) noexcept {
  using C = round_consts<T>;
  std::uint64_t b = (static_cast<std::uint64_t>(q - C::qmin) << (C::P - 1)) + kept;
  if (kept == 0) b = 0;
  if (b > C::inf_bits) b = C::inf_bits;  // overflow: round to nearest gives infinity
  if (neg) b |= C::sign_bit;
  return float_format<T>::from_bits(static_cast<typename float_format<T>::storage>(b));
}

template <class T>
constexpr T round_dyadic(const dyadic& v) noexcept {
  using C = round_consts<T>;
  const int len = v.hi != 0 ? 128 - std::countl_zero(v.hi) : 64 - std::countl_zero(v.lo);
  if (len == 0) return round_encode<T>(v.negative, C::qmin, 0);
  const long long top = static_cast<long long>(v.exponent) + len - 1;  // exponent of the leading bit
  if (top > float_format<T>::max_exponent) return round_encode<T>(v.negative, C::qmax + 1, std::uint64_t{1} << C::P);
  const int q = top < float_format<T>::min_exponent ? C::qmin : static_cast<int>(top) - C::P + 1;
  const long long sh = static_cast<long long>(q) - v.exponent;        // bits to drop
  if (sh <= 0) return round_encode<T>(v.negative, q, v.lo << (-sh));  // exact: len - sh <= P
  if (sh > len) return round_encode<T>(v.negative, q, 0);             // below half an ulp of zero
  const int n = static_cast<int>(sh);                                 // 1 <= n <= len <= 128
  std::uint64_t kept = n >= 64 ? (n == 128 ? 0 : v.hi >> (n - 64)) : (v.lo >> n) | (v.hi << (64 - n));
  const int b = n - 1;  // the round bit
  const bool round = ((b >= 64 ? v.hi >> (b - 64) : v.lo >> b) & 1u) != 0;
  const bool rest = v.sticky || (b >= 64 ? (v.lo != 0 || (v.hi & ((std::uint64_t{1} << (b - 64)) - 1)) != 0)
                                         : (v.lo & ((std::uint64_t{1} << b) - 1)) != 0);
  if (round && (rest || (kept & 1u) != 0)) ++kept;
  return round_encode<T>(v.negative, q, kept);
}

}  // namespace posenc::detail
