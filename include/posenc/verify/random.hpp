// random.hpp: reproducible random test arguments: the tests' seed (POSENC_SEED), one seed per
// named test, and rng (SplitMix64) with the argument distributions the oracle tests draw from.
// Standard library only (no MPFR); catch2.hpp makes Catch2 generators of these seeds.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace posenc::verify {

// The tests' seed: POSENC_SEED from the environment (decimal or 0x-hex), else a fixed default.
inline std::uint64_t test_seed() {
  const char* s = std::getenv("POSENC_SEED");
  if (s != nullptr && *s != '\0') return std::strtoull(s, nullptr, 0);
  return 0x9E3779B97F4A7C15ull;
}

// The seed of one named test: test_seed() mixed with the name (FNV-1a), so that tests are
// independent yet all move together with POSENC_SEED.
inline std::uint64_t seed_for(std::string_view name) {
  std::uint64_t h = test_seed() ^ 0xCBF29CE484222325ull;
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ull;
  return h;
}

// One line naming a test's seed and the base it came from, so that a failing run can be replayed
// with POSENC_SEED.
inline void print_seed(const char* name, std::uint64_t seed) {
  std::printf("[oracle] %s: seed 0x%llx (POSENC_SEED=0x%llx)\n", name, static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(test_seed()));
}

// SplitMix64 (G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014): tiny, fast, and good enough to spread test arguments.
class rng {
 public:
  explicit rng(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }            // bias negligible for test use
  double unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }  // [0, 1)
  double uniform(double a, double b) { return a + (b - a) * unit(); }
  // A random finite double (uniform over bit patterns, so over binades).
  double finite_double() {
    for (;;) {
      const double x = std::bit_cast<double>(next());
      if (x - x == 0.0) return x;
    }
  }
  float finite_float() {
    for (;;) {
      const float x = std::bit_cast<float>(static_cast<std::uint32_t>(next() >> 32));
      if (x - x == 0.0f) return x;
    }
  }
  template <class T>
  T finite() {
    if constexpr (sizeof(T) == 8) {
      return finite_double();
    } else {
      return finite_float();
    }
  }
  // Magnitude log-uniform in [2^lo, 2^hi) (rounded into T, so subnormal below T's normal range),
  // random sign.
  template <class T>
  T log_uniform(int lo, int hi) {
    const int e = lo + static_cast<int>(below(static_cast<std::uint64_t>(hi - lo)));
    const T t = static_cast<T>(std::ldexp(1.0 + unit(), e));
    return (next() & 1) != 0 ? -t : t;
  }

 private:
  std::uint64_t s_;
};

}  // namespace posenc::verify
