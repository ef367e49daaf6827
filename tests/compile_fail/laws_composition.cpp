// expect-error: (in call to 'composition\(1, 0, -1\)'|expansion of [^a-z]*posenc::laws::failed::composition\(1, 0, -1\).*value [^0-9]*2[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_require_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
// Rows built from position 1, described as from 0: R~_0 R~_1 holds R(3 theta), row 1 R(2 theta).
constexpr auto t = rope::make_table<float, 16, 16>(cfg, {.start = 1}).value;
static_assert(
    laws::require<laws::composition(laws::span_table<float>{t.cos, t.sin, 16, rope::layout::half_split, 0})>());
