// expect-error: (in call to 'posenc::laws::failed::bucket_sign_partition\(5, -1, -1\)'|in call to 'bucket_sign_partition\(5, -1, -1\)'|failed::bucket_sign_partition\(.*value [^0-9]*6[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// A failing law in a static_assert names itself and its first failing index in the compiler's
// output (posenc/laws/require.hpp); the twin is laws_schemes_twin.cpp.
#include <posenc/deberta.hpp>
#include <posenc/laws.hpp>

namespace laws = posenc::laws;
constexpr posenc::deberta::config cfg{.position_buckets = 16, .max_relative_positions = 40};
// r = 5 (query after key) in bucket -5, the other side's.
constexpr auto table() {
  auto b = posenc::deberta::make_buckets<39>(cfg).value;
  b[39 + 5] = -5;
  return b;
}
constexpr auto b = table();
static_assert(laws::require(laws::bucket_sign_partition(laws::bucket_table<std::int64_t>{b, -39},
                                                        laws::deberta_bucket_spec(cfg))));
