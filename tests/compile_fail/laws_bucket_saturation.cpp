// expect-error: (in call to 'posenc::laws::failed::bucket_saturation\(-150, -1, -1\)'|in call to 'bucket_saturation\(-150, -1, -1\)'|failed::bucket_saturation\(.*value [^0-9]*151[^0-9]* is outside the bounds of array [^a-z]*posenc::laws::failed::first_failure_minus_position_plus_one)
// A failing law in a static_assert names itself and its first failing index in the compiler's
// output (posenc/laws/require.hpp); the twin is laws_schemes_twin.cpp.
#include <posenc/laws.hpp>
#include <posenc/t5.hpp>

namespace laws = posenc::laws;
constexpr posenc::t5::config cfg{.bidirectional = false};  // 32 buckets, 128, causal
// Past max_distance every earlier key is bucket 31; r = -150 holds 30.
constexpr auto table() {
  auto b = posenc::t5::make_buckets<200>(cfg).value;
  b[200 - 150] = 30;
  return b;
}
constexpr auto b = table();
static_assert(laws::require(laws::bucket_saturation(laws::bucket_table<int>{b, -200}, laws::t5_bucket_spec(cfg))));
