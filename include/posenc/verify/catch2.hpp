// catch2.hpp: Catch2 (v2) helpers for property tests of posenc tables, in posenc's suite or yours.
//
// seeds(name) is a Catch2 generator of per-iteration 64-bit seeds: SplitMix64 started from
// verify::seed_for(name), which derives from POSENC_SEED when that is set, so a failing run can be
// replayed exactly. It prints the seed once, when the generator is created.
//
//   const std::uint64_t s = GENERATE(take(8, posenc::verify::seeds("my_property")));
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <memory>

#include "posenc/verify/random.hpp"

namespace posenc::verify {

namespace detail {

class seed_generator final : public Catch::Generators::IGenerator<std::uint64_t> {
 public:
  explicit seed_generator(const char* name) : rng_(seed_for(name)), current_(0) {
    std::printf("[posenc] %s: seed 0x%llx (set POSENC_SEED to override; base 0x%llx)\n", name,
                static_cast<unsigned long long>(seed_for(name)), static_cast<unsigned long long>(test_seed()));
    current_ = rng_.next();
  }
  const std::uint64_t& get() const override { return current_; }
  bool next() override {
    current_ = rng_.next();
    return true;
  }

 private:
  rng rng_;
  std::uint64_t current_;
};

}  // namespace detail

inline Catch::Generators::GeneratorWrapper<std::uint64_t> seeds(const char* name) {
  return Catch::Generators::GeneratorWrapper<std::uint64_t>(std::make_unique<detail::seed_generator>(name));
}

}  // namespace posenc::verify
