// expect-error: (in call to 'exactness\(-1, -1, -1\)'|outside the bounds of array [^a-z]*posenc::laws::failed::table_shape_or_description_invalid<posenc::laws::failed::exactness>)
// require(r), the function form (kept for constexpr functions, whose results cannot be template
// arguments): Clang names the law, position, pair and element; GCC the law and the index the array
// read shows (posenc/laws/require.hpp); the twin is laws_require_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
// The description is not a valid RoPE config (rope_theta must exceed 1).
constexpr auto t = rope::make_table<float, 8, 16>(cfg).value;
constexpr rope::config wrong{.head_dim = 16, .rope_theta = 1.0};
static_assert(laws::require(laws::exactness(laws::view(t), wrong)));
