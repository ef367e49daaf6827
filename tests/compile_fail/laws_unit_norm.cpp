// expect-error: (in call to 'unit_norm\(3, 5, 5\)'|expansion of [^a-z]*posenc::laws::failed::unit_norm\(3, 5, 5\).*value [^0-9]*4[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_require_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
// cos of pair 5 at position 3 set to 1.25: off the unit circle.
constexpr auto table() {
  auto t = rope::make_table<float, 8, 16>(cfg).value;
  t.cos[3 * 16 + 5] = t.cos[3 * 16 + 5 + 8] = 1.25f;
  return t;
}
constexpr auto t = table();
static_assert(laws::require<laws::unit_norm(laws::view(t))>());
