// sample_count.hpp: how many random cases the oracle tests draw, and from which stream.
//
// The GCC and Clang presets each draw half of the count (POSENC_TEST_SAMPLE_DIVISOR=2), from
// different seeds (POSENC_TEST_SAMPLE_STREAM 0 and 1): the two compilers' runs together measure
// the accuracy on the full count of independent random cases, and each half checks its compiler's
// code on a few hundred thousand arguments per function family plus every directed case (the
// GCC preset drew the full count alone, and Clang the first half of the same cases, until the
// suite needed the time: these tests were 83 s of the GCC preset's test CPU time). The sanitizer
// preset ("asan") draws a tenth (and test_rope_table checks a quarter of its rows there): its job
// is to run every code path under AddressSanitizer and UndefinedBehaviorSanitizer (MPFR under the
// sanitizer's allocator made these tests a quarter of the suite's time).
// A failing case is replayed with the seed the test prints (and POSENC_SEED) in the same preset.
#pragma once

#include <cstdint>

#ifndef POSENC_TEST_SAMPLE_DIVISOR
#define POSENC_TEST_SAMPLE_DIVISOR 1
#endif
#ifndef POSENC_TEST_SAMPLE_STREAM
#define POSENC_TEST_SAMPLE_STREAM 0
#endif

namespace posenc_test {

inline constexpr int sample_divisor = POSENC_TEST_SAMPLE_DIVISOR;
static_assert(sample_divisor >= 1, "POSENC_TEST_SAMPLE_DIVISOR must be at least 1");
inline constexpr int sample_stream = POSENC_TEST_SAMPLE_STREAM;
static_assert(sample_stream >= 0 && sample_stream < sample_divisor,
              "POSENC_TEST_SAMPLE_STREAM must name one of the POSENC_TEST_SAMPLE_DIVISOR shares");

// n random cases, divided down in the sanitizer build (at least one).
constexpr int samples(int n) noexcept { return n / sample_divisor > 0 ? n / sample_divisor : 1; }

// The seed of this build's stream: stream 0 keeps it; another stream moves it by a multiple of the
// golden-ratio increment of SplitMix64 (and std::mt19937_64 seeds apart), so its cases are drawn
// independently of stream 0's.
constexpr std::uint64_t stream_seed(std::uint64_t seed) noexcept {
  return seed + static_cast<std::uint64_t>(sample_stream) * 0x9E3779B97F4A7C15ull;
}

}  // namespace posenc_test
