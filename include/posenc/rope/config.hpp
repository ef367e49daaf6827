// config.hpp: a RoPE configuration as a plain aggregate, with HuggingFace's names.
//
// Field names and defaults follow transformers' src/transformers/modeling_rope_utils.py
// (rope_parameters / rope_scaling keys; see ../shared/reference/pe-formulas.md sections 1.0-1.3)
// so that a config.json maps field by field:
//   constexpr posenc::rope::config llama31{.head_dim = 128, .rope_theta = 500000.0,
//       .rope_type = posenc::rope::scaling::llama3, .factor = 8.0,
//       .original_max_position_embeddings = 8192};
// Every value is taken as the exact binary number it holds (no decimal re-reading): the formulas
// are then evaluated exactly and rounded once (frequencies.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace posenc::rope {

// HF's rope_type values (ROPE_INIT_FUNCTIONS keys), plus the static NTK-aware "ntk" of
// transformers commit 0044e3b3 (_compute_ntk_parameters).
enum class scaling : unsigned char {
  default_,  // compute_default_rope_parameters: b^(-2j/d)
  linear,    // _compute_linear_scaling_rope_parameters: b^(-2j/d) / factor
  ntk,       // static NTK-aware: base b' = b * factor^(d/(d-2))
  dynamic,   // _compute_dynamic_ntk_parameters at seq_len
  yarn,      // _compute_yarn_parameters
  longrope,  // _compute_longrope_parameters (Phi-3 "su")
  llama3,    // _compute_llama3_parameters
};

// Every member is also listed, with its HF name, in config_fields.hpp (a static_assert keeps them in step).
struct config {
  int head_dim = 0;                    // head_dim (or hidden_size / num_attention_heads)
  double rope_theta = 10000.0;         // the base b
  double partial_rotary_factor = 1.0;  // rotary dim = floor(head_dim * partial_rotary_factor)
  int rotary_dim = 0;                  // if > 0, the rotary dim itself (GPT-J's rotary_dim)
  scaling rope_type = scaling::default_;
  double factor = 0.0;  // s; 0 = unset (yarn and longrope then use max_position / original_max)
  std::int64_t original_max_position_embeddings = 0;  // L0
  std::int64_t max_position_embeddings = 0;
  std::int64_t seq_len = 0;  // dynamic: the sequence length; longrope: long factors iff > L0
  double beta_fast = 32.0;   // YaRN
  double beta_slow = 1.0;
  double mscale = 0.0;                       // YaRN (DeepSeek): 0 = unset
  double mscale_all_dim = 0.0;               // YaRN (DeepSeek): 0 = unset
  std::optional<double> attention_factor{};  // explicit YaRN / LongRoPE attention factor
  bool truncate = true;                      // YaRN: floor/ceil the correction range (HF v5)
  double low_freq_factor = 1.0;              // Llama-3
  double high_freq_factor = 4.0;             // Llama-3
  // LongRoPE, rotary_dim/2 values each: the doubles the config wrote (1.02 is 1.02 rounded once to
  // double, not HF's float32 1.0199999809); only the hf_float32 policy rounds them to float32.
  std::span<const double> short_factor{};
  std::span<const double> long_factor{};
  bool proportional = false;  // HF v5 "proportional": exponent over head_dim (default/linear only)
};

}  // namespace posenc::rope
