// expect-error: (in call to 'posenc::laws::failed::alibi_monotone_bias\(4, 0, 1\)'|in call to 'alibi_monotone_bias\(4, 0, 1\)'|expansion of [^a-z]*posenc::laws::failed::alibi_monotone_bias\(4, 0, 1\).*value [^0-9]*5[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_schemes_twin.cpp.
#include <posenc/alibi.hpp>
#include <posenc/laws.hpp>

namespace laws = posenc::laws;
constexpr posenc::alibi::config cfg{.heads = 2};
// Causal, head 0: query 4 to key 1 (distance 3) holds +0.5, above the bias of the nearer key 2.
constexpr auto table() {
  auto b = posenc::alibi::make_symmetric_bias_table<float, 2, 6, 6>(cfg).value;
  b[(0 * 6 + 4) * 6 + 1] = 0.5f;
  return b;
}
constexpr auto b = table();
static_assert(laws::require<laws::alibi_monotone_bias(laws::alibi_bias_table<float>{b, 2, 6, 6, 0, 0, true})>());
