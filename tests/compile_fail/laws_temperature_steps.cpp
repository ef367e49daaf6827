// expect-error: (in call to 'posenc::laws::failed::temperature_steps\(48, -1, -1\)'|in call to 'temperature_steps\(48, -1, -1\)'|expansion of [^a-z]*posenc::laws::failed::temperature_steps\(48, -1, -1\).*value [^0-9]*49[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position
// in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_schemes_twin.cpp.
#include <posenc/attn_temperature.hpp>
#include <posenc/laws/require.hpp>

namespace laws = posenc::laws;
constexpr posenc::attn_temperature::config cfg{.floor_scale = 16, .attn_scale = 0.25};
// The step at p = 47 taken one position late, at 48 (positions counted from 1).
constexpr auto table() {
  auto s = posenc::attn_temperature::make_scales<float, 64>(cfg).value;
  s[47] = s[46];
  return s;
}
constexpr auto s = table();
static_assert(laws::require<laws::temperature_steps(laws::temperature_table<float>{s, 0, 16})>());
