// kerple.cpp: KERPLE's biases, proved by compiling (static_assert walls).
//  1. exact known values: both biases are +0 at distance 0; KERPLE-power -a k^p is exact where
//     k^p is rational (kerple/bias.hpp: k = t^(2^q) for p = P 2^-q): p = 1 gives -a k, p = 1/2 at
//     k = 9 gives -3a, p = 2 gives -a k^2; KERPLE-log at p = a = k = 1 is -log 2, MPFR's value at
//     256 bits rounded once (hex literal);
//  2. both biases are non-increasing in the distance (1 + a k and k^p increase with k, p, a > 0,
//     and rounding is monotone), in double and float.
#include <cstdint>

#include <posenc/kerple.hpp>

namespace {

namespace kp = posenc::kerple;

// 1.
static_assert(kp::log_bias<double>(1.5, 0.25, 0).value == 0.0 && kp::power_bias<float>(0.5, 1.5, 0).value == 0.0f);
static_assert(kp::power_bias<double>(0.5, 1.0, 3).value == -1.5, "-a k, p = 1");
static_assert(kp::power_bias<double>(0.5, 0.5, 9).value == -1.5, "-a sqrt(9)");
static_assert(kp::power_bias<double>(0.25, 2.0, 10).value == -25.0, "-a k^2");
static_assert(kp::log_bias<double>(1.0, 1.0, 1).value == -0x1.62e42fefa39efp-1, "-log 2 (MPFR)");

// 2.
template <class T>
constexpr bool non_increasing() {
  for (std::uint64_t k = 0; k < 10; ++k)
    if (!(kp::log_bias<T>(1.5, 0.25, k + 1).value <= kp::log_bias<T>(1.5, 0.25, k).value) ||
        !(kp::power_bias<T>(0.75, 0.3, k + 1).value <= kp::power_bias<T>(0.75, 0.3, k).value))
      return false;
  return true;
}
static_assert(non_increasing<double>() && non_increasing<float>(), "non-increasing in the distance");

}  // namespace
