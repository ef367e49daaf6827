// logn.cpp: log-n attention scaling, proved by compiling (static_assert walls).
//  1. exact known values: log_512(n) = log2(n) / 9 is rational at powers of two: log_512(512) = 1,
//     log_512(2048) = 11/9, log_512(32768) = 5/3 (the published 1.222 and 1.667, pe-formulas.md
//     section 6), whose correct rounding is IEEE division; log_512(1) = 0 (+0);
//  2. Qwen's variant (at_least_one) is 1 up to its base and log_base(n) past it;
//  3. the factor increases with n (log is increasing and rounding monotone), in double and float.
#include <cstdint>

#include <posenc/logn.hpp>

namespace {

namespace logn = posenc::logn;

constexpr logn::config su{};
constexpr logn::config qwen{.base = 2048, .at_least_one = true};

// 1.
static_assert(logn::factor<double>(su, 512).value == 1.0 && logn::factor<double>(su, 1).value == 0.0);
static_assert(logn::factor<double>(su, 2048).value == 11.0 / 9.0, "log_512(2048) = 11/9");
static_assert(logn::factor<double>(su, 32768).value == 5.0 / 3.0, "log_512(32768) = 5/3");
static_assert(logn::factor<float>(su, 32768).value == 5.0f / 3.0f, "the same rounded into float");

// 2.
static_assert(logn::factor<double>(qwen, 100).value == 1.0 && logn::factor<double>(qwen, 2048).value == 1.0);
static_assert(logn::factor<double>(qwen, 4096).value == 12.0 / 11.0, "log_2048(4096) = 12/11");

// 3.
template <class T>
constexpr bool increasing(std::int64_t from, std::int64_t to) {
  for (std::int64_t n = from; n < to; ++n)
    if (!(logn::factor<T>(su, n).value <= logn::factor<T>(su, n + 1).value)) return false;
  return true;
}
static_assert(increasing<double>(1, 10), "non-decreasing in n, double");
static_assert(increasing<float>(2046, 2050), "non-decreasing in n, float");

}  // namespace
