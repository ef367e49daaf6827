// One case per T5 bucket precondition (t5/validate.hpp), compiled with -DPOSENC_CASE=N: the compile
// must fail naming it (the "expect:" regex) beside the stop function below. Case 0 is the twin.
// stop-in: invalid_t5_config
#include <posenc/t5.hpp>

namespace t5 = posenc::t5;

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr t5::config cfg{};
#elif POSENC_CASE == 1  // expect: relative_attention_num_buckets must be at least 2 .4 when bidirectional.
constexpr t5::config cfg{.relative_attention_num_buckets = 3};
#elif POSENC_CASE == 2  // expect: relative_attention_num_buckets must be at most 4096
constexpr t5::config cfg{.relative_attention_num_buckets = 8192};
#elif POSENC_CASE == 3  // expect: relative_attention_max_distance must exceed the exact buckets
constexpr t5::config cfg{.relative_attention_num_buckets = 32, .relative_attention_max_distance = 8};
#elif POSENC_CASE == 4  // expect: relative_attention_max_distance must be at most 2.40
constexpr t5::config cfg{.relative_attention_max_distance = std::int64_t{1} << 41};
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

// The generators each case goes through (a checked_config is made from cfg on the way in).
constexpr auto table = t5::make_buckets<16>(cfg);
constexpr auto one = t5::bucket(cfg, -20);
static_assert(one.ok(), "T5 bucket");
