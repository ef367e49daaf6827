// One case per XPOS precondition (xpos/validate.hpp), and a float16 table that would overflow,
// compiled with -DPOSENC_CASE=N: the compile must fail naming the problem beside the stop function
// (the file's, or the case's own "stop-in:"): for the overflow, the position -4533 (GCC prints
// it plus one as an array index, Clang as the argument). Case 0 is the twin.
// stop-in: invalid_xpos_config
#include <posenc/numeric/float16.hpp>
#include <posenc/xpos.hpp>

namespace xpos = posenc::xpos;

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr xpos::config cfg{.head_dim = 8};
constexpr std::int64_t first = -4532;  // zeta_0^(-4532/512) still fits float16
#elif POSENC_CASE == 1  // expect: head_dim must be even and in .2, 65536.
constexpr xpos::config cfg{.head_dim = 7};
constexpr std::int64_t first = 0;
#elif POSENC_CASE == 2  // expect: scale_base must be in .1, 2.30.
constexpr xpos::config cfg{.head_dim = 8, .scale_base = 0};
constexpr std::int64_t first = 0;
#elif POSENC_CASE == 3  // expect: 4534  stop-in: overflow_at_minus_position_plus_one|scale_overflows_the_table_type.-4533
constexpr xpos::config cfg{.head_dim = 8};
constexpr std::int64_t first = -4533;  // one position too far for float16
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

constexpr auto table = xpos::make_scale_table<posenc::float16, 2, 4>(cfg, first);
static_assert(table.ok(), "XPOS scale table");
