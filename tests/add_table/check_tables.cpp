// The headers that posenc_add_table generated at build time (tables.cmake) against posenc's own
// tables of the same configs (expected_tables.hpp), every entry, bit for bit: the Llama-3.1, ALiBi
// and M-RoPE tables as constexpr values, the explicit RoPE table filled at run time, expanded and
// compact (--layout pairs, whose arrays take half the bytes: a static_assert on their sizeof). With
// POSENC_TEST_WITH_C the same headers compiled as C (tables_c.c) are compared too, byte for byte.
// `check_tables --flip` flips the lowest bit of each expected table's first entry: every table must
// then be reported, which shows that each comparison can fail.
#include "expected_tables.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include "alibi_f16.h"
#include "llama31_bf16.h"
#include "mrope_f64.h"
#include "rope_f32.h"
#include "rope_f32_pairs.h"

namespace {

// The header's shape metadata, checked before any entry is read.
static_assert(llama31_bf16_start == 0 && llama31_bf16_positions == posenc_test::llama_positions &&
                  llama31_bf16_rotary_dim == posenc_test::llama_rotary_dim,
              "llama31_bf16.h has the rows and columns asked for");
static_assert(rope_f32_start == posenc_test::rope_start && rope_f32_positions == posenc_test::rope_positions &&
                  rope_f32_rotary_dim == posenc_test::rope_rotary_dim,
              "rope_f32.h has the rows and columns asked for");
static_assert(rope_f32_pairs_start == posenc_test::rope_start &&
                  rope_f32_pairs_positions == posenc_test::rope_positions &&
                  rope_f32_pairs_rotary_dim == posenc_test::rope_rotary_dim &&
                  rope_f32_pairs_pairs == posenc_test::rope_rotary_dim / 2,
              "rope_f32_pairs.h has the rows asked for, rotary_dim/2 values each");
// The flash a header costs, measured by the compiler: the pairs layout holds half the bytes of the
// expanded one (the header's comment states both numbers: tests/test_cli_emit.cpp).
static_assert(2 * (sizeof rope_f32_pairs_cos + sizeof rope_f32_pairs_sin) == sizeof rope_f32_cos + sizeof rope_f32_sin,
              "rope_f32_pairs.h's arrays take half the bytes of rope_f32.h's");
static_assert(alibi_f16_entries == posenc_test::alibi_heads, "alibi_f16.h has one slope per head");
static_assert(mrope_f64_entries == 2 * posenc_test::mrope_tokens * posenc_test::mrope_pairs,
              "mrope_f64.h has a cos and a sin per token and pair");

// Prints the first difference; the expected first entry is flipped when asked.
template <class A, class R>
bool same(const char* what, const A& header, const R& expected, bool flip) {
  constexpr std::size_t n = sizeof(A) / sizeof(std::remove_all_extents_t<A>);
  if (n != expected.size()) {
    std::printf("MISMATCH %s: %zu entries in the header, %zu expected\n", what, n, expected.size());
    return false;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto want = static_cast<std::uint64_t>(posenc_test::bits(expected[i])) ^ (flip && i == 0 ? 1u : 0u);
    const auto got = static_cast<std::uint64_t>(posenc_test::bits(posenc_test::entry(header, i)));
    if (got != want) {
      std::printf("MISMATCH %s entry %zu: header 0x%llx, expected 0x%llx\n", what, i,
                  static_cast<unsigned long long>(got), static_cast<unsigned long long>(want));
      return false;
    }
  }
  return true;
}

#if POSENC_TEST_WITH_C
extern "C" const void* posenc_test_c_table(int which);

bool same_bytes(const char* what, const void* c, const void* cpp, std::size_t n) {
  if (std::memcmp(c, cpp, n) == 0) return true;
  std::printf("MISMATCH %s: the header compiled as C differs from C++\n", what);
  return false;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const bool flip = argc > 1 && std::strcmp(argv[1], "--flip") == 0;
  int failed = 0;

  static constexpr auto llama = posenc_test::llama_table();
  static_assert(llama.ok(), "posenc's own Llama-3.1 table is valid");
  failed += !same("llama31_bf16 cos", llama31_bf16_cos, llama.value.cos, flip);
  failed += !same("llama31_bf16 sin", llama31_bf16_sin, llama.value.sin, flip);

  std::vector<float> cos(posenc_test::rope_positions * posenc_test::rope_rotary_dim);
  std::vector<float> sin(cos.size());
  const auto filled = posenc::rope::fill_table<float>(posenc_test::rope_config, cos, sin, posenc_test::rope_layout,
                                                      {.start = posenc_test::rope_start});
  if (filled != posenc::status::ok) {
    std::printf("posenc's run-time fill of rope_f32 failed\n");
    return 1;
  }
  failed += !same("rope_f32 cos", rope_f32_cos, cos, flip);
  failed += !same("rope_f32 sin", rope_f32_sin, sin, flip);

  // The compact table: rope::fill_pair_table's {sin, cos} per pair, split into the header's arrays.
  std::vector<posenc::math::sincos_result<float>> pairs(cos.size() / 2);
  if (posenc::rope::fill_pair_table<float>(posenc_test::rope_config, pairs, {.start = posenc_test::rope_start}) !=
      posenc::status::ok) {
    std::printf("posenc's run-time fill of rope_f32_pairs failed\n");
    return 1;
  }
  std::vector<float> pair_cos, pair_sin;
  for (const auto& p : pairs) {
    pair_cos.push_back(p.cos);
    pair_sin.push_back(p.sin);
  }
  failed += !same("rope_f32_pairs cos", rope_f32_pairs_cos, pair_cos, flip);
  failed += !same("rope_f32_pairs sin", rope_f32_pairs_sin, pair_sin, flip);

  static constexpr auto alibi = posenc_test::alibi_slopes();
  static_assert(alibi.ok(), "posenc's own ALiBi slopes are valid");
  failed += !same("alibi_f16 slope", alibi_f16_slope, alibi.value, flip);

  // M-RoPE's compact pairs {sin, cos}, split into the header's two arrays.
  static constexpr auto mrope = posenc_test::mrope_table();
  static_assert(mrope.ok(), "posenc's own M-RoPE table is valid");
  std::vector<double> mrope_cos, mrope_sin;
  for (const auto& p : mrope.value) {
    mrope_cos.push_back(p.cos);
    mrope_sin.push_back(p.sin);
  }
  failed += !same("mrope_f64 cos", mrope_f64_cos, mrope_cos, flip);
  failed += !same("mrope_f64 sin", mrope_f64_sin, mrope_sin, flip);

#if POSENC_TEST_WITH_C
  failed += !same_bytes("llama31_bf16 cos", posenc_test_c_table(0), llama31_bf16_cos, sizeof llama31_bf16_cos);
  failed += !same_bytes("rope_f32 sin", posenc_test_c_table(1), rope_f32_sin, sizeof rope_f32_sin);
  failed += !same_bytes("alibi_f16 slope", posenc_test_c_table(2), alibi_f16_slope, sizeof alibi_f16_slope);
  failed += !same_bytes("mrope_f64 cos", posenc_test_c_table(3), mrope_f64_cos, sizeof mrope_f64_cos);
#endif

  if (failed != 0) {
    std::printf("%d tables differ from posenc's own\n", failed);
    return 1;
  }
  std::printf("posenc_add_table: every generated entry equals posenc's table, bit for bit\n");
  return 0;
}
