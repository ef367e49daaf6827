// expect-error: (in call to 'posenc::laws::failed::alibi_geometric_slopes\(5, -1, -1\)'|in call to 'alibi_geometric_slopes\(5, -1, -1\)'|value [^0-9]*6[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_head_plus_one<posenc::laws::failed::alibi_geometric_slopes>)
// require(r), the function form (kept for constexpr functions, whose results cannot be template
// arguments): Clang names the law, position, pair and element; GCC the law and the index the array
// read shows (posenc/laws/require.hpp); the twin is laws_schemes_twin.cpp.
#include <posenc/alibi.hpp>
#include <posenc/laws.hpp>

namespace laws = posenc::laws;
constexpr posenc::alibi::config cfg{.heads = 12};
// Head 5's slope 0.1% high: m_5 / (m_0 m_4) is 1.001, far past float's bound.
constexpr auto slopes() {
  auto m = posenc::alibi::make_slopes<float, 12>(cfg).value;
  m[5] *= 1.001f;
  return m;
}
constexpr auto m = slopes();
static_assert(laws::require(laws::alibi_geometric_slopes(m, cfg)));
