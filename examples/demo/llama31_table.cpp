// llama31_table.cpp: the proof step of README's main job (tools/demo.sh). llama31.h is
// generated while this builds, by
//   posenc emit rope --hf-config examples/configs/llama-3.1-8b.json --positions 128 --dtype f32
//                    --format c --name llama31
// (posenc_add_table in examples/CMakeLists.txt: docs/cmake.md). This unit proves facts about that
// header while it compiles, as a firmware project would about the table it puts in flash:
//   * every entry is the correctly rounded value of the model's config (the law exactness, at 0
//     ULP: the compiler computes the same table and compares every entry);
//   * every pair is a rotation to float precision (unit_norm), and the dot product of two rotated
//     rows depends only on their distance (relative_dot);
// and at run time compares the header with the run-time fill of the same config, bit for bit, and
// prints what was shown. 128 rows stay within GCC's and Clang's default limits on constant
// evaluation (at 256 Clang's step limit stops the exactness law, at 1024 GCC's operation limit;
// docs/performance.md has the flags that lift them); the demo's verify step checks 8192 rows
// against MPFR.
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <posenc/laws.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/models.hpp>

#include "llama31.h"

namespace {

namespace laws = posenc::laws;
namespace rope = posenc::rope;

// The config as the header states it (its comment lists the fields read from config.json).
constexpr const rope::config& llama31 = rope::models::llama3_1_8b;
constexpr auto table = laws::view(llama31_cos, llama31_sin, rope::layout::half_split, llama31_start);

static_assert(llama31_rotary_dim == 128 && llama31_positions == 128, "the header has the table the demo asked for");
static_assert(laws::require<laws::exactness(table, llama31, {.max_ulp = 0})>(),
              "every entry is the correctly rounded value of Llama-3.1-8B's RoPE");
static_assert(laws::require<laws::unit_norm(table)>(), "every pair is a rotation to float precision");
static_assert(laws::require<laws::relative_dot(table, {.differences = {1, 7, 100, 0}})>(),
              "<R_m q, R_n k> depends only on n - m");

}  // namespace

int main() {
  // The same table filled at run time: the header's bytes, bit for bit.
  const std::size_t n = llama31_positions * llama31_rotary_dim;
  std::vector<float> cos(n), sin(n);
  if (rope::fill_table<float>(llama31, cos, sin, rope::layout::half_split, {.start = llama31_start}) !=
      posenc::status::ok) {
    std::puts("the run-time fill failed");
    return 1;
  }
  const bool same = std::memcmp(cos.data(), llama31_cos, n * sizeof(float)) == 0 &&
                    std::memcmp(sin.data(), llama31_sin, n * sizeof(float)) == 0;
  std::printf("llama31.h: %" PRIu64 " positions x %" PRIu64 " elements, cos and sin: %zu bytes of float\n",
              llama31_positions, llama31_rotary_dim, 2 * n * sizeof(float));
  std::printf(
      "proved while compiling: exactness at 0 ULP and unit_norm (%zu entries), relative_dot (distances 1, "
      "7, 100)\n",
      2 * n);
  std::printf("run-time fill of the same config: %s\n", same ? "the same bits" : "DIFFERENT bits");
  return same ? 0 : 1;
}
