// expect-error: (in call to 'posenc::laws::failed::bucket_sign_partition\(5, -1, -1\)'|in call to 'bucket_sign_partition\(5, -1, -1\)'|expansion of [^a-z]*posenc::laws::failed::bucket_sign_partition\(5, -1, -1\).*value [^0-9]*6[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_position_plus_one)
// require<law(t)>(), the template form: a failing law names itself and its first failure's position,
// pair and element in the output of GCC and Clang alike (posenc/laws/require.hpp); the twin is laws_schemes_twin.cpp.
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
static_assert(laws::require<laws::bucket_sign_partition(laws::bucket_table<std::int64_t>{b, -39},
                                                        laws::deberta_bucket_spec(cfg))>());
