// shaw_oracle.hpp: Shaw et al.'s clipped relative index (Shaw, Uszkoreit, Vaswani 2018; tensor2tensor
// _generate_relative_positions_matrix: distance = key - query, clipped to [-k, k], plus k) written
// out in 64-bit integers, independently of posenc::shaw. Used by tests/test_relative_positions.cpp
// and the verify engine (shaw_verify.hpp).
#pragma once

#include <cstdint>

namespace posenc::verify {

// The index of (query, key) into the 2k + 1 relative embeddings; |key - query| < 2^62.
constexpr std::int64_t shaw_oracle_index(std::int64_t k, std::int64_t query, std::int64_t key) noexcept {
  const std::int64_t d = key - query;
  return (d < -k ? -k : (d > k ? k : d)) + k;
}

}  // namespace posenc::verify
