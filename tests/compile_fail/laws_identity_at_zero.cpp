// expect-error: (in call to 'identity_at_zero\(0, 0, 0\)'|expansion of [^a-z]*posenc::laws::failed::identity_at_zero\(0, 0, 0\).*value [^0-9]*1[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_require_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
// Rows built from position 1 but described as starting at 0 (an off-by-one export).
constexpr auto t = rope::make_table<float, 8, 16>(cfg, {.start = 1}).value;
constexpr auto relabelled() {
  auto u = t;
  for (std::size_t i = 0; i < 8; ++i) u.position[i] = static_cast<std::uint32_t>(i);
  return u;
}
constexpr auto u = relabelled();
static_assert(laws::require<laws::identity_at_zero(laws::view(u))>());
