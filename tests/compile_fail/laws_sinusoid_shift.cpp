// expect-error: (in call to 'posenc::laws::failed::sinusoid_shift\(9, 0, 0\)'|in call to 'sinusoid_shift\(9, 0, 0\)'|expansion of [^a-z]*posenc::laws::failed::sinusoid_shift\(9, 0, 0\).*value [^0-9]*10[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_schemes_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/sinusoidal.hpp>

namespace laws = posenc::laws;
namespace sn = posenc::sinusoidal;
constexpr sn::config cfg{.dim = 16};
// Row 9 holds position 10: P(9) = M_1 P(8) fails there.
constexpr auto table() {
  auto t = sn::make_table<float, 16, 16>(cfg).value;
  for (int k = 0; k < 16; ++k) t[9 * 16 + k] = t[10 * 16 + k];
  return t;
}
constexpr auto t = table();
static_assert(laws::require<laws::sinusoid_shift(laws::sinusoid_table<float>{t, cfg})>());
