// One case per sinusoidal precondition (sinusoidal/validate.hpp), compiled with -DPOSENC_CASE=N: the
// compile must fail naming it beside the stop function below. Case 0 is the twin.
// stop-in: invalid_sinusoidal_config
#include <posenc/sinusoidal.hpp>

namespace sinusoidal = posenc::sinusoidal;

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr sinusoidal::config cfg{.dim = 8};
#elif POSENC_CASE == 1  // expect: dim must be in .1, 65536.
constexpr sinusoidal::config cfg{.dim = 0};
#elif POSENC_CASE == 2  // expect: the fairseq exponent i/.d/2 - 1. needs dim >= 4
constexpr sinusoidal::config cfg{.dim = 3, .exponent = sinusoidal::exponent::fairseq};
#elif POSENC_CASE == 3  // expect: base must be in .1, 2.960.
constexpr sinusoidal::config cfg{.dim = 8, .base = 0.5};
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

// The generators each case goes through (a checked_config is made from cfg on the way in).
constexpr auto table = sinusoidal::make_table<float, 2, 8>(cfg);
constexpr auto one = sinusoidal::element<float>(cfg, 3, 1);
static_assert(one.ok(), "sinusoidal element");
