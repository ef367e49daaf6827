// expect-error: (in call to 'composition\(1, 0, -1\)'|failed::composition\(.*value [^0-9]*2[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// A failing law in a static_assert names itself and its first failing index in the compiler's
// output (posenc/laws/require.hpp); the twin is laws_require_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
// Rows built from position 1, described as from 0: R~_0 R~_1 holds R(3 theta), row 1 R(2 theta).
constexpr auto t = rope::make_table<float, 16, 16>(cfg, {.start = 1}).value;
static_assert(laws::require(laws::composition(laws::span_table<float>{t.cos, t.sin, 16, rope::layout::half_split, 0})));
