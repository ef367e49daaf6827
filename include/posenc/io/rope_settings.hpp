// rope_settings.hpp: what posenc::io's config.json reader (io/rope_hf_config.hpp) returns for RoPE:
// one config that owns its lists (rope_settings), a model's configs layer by layer
// (rope_model_settings), and what a config cannot say and the caller must (hf_rope_options).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "posenc/rope/chatglm.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/layers.hpp"
#include "posenc/rope/layout.hpp"

namespace posenc::io {

// A RoPE config that owns its LongRoPE lists: copy it freely, and take config() for the aggregate
// (whose spans point into this object, so it must outlive the aggregate's use).
struct rope_settings {
  rope::config base{};  // every field but short_factor and long_factor
  std::vector<double> short_factor, long_factor;
  rope::layout layout = rope::layout::half_split;  // the element order the model's code rotates in
  // M-RoPE (empty for 1D RoPE): pairs per position stream (t, h, w), and the config's flag. HF's
  // Qwen3-VL class interleaves whatever the flag says, so model_type is kept for the caller.
  std::vector<int> mrope_section;
  bool mrope_interleaved = false;
  std::string model_type;  // the config's top-level model_type ("" when absent)
  rope::config config() const {
    rope::config c = base;
    c.short_factor = short_factor;
    c.long_factor = long_factor;
    return c;
  }
};

// A model's RoPE layer by layer (rope/layers.hpp): the distinct tables, each with a name (the
// layer type it serves: "full_attention", "sliding_attention"; "rope" for a model's one table),
// and per layer the index of its table or rope::no_rope.
struct rope_model_settings {
  std::vector<rope_settings> tables;
  std::vector<std::string> table_names;
  std::vector<int> layer_table;  // empty when the config gives no layer count: every layer tables[0]
  rope::layout layout = rope::layout::half_split;
  std::optional<double> query_pre_attn_scalar;  // Gemma: the score scale is its ^-0.5 (rope::score_scale)
  std::string model_type;
  std::string per_layer_key;  // the key that makes the layers differ; "" when every layer has tables[0]

  bool per_layer() const { return !per_layer_key.empty(); }
  int layer_count() const { return static_cast<int>(layer_table.size()); }
  // The table index of a layer (rope::no_rope for NoPE); -2 for a layer past the model.
  int table_of_layer(int layer) const {
    if (layer_table.empty()) return layer >= 0 ? 0 : -2;
    if (layer < 0 || layer >= layer_count()) return -2;
    return layer_table[static_cast<std::size_t>(layer)];
  }
};

// What a config.json cannot say and the caller must: ChatGLM's rope_ratio meaning.
struct hf_rope_options {
  std::optional<rope::rope_ratio_meaning> rope_ratio_meaning{};
};

}  // namespace posenc::io
