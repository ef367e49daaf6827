// expect-error: (in call to 'parity\(5, 2, 2\)'|expansion of [^a-z]*posenc::laws::failed::parity\(5, 2, 2\).*value [^0-9]*6[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_require_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
// A table covering [-8, 8) mirrored from posenc's rows 0..8, with sin of pair 2 at +5 negated.
struct signed_table {
  float cos[16][16], sin[16][16];
};
constexpr signed_table table() {
  const auto t = rope::make_table<float, 9, 16>(cfg).value;
  signed_table s{};
  for (int r = 0; r < 16; ++r)
    for (int k = 0; k < 16; ++k) {
      const int src = r < 8 ? 8 - r : r - 8;
      s.cos[r][k] = t.cos[src * 16 + k];
      s.sin[r][k] = r < 8 ? -t.sin[src * 16 + k] : t.sin[src * 16 + k];
    }
  s.sin[8 + 5][2] = -s.sin[8 + 5][2];
  return s;
}
constexpr signed_table s = table();
static_assert(laws::require<laws::parity(laws::signed_view(s.cos, s.sin, rope::layout::half_split, -8))>());
