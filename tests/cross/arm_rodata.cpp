// Cross-compiled for a Cortex-M4 with arm-none-eabi-g++ 12: the core works in constant evaluation on
// a 32-bit target without __int128, and a constexpr table lands in .rodata with no run-time code.
// tests/cross/check_arm.cmake compiles this file and inspects the object with arm-none-eabi-nm.
#include <posenc/posenc.hpp>

#include <array>
#include <cstddef>

namespace {

constexpr std::size_t positions = 16;
constexpr int head_dim = 64;

constexpr auto make_table() {
  std::array<float, positions * head_dim> t{};
  for (std::size_t m = 0; m < positions; ++m) {
    for (int j = 0; j < head_dim / 2; ++j) {
      const auto cs = posenc::math::sincos_geometric<float>(m, 10000.0, 2 * j, head_dim).value;
      t[m * head_dim + 2 * static_cast<std::size_t>(j)] = cs.cos;
      t[m * head_dim + 2 * static_cast<std::size_t>(j) + 1] = cs.sin;
    }
  }
  return t;
}

}  // namespace

// cos(0) == 1 and sin(0) == 0 exactly at position 0, for every pair.
constexpr auto rope_table_storage = make_table();
static_assert(rope_table_storage[0] == 1.0f && rope_table_storage[1] == 0.0f, "position 0 is the identity rotation");

extern const std::array<float, positions * head_dim> posenc_rope_table;
const std::array<float, positions* head_dim> posenc_rope_table = rope_table_storage;

// The scalar functions too, in constant evaluation on the 32-bit target.
static_assert(posenc::math::exp(0.0) == 1.0, "exp(0) is exactly 1 on the ARM target");
static_assert(posenc::math::sqrt(2.25f) == 1.5f, "sqrt(2.25f) is exactly 1.5f on the ARM target");
