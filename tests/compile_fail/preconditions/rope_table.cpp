// One translation unit per precondition of a RoPE table (rope/fill.hpp, rope/table.hpp), compiled
// once per case with -DPOSENC_CASE=N (tests/CMakeLists.txt, run_case.cmake): each case must fail to
// compile, its diagnostic naming the precondition (the regex after "expect:") and the function the
// failing path stops in. Case 0 is the compiling twin. At run time the same calls return a status
// (tests/test_rope_table.cpp); in constant evaluation a table cannot silently hold garbage.
// stop-in: invalid_rope_table
#include <array>
#include <cstdint>
#include <span>

#include <posenc/numeric/float16.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
using rope::scaling;

constexpr rope::config dflt{.head_dim = 16, .rope_theta = 10000.0};
constexpr rope::config big_af{.head_dim = 16,
                              .rope_theta = 10000.0,
                              .rope_type = scaling::yarn,
                              .factor = 4.0,
                              .original_max_position_embeddings = 4096,
                              .attention_factor = 70000.0};

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr auto t = rope::make_table<float, 2, 16>(dflt, {.start = (std::uint64_t{1} << 21) - 1});
#elif POSENC_CASE == 1  // expect: table positions past 2.21
constexpr auto t = rope::make_table<float, 2, 16>(dflt, {.start = std::uint64_t{1} << 21});
#elif POSENC_CASE == 2  // expect: table positions past 2.21
constexpr std::array<std::uint64_t, 2> slots{5, (std::uint64_t{1} << 21) + 1};
constexpr auto t = rope::make_table<float, 2, 16>(dflt, slots);
#elif POSENC_CASE == 3  // expect: table RotaryDim differs from rotary_dim.cfg.
constexpr auto t = rope::make_table<float, 2, 32>(dflt);
#elif POSENC_CASE == 4  // expect: attention_factor . cos or . sin exceeds the largest finite value  stop-in: folded_entry_overflows_table_type
constexpr auto t = rope::make_table<posenc::float16, 2, 16>(big_af, {.fold_attention = true});
#elif POSENC_CASE == 5  // expect: table span size is not a multiple of the row width
constexpr auto t = [] {
  std::array<float, 40> c{}, s{};
  return rope::fill_table<float>(dflt, std::span<float>(c), std::span<float>(s));
}();
#elif POSENC_CASE == 6  // expect: table cos and sin spans differ in size
constexpr auto t = [] {
  std::array<float, 32> c{};
  std::array<float, 16> s{};
  return rope::fill_table<float>(dflt, std::span<float>(c), std::span<float>(s));
}();
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

// The value is used, so that the compiler must evaluate it.
static_assert(sizeof(t) > 0, "RoPE table");
