// layers.hpp: a model's RoPE layer by layer. Several models rotate different layers differently, or
// not at all (pe-formulas-more.md sections 2, 3 and 5):
//   Gemma-2      every layer the same table; layer i sliding iff (i + 1) % 2 != 0
//   Gemma-3      sliding layers ((i + 1) % 6 != 0): base rope_local_base_freq, no scaling; full
//                layers: rope_theta and rope_scaling (linear 8 on 4B/12B/27B)
//   Llama-4      NoPE where no_rope_layers[i] == 0 ("1 means RoPE"; default (i + 1) % 4 != 0);
//                interleaved pairs
//   Cohere2      RoPE on sliding layers only ((i + 1) % 4 != 0), NoPE on the others; interleaved
//   gpt-oss      layer_types alternate, one table for both
// A layer_model is a view: the distinct tables, and per layer the index of its table or no_rope.
//
//   constexpr rope::config tables[] = {global, rope::with_local_base(global, 10000.0)};
//   constexpr int layer_table[] = {1, 1, 1, 1, 1, 0};
//   constexpr rope::layer_model gemma3{tables, layer_table};
//   static_assert(rope::layer_config(gemma3, 5) == &tables[0]);
#pragma once

#include <cstddef>
#include <span>

#include "posenc/math/pow.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/validate.hpp"

namespace posenc::rope {

inline constexpr int no_rope = -1;  // a layer_table entry: the layer has no positional rotation

struct layer_model {
  std::span<const config> tables;    // the distinct RoPE configs
  std::span<const int> layer_table;  // per layer: an index into tables, or no_rope
  layout rotation = layout::half_split;
};

constexpr int layer_count(const layer_model& m) noexcept { return static_cast<int>(m.layer_table.size()); }

// The config of a layer, or nullptr for a NoPE layer or a layer past the model.
constexpr const config* layer_config(const layer_model& m, int layer) noexcept {
  if (layer < 0 || layer >= layer_count(m)) return nullptr;
  const int t = m.layer_table[static_cast<std::size_t>(layer)];
  return t == no_rope ? nullptr : &m.tables[static_cast<std::size_t>(t)];
}

// Every table valid and every layer's index in range (or no_rope); the first problem, named.
constexpr validation validate(const layer_model& m) noexcept {
  for (const config& c : m.tables)
    if (const validation v = validate(c); !v) return v;
  for (const int t : m.layer_table)
    if (t != no_rope && (t < 0 || t >= static_cast<int>(m.tables.size())))
      return {posenc::status::domain_error, "layer_table entry is neither a table index nor no_rope"};
  return {};
}

// The layer patterns of HF's configuration classes (their __init__ / __post_init__):
// Gemma-2/3 layer_types[i] = "sliding_attention" if (i + 1) % pattern else "full_attention";
constexpr bool sliding_layer(int layer, int pattern) noexcept { return (layer + 1) % pattern != 0; }
// Llama-4 (and SmolLM3) no_rope_layers[i] = int((i + 1) % no_rope_layer_interval != 0), 1 = RoPE.
constexpr bool rope_layer_of_interval(int layer, int interval) noexcept { return (layer + 1) % interval != 0; }

// Gemma-3's sliding-layer config (Gemma3TextModel.__init__): a copy of the model's config with
// rope_theta = rope_local_base_freq and rope_scaling = {"rope_type": "default"}, so the head and
// rotary dims stay and every scaling field returns to its default.
constexpr config with_local_base(const config& global, double local_base) noexcept {
  return config{.head_dim = global.head_dim,
                .rope_theta = local_base,
                .partial_rotary_factor = global.partial_rotary_factor,
                .rotary_dim = global.rotary_dim,
                .max_position_embeddings = global.max_position_embeddings};
}

// Gemma-2/3's attention score scale query_pre_attn_scalar^-0.5 (Gemma2Attention.__init__:
// scaling = query_pre_attn_scalar**-0.5, not head_dim**-0.5; 27B: 144 and 168 with head_dim 128),
// correctly rounded: math::pow is RN(x^y).
constexpr double score_scale(double query_pre_attn_scalar) noexcept {
  return posenc::math::pow(query_pre_attn_scalar, -0.5);
}

}  // namespace posenc::rope
