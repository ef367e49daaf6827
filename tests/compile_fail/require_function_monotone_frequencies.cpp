// expect-error: (in call to 'monotone_frequencies\(-1, 3, -1\)'|value [^0-9]*4[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_pair_plus_one<posenc::laws::failed::monotone_frequencies>)
// require(r), the function form (kept for constexpr functions, whose results cannot be template
// arguments): Clang names the law, position, pair and element; GCC the law and the index the array
// read shows (posenc/laws/require.hpp); the twin is laws_require_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
namespace laws = posenc::laws;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};
// Frequencies 3 and 2 are equal: not strictly decreasing at pair 3.
constexpr double inv_freq[5] = {1.0, 0.5, 0.25, 0.25, 0.125};
static_assert(laws::require(laws::monotone_frequencies(inv_freq)));
