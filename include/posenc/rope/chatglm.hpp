// chatglm.hpp: the RoPE of ChatGLM2/3 and GLM-4 as a rope::config, and the two meanings of their
// `rope_ratio` (pe-formulas-more.md sections 5 and 8.4; THUDM modeling_chatglm.py copies):
//   rotary on the first half of the head (RotaryEmbedding(rotary_dim // 2), rotary_dim =
//   kv_channels), interleaved pairs (2i, 2i+1), theta_i = base^(-2i/(kv_channels/2)), and
//   rope_ratio_meaning::base_times_ratio    ChatGLM3, GLM-4: base = 10000 * rope_ratio
//                                           (GLM-4-9B: rope_ratio 500, base 5e6)
//   rope_ratio_meaning::positions_divided   ChatGLM2-6B-32K: seq_idx = arange(n) / rope_ratio with
//                                           base 10000, i.e. linear scaling with factor rope_ratio
// The same config.json keys (model_type "chatglm", rope_ratio) carry both meanings, so the reader
// of a config cannot tell them apart: the caller names one (docs/rope-layers.md).
//
//   constexpr auto glm4 = posenc::rope::chatglm_config(128, 500.0, rope_ratio_meaning::base_times_ratio);
//   // glm4.rope_theta == 5e6, rotary dim 64; rope::models' layout for it is interleaved
#pragma once

#include <string_view>

#include "posenc/rope/config.hpp"

namespace posenc::rope {

enum class rope_ratio_meaning : unsigned char {
  base_times_ratio,   // ChatGLM3 / GLM-4
  positions_divided,  // ChatGLM2-6B-32K
};

// The names the CLI (--rope-ratio-meaning) and Python (rope_ratio_meaning=) take.
inline constexpr std::string_view rope_ratio_meaning_name(rope_ratio_meaning m) noexcept {
  return m == rope_ratio_meaning::base_times_ratio ? "base" : "positions";
}

// ChatGLM's base before rope_ratio (RotaryEmbedding.forward_impl's default `base: int = 10000`).
inline constexpr double chatglm_base = 10000.0;

// kv_channels: the head dim (ChatGLMConfig.kv_channels); rope_ratio as the config wrote it.
// base_times_ratio: rope_theta = RN(10000 * rope_ratio), Python's float product (exact for every
// integer ratio below 2^39, which every released config has). positions_divided: linear, factor
// rope_ratio (the angle (m / r) theta_i is the real m (theta_i / r) that linear scaling rounds once).
constexpr config chatglm_config(int kv_channels, double rope_ratio, rope_ratio_meaning meaning) noexcept {
  config c{.head_dim = kv_channels, .rope_theta = chatglm_base, .partial_rotary_factor = 0.5};
  if (rope_ratio == 1.0) return c;  // both meanings are the plain table
  if (meaning == rope_ratio_meaning::base_times_ratio) {
    c.rope_theta = chatglm_base * rope_ratio;
  } else {
    c.rope_type = scaling::linear;
    c.factor = rope_ratio;
  }
  return c;
}

}  // namespace posenc::rope
