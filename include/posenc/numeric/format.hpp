// format.hpp: the parameters of every floating-point format the library rounds into.
//
// posenc::float_format<T> for T in {double, float, bfloat16, float16}, and the concept
// posenc::storage_type that names those four. Public because code outside the library needs the
// same facts (a tool writing a table's bytes, a test comparing bits: see also bits.hpp);
// posenc::detail::float_format is an alias kept for the library's internals. The numbers are
// IEEE 754-2008 table 3.5 (binary64, binary32, binary16) and the bfloat16 layout (binary32's
// exponent, 8-bit precision). precision counts the implicit bit; min_exponent is the exponent of
// the smallest normal number, max_exponent that of the largest finite one.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"

namespace posenc::detail {

template <class T>
inline constexpr bool dependent_false = false;

}  // namespace posenc::detail

namespace posenc {

// Only the four specialisations below exist; any other T stops here with a message that names the
// precondition, instead of an "incomplete type" error deep inside a rounding routine.
template <class T>
struct float_format {
  static_assert(detail::dependent_false<T>,
                "posenc: the target type must be double, float, posenc::bfloat16 or posenc::float16");
};

template <>
struct float_format<double> {
  static constexpr int precision = 53;
  static constexpr int min_exponent = -1022;
  static constexpr int max_exponent = 1023;
  using storage = std::uint64_t;
  static constexpr double from_bits(storage b) noexcept { return std::bit_cast<double>(b); }
  static constexpr storage to_bits(double x) noexcept { return std::bit_cast<storage>(x); }
};

template <>
struct float_format<float> {
  static constexpr int precision = 24;
  static constexpr int min_exponent = -126;
  static constexpr int max_exponent = 127;
  using storage = std::uint32_t;
  static constexpr float from_bits(storage b) noexcept { return std::bit_cast<float>(b); }
  static constexpr storage to_bits(float x) noexcept { return std::bit_cast<storage>(x); }
};

template <>
struct float_format<bfloat16> {
  static constexpr int precision = 8;
  static constexpr int min_exponent = -126;
  static constexpr int max_exponent = 127;
  using storage = std::uint16_t;
  static constexpr bfloat16 from_bits(storage b) noexcept { return bfloat16::from_bits(b); }
  static constexpr storage to_bits(bfloat16 x) noexcept { return x.bits; }
};

template <>
struct float_format<float16> {
  static constexpr int precision = 11;
  static constexpr int min_exponent = -14;
  static constexpr int max_exponent = 15;
  using storage = std::uint16_t;
  static constexpr float16 from_bits(storage b) noexcept { return float16::from_bits(b); }
  static constexpr storage to_bits(float16 x) noexcept { return x.bits; }
};

}  // namespace posenc

namespace posenc::detail {

// The name the library's internals use (unqualified inside posenc::detail).
template <class T>
using float_format = posenc::float_format<T>;

}  // namespace posenc::detail

namespace posenc {

// The types posenc rounds into. Usable in requires-clauses: storage_type<int> is false.
template <class T>
concept storage_type =
    std::is_same_v<T, double> || std::is_same_v<T, float> || std::is_same_v<T, bfloat16> || std::is_same_v<T, float16>;

}  // namespace posenc
