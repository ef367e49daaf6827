// One case per M-RoPE and ND RoPE precondition (rope/mrope.hpp, rope/nd.hpp, its angle unit), compiled with
// -DPOSENC_CASE=N: the compile must fail naming it (the "expect:" regex) beside the stop function
// below. Case 0 is the twin.
// stop-in: invalid_rope_config
#include <array>
#include <cstdint>

#include <posenc/rope/mrope.hpp>
#include <posenc/rope/nd.hpp>

namespace rope = posenc::rope;

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr rope::mrope_config cfg{{.head_dim = 16}, {4, 2, 2}};
constexpr int axes[] = {8, 8};
#define POSENC_ND_ANGLE rope::angle_unit::turns
#elif POSENC_CASE == 1  // expect: mrope_section must sum to rotary_dim / 2
constexpr rope::mrope_config cfg{{.head_dim = 16}, {4, 2, 1}};
constexpr int axes[] = {8, 8};
#elif POSENC_CASE == 2  // expect: mrope_section entries must be non-negative
constexpr rope::mrope_config cfg{{.head_dim = 16}, {10, -2, 0}};
constexpr int axes[] = {8, 8};
#elif POSENC_CASE == 3  // expect: axes_dim entries must be even and positive
constexpr rope::mrope_config cfg{{.head_dim = 16}, {4, 2, 2}};
constexpr int axes[] = {8, 7};
#elif POSENC_CASE == 4  // expect: rope_theta .the base. must be finite and > 1
constexpr rope::mrope_config cfg{{.head_dim = 16, .rope_theta = 0.5}, {4, 2, 2}};
constexpr int axes[] = {8, 8};
#elif POSENC_CASE == 5  // expect: angle must be angle_unit::radians or angle_unit::turns
constexpr rope::mrope_config cfg{{.head_dim = 16}, {4, 2, 2}};
constexpr int axes[] = {8, 8};
#define POSENC_ND_ANGLE static_cast<rope::angle_unit>(2)
#else
#error "unknown POSENC_CASE"
#endif
#ifndef POSENC_ND_ANGLE
#define POSENC_ND_ANGLE rope::angle_unit::radians
#endif
// clang-format on

constexpr std::array<std::uint64_t, 3> thw{1, 2, 3};
constexpr auto m = [] {
  std::array<float, 16> c{}, s{};
  return rope::fill_mrope_table<float>(cfg, thw, c, s);
}();
constexpr rope::nd_config nd{.axes_dim = axes, .angle = POSENC_ND_ANGLE};  // the twin: DINOv3's turns
constexpr std::array<double, 2> p{0.5, -1};
constexpr auto n = [] {
  std::array<float, 16> c{}, s{};
  return rope::fill_nd_table<float>(nd, p, c, s);
}();
static_assert(m == posenc::status::ok && n == posenc::status::ok);
