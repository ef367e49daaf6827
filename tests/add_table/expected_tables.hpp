// The tables that tables.cmake asks posenc_add_table for, computed by posenc's own C++ API: the
// expected side of check_tables.cpp (host, at run time) and cross_tables.cpp (Arm, static_assert).
// The configs are written here from the model's published values (rope::models), never read from
// the generator's input or output, so a wrong config.json mapping in the generator shows as well.
#pragma once

#include <posenc/alibi/slopes.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/rope/config.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/layout.hpp>
#include <posenc/rope/models.hpp>
#include <posenc/rope/mrope.hpp>
#include <posenc/rope/table.hpp>
#include <posenc/status.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace posenc_test {

// The bit pattern of an entry on either side: the headers store bf16/f16 as uint16_t patterns.
constexpr std::uint16_t bits(posenc::bfloat16 v) noexcept { return v.bits; }
constexpr std::uint16_t bits(posenc::float16 v) noexcept { return v.bits; }
constexpr std::uint16_t bits(std::uint16_t v) noexcept { return v; }
constexpr std::uint32_t bits(float v) noexcept { return std::bit_cast<std::uint32_t>(v); }
constexpr std::uint64_t bits(double v) noexcept { return std::bit_cast<std::uint64_t>(v); }

// Entry i of a header array in row-major order, indexing rows as rows (constant evaluation
// rejects reading past a row's end).
template <class T, std::size_t N>
constexpr T entry(const T (&a)[N], std::size_t i) noexcept {
  return a[i];
}
template <class T, std::size_t R, std::size_t C>
constexpr T entry(const T (&a)[R][C], std::size_t i) noexcept {
  return a[i / C][i % C];
}

// llama31_bf16: Llama-3.1-8B's config.json, 32 positions, bfloat16, the model's half-split layout.
inline constexpr std::size_t llama_positions = 32;
inline constexpr std::size_t llama_rotary_dim = 128;
constexpr auto llama_table() noexcept {
  return posenc::rope::make_table<posenc::bfloat16, llama_positions, llama_rotary_dim>(
      posenc::rope::models::llama3_1_8b);
}

// rope_f32: --head-dim 64 --rope-theta 10000 --positions 256 --start 1000 --layout interleaved, f32.
inline constexpr posenc::rope::config rope_config{.head_dim = 64, .rope_theta = 10000.0};
inline constexpr std::size_t rope_positions = 256;
inline constexpr std::size_t rope_rotary_dim = 64;
inline constexpr std::uint64_t rope_start = 1000;
inline constexpr posenc::rope::layout rope_layout = posenc::rope::layout::interleaved;
constexpr auto rope_table() noexcept {
  return posenc::rope::make_table<float, rope_positions, rope_rotary_dim, rope_layout>(rope_config,
                                                                                       {.start = rope_start});
}

// alibi_f16: --heads 12 (max_bias 8), float16.
inline constexpr std::size_t alibi_heads = 12;
constexpr auto alibi_slopes() noexcept {
  return posenc::alibi::make_slopes<posenc::float16, alibi_heads>(
      posenc::alibi::checked_config{posenc::alibi::config{.heads = static_cast<int>(alibi_heads)}});
}

// mrope_f64: --head-dim 16 --mrope-section 2,3,3 --rope-theta 1000000, position_ids.csv, f64: one
// {sin, cos} per token and pair. The positions below are that file's rows, stream-major (t, h, w).
inline constexpr posenc::rope::mrope_config mrope_config{.text = {.head_dim = 16, .rope_theta = 1000000.0},
                                                         .mrope_section = {2, 3, 3}};
inline constexpr std::size_t mrope_tokens = 8;
inline constexpr std::size_t mrope_pairs = 8;
inline constexpr std::array<std::uint64_t, 3 * mrope_tokens> mrope_positions{0, 1, 2, 3, 3, 3, 3, 5,   // t
                                                                             0, 1, 2, 3, 3, 4, 4, 5,   // h
                                                                             0, 1, 2, 3, 4, 3, 4, 5};  // w
constexpr auto mrope_table() noexcept {
  posenc::result<std::array<posenc::math::sincos_result<double>, mrope_tokens * mrope_pairs>> r{};
  r.error = posenc::rope::fill_mrope_pair_table<double>(mrope_config, mrope_positions, r.value);
  return r;
}

}  // namespace posenc_test
