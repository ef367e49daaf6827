// Cross-compiled with arm-none-eabi-g++ (CMAKE_SYSTEM_NAME Generic): the headers that
// posenc_add_table generated on the build machine equal, bit for bit, the constexpr tables that the
// target's compiler computes from the same configs (expected_tables.hpp). Compiling this file is the
// proof. With POSENC_TEST_FLIP one expected bit of each table is flipped, and it must not compile.
#include "expected_tables.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "alibi_f16.h"
#include "llama31_bf16.h"
#include "mrope_f64.h"
#include "rope_f32.h"

#ifndef POSENC_TEST_FLIP
#define POSENC_TEST_FLIP 0
#endif

namespace {

template <class A, class E, std::size_t N>
constexpr bool same(const A& header, const std::array<E, N>& expected) noexcept {
  if (sizeof(A) / sizeof(std::remove_all_extents_t<A>) != N) return false;
  for (std::size_t i = 0; i < N; ++i) {
    const auto want =
        static_cast<std::uint64_t>(posenc_test::bits(expected[i])) ^ (POSENC_TEST_FLIP && i == 0 ? 1u : 0u);
    if (static_cast<std::uint64_t>(posenc_test::bits(posenc_test::entry(header, i))) != want) return false;
  }
  return true;
}

constexpr auto llama = posenc_test::llama_table();
static_assert(llama.ok(), "posenc's own Llama-3.1 table is valid on the target");
static_assert(same(llama31_bf16_cos, llama.value.cos), "generated llama31_bf16_cos equals the constexpr table");
static_assert(same(llama31_bf16_sin, llama.value.sin), "generated llama31_bf16_sin equals the constexpr table");

constexpr auto rope = posenc_test::rope_table();
static_assert(rope.ok(), "posenc's own explicit RoPE table is valid on the target");
static_assert(same(rope_f32_cos, rope.value.cos), "generated rope_f32_cos equals the constexpr table");
static_assert(same(rope_f32_sin, rope.value.sin), "generated rope_f32_sin equals the constexpr table");

constexpr auto alibi = posenc_test::alibi_slopes();
static_assert(alibi.ok(), "posenc's own ALiBi slopes are valid on the target");
static_assert(same(alibi_f16_slope, alibi.value), "generated alibi_f16_slope equals the constexpr slopes");

// M-RoPE's compact pairs {sin, cos}: one of the two, as the header's arrays hold them.
template <std::size_t N>
constexpr std::array<double, N> mrope_column(const std::array<posenc::math::sincos_result<double>, N>& pairs,
                                             bool cos) noexcept {
  std::array<double, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = cos ? pairs[i].cos : pairs[i].sin;
  return out;
}
constexpr auto mrope = posenc_test::mrope_table();
static_assert(mrope.ok(), "posenc's own M-RoPE table is valid on the target");
static_assert(same(mrope_f64_cos, mrope_column(mrope.value, true)),
              "generated mrope_f64_cos equals the constexpr table");
static_assert(same(mrope_f64_sin, mrope_column(mrope.value, false)),
              "generated mrope_f64_sin equals the constexpr table");

}  // namespace

// Firmware reads the generated table at run time: a row of cos for position m, from flash.
extern "C" const std::uint16_t* posenc_test_llama_cos_row(std::size_t m) {
  return llama31_bf16_cos[m % llama31_bf16_positions];
}
