// expect-error: (in call to 'pass_through\(5, -1, 20\)'|expansion of [^a-z]*posenc::laws::failed::pass_through\(5, -1, 20\).*value [^0-9]*6[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_require_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
#include <posenc/rope/apply.hpp>
#include <span>
// A kernel that rotates the 16 rotary elements of a 24-element head and writes element 20 at the
// row of position 5.
constexpr auto t = rope::make_table<float, 8, 16>(cfg).value;
constexpr laws::law_result check() {
  const auto head = laws::detail::default_head<float>(16);
  auto kernel = [](std::size_t row, const float* in, float* out) {
    posenc::math::sincos_result<float> cs[8] = {};
    for (std::size_t j = 0; j < 8; ++j) cs[j] = {t.sin[row * 16 + j], t.cos[row * 16 + j]};
    (void)rope::rotate_copy(in, out, rope::apply_shape{.heads = 1, .head_dim = 24, .rotary_dim = 16}, cs);
    if (row == 5) out[20] = 2.0f;
  };
  return laws::pass_through(laws::view(t), 24, std::span<const float>(head.data(), 24), kernel);
}
static_assert(laws::require<check()>());
