// expect-error: (in call to 'pair_copies\(1, 0, 1\)'|expansion of [^a-z]*posenc::laws::failed::pair_copies\(1, 0, 1\).*value [^0-9]*2[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_require_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
// A half-split table declared interleaved: the pairs do not repeat where the layout says.
constexpr auto t = rope::make_table<float, 8, 16, rope::layout::half_split>(cfg).value;
struct as_interleaved : laws::posenc_table_view<float, 8, 16, rope::layout::half_split> {
  constexpr rope::layout layout() const noexcept { return rope::layout::interleaved; }
};
static_assert(laws::require<laws::pair_copies(as_interleaved{{&t}})>());
