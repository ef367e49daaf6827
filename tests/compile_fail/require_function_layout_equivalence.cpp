// expect-error: (in call to 'layout_equivalence\(2, 3, 6\)'|value [^0-9]*3[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one<posenc::laws::failed::layout_equivalence>)
// require(r), the function form (kept for constexpr functions, whose results cannot be template
// arguments): Clang names the law, position, pair and element; GCC the law and the index the array
// read shows (posenc/laws/require.hpp); the twin is laws_require_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
// The interleaved table's element 6 (pair 3, component 0) at position 2 is one ulp off.
constexpr auto hs = rope::make_table<float, 8, 16, rope::layout::half_split>(cfg).value;
constexpr auto il_table() {
  auto t = rope::make_table<float, 8, 16, rope::layout::interleaved>(cfg).value;
  t.cos[2 * 16 + 6] = __builtin_bit_cast(float, __builtin_bit_cast(unsigned, t.cos[2 * 16 + 6]) + 1u);
  return t;
}
constexpr auto il = il_table();
static_assert(laws::require(laws::layout_equivalence(laws::view(il), laws::view(hs))));
