// sample_count.hpp: how many random cases the oracle tests draw. The GCC preset draws the full
// count. The Clang preset (CMakePresets.json "clang") defines POSENC_TEST_SAMPLE_DIVISOR=2 and draws
// half: its job is the same code compiled by the other compiler, which half a million random
// arguments per function family and every directed case cover, not to measure again the accuracy
// the GCC preset measured on the full count. The sanitizer preset ("asan") draws a tenth (and
// test_rope_table checks a quarter of its rows there): its job is to run every code path under
// AddressSanitizer and UndefinedBehaviorSanitizer (and MPFR under the sanitizer's allocator made
// these tests a quarter of the suite's time).
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
