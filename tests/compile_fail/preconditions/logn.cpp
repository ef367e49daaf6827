// One case per log-n precondition (logn/validate.hpp), compiled with -DPOSENC_CASE=N: the compile
// must fail naming it (the "expect:" regex) beside the stop function below. Case 0 is the twin.
// stop-in: invalid_logn_config
#include <posenc/logn.hpp>

namespace logn = posenc::logn;

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr logn::config cfg{.base = 2048, .at_least_one = true};
#elif POSENC_CASE == 1  // expect: base must be in .2, 2.53.
constexpr logn::config cfg{.base = 1};
#elif POSENC_CASE == 2  // expect: base must be in .2, 2.53.
constexpr logn::config cfg{.base = std::int64_t{1} << 53};
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

// The generators each case goes through (a checked_config is made from cfg on the way in).
constexpr logn::checked_config cc{cfg};
constexpr auto table = logn::make_factors<float, 4>(cc, 2047);
constexpr auto one = logn::factor<double>(cfg, 4096);
static_assert(one.ok(), "log-n factor");
