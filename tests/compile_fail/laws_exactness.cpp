// expect-error: (in call to 'exactness\(6, 2, 2\)'|expansion of [^a-z]*posenc::laws::failed::exactness\(6, 2, 2\).*value [^0-9]*7[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_require_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
// sin of pair 2 at position 6 negated: only exactness sees a sign.
constexpr auto table() {
  auto t = rope::make_table<float, 8, 16>(cfg).value;
  t.sin[6 * 16 + 2] = -t.sin[6 * 16 + 2];
  t.sin[6 * 16 + 2 + 8] = -t.sin[6 * 16 + 2 + 8];
  return t;
}
constexpr auto t = table();
static_assert(laws::unit_norm(laws::view(t)).holds);
static_assert(laws::require<laws::exactness(laws::view(t), cfg)>());
