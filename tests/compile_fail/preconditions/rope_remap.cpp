// One case per precondition of ReRoPE, Leaky ReRoPE and StreamingLLM's cache (rope/rerope.hpp,
// rope/leaky_rerope.hpp, rope/streaming_cache.hpp), compiled with -DPOSENC_CASE=N: the compile must
// fail naming the precondition (the "expect:" regex) beside the function the failing path stops in
// (the case's "stop-in:"). Case 0 is the compiling twin: the same generators with valid parameters.
// stop-in: invalid_rerope_config
#include <array>
#include <cstdint>

#include <posenc/rope/leaky_rerope.hpp>
#include <posenc/rope/rerope.hpp>
#include <posenc/rope/streaming_cache.hpp>

namespace rope = posenc::rope;

constexpr rope::config plain{.head_dim = 8, .rope_theta = 10000.0};
constexpr rope::config yarn{
    .head_dim = 8, .rope_type = rope::scaling::yarn, .factor = 4.0, .original_max_position_embeddings = 4096};

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr std::uint64_t window = 4, query = 9, key = 2;
constexpr rope::leaky_rerope_config leaky{.window = 4, .scaling_factor = 3};
constexpr rope::streaming_cache_config stream{.start_size = 2, .recent_size = 4};
constexpr rope::config leaky_plain = plain;
#elif POSENC_CASE == 1  // expect: ReRoPE window w must be at least 1
constexpr std::uint64_t window = 0, query = 9, key = 2;
constexpr rope::leaky_rerope_config leaky{.window = 4, .scaling_factor = 3};
constexpr rope::streaming_cache_config stream{.start_size = 2, .recent_size = 4};
constexpr rope::config leaky_plain = plain;
#elif POSENC_CASE == 2  // expect: ReRoPE is causal: the key must not follow the query
constexpr std::uint64_t window = 4, query = 2, key = 9;
constexpr rope::leaky_rerope_config leaky{.window = 4, .scaling_factor = 3};
constexpr rope::streaming_cache_config stream{.start_size = 2, .recent_size = 4};
constexpr rope::config leaky_plain = plain;
#elif POSENC_CASE == 3  // expect: Leaky ReRoPE scaling_factor k must be an integer >= 2  stop-in: invalid_leaky_rerope_config
constexpr std::uint64_t window = 4, query = 9, key = 2;
constexpr rope::leaky_rerope_config leaky{.window = 4, .scaling_factor = 1};
constexpr rope::streaming_cache_config stream{.start_size = 2, .recent_size = 4};
constexpr rope::config leaky_plain = plain;
#elif POSENC_CASE == 4  // expect: Leaky ReRoPE window w must be at least 1  stop-in: invalid_leaky_rerope_config
constexpr std::uint64_t window = 4, query = 9, key = 2;
constexpr rope::leaky_rerope_config leaky{.window = 0, .scaling_factor = 3};
constexpr rope::streaming_cache_config stream{.start_size = 2, .recent_size = 4};
constexpr rope::config leaky_plain = plain;
#elif POSENC_CASE == 5  // expect: Leaky ReRoPE k . w must be at most 2.21  stop-in: invalid_leaky_rerope_config
constexpr std::uint64_t window = 4, query = 9, key = 2;
constexpr rope::leaky_rerope_config leaky{.window = 1 << 20, .scaling_factor = 3};
constexpr rope::streaming_cache_config stream{.start_size = 2, .recent_size = 4};
constexpr rope::config leaky_plain = plain;
#elif POSENC_CASE == 6  // expect: Leaky ReRoPE needs a default or linear RoPE config  stop-in: invalid_leaky_rerope_config
constexpr std::uint64_t window = 4, query = 9, key = 2;
constexpr rope::leaky_rerope_config leaky{.window = 4, .scaling_factor = 3};
constexpr rope::streaming_cache_config stream{.start_size = 2, .recent_size = 4};
constexpr rope::config leaky_plain = yarn;
#elif POSENC_CASE == 7  // expect: StreamingLLM recent_size must be at least 1  stop-in: invalid_streaming_cache_config
constexpr std::uint64_t window = 4, query = 9, key = 2;
constexpr rope::leaky_rerope_config leaky{.window = 4, .scaling_factor = 3};
constexpr rope::streaming_cache_config stream{.start_size = 2, .recent_size = 0};
constexpr rope::config leaky_plain = plain;
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

// The generators each case goes through.
constexpr auto rerope_table = rope::make_rerope_table<float, window, 8>(plain);
constexpr auto rel = rope::rerope_relative_position(rope::rerope_config{.window = 4}, query, key);
constexpr auto leaky_table = [] {
  std::array<float, 16 * 8> c{}, s{};
  return rope::fill_leaky_rerope_table<float>(leaky_plain, leaky, c, s);
}();
constexpr auto step = rope::make_streaming_table<float, 7, 8>(plain, stream, 9);
static_assert(rerope_table.ok() && rel.ok() && leaky_table == posenc::status::ok && step.ok());
