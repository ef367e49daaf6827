// expect-error: (in call to 'posenc::laws::failed::alibi_relative_bias\(3, 1, 1\)'|in call to 'alibi_relative_bias\(3, 1, 1\)'|expansion of [^a-z]*posenc::laws::failed::alibi_relative_bias\(3, 1, 1\).*value [^0-9]*4[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_schemes_twin.cpp.
#include <posenc/alibi.hpp>
#include <posenc/laws.hpp>

namespace laws = posenc::laws;
constexpr posenc::alibi::config cfg{.heads = 2};
// Head 1, query 3, key 1 holds the bias of distance 3 instead of 2.
constexpr auto table() {
  auto b = posenc::alibi::make_symmetric_bias_table<float, 2, 6, 6>(cfg).value;
  b[(1 * 6 + 3) * 6 + 1] = b[(1 * 6 + 3) * 6 + 0];
  return b;
}
constexpr auto b = table();
static_assert(laws::require<laws::alibi_relative_bias(laws::alibi_bias_table<float>{b, 2, 6, 6})>());
