// expect-error: (in call to 'posenc::laws::failed::sinusoid_relative_dot\(-4, -1, -1\)'|in call to 'sinusoid_relative_dot\(-4, -1, -1\)'|expansion of [^a-z]*posenc::laws::failed::sinusoid_relative_dot\(-4, -1, -1\).*value [^0-9]*5[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_minus_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_schemes_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/sinusoidal.hpp>

namespace laws = posenc::laws;
namespace sn = posenc::sinusoidal;
constexpr sn::config cfg{.dim = 16, .exponent = sn::exponent::fairseq, .layout = sn::layout::concat};
// Positions -8 .. 7; the cos of pair 1 at position -3 scaled by 1.25: the dot of rows -4 and -3
// is the first to stray.
constexpr auto table() {
  auto t = sn::make_table<double, 16, 16>(cfg, -8).value;
  t[5 * 16 + 8 + 1] *= 1.25;
  return t;
}
constexpr auto t = table();
static_assert(laws::require<laws::sinusoid_relative_dot(laws::sinusoid_table<double>{t, cfg, -8})>());
