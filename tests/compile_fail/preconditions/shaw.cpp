// One case per Shaw precondition (shaw/validate.hpp), compiled with -DPOSENC_CASE=N: the compile
// must fail naming it (the "expect:" regex) beside the stop function below. Case 0 is the twin.
// stop-in: invalid_shaw_config
#include <posenc/shaw.hpp>

#include <array>

namespace shaw = posenc::shaw;

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr shaw::config cfg{.max_relative_position = 4};
#elif POSENC_CASE == 1  // expect: max_relative_position must be in .1, 2.30.
constexpr shaw::config cfg{.max_relative_position = 0};
#elif POSENC_CASE == 2  // expect: max_relative_position must be in .1, 2.30.
constexpr shaw::config cfg{.max_relative_position = (1 << 30) + 1};
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

// The generators each case goes through (a checked_config is made from cfg on the way in).
constexpr shaw::checked_config cc{cfg};
constexpr auto one = shaw::relative_index(cfg, 5, 3);
static_assert(one.ok(), "Shaw index");
constexpr auto table = [] {
  std::array<int, 9> out{};
  static_cast<void>(shaw::fill_index_table(cc, 0, 3, 0, out));
  return out;
}();
