// sandwich.cpp: Sandwich's relative bias, proved by compiling (static_assert walls).
//  1. exact known values: the bias is exactly 0 (+0) at distance 0; with d = 2, H = 1 it is
//     (cos(k / 10000) - 1) / 8, whose values at k = 1 and 100 below are MPFR's at 256 bits, rounded
//     once (hex literals);
//  2. the bias is even in the distance, bit for bit (cos is even; sandwich/bias.hpp), and never
//     positive (a sum of d/2 cosines is at most d/2), in double and float.
#include <cstdint>

#include <posenc/sandwich.hpp>

namespace {

namespace sw = posenc::sandwich;

constexpr sw::config tiny{.dim = 2, .heads = 1};
constexpr sw::config c{.dim = 16, .heads = 4};

// 1.
static_assert(sw::bias<double>(c, 2, 0).value == 0.0);
static_assert(sw::bias<double>(tiny, 0, 1).value == -0x1.5798ee1e3afb3p-31, "(cos(1e-4) - 1) / 8 (MPFR)");
static_assert(sw::bias<double>(tiny, 0, 100).value == -0x1.a36d49a1577bp-18, "(cos(1e-2) - 1) / 8 (MPFR)");

// 2.
template <class T>
constexpr bool even_and_non_positive(int h) {
  for (std::int64_t k = 1; k < 12; ++k) {
    const T a = sw::bias<T>(c, h, k).value, b = sw::bias<T>(c, h, -k).value;
    if (a != b || !(a <= 0)) return false;
  }
  return true;
}
static_assert(even_and_non_positive<double>(0) && even_and_non_positive<float>(3), "even in k, at most 0");

}  // namespace
