// attn_temperature.cpp: Llama-4's attention temperature, proved by compiling (static_assert walls).
//  1. 1 before the first step: scale(p) = 1 for p < floor_scale - 1 (floor((p + 1) / f) = 0);
//  2. the step is at p = floor_scale - 1 (HF's cache_position + 1), not at floor_scale;
//  3. the first step's value is RN(1 + a ln 2), a = 0.1's double (the published 1.069315): Python's
//     Decimal at 60 digits gives 1.06931471805599453478946300870..., whose double is the one below;
//  4. the three laws hold on a constexpr table, in float and bfloat16.
#include <cstdint>

#include <posenc/attn_temperature.hpp>
#include <posenc/laws/require.hpp>
#include <posenc/numeric/bfloat16.hpp>

namespace {

namespace at = posenc::attn_temperature;
namespace laws = posenc::laws;

constexpr at::config llama4{};

// 1.
static_assert(at::scale<double>(llama4, 0).value == 1.0 && at::scale<double>(llama4, 8190).value == 1.0);
static_assert(at::scale<float>({.floor_scale = 1}, 0).value != 1.0f, "floor_scale 1: the step is at p = 0");

// 2.
static_assert(at::scale<double>(llama4, 8191).value > 1.0, "Llama-4's first step is at p = 8191");
static_assert(at::scale<double>(llama4, 8191).value == at::scale<double>(llama4, 16382).value, "one step");
static_assert(at::scale<double>(llama4, 16383).value > at::scale<double>(llama4, 16382).value, "the next at 16383");

// 3.
static_assert(at::scale<double>(llama4, 8191).value == 0x1.11be9bff2e94cp+0, "RN(1 + 0.1 ln 2)");

// 4.
constexpr auto f = at::make_scales<float, 48>({.floor_scale = 5, .attn_scale = 0.3}).value;
static_assert(laws::require(laws::temperature_one_before_step(laws::temperature_table<float>{f, 0, 5})));
static_assert(laws::require(laws::temperature_monotone(laws::temperature_table<float>{f, 0, 5})));
static_assert(laws::require(laws::temperature_steps(laws::temperature_table<float>{f, 0, 5})));
constexpr auto b = at::make_scales<posenc::bfloat16, 48>({.floor_scale = 3, .attn_scale = 0.1}, 100).value;
static_assert(laws::require(laws::temperature_monotone(laws::temperature_table<posenc::bfloat16>{b, 100, 3})));
static_assert(laws::require(laws::temperature_steps(laws::temperature_table<posenc::bfloat16>{b, 100, 3})));

}  // namespace
