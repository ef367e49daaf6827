// model_tables.hpp: the tables this firmware carries, built by the compiler, and the laws they obey.
//
//   rope_table     RoPE of Llama-3.2-1B (examples/configs/llama-3.2-1b.json, posenc's preset
//                  rope::models::llama3_2_1b: head_dim 64, theta 5e5, llama3 scaling factor 32),
//                  64 positions x 64 lanes, float, half-split (HF's layout): the cos and sin a
//                  kernel multiplies element-wise. 2 x 16 KiB.
//   alibi_slopes   ALiBi of BLOOM-560m (examples/configs/bloom-560m.json: 16 heads, max bias 8).
//   alibi_bias     -m_h k for each head h and distance k < 64: the bias a causal kernel adds to the
//                  score of a key k positions back. 4 KiB.
//   rope_q15_table the same RoPE table in q15 (CMSIS-DSP's q15_t: value x 2^15, rounded to nearest
//                  even from the exact value, saturated; docs/fixed-point.md), for cores without an
//                  FPU such as the Cortex-M0: 2 x 8 KiB.
//
// Each is a constexpr variable, so it is constant-initialised: no start-up code, and in an image it
// is read-only data in flash. The static_asserts below are the laws of docs/laws.md, held on these
// very tables by the compiler that builds the image (laws::require names a failing law and its first
// failing entry in the compiler's output). Every size is small enough for the compilers' default
// constexpr limits (docs/performance.md); larger tables come from posenc_add_table (docs/cmake.md).
//
// Both the firmware (main.cpp) and the host's reference check (the posenc tests) include this header:
// the image's bytes are compared with the host compiler's tables.
#pragma once

#include <posenc/alibi.hpp>
#include <posenc/laws.hpp>
#include <posenc/rope/models.hpp>
#include <posenc/rope/table.hpp>

#include <array>
#include <cstddef>

namespace firmware {

namespace rope = posenc::rope;
namespace alibi = posenc::alibi;
namespace laws = posenc::laws;

// ---- RoPE: Llama-3.2-1B ----
inline constexpr rope::config rope_config = rope::models::llama3_2_1b;
inline constexpr std::size_t rope_positions = 64, head_dim = 64, rope_pairs = head_dim / 2;
using rope_table_type = rope::table<float, rope_positions, head_dim, rope::layout::half_split>;

static_assert(rope::validate(rope_config).ok(), "the Llama-3.2-1B RoPE config is valid");
static_assert(rope::check_table(rope_config, rope_positions, head_dim).ok(), "the RoPE table's shape fits the config");

inline constexpr auto rope_built =
    rope::make_table<float, rope_positions, head_dim, rope::layout::half_split>(rope_config);
static_assert(rope_built.ok(), "RoPE table: see posenc::to_string(rope_built.error)");

inline constexpr rope_table_type rope_table = rope_built.value;

// Every entry is RN_float of its exact value (0 ulp: posenc's contract).
static_assert(laws::require<laws::exactness(laws::view(rope_table), rope_config)>(),
              "every RoPE entry is the exact cos/sin rounded once to float");
static_assert(laws::require<laws::identity_at_zero(laws::view(rope_table))>(),
              "position 0 is the identity: cos = 1, sin = +0");
static_assert(laws::require<laws::pair_copies(laws::view(rope_table))>(),
              "both lanes of a pair hold the same bits (half-split)");
static_assert(laws::require<laws::unit_norm(laws::view(rope_table))>(),
              "each 2x2 block is a rotation: |cos^2 + sin^2 - 1| <= 2u + u^2");
static_assert(laws::require<laws::relative_dot(laws::view(rope_table), {.differences = {1, laws::middle_row}})>(),
              "scores depend on the relative position only: R_m^T R_n depends on n - m");
static_assert(laws::require<laws::monotone_frequencies(rope_config)>(), "the frequencies decrease along the pairs");

// ---- ALiBi: BLOOM-560m ----
inline constexpr alibi::config alibi_config{.heads = 16, .max_bias = 8.0};
inline constexpr std::size_t alibi_heads = 16, alibi_distances = 64, alibi_bias_entries = alibi_heads * alibi_distances;
inline constexpr alibi::checked_config alibi_checked{alibi_config};
static_assert(alibi_checked.ok(), "the BLOOM ALiBi config is valid");

inline constexpr auto alibi_slopes_built = alibi::make_slopes<float, alibi_heads>(alibi_checked);
inline constexpr auto alibi_bias_built =
    alibi::make_bias_by_distance<float, alibi_heads, alibi_distances>(alibi_checked);
static_assert(alibi_slopes_built.ok() && alibi_bias_built.ok(), "the ALiBi tables build");

inline constexpr std::array<float, alibi_heads> alibi_slopes = alibi_slopes_built.value;
inline constexpr std::array<float, alibi_bias_entries> alibi_bias = alibi_bias_built.value;

static_assert(laws::require<laws::alibi_power_of_two_slopes(alibi_slopes, alibi_config)>(),
              "a slope is the exact power of two wherever the formula gives one");
static_assert(laws::require<laws::alibi_geometric_slopes(alibi_slopes, alibi_config)>(),
              "the slopes are geometric within each power-of-two group");

// A dense table of 16 heads x 16 queries x 16 keys (built and checked here, never stored) obeys the
// bias laws, and the stored table agrees with its first column (query i, key 0: distance i), bit for bit.
inline constexpr std::size_t dense_queries = 16;
constexpr bool by_distance_is_dense_column() {
  const auto dense = alibi::make_symmetric_bias_table<float, alibi_heads, dense_queries, dense_queries>(alibi_checked);
  if (!dense.ok()) return false;
  const laws::alibi_bias_table<float> t{dense.value, alibi_heads, dense_queries, dense_queries};
  // require's function form: a failing law stops the evaluation in a function named after it.
  if (!laws::require(laws::alibi_relative_bias(t)) || !laws::require(laws::alibi_monotone_bias(t))) return false;
  for (std::size_t h = 0; h < alibi_heads; ++h)
    for (std::size_t i = 0; i < dense_queries; ++i)
      if (t.at(h, i, 0) != alibi_bias[h * alibi_distances + i]) return false;
  return true;
}
static_assert(by_distance_is_dense_column(),
              "the dense ALiBi table obeys the relative and monotone bias laws, and the stored table is its column");

// ---- q15: the RoPE table for the Cortex-M0 (no FPU) ----
// CMSIS-DSP's q15: each entry RN_even(x 2^15) of the exact cos/sin, then saturated (cos 0 = 1 is
// stored as 0x7FFF, and counted). Rotated in integer arithmetic by rope::rotate_fixed (main.cpp).
// Both images carry it (the byte and checksum comparisons are the same for both boards); it is the
// Cortex-M0's table.
using rope_q15_table_type = rope::table<posenc::q15, rope_positions, head_dim, rope::layout::half_split>;
inline constexpr auto rope_q15_built =
    rope::make_table<posenc::q15, rope_positions, head_dim, rope::layout::half_split>(rope_config);
static_assert(rope_q15_built.ok(), "q15 RoPE table: see posenc::to_string(rope_q15_built.error)");
inline constexpr rope_q15_table_type rope_q15_table = rope_q15_built.value;

// The laws at the bounds quantisation implies (laws/bounds.hpp: a 2x2 block errs by at most
// ||E|| = (sqrt(5)/2) 2^-15, a saturated cos by a whole step).
static_assert(laws::require<laws::exactness(laws::view(rope_q15_table), rope_config)>(),
              "every q15 entry is RN_even(x 2^15) of the exact cos/sin, saturated: 0 steps");
static_assert(laws::require<laws::pair_copies(laws::view(rope_q15_table))>(),
              "both lanes of a pair hold the same q15 (half-split)");
static_assert(laws::require<laws::unit_norm(laws::view(rope_q15_table))>(),
              "each 2x2 block is a rotation up to 2 ||E|| + ||E||^2");
static_assert(laws::require<laws::relative_dot(laws::view(rope_q15_table), {.differences = {1, laws::middle_row}})>(),
              "scores depend on the relative position only, within 2 (2 ||E|| + ||E||^2)");
static_assert(rope_q15_table.saturated >= rope_pairs, "at least position 0's 32 cos saturate (cos 0 = 1)");

}  // namespace firmware
