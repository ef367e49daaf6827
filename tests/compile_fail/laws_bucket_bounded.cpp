// expect-error: (in call to 'posenc::laws::failed::bucket_bounded\(2, -1, -1\)'|in call to 'bucket_bounded\(2, -1, -1\)'|expansion of [^a-z]*posenc::laws::failed::bucket_bounded\(2, -1, -1\).*value [^0-9]*3[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_schemes_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/shaw.hpp>

namespace laws = posenc::laws;
// Shaw with k = 4: indices clip(r, -4, 4) + 4 of r = -8 .. 8, in [0, 8]; r = 2 holds 9.
constexpr int idx[17] = {0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 9, 7, 8, 8, 8, 8, 8};
static_assert(laws::require<laws::bucket_bounded(laws::bucket_table<int>{idx, -8}, laws::shaw_bucket_spec(4))>());
