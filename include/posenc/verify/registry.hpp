// registry.hpp: the Boost.Hana registry of RoPE configs and of the laws each one must obey
// (design.md section 3, level 2; the habit of Boost.Hana's test/_include/laws: one reusable checker
// per law, run over every model of the concept).
//
//   namespace reg = posenc::verify::registry;
//   hana::for_each(reg::all, [](auto s) {
//     using S = typename decltype(s)::type;      // S::name, S::config (constexpr rope::config)
//     if constexpr (reg::applies_v<S, reg::law::yarn_ramp>) { ... laws::check_yarn_ramp(S::config) ... }
//   });
//
// A config is a type in namespace configs with `static constexpr const char* name`, `static
// constexpr rope::config config` and `using laws = law_list<...>` (a hana::tuple of hana::type<law
// tag>), queried with applies(hana::type_c<S>, hana::type_c<Law>) (a hana::bool_) or
// applies_v<S, Law>. ("Scheme" is kept for the encodings themselves: RoPE, ALiBi, T5, ...; every
// config here is one RoPE config.) `variants` has one config per RoPE variant, `curated` the
// published model configs (the values of tests/test_rope_frequencies.cpp and pe-formulas.md
// 1.1-1.3), `all` both.
// Which laws apply, and why not elsewhere:
//  - rotation laws (orthogonality, norm preservation, relative dot product, composition, layout
//    equivalence): every config (any scaling only changes theta_j).
//  - pass_through: configs with rotary_dim < head_dim (partial rotary: Pythia, GPT-J, "partial").
//    Proportional has rotary_dim = head_dim (zero frequencies instead).
//  - inv_freq_decreasing: not LongRoPE (per-pair factors) nor proportional (zeros).
//  - yarn_ramp: YaRN only; llama3_bands: Llama-3 only.
//  - long_range_decay: default RoPE at RoFormer's setting (d = 128, base 1e4): Llama-2 and
//    "default" (the checked octave ranges are calibrated for that setting, see the law's header).
#pragma once

#include <boost/hana/concat.hpp>
#include <boost/hana/contains.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <array>

#include "posenc/rope/config.hpp"
#include "posenc/rope/models.hpp"

namespace posenc::verify::registry {

namespace hana = boost::hana;
using rope::scaling;

// Law tags: one per checker in posenc/verify/laws/.
namespace law {
struct orthogonality {};        // laws/orthogonality.hpp
struct norm_preservation {};    // laws/norm.hpp
struct relative_dot {};         // laws/relative_dot.hpp
struct composition {};          // laws/composition.hpp
struct layout_equivalence {};   // laws/layout.hpp
struct pass_through {};         // laws/pass_through.hpp
struct inv_freq_decreasing {};  // laws/decreasing.hpp
struct yarn_ramp {};            // laws/yarn_ramp.hpp
struct llama3_bands {};         // laws/llama3_bands.hpp
struct long_range_decay {};     // laws/long_range_decay.hpp
}  // namespace law

template <class... L>
using law_list = hana::tuple<hana::type<L>...>;
// The rotation laws (every config) and the extras of a config.
template <class... Extra>
using rotation_laws_and = law_list<law::orthogonality, law::norm_preservation, law::relative_dot, law::composition,
                                   law::layout_equivalence, Extra...>;

template <class Config, class Law>
constexpr auto applies(hana::basic_type<Config>, hana::basic_type<Law>) {
  return hana::contains(typename Config::laws{}, hana::type_c<Law>);
}
template <class Config, class Law>
inline constexpr bool applies_v = decltype(applies(hana::type_c<Config>, hana::type_c<Law>))::value;

// A small synthetic LongRoPE (16 pairs): not monotone on purpose (a dip at pair 5).
inline constexpr std::array<float, 16> small_long_factor{1.0f, 1.0f, 1.5f, 2.0f, 3.0f, 0.5f, 4.0f, 6.0f,
                                                         8.0f, 8.0f, 12.0f, 16.0f, 16.0f, 24.0f, 32.0f, 32.0f};
inline constexpr std::array<float, 16> small_short_factor{1.0f, 1.0f, 1.0f, 1.25f, 1.25f, 1.5f, 1.5f, 2.0f,
                                                          2.0f, 2.0f, 2.5f, 2.5f, 3.0f, 3.0f, 3.0f, 3.0f};

namespace configs {

// ---- one per variant ----
struct default_rope {
  static constexpr const char* name = "default";
  static constexpr rope::config config{.head_dim = 128, .rope_theta = 10000.0};
  using laws = rotation_laws_and<law::inv_freq_decreasing, law::long_range_decay>;
};
struct linear {
  static constexpr const char* name = "linear x4";
  static constexpr rope::config config{.head_dim = 128, .rope_theta = 10000.0, .rope_type = scaling::linear, .factor = 4.0};
  using laws = rotation_laws_and<law::inv_freq_decreasing>;
};
struct ntk {
  static constexpr const char* name = "ntk x4";
  static constexpr rope::config config{.head_dim = 128, .rope_theta = 10000.0, .rope_type = scaling::ntk, .factor = 4.0};
  using laws = rotation_laws_and<law::inv_freq_decreasing>;
};
struct dynamic {
  static constexpr const char* name = "dynamic x2 at 10000";
  static constexpr rope::config config{.head_dim = 128, .rope_theta = 10000.0, .rope_type = scaling::dynamic,
                                       .factor = 2.0, .max_position_embeddings = 4096, .seq_len = 10000};
  using laws = rotation_laws_and<law::inv_freq_decreasing>;
};
struct yarn {
  static constexpr const char* name = "yarn x4 over 4096";
  static constexpr rope::config config{.head_dim = 128, .rope_theta = 10000.0, .rope_type = scaling::yarn, .factor = 4.0,
                                       .original_max_position_embeddings = 4096};
  using laws = rotation_laws_and<law::inv_freq_decreasing, law::yarn_ramp>;
};
struct yarn_untruncated {
  static constexpr const char* name = "yarn x4 untruncated";
  static constexpr rope::config config{.head_dim = 128, .rope_theta = 10000.0, .rope_type = scaling::yarn, .factor = 4.0,
                                       .original_max_position_embeddings = 4096, .truncate = false};
  using laws = rotation_laws_and<law::inv_freq_decreasing, law::yarn_ramp>;
};
struct longrope {
  static constexpr const char* name = "longrope (synthetic, long factors)";
  static constexpr rope::config config{.head_dim = 32, .rope_theta = 10000.0, .rope_type = scaling::longrope,
                                       .original_max_position_embeddings = 2048, .max_position_embeddings = 32768,
                                       .seq_len = 32768, .short_factor = small_short_factor, .long_factor = small_long_factor};
  using laws = rotation_laws_and<>;
};
struct llama3 {
  static constexpr const char* name = "llama3 x4 over 4096";
  static constexpr rope::config config{.head_dim = 64, .rope_theta = 10000.0, .rope_type = scaling::llama3, .factor = 4.0,
                                       .original_max_position_embeddings = 4096};
  using laws = rotation_laws_and<law::inv_freq_decreasing, law::llama3_bands>;
};
struct partial {
  static constexpr const char* name = "partial rotary 0.5";
  static constexpr rope::config config{.head_dim = 128, .rope_theta = 10000.0, .partial_rotary_factor = 0.5};
  using laws = rotation_laws_and<law::inv_freq_decreasing, law::pass_through>;
};
struct proportional {
  static constexpr const char* name = "proportional (Gemma-style, 0.25 of 256)";
  static constexpr rope::config config{.head_dim = 256, .rope_theta = 1000000.0, .partial_rotary_factor = 0.25,
                                       .proportional = true};
  using laws = rotation_laws_and<>;
};

// ---- curated published configs (pe-formulas.md 1.1-1.3; tests/test_rope_frequencies.cpp) ----
struct llama2_7b {
  static constexpr const char* name = "Llama-2-7B";
  static constexpr rope::config config = rope::models::llama2_7b;
  using laws = rotation_laws_and<law::inv_freq_decreasing, law::long_range_decay>;
};
struct llama31_8b {
  static constexpr const char* name = "Llama-3.1-8B";
  static constexpr rope::config config = rope::models::llama3_1_8b;
  using laws = rotation_laws_and<law::inv_freq_decreasing, law::llama3_bands>;
};
struct llama32_1b {
  static constexpr const char* name = "Llama-3.2-1B";
  static constexpr rope::config config = rope::models::llama3_2_1b;
  using laws = rotation_laws_and<law::inv_freq_decreasing, law::llama3_bands>;
};
struct qwen25_7b_yarn {
  static constexpr const char* name = "Qwen2.5-7B YaRN x4 over 32768";
  static constexpr rope::config config = rope::models::qwen2_5_7b_yarn;
  using laws = rotation_laws_and<law::inv_freq_decreasing, law::yarn_ramp>;
};
struct deepseek_v3 {
  static constexpr const char* name = "DeepSeek-V3";
  static constexpr rope::config config = rope::models::deepseek_v3;
  using laws = rotation_laws_and<law::inv_freq_decreasing, law::yarn_ramp>;
};
struct phi3_short {
  static constexpr const char* name = "Phi-3 LongRoPE (short factors)";
  static constexpr rope::config config = rope::models::phi3_vision_128k_short;
  using laws = rotation_laws_and<>;
};
struct phi3_long {
  static constexpr const char* name = "Phi-3 LongRoPE (long factors)";
  static constexpr rope::config config = rope::models::phi3_vision_128k_long;
  using laws = rotation_laws_and<>;
};
struct gpt_oss {
  static constexpr const char* name = "gpt-oss";
  static constexpr rope::config config = rope::models::gpt_oss;
  using laws = rotation_laws_and<law::inv_freq_decreasing, law::yarn_ramp>;
};
struct pythia {
  static constexpr const char* name = "Pythia (rotary_pct 0.25)";
  static constexpr rope::config config = rope::models::pythia;
  using laws = rotation_laws_and<law::inv_freq_decreasing, law::pass_through>;
};
struct gptj {
  static constexpr const char* name = "GPT-J (rotary_dim 64 of 256)";
  static constexpr rope::config config = rope::models::gpt_j;
  using laws = rotation_laws_and<law::inv_freq_decreasing, law::pass_through>;
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
