// bits.hpp: the storage bits of a value of the four types posenc rounds into, and bit equality.
//
//   posenc::to_bits(x)       float_format<T>::storage (uint64_t, uint32_t, uint16_t, uint16_t) of x
//   posenc::same_bits(a, b)  to_bits(a) == to_bits(b): -0 differs from +0, a NaN equals a NaN with
//                            the same payload. The comparison for "correctly rounded, bit for bit".
// for T = double, float, posenc::bfloat16, posenc::float16 (posenc::storage_type); constexpr.
//
// They are function objects, not function templates, on purpose: argument-dependent lookup never
// finds an object, so an unqualified same_bits(a, b) on bfloat16 values inside a namespace that
// has a same_bits of its own (the library's internals, or a user's) keeps meaning that one, instead
// of becoming ambiguous because bfloat16 lives in namespace posenc.
#pragma once

#include "posenc/numeric/format.hpp"

namespace posenc {

struct to_bits_fn {
  template <storage_type T>
  constexpr typename float_format<T>::storage operator()(T x) const noexcept {
    return float_format<T>::to_bits(x);
  }
};
inline constexpr to_bits_fn to_bits{};

struct same_bits_fn {
  template <storage_type T>
  constexpr bool operator()(T a, T b) const noexcept {
    return float_format<T>::to_bits(a) == float_format<T>::to_bits(b);
  }
};
inline constexpr same_bits_fn same_bits{};

}  // namespace posenc
