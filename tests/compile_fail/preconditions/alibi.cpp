// One case per ALiBi precondition (alibi/validate.hpp), compiled with -DPOSENC_CASE=N: the compile
// must fail naming it (the "expect:" regex) beside the stop function below. Case 0 is the twin.
// stop-in: invalid_alibi_config
#include <posenc/alibi.hpp>

namespace alibi = posenc::alibi;

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr alibi::config cfg{.heads = 12, .max_bias = 8.0};
#elif POSENC_CASE == 1  // expect: heads must be at least 1
constexpr alibi::config cfg{.heads = 0};
#elif POSENC_CASE == 2  // expect: heads must be at most 4096
constexpr alibi::config cfg{.heads = 4097};
#elif POSENC_CASE == 3  // expect: max_bias must be in .0, 960.
constexpr alibi::config cfg{.heads = 8, .max_bias = -8.0};
#elif POSENC_CASE == 4  // expect: max_bias must be a multiple of 2.-16
constexpr alibi::config cfg{.heads = 8, .max_bias = 0.1};
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

// The generator each case goes through (a checked_config is made from cfg on the way in).
constexpr auto slopes = alibi::make_slopes<float, 12>(cfg);
constexpr auto head0 = alibi::slope<float>(cfg, 0);
static_assert(head0.ok(), "ALiBi slope");
