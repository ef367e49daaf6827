// expect-error: (in call to 'posenc::laws::failed::xpos_relative_scale\(6, 2, -1\)'|in call to 'xpos_relative_scale\(6, 2, -1\)'|expansion of [^a-z]*posenc::laws::failed::xpos_relative_scale\(6, 2, -1\).*value [^0-9]*7[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_schemes_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>
#include <posenc/xpos.hpp>

namespace laws = posenc::laws;
namespace rope = posenc::rope;
constexpr rope::config rcfg{.head_dim = 16, .rope_theta = 10000.0};
constexpr posenc::xpos::config xcfg{.head_dim = 16};
constexpr auto rot = rope::make_table<float, 16, 16, rope::layout::interleaved>(rcfg).value;
constexpr auto inv = posenc::xpos::make_scale_table<float, 16, 8>(xcfg, 0, true).value;
// q's scale of pair 2 at position 6 is 1% high.
constexpr auto scales() {
  auto s = posenc::xpos::make_scale_table<float, 16, 8>(xcfg).value;
  s[6 * 8 + 2] *= 1.01f;
  return s;
}
constexpr auto sc = scales();
static_assert(laws::require<laws::xpos_relative_scale(laws::view(rot), std::span<const float>(sc),
                                                      std::span<const float>(inv))>());
