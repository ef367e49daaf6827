// One case per Sandwich precondition (sandwich/validate.hpp), compiled with -DPOSENC_CASE=N: the
// compile must fail naming it (the "expect:" regex) beside the stop function below. Case 0 is the
// twin.
// stop-in: invalid_sandwich_config
#include <posenc/sandwich.hpp>

namespace sandwich = posenc::sandwich;

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr sandwich::config cfg{.dim = 8, .heads = 4};
#elif POSENC_CASE == 1  // expect: dim must be even and in .2, 4096.
constexpr sandwich::config cfg{.dim = 7, .heads = 4};
#elif POSENC_CASE == 2  // expect: dim must be even and in .2, 4096.
constexpr sandwich::config cfg{.dim = 8192, .heads = 4};
#elif POSENC_CASE == 3  // expect: heads must be in .1, 4096.
constexpr sandwich::config cfg{.dim = 8, .heads = 0};
#elif POSENC_CASE == 4  // expect: heads must be in .1, 4096.
constexpr sandwich::config cfg{.dim = 8, .heads = 4097};
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

// The generator each case goes through (a checked_config is made from cfg on the way in).
constexpr sandwich::checked_config cc{cfg};
constexpr auto one = sandwich::bias<double>(cfg, 1, 3);
static_assert(one.ok(), "Sandwich bias");
constexpr auto two = sandwich::bias<float>(cc, 0, 2);
