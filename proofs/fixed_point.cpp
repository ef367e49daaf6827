// fixed_point.cpp: the q15/q31 convention (numeric/fixed_point.hpp, docs/fixed-point.md), proved
// by compiling (static_assert walls); each assertion's expected value is derived in its message.
//  1. rounding onto the grid is to nearest, ties to even, from the exact value (a double-double's
//     low part breaks a tie), then CMSIS's saturation: 1.0 becomes 2^F - 1, -1.0 stays -2^F;
//  2. RoPE tables: cos 0 = 1 saturates in every pair, sin 0 = 0; the two layouts hold the same
//     values; the saturations are counted; every entry lies within half a step of the real
//     (checked against the double table, whose error 2^-53 cannot move a q15 value's check);
//  3. ALiBi slopes that are powers of two are exact on the grid; none saturates; the slope laws hold
//     at their quantised bounds (docs/fixed-point.md). XPOS's relative scale does not hold of q
//     scales (a saturated inverse scale): no assertion.
#include <cstddef>
#include <cstdint>

#include <posenc/alibi.hpp>
#include <posenc/laws/alibi/geometric_slopes.hpp>
#include <posenc/laws/alibi/power_of_two_slopes.hpp>
#include <posenc/laws/bounds.hpp>
#include <posenc/laws/rope/exactness.hpp>
#include <posenc/laws/rope/table_view.hpp>
#include <posenc/laws/rotary/composition.hpp>
#include <posenc/laws/rotary/layout_equivalence.hpp>
#include <posenc/laws/rotary/pair_copies.hpp>
#include <posenc/laws/rotary/relative_dot.hpp>
#include <posenc/laws/rotary/unit_norm.hpp>
#include <posenc/math/round_fixed.hpp>
#include <posenc/numeric/fixed_point.hpp>
#include <posenc/rope/table.hpp>

namespace {

using posenc::q15;
using posenc::q31;
namespace math = posenc::math;
namespace rope = posenc::rope;

// 1. The rounding and the saturation.
static_assert(math::round_to_fixed<q15>(1.0).value.value.bits == 32767 &&
                  math::round_to_fixed<q15>(1.0).value.saturated,
              "1.0 is 2^15 steps: saturated to 32767 (CMSIS's 0x7FFF)");
static_assert(math::round_to_fixed<q31>(1.0).value.value.bits == 2147483647, "1.0 in q31 saturates to 0x7FFFFFFF");
static_assert(math::round_to_fixed<q15>(-1.0).value.value.bits == -32768 &&
                  !math::round_to_fixed<q15>(-1.0).value.saturated,
              "-1.0 is exactly -2^15 steps: representable, not saturated");
static_assert(math::round_to_fixed<q15>(0.25 + 0x1p-16).value.value.bits == 8192, "8192.5 steps, a tie: to even, 8192");
static_assert(math::round_to_fixed<q15>(0.25 + 3 * 0x1p-16).value.value.bits == 8194,
              "8193.5 steps, a tie: to even, 8194");
static_assert(math::round_to_fixed<q15>(math::double_double{0.25 + 0x1p-16, 0x1p-70}).value.value.bits == 8193,
              "just above the tie 8192.5: up, 8193 (one rounding of the exact sum, not of its double)");
static_assert(math::round_to_fixed<q15>(math::double_double{-(0.25 + 0x1p-16), -0x1p-70}).value.value.bits == -8193,
              "symmetric: -8193");

// 2. RoPE: d = 16, base 10000, 24 positions.
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
constexpr auto half = rope::make_table<q15, 24, 16>(cfg);
constexpr auto inter = rope::make_table<q15, 24, 16, rope::layout::interleaved>(cfg);
constexpr auto exact = rope::make_pair_table<double, 24, 8>(cfg);
static_assert(half.ok() && inter.ok() && exact.ok(), "the tables build");

constexpr bool row0_saturated() {
  for (std::size_t k = 0; k < 16; ++k)
    if (half.value.cos[k].bits != 32767 || half.value.sin[k].bits != 0) return false;
  return true;
}
static_assert(row0_saturated(), "position 0: cos 0 = 1 stored as 0x7FFF, sin 0 = 0, in every element");

constexpr bool layouts_agree() {
  for (std::size_t i = 0; i < 24; ++i)
    for (std::size_t j = 0; j < 8; ++j)
      if (half.value.pair(i, j).cos != inter.value.pair(i, j).cos ||
          half.value.pair(i, j).sin != inter.value.pair(i, j).sin)
        return false;
  return true;
}
static_assert(layouts_agree(), "half-split and interleaved hold the same value of each pair");

// |k 2^-15 - x| <= 2^-16, x = the double entry (within 2^-53 of the real): checked as
// |k - 2^15 x| <= 1/2 + 2^-37, and for a saturated value (k = 32767, x >= 1 - 2^-16) x - k 2^-15 <= 2^-15.
constexpr bool within_half_step() {
  for (std::size_t i = 0; i < 24; ++i)
    for (std::size_t j = 0; j < 8; ++j) {
      const auto q = half.value.pair(i, j);
      const auto x = exact.value.data[i * 8 + j];
      const double dc = static_cast<double>(q.cos.bits) - x.cos * 32768.0;
      const double ds = static_cast<double>(q.sin.bits) - x.sin * 32768.0;
      const bool cos_ok = (dc <= 0.5 + 0x1p-37 && dc >= -0.5 - 0x1p-37) || (q.cos.bits == 32767 && dc >= -1.0);
      if (!cos_ok || ds > 0.5 + 0x1p-37 || ds < -0.5 - 0x1p-37) return false;
    }
  return true;
}
static_assert(within_half_step(), "every entry within half a step of the real (a step for a saturated cos)");

// The count: 8 cos at position 0, and at the slow pairs' small angles (cos > 1 - 2^-16, angle below
// about 2^-7.5 = 0.0055): pair 7 (theta = 10^-3.5) up to position 17, pair 6 (10^-3) to 5, pair 5
// (10^-2.5) to 1, pairs 0..4 at 0 only: 18 + 6 + 2 + 5 = 31.
static_assert(half.value.saturated == 31, "31 values saturated, as counted by hand");

// 2b. The laws at the bounds quantisation implies (laws/bounds.hpp, docs/fixed-point.md): a block's
// error ||E|| <= (sqrt(5)/2) 2^-F (a saturated cos errs by a step, its sin by half a step), so
// unit norm <= 2 ||E|| + ||E||^2, relative dot <= 2 (2 ||E|| + ||E||^2), composition <=
// 3 ||E|| + ||E||^2, each with the slack of their evaluation in double; exactness at 0 steps.
namespace pl = posenc::laws;
static_assert(pl::table_block_error<q15>() > 1.118033988 * 0x1p-15 && pl::table_block_error<q15>() < 1.11804 * 0x1p-15,
              "||E|| = sqrt(5)/2 steps of 2^-15, rounded up");
static_assert(pl::unit_norm_bound<q15>() > 2.236 * 0x1p-15 && pl::unit_norm_bound<q15>() < 2.237 * 0x1p-15,
              "unit norm: sqrt(5) + 1.25 2^-15 steps, plus 2^-48");
static_assert(pl::exactness(pl::view(half.value), cfg).holds && pl::exactness(pl::view(inter.value), cfg).holds,
              "every entry is RN_even(x 2^15), saturated: 0 steps from the exact table");
static_assert(pl::unit_norm(pl::view(half.value)).holds, "unit norm within 2 ||E|| + ||E||^2");
static_assert(pl::unit_norm(pl::view(half.value)).deviation >= 1.99 * 0x1p-15,
              "row 0 reaches 2 - 2^-15 steps: (1 - 2^-15)^2 - 1");
static_assert(pl::relative_dot(pl::view(half.value)).holds, "relative dot within 2 (2 ||E|| + ||E||^2)");
static_assert(pl::composition(pl::view(half.value)).holds, "composition within 3 ||E|| + ||E||^2");
static_assert(pl::pair_copies(pl::view(half.value)).holds && pl::pair_copies(pl::view(inter.value)).holds,
              "both elements of a pair hold the same bits");
static_assert(pl::layout_equivalence(pl::view(inter.value), pl::view(half.value)).holds, "the layouts are one table");

// A q31 table, small (in constant evaluation q31 takes the scalar path per entry).
constexpr auto half31 = rope::make_table<q31, 8, 8>(rope::config{.head_dim = 8, .rope_theta = 10000.0});
static_assert(half31.ok() && half31.value.cos[0].bits == 2147483647, "cos 0 = 1 saturates to 0x7FFFFFFF");
static_assert(pl::exactness(pl::view(half31.value), rope::config{.head_dim = 8, .rope_theta = 10000.0}).holds,
              "q31: 0 steps from the exact table");
static_assert(pl::unit_norm(pl::view(half31.value)).holds && pl::relative_dot(pl::view(half31.value)).holds &&
                  pl::composition(pl::view(half31.value)).holds,
              "q31: unit norm, relative dot, composition within their bounds of 2^-31");

// 3. ALiBi: 8 heads, max_bias 8: slopes 2^-1 .. 2^-8, exact in q15 (16384 .. 128).
constexpr auto slopes =
    posenc::alibi::make_slopes<q15, 8>(posenc::alibi::checked_config{posenc::alibi::config{.heads = 8}});
static_assert(slopes.ok() && slopes.value[0].bits == 16384 && slopes.value[7].bits == 128,
              "2^-1 and 2^-8 are 16384 and 128 steps exactly");
static_assert(pl::alibi_power_of_two_slopes(slopes.value, posenc::alibi::config{.heads = 8}).holds,
              "q15: 2^-1 .. 2^-8 are whole steps below 1, exact bit for bit");
static_assert(pl::alibi_geometric_slopes(slopes.value, posenc::alibi::config{.heads = 8}).holds &&
                  pl::alibi_geometric_slopes(slopes.value, posenc::alibi::config{.heads = 8}).deviation == 0,
              "q15: exact powers of two, every ratio exactly 1");
// 12 heads (8 + 4 interleaved, irrational slopes) in q15 and q31: each ratio within its bound
// (1 + eps_h) / ((1 - eps_0)(1 - eps_{h-1})) - 1, eps = 2^-(F+1) / (m~ - 2^-(F+1)).
constexpr posenc::alibi::config twelve{.heads = 12};
constexpr auto slopes12 = posenc::alibi::make_slopes<q15, 12>(posenc::alibi::checked_config{twelve});
constexpr auto slopes12_31 = posenc::alibi::make_slopes<q31, 12>(posenc::alibi::checked_config{twelve});
static_assert(slopes12.ok() && slopes12_31.ok(), "the slopes build");
static_assert(pl::alibi_geometric_slopes(slopes12.value, twelve).holds &&
                  pl::alibi_geometric_slopes(slopes12.value, twelve).checked == 11,
              "q15: all 11 ratios read, each within its bound");
static_assert(pl::alibi_geometric_slopes(slopes12_31.value, twelve).holds &&
                  pl::alibi_power_of_two_slopes(slopes12_31.value, twelve).holds,
              "q31: the ratios within their bounds, 2^-1 .. 2^-8 (heads 0 .. 7: e = h + 1) exact");
static_assert(pl::alibi_slope_ratio_bound<q15>(0.5, 0.5, 0.25, false) > 0x1p-13 &&
                  pl::alibi_slope_ratio_bound<q15>(0.5, 0.5, 0.25, false) < 1.001 * 0x1p-13,
              "head 1 of 8: eps_1 + 2 eps_0 = 2^-14 + 2 x 2^-15 = 2^-13, to first order");

}  // namespace
