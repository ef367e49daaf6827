// sample_count.hpp: how many random cases the oracle tests draw. The GCC and Clang presets draw the
// full count; the sanitizer preset (CMakePresets.json "asan") defines POSENC_TEST_SAMPLE_DIVISOR,
// and draws a tenth (test_rope_table also checks a quarter of its rows there): its job is to run every code path under AddressSanitizer and
// UndefinedBehaviorSanitizer, not to measure again the accuracy the other presets measured on the
// full count (and MPFR under the sanitizer's allocator made these tests a quarter of the suite's
// time).
#pragma once

#ifndef POSENC_TEST_SAMPLE_DIVISOR
#define POSENC_TEST_SAMPLE_DIVISOR 1
#endif

namespace posenc_test {

inline constexpr int sample_divisor = POSENC_TEST_SAMPLE_DIVISOR;
static_assert(sample_divisor >= 1, "POSENC_TEST_SAMPLE_DIVISOR must be at least 1");

// n random cases, divided down in the sanitizer build (at least one).
constexpr int samples(int n) noexcept { return n / sample_divisor > 0 ? n / sample_divisor : 1; }

}  // namespace posenc_test
