// One case per KERPLE precondition (kerple/validate.hpp), compiled with -DPOSENC_CASE=N: the compile
// must fail naming it (the "expect:" regex) beside the stop function below. Case 0 is the twin.
// stop-in: invalid_kerple_config
#include <posenc/kerple.hpp>

#include <array>
#include <limits>

namespace kerple = posenc::kerple;

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr kerple::log_config lcfg{.p = 1.5, .a = 0.5};
constexpr kerple::power_config pcfg{.a = 0.5, .p = 1.25};
#elif POSENC_CASE == 1  // expect: KERPLE-log p must be finite and positive
constexpr kerple::log_config lcfg{.p = -1.0, .a = 0.5};
constexpr kerple::power_config pcfg{.a = 0.5, .p = 1.25};
#elif POSENC_CASE == 2  // expect: KERPLE-log p must be finite and positive
constexpr kerple::log_config lcfg{.p = std::numeric_limits<double>::infinity(), .a = 0.5};
constexpr kerple::power_config pcfg{.a = 0.5, .p = 1.25};
#elif POSENC_CASE == 3  // expect: KERPLE-log a must be finite and at least 2.-60
constexpr kerple::log_config lcfg{.p = 1.5, .a = 0x1p-61};
constexpr kerple::power_config pcfg{.a = 0.5, .p = 1.25};
#elif POSENC_CASE == 4  // expect: KERPLE-power a must be finite and positive
constexpr kerple::log_config lcfg{.p = 1.5, .a = 0.5};
constexpr kerple::power_config pcfg{.a = 0.0, .p = 1.25};
#elif POSENC_CASE == 5  // expect: KERPLE-power p must be in .0, 2.
constexpr kerple::log_config lcfg{.p = 1.5, .a = 0.5};
constexpr kerple::power_config pcfg{.a = 0.5, .p = 2.5};
#elif POSENC_CASE == 6  // expect: KERPLE-power p must be in .0, 2.
constexpr kerple::log_config lcfg{.p = 1.5, .a = 0.5};
constexpr kerple::power_config pcfg{.a = 0.5, .p = 0.0};
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

// The generators each case goes through (a checked config is made from each head on the way in).
constexpr auto lb = kerple::log_bias<double>(lcfg, 3);
constexpr auto pb = kerple::power_bias<double>(pcfg, 3);
static_assert(lb.ok() && pb.ok(), "KERPLE biases");
constexpr auto table = [] {
  std::array<float, 8> out{};
  static_cast<void>(kerple::fill_log_bias<float>(lcfg, out));
  static_cast<void>(kerple::fill_power_bias<float>(pcfg, out));
  return out;
}();
