// expect-error: (in call to 'posenc::laws::failed::bucket_monotone\(-50, -1, -1\)'|in call to 'bucket_monotone\(-50, -1, -1\)'|value [^0-9]*51[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_minus_position_plus_one<posenc::laws::failed::bucket_monotone>)
// require(r), the function form (kept for constexpr functions, whose results cannot be template
// arguments): Clang names the law, position, pair and element; GCC the law and the index the array
// read shows (posenc/laws/require.hpp); the twin is laws_schemes_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/t5.hpp>

namespace laws = posenc::laws;
constexpr posenc::t5::config cfg{};  // 32 buckets, 128, bidirectional
// r = -50 (a key 50 before the query) in bucket 3, below its nearer neighbour -49.
constexpr auto table() {
  auto b = posenc::t5::make_buckets<200>(cfg).value;
  b[200 - 50] = 3;
  return b;
}
constexpr auto b = table();
static_assert(laws::require(laws::bucket_monotone(laws::bucket_table<int>{b, -200}, laws::t5_bucket_spec(cfg))));
