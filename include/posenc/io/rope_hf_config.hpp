// rope_hf_config.hpp: a HuggingFace config.json read into posenc's RoPE config (rope::config), with
// HF's key names and defaults. Each scheme with config.json files has its reader,
// io/<scheme>_hf_config.hpp, on the same fields (io/detail/hf_fields.hpp); io/read_text_file.hpp
// reads the file's text.
//
//   auto r = posenc::io::rope_from_hf_config(text);       // text: the file's contents
//   if (!r) { std::cerr << r.error() << '\n'; return 2; }  // "rope_scaling.rope_type: unknown ..."
//   const posenc::rope::config c = r.value().config();    // spans point into r.value()
//
// Not part of the std-only core: it needs nlohmann-json (target posenc::io). No exception escapes:
// every failure is a parse_result holding one line that names the field (its JSON path).
//
// What is read (transformers' modeling_rope_utils.py and the model configuration classes; see
// ../shared/reference/pe-formulas.md sections 1.0-1.3, 3 and 4):
//   RoPE  the rope dict: v5 `rope_parameters`, else `rope_scaling`; its `rope_type` (or the older
//         `type`): default, linear, ntk, dynamic, yarn, longrope ("su" is HF's old name for it),
//         llama3, proportional; `rope_theta` (dict, top level, or GPT-NeoX's `rotary_emb_base`;
//         default 10000); the head dim from `qk_rope_head_dim` (DeepSeek: RoPE covers only that
//         part of the head), `head_dim`, or hidden_size / num_attention_heads (GPT-J's n_embd /
//         n_head, MPT's d_model / n_heads); `partial_rotary_factor` (dict or top level; GPT-NeoX's
//         `rotary_pct`); GPT-J's `rotary_dim`; `max_position_embeddings` (GPT-J's `n_positions`);
//         `original_max_position_embeddings` (dict or top level, as Phi-3 has it); the dict's
//         factor, beta_fast, beta_slow, mscale, mscale_all_dim, attention_factor, truncate,
//         low_freq_factor, high_freq_factor, short_factor, long_factor.
//   M-RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL, v5 rope_parameters): `mrope_section` (dict or top
//         level) and `mrope_interleaved` into rope_settings' fields of those names, and the model
//         type; rope_type "mrope" is the default frequencies (HF rewrites it so). The rest is the 1D
//         text table: for a text token (t = h = w) M-RoPE is 1D RoPE exactly.
//   ChatGLM2/3, GLM-4 (model_type "chatglm", or `kv_channels` / `rope_ratio`): rope/chatglm.hpp,
//         the head dim from `kv_channels`, `seq_length`; `rope_ratio` != 1 needs the caller's
//         rope::rope_ratio_meaning (hf_rope_options), since the keys cannot say which.
//   A VLM's `text_config` object, when present, is the text model read here.
//   The layout the model's code rotates in: interleaved for Llama-4, Cohere, Cohere2, ChatGLM and
//   HF glm / glm4; half-split otherwise (HF's rotate_half).
// Per-layer models (Gemma-2/3, Llama-4, Cohere2, v5 per-layer-type rope_parameters) are read by
// io/rope_model_hf_config.hpp; this reader refuses a config whose layers differ, naming the key.
// Keys that change positions or frequencies and that posenc does not read are errors naming them
// (ChatGLM-6B's position_encoding_2d); other keys are ignored, as HF ignores them.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

#include "posenc/io/detail/hf_fields.hpp"
#include "posenc/io/detail/rope_hf_layers.hpp"
#include "posenc/io/detail/rope_hf_settings.hpp"
#include "posenc/io/parse_result.hpp"
#include "posenc/io/rope_settings.hpp"

namespace posenc::io {

// A model's RoPE layer by layer: the distinct tables, the layer map, the layout, Gemma's
// query_pre_attn_scalar. rope::validate is not applied (the caller may override fields).
inline parse_result<rope_model_settings> rope_model_from_hf_config(std::string_view json_text,
                                                                   const hf_rope_options& options = {}) noexcept {
  return posenc::io::detail::guarded<rope_model_settings>(
      json_text, [&](const posenc::io::detail::json& j) { return posenc::io::detail::model_of(j, options); });
}

// The RoPE of a model whose layers all share one table (and have RoPE). rope::validate is not
// applied: the caller may still override fields (the CLI's flags) and validates the result. A
// model whose layers differ is refused, naming the key that makes them differ: read it with
// rope_model_from_hf_config and pick a layer.
inline parse_result<rope_settings> rope_from_hf_config(std::string_view json_text,
                                                       const hf_rope_options& options = {}) noexcept {
  parse_result<rope_model_settings> m = rope_model_from_hf_config(json_text, options);
  if (!m) return parse_result<rope_settings>::failure(m.error());
  const rope_model_settings& v = m.value();
  if (!v.per_layer()) return v.tables[0];
  const auto nope = std::count(v.layer_table.begin(), v.layer_table.end(), rope::no_rope);
  return parse_result<rope_settings>::failure(v.per_layer_key + ": per-layer RoPE (" + std::to_string(v.tables.size()) +
                                              " distinct table" + (v.tables.size() == 1 ? "" : "s") + ", " +
                                              std::to_string(nope) + " of " + std::to_string(v.layer_count()) +
                                              " layers without RoPE): pick a layer (posenc --layer N, Python layer=N)");
}

}  // namespace posenc::io
