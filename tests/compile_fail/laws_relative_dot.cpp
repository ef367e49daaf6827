// expect-error: (in call to 'relative_dot\(9, 0, -1\)'|expansion of [^a-z]*posenc::laws::failed::relative_dot\(9, 0, -1\).*value [^0-9]*10[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_require_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
// Row 9 holds position 10's entries: the block R~_8^T R~_9 is a rotation by 2 theta, not theta.
constexpr auto table() {
  auto t = rope::make_table<float, 16, 16>(cfg).value;
  for (int k = 0; k < 16; ++k) t.cos[9 * 16 + k] = t.cos[10 * 16 + k], t.sin[9 * 16 + k] = t.sin[10 * 16 + k];
  return t;
}
constexpr auto t = table();
static_assert(laws::require<laws::relative_dot(laws::view(t))>());
