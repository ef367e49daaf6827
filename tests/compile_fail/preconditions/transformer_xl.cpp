// One case per Transformer-XL / XLNet precondition (transformer_xl/validate.hpp), compiled with
// -DPOSENC_CASE=N: the compile must fail naming it (the "expect:" regex) beside the stop function
// below. Case 0 is the twin.
// stop-in: invalid_transformer_xl_config
#include <posenc/transformer_xl.hpp>

#include <array>

namespace xl = posenc::transformer_xl;

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr xl::config cfg{.d_model = 4, .klen = 3, .qlen = 2};
#elif POSENC_CASE == 1  // expect: d_model must be even and in .2, 65536.
constexpr xl::config cfg{.d_model = 5, .klen = 3, .qlen = 2};
#elif POSENC_CASE == 2  // expect: d_model must be even and in .2, 65536.
constexpr xl::config cfg{.d_model = 65538, .klen = 3, .qlen = 2};
#elif POSENC_CASE == 3  // expect: klen must be in .1, 2.40.
constexpr xl::config cfg{.d_model = 4, .klen = 0, .qlen = 0};
#elif POSENC_CASE == 4  // expect: klen must be in .1, 2.40.
constexpr xl::config cfg{.d_model = 4, .klen = (std::int64_t{1} << 40) + 1, .qlen = 2};
#elif POSENC_CASE == 5  // expect: qlen must be in .0, klen.
constexpr xl::config cfg{.d_model = 4, .klen = 3, .qlen = 4};
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

// The generators each case goes through (a checked_config is made from cfg on the way in).
constexpr xl::checked_config cc{cfg};
constexpr auto one = xl::position(cfg, 0);
static_assert(one.ok(), "Transformer-XL position");
constexpr auto table = [] {
  std::array<float, 12> out{};
  static_cast<void>(xl::fill_table<float>(cc, out));
  return out;
}();
