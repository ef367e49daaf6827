// One translation unit per RoPE precondition: compiled once per case with -DPOSENC_CASE=N, each
// case breaking exactly one precondition of rope::validate (validate.hpp) or of a table
// (table.hpp). The test (tests/CMakeLists.txt, run_case.cmake) requires the compile to fail and the
// diagnostic to contain the words after "expect:" (a CMake regex) and the name of the function the
// failing path stops in. Case 0 is the compiling twin: the same code with a valid config.
// The comment after each #if is read by CMake: keep one case per line, "// expect: <regex>".
// stop-in: invalid_rope_config
#include <cstdint>

#include <posenc/rope/frequencies.hpp>
#include <posenc/rope/table.hpp>

namespace rope = posenc::rope;
using rope::scaling;

inline constexpr double two_ones[2] = {1.0, 1.0};
inline constexpr double one_negative[2] = {1.0, -1.0};

// The case lines are read by tests/CMakeLists.txt, one "#elif ... // expect:" per line.
// clang-format off
#if POSENC_CASE == 0  // expect: (the compiling twin)
constexpr rope::config cfg{.head_dim = 64, .rope_theta = 10000.0};
#elif POSENC_CASE == 1  // expect: head_dim must be positive
constexpr rope::config cfg{.head_dim = 0};
#elif POSENC_CASE == 2  // expect: partial_rotary_factor must be in .0, 1.
constexpr rope::config cfg{.head_dim = 64, .partial_rotary_factor = 1.5};
#elif POSENC_CASE == 3  // expect: rotary_dim exceeds head_dim
constexpr rope::config cfg{.head_dim = 64, .rotary_dim = 128};
#elif POSENC_CASE == 4  // expect: rotary dim is zero
constexpr rope::config cfg{.head_dim = 1, .partial_rotary_factor = 0.5};
#elif POSENC_CASE == 5  // expect: rotary dim must be even
constexpr rope::config cfg{.head_dim = 63};
#elif POSENC_CASE == 6  // expect: rotary dim above 65536
constexpr rope::config cfg{.head_dim = 65538};
#elif POSENC_CASE == 7  // expect: proportional applies to the default and linear rope types only
constexpr rope::config cfg{.head_dim = 64, .rope_type = scaling::ntk, .factor = 2.0, .proportional = true};
#elif POSENC_CASE == 8  // expect: proportional: no rotating pair
constexpr rope::config cfg{.head_dim = 64, .partial_rotary_factor = 0.01, .proportional = true};
#elif POSENC_CASE == 9  // expect: rope_theta .the base. must be finite and > 1
constexpr rope::config cfg{.head_dim = 64, .rope_theta = 1.0};
#elif POSENC_CASE == 10  // expect: rope_theta .the base. must be below 2.960
constexpr rope::config cfg{.head_dim = 64, .rope_theta = 0x1p961};
#elif POSENC_CASE == 11  // expect: attention_factor must be positive and finite
constexpr rope::config cfg{.head_dim = 64, .attention_factor = -1.0};
#elif POSENC_CASE == 12  // expect: position counts must be in .0, 2.53.
constexpr rope::config cfg{.head_dim = 64, .max_position_embeddings = -1};
#elif POSENC_CASE == 13  // expect: factor unset: max_position_embeddings and original_max_position_embeddings must be positive
constexpr rope::config cfg{.head_dim = 64, .rope_type = scaling::yarn};
#elif POSENC_CASE == 14  // expect: factor must be positive and finite
constexpr rope::config cfg{.head_dim = 64, .rope_type = scaling::linear, .factor = -2.0};
#elif POSENC_CASE == 15  // expect: ntk and dynamic need a rotary dim above 2
constexpr rope::config cfg{.head_dim = 2, .rope_type = scaling::ntk, .factor = 2.0};
#elif POSENC_CASE == 16  // expect: dynamic needs max_position_embeddings > 0 and seq_len >= 0
constexpr rope::config cfg{.head_dim = 64, .rope_type = scaling::dynamic, .factor = 2.0};
#elif POSENC_CASE == 17  // expect: original_max_position_embeddings must be positive
constexpr rope::config cfg{.head_dim = 64, .rope_type = scaling::llama3, .factor = 8.0};
#elif POSENC_CASE == 18  // expect: beta_fast and beta_slow must be positive
constexpr rope::config cfg{.head_dim = 64, .rope_type = scaling::yarn, .factor = 4.0,
                           .original_max_position_embeddings = 4096, .beta_slow = -1.0};
#elif POSENC_CASE == 19  // expect: beta_fast must exceed beta_slow
constexpr rope::config cfg{.head_dim = 64, .rope_type = scaling::yarn, .factor = 4.0,
                           .original_max_position_embeddings = 4096, .beta_fast = 1.0, .beta_slow = 1.0};
#elif POSENC_CASE == 20  // expect: mscale and mscale_all_dim must be finite and non-negative
constexpr rope::config cfg{.head_dim = 64, .rope_type = scaling::yarn, .factor = 4.0,
                           .original_max_position_embeddings = 4096, .mscale = -1.0};
#elif POSENC_CASE == 21  // expect: longrope needs original_max_position_embeddings >= 2
constexpr rope::config cfg{.head_dim = 4, .rope_type = scaling::longrope, .factor = 4.0,
                           .original_max_position_embeddings = 1, .short_factor = two_ones, .long_factor = two_ones};
#elif POSENC_CASE == 22  // expect: short_factor must have rotary_dim/2 entries
constexpr rope::config cfg{.head_dim = 4, .rope_type = scaling::longrope, .factor = 4.0,
                           .original_max_position_embeddings = 4096, .long_factor = two_ones};
#elif POSENC_CASE == 23  // expect: long_factor must have rotary_dim/2 entries
constexpr rope::config cfg{.head_dim = 4, .rope_type = scaling::longrope, .factor = 4.0,
                           .original_max_position_embeddings = 4096, .short_factor = two_ones};
#elif POSENC_CASE == 24  // expect: short_factor entries must be positive and finite
constexpr rope::config cfg{.head_dim = 4, .rope_type = scaling::longrope, .factor = 4.0,
                           .original_max_position_embeddings = 4096, .short_factor = one_negative, .long_factor = two_ones};
#elif POSENC_CASE == 25  // expect: long_factor entries must be positive and finite
constexpr rope::config cfg{.head_dim = 4, .rope_type = scaling::longrope, .factor = 4.0,
                           .original_max_position_embeddings = 4096, .short_factor = two_ones, .long_factor = one_negative};
#elif POSENC_CASE == 26  // expect: low_freq_factor and high_freq_factor must be positive
constexpr rope::config cfg{.head_dim = 64, .rope_type = scaling::llama3, .factor = 8.0,
                           .original_max_position_embeddings = 8192, .low_freq_factor = -1.0};
#elif POSENC_CASE == 27  // expect: high_freq_factor must not be below low_freq_factor
constexpr rope::config cfg{.head_dim = 64, .rope_type = scaling::llama3, .factor = 8.0,
                           .original_max_position_embeddings = 8192, .low_freq_factor = 4.0, .high_freq_factor = 2.0};
#else
#error "unknown POSENC_CASE"
#endif
// clang-format on

// The generator each case goes through: the frequency of pair 0 (a checked_config is made from
// cfg on the way in). The value is used, so that the compiler must evaluate it.
constexpr auto inv_freq_0 = rope::inv_freq(cfg, 0);
static_assert(inv_freq_0.ok(), "RoPE frequency");
