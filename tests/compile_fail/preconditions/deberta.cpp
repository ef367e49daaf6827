// One case per DeBERTa bucket precondition (deberta/validate.hpp), compiled with -DPOSENC_CASE=N:
// the compile must fail naming it beside the stop function below. Case 0 is the twin.
// stop-in: invalid_deberta_config
#include <posenc/deberta.hpp>

namespace deberta = posenc::deberta;

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr deberta::config cfg{};
#elif POSENC_CASE == 1  // expect: position_buckets must be in .2, 65536.
constexpr deberta::config cfg{.position_buckets = 1};
#elif POSENC_CASE == 2  // expect: max_relative_positions - 1 must exceed position_buckets / 2
constexpr deberta::config cfg{.position_buckets = 256, .max_relative_positions = 100};
#elif POSENC_CASE == 3  // expect: max_relative_positions must be at most 2.31
constexpr deberta::config cfg{.max_relative_positions = std::int64_t{1} << 32};
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

// The generators each case goes through (a checked_config is made from cfg on the way in).
constexpr auto table = deberta::make_buckets<8>(cfg);
constexpr auto one = deberta::bucket(cfg, 300);
static_assert(one.ok(), "DeBERTa bucket");
