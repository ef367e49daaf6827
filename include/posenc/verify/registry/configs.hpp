// registry/configs.hpp: the RoPE configs the law runner checks (design.md section 3, level 2: one
// reusable checker per law, run over every model of the concept, as Boost.Hana's test/_include/laws).
// A config is a type with `static constexpr const char* name` and `static constexpr rope::config
// config`. `variants` has one config per RoPE variant, `curated` the published model configs (the
// values of tests/test_rope_frequencies.cpp and pe-formulas.md 1.1-1.3), `all` both. ("Scheme" is
// kept for the encodings themselves: RoPE, ALiBi, T5, ...; every config here is one RoPE config.)
// Which laws each obeys is not listed here: each law says (registry/laws.hpp, applies_to).
#pragma once

#include <boost/hana/concat.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <array>

#include "posenc/rope/config.hpp"
#include "posenc/rope/models.hpp"

namespace posenc::verify::registry {

namespace hana = boost::hana;
using rope::scaling;

// A small synthetic LongRoPE (16 pairs): not monotone on purpose (a dip at pair 5).
inline constexpr std::array<double, 16> small_long_factor{1.0, 1.0, 1.5,  2.0,  3.0,  0.5,  4.0,  6.0,
                                                          8.0, 8.0, 12.0, 16.0, 16.0, 24.0, 32.0, 32.0};
inline constexpr std::array<double, 16> small_short_factor{1.0, 1.0, 1.0, 1.25, 1.25, 1.5, 1.5, 2.0,
                                                           2.0, 2.0, 2.5, 2.5,  3.0,  3.0, 3.0, 3.0};

namespace configs {

// ---- one per variant ----
struct default_rope {
  static constexpr const char* name = "default";
  static constexpr rope::config config{.head_dim = 128, .rope_theta = 10000.0};
};
struct linear {
  static constexpr const char* name = "linear x4";
  static constexpr rope::config config{
      .head_dim = 128, .rope_theta = 10000.0, .rope_type = scaling::linear, .factor = 4.0};
};
struct ntk {
  static constexpr const char* name = "ntk x4";
  static constexpr rope::config config{
      .head_dim = 128, .rope_theta = 10000.0, .rope_type = scaling::ntk, .factor = 4.0};
};
struct dynamic {
  static constexpr const char* name = "dynamic x2 at 10000";
  static constexpr rope::config config{.head_dim = 128,
                                       .rope_theta = 10000.0,
                                       .rope_type = scaling::dynamic,
                                       .factor = 2.0,
                                       .max_position_embeddings = 4096,
                                       .seq_len = 10000};
};
struct yarn {
  static constexpr const char* name = "yarn x4 over 4096";
  static constexpr rope::config config{.head_dim = 128,
                                       .rope_theta = 10000.0,
                                       .rope_type = scaling::yarn,
                                       .factor = 4.0,
                                       .original_max_position_embeddings = 4096};
};
struct yarn_untruncated {
  static constexpr const char* name = "yarn x4 untruncated";
  static constexpr rope::config config{.head_dim = 128,
                                       .rope_theta = 10000.0,
                                       .rope_type = scaling::yarn,
                                       .factor = 4.0,
                                       .original_max_position_embeddings = 4096,
                                       .truncate = false};
};
struct longrope {
  static constexpr const char* name = "longrope (synthetic, long factors)";
  static constexpr rope::config config{.head_dim = 32,
                                       .rope_theta = 10000.0,
                                       .rope_type = scaling::longrope,
                                       .original_max_position_embeddings = 2048,
                                       .max_position_embeddings = 32768,
                                       .seq_len = 32768,
                                       .short_factor = small_short_factor,
                                       .long_factor = small_long_factor};
};
struct llama3 {
  static constexpr const char* name = "llama3 x4 over 4096";
  static constexpr rope::config config{.head_dim = 64,
                                       .rope_theta = 10000.0,
                                       .rope_type = scaling::llama3,
                                       .factor = 4.0,
                                       .original_max_position_embeddings = 4096};
};
struct partial {
  static constexpr const char* name = "partial rotary 0.5";
  static constexpr rope::config config{.head_dim = 128, .rope_theta = 10000.0, .partial_rotary_factor = 0.5};
};
struct proportional {
  static constexpr const char* name = "proportional (Gemma-style, 0.25 of 256)";
  static constexpr rope::config config{
      .head_dim = 256, .rope_theta = 1000000.0, .partial_rotary_factor = 0.25, .proportional = true};
};

// ---- curated published configs (pe-formulas.md 1.1-1.3; tests/test_rope_frequencies.cpp) ----
struct llama2_7b {
  static constexpr const char* name = "Llama-2-7B";
  static constexpr rope::config config = rope::models::llama2_7b;
};
struct llama31_8b {
  static constexpr const char* name = "Llama-3.1-8B";
  static constexpr rope::config config = rope::models::llama3_1_8b;
};
struct llama32_1b {
  static constexpr const char* name = "Llama-3.2-1B";
  static constexpr rope::config config = rope::models::llama3_2_1b;
};
struct qwen25_7b_yarn {
  static constexpr const char* name = "Qwen2.5-7B YaRN x4 over 32768";
  static constexpr rope::config config = rope::models::qwen2_5_7b_yarn;
};
struct deepseek_v3 {
  static constexpr const char* name = "DeepSeek-V3";
  static constexpr rope::config config = rope::models::deepseek_v3;
};
struct phi3_short {
  static constexpr const char* name = "Phi-3 LongRoPE (short factors)";
  static constexpr rope::config config = rope::models::phi3_vision_128k_short;
};
struct phi3_long {
  static constexpr const char* name = "Phi-3 LongRoPE (long factors)";
  static constexpr rope::config config = rope::models::phi3_vision_128k_long;
};
struct gpt_oss {
  static constexpr const char* name = "gpt-oss";
  static constexpr rope::config config = rope::models::gpt_oss;
};
struct pythia {
  static constexpr const char* name = "Pythia (rotary_pct 0.25)";
  static constexpr rope::config config = rope::models::pythia;
};
struct gptj {
  static constexpr const char* name = "GPT-J (rotary_dim 64 of 256)";
  static constexpr rope::config config = rope::models::gpt_j;
};

}  // namespace configs

inline constexpr auto variants =
    hana::tuple<hana::type<configs::default_rope>, hana::type<configs::linear>, hana::type<configs::ntk>,
                hana::type<configs::dynamic>, hana::type<configs::yarn>, hana::type<configs::yarn_untruncated>,
                hana::type<configs::longrope>, hana::type<configs::llama3>, hana::type<configs::partial>,
                hana::type<configs::proportional>>{};
inline constexpr auto curated =
    hana::tuple<hana::type<configs::llama2_7b>, hana::type<configs::llama31_8b>, hana::type<configs::llama32_1b>,
                hana::type<configs::qwen25_7b_yarn>, hana::type<configs::deepseek_v3>, hana::type<configs::phi3_short>,
                hana::type<configs::phi3_long>, hana::type<configs::gpt_oss>, hana::type<configs::pythia>,
                hana::type<configs::gptj>>{};
inline constexpr auto all = hana::concat(variants, curated);

}  // namespace posenc::verify::registry
