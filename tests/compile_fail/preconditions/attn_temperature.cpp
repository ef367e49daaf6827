// One case per attention-temperature precondition (attn_temperature/validate.hpp), compiled with
// -DPOSENC_CASE=N: the compile must fail naming it (the "expect:" regex) beside the stop function
// below. Case 0 is the twin.
// stop-in: invalid_attn_temperature_config
#include <limits>

#include <posenc/attn_temperature.hpp>

namespace at = posenc::attn_temperature;

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr at::config cfg{};
#elif POSENC_CASE == 1  // expect: floor_scale must be in .1, 2.53.
constexpr at::config cfg{.floor_scale = 0};
#elif POSENC_CASE == 2  // expect: floor_scale must be in .1, 2.53.
constexpr at::config cfg{.floor_scale = (std::int64_t{1} << 53) + 1};
#elif POSENC_CASE == 3  // expect: attn_scale must be finite and >= 0
constexpr at::config cfg{.attn_scale = -0.1};
#elif POSENC_CASE == 4  // expect: attn_scale must be finite and >= 0
constexpr at::config cfg{.attn_scale = std::numeric_limits<double>::quiet_NaN()};
#elif POSENC_CASE == 5  // expect: attn_scale must be finite and >= 0
constexpr at::config cfg{.attn_scale = std::numeric_limits<double>::infinity()};
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

// The generators each case goes through (a checked_config is made from cfg on the way in).
constexpr at::checked_config cc{cfg};
constexpr auto table = at::make_scales<float, 4>(cc, 8190);
constexpr auto one = at::scale<double>(cfg, 8191);
static_assert(one.ok(), "attention temperature");
