// detail/values.hpp: what the laws need of a table entry: its exact value as a double, its bits,
// and the distance in units in the last place between two values of one format. For q15/q31
// (numeric/fixed_point.hpp) the unit in the last place is the grid step 2^-F: the distance is the
// difference of the raw integers.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "posenc/numeric/fixed_point.hpp"
#include "posenc/numeric/format.hpp"

namespace posenc::laws::detail {

template <class T>
constexpr double to_double(T x) noexcept {  // exact for every storage type
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>)
    return static_cast<double>(x);
  else if constexpr (posenc::fixed_point_type<T>)
    return x.to_double();
  else
    return static_cast<double>(x.to_float());
}

template <class T>
constexpr std::uint64_t bits(T x) noexcept {
  if constexpr (posenc::fixed_point_type<T>)  // the raw integer's two's complement bits
    return static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<decltype(x.bits)>>(x.bits));
  else
    return static_cast<std::uint64_t>(posenc::detail::float_format<T>::to_bits(x));
}

// Same bits (so -0 != +0, and a NaN equals only its own bits). Written out per type: the laws'
// hot loops call it for every element, and in constant evaluation each nested call costs.
template <class T>
constexpr bool same_bits(T a, T b) noexcept {
  if constexpr (std::is_same_v<T, double>)
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
  else if constexpr (std::is_same_v<T, float>)
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
  else
    return a.bits == b.bits;
}

// The distance of two floating-point values (ulp_distance below).
template <class T>
constexpr std::uint64_t float_ulp_distance(T a, T b) noexcept {
  constexpr int width = 8 * sizeof(typename posenc::detail::float_format<T>::storage);
  constexpr std::uint64_t sign = std::uint64_t{1} << (width - 1);
  const std::uint64_t x = bits(a), y = bits(b);
  const double da = to_double(a), db = to_double(b);
  if (da != da || db != db) return ~std::uint64_t{0};
  // On the ordered line of values, -0 and +0 are neighbours: same signs are a difference of
  // magnitudes, opposite signs the sum of both plus the step from -0 to +0.
  const std::uint64_t mx = x & ~sign, my = y & ~sign;
  if ((x & sign) == (y & sign)) return mx > my ? mx - my : my - mx;
  return mx + my + 1;
}

// The number of representable values of T from a to b (0 when the bits are equal; -0 and +0 are 1
// apart); ~0 (the largest value) when either is a NaN. Sign-magnitude bits map to a line of
// integers, on which the distance is a difference.
template <class T>
constexpr std::uint64_t ulp_distance(T a, T b) noexcept {
  if constexpr (posenc::fixed_point_type<T>) {  // grid steps: the raw integers' difference (no NaNs)
    const std::int64_t x = a.bits, y = b.bits;
    return static_cast<std::uint64_t>(x > y ? x - y : y - x);
  } else {
    return float_ulp_distance(a, b);
  }
}

}  // namespace posenc::laws::detail
