// rope_hf_settings.hpp: one RoPE config read from a config.json object (HF's keys and defaults),
// for io/rope_hf_config.hpp. Throws field_error (hf_fields.hpp) naming the field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "posenc/io/detail/hf_fields.hpp"
#include "posenc/io/rope_settings.hpp"
#include "posenc/rope/chatglm.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/scaling_names.hpp"

namespace posenc::io::detail {

// HF's rope_type names besides rope::scaling_names (rope/scaling_names.hpp): Phi-3's "su" for
// longrope, and v5's "proportional" (default frequencies over head_dim, rope::config::proportional).
struct rope_type_alias {
  std::string_view name;
  rope::scaling type;
  bool proportional;
};
inline constexpr rope_type_alias rope_type_aliases[] = {
    {"su", rope::scaling::longrope, false},
    {"proportional", rope::scaling::default_, true},
};

// Keys that change positions and that posenc does not read, refused by name.
inline void refuse_unread(const object& top) {
  if (boolean(top, "position_encoding_2d").value_or(false))
    fail("position_encoding_2d", "ChatGLM-6B's 2D position encoding is not supported by posenc");
}

// Models whose code rotates interleaved pairs (2j, 2j+1) (pe-formulas-more.md sections 3 and 5):
// Llama-4's polar freqs_cis, Cohere's repeat_interleave, ChatGLM's and HF glm's stacked pairs.
inline rope::layout layout_of_model(const std::string& model_type) {
  for (const char* m : {"llama4", "llama4_text", "cohere", "cohere2", "chatglm", "glm", "glm4"})
    if (model_type == m) return rope::layout::interleaved;
  return rope::layout::half_split;
}

inline std::optional<std::vector<int>> integers(const object& o, std::string_view key) {
  const json* v = o.find(key);
  if (v == nullptr) return std::nullopt;
  const std::string path = o.at(key);
  if (!v->is_array()) fail(path, std::string("expected an array of integers, got ") + kind(*v));
  std::vector<int> r;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const json& e = (*v)[i];
    if (!e.is_number_integer() || e.get<std::int64_t>() < 0 || e.get<std::int64_t>() > (1 << 24))
      fail(path + "[" + std::to_string(i) + "]", "expected an integer in [0, 2^24]");
    r.push_back(static_cast<int>(e.get<std::int64_t>()));
  }
  return r;
}

// The text model's object: a VLM's text_config when present (Qwen3-VL, Gemma-3 4B+, Llama-4).
inline object text_object(const json& j) {
  const object top{&j, ""};
  if (const std::optional<object> t = sub_object(top, "text_config")) return *t;
  return top;
}

// A config of another scheme is named as such rather than read as RoPE with a missing head_dim.
inline void refuse_other_schemes(const object& top) {
  if (top.has("relative_attention_num_buckets"))
    fail("relative_attention_num_buckets", "a T5-style config (relative position buckets), not RoPE");
  const std::optional<object> attn = sub_object(top, "attn_config");
  const bool mpt_alibi = attn && boolean(*attn, "alibi").value_or(false);
  if (string(top, "model_type") == "bloom" || boolean(top, "alibi").value_or(false) || mpt_alibi)
    fail(mpt_alibi ? "attn_config.alibi" : top.has("alibi") ? "alibi" : "model_type", "an ALiBi config, not RoPE");
}

inline void read_rope_type(const object& dict, rope::config& c) {
  const char* key = dict.has("rope_type") ? "rope_type" : "type";
  const std::optional<std::string> t = string(dict, key);
  if (!t) return;
  if (*t == "mrope") {  // Qwen2-VL's v4 rope_scaling: HF rewrites it to "default" frequencies
    c.rope_type = rope::scaling::default_;
    c.proportional = false;
    return;
  }
  if (const std::optional<rope::scaling> s = rope::scaling_from_name(*t)) {
    c.rope_type = *s;
    c.proportional = false;
    return;
  }
  std::string names;
  for (const auto& n : rope::scaling_names) names += (names.empty() ? "" : ", ") + std::string(n.name);
  for (const auto& n : rope_type_aliases) {
    if (n.name == *t) {
      c.rope_type = n.type;
      c.proportional = n.proportional;
      return;
    }
    names += ", " + std::string(n.name);
  }
  fail(dict.at(key), "unknown rope type \"" + *t + "\" (posenc has: " + names + ")");
}

inline int head_dim_of(const object& top) {
  constexpr std::int64_t most = 1 << 24;
  for (const char* key : {"qk_rope_head_dim", "head_dim"})
    if (const auto d = integer(top, key, 1, most)) return static_cast<int>(*d);
  const std::pair<const char*, const char*> pairs[] = {
      {"hidden_size", "num_attention_heads"}, {"n_embd", "n_head"}, {"d_model", "n_heads"}};
  for (const auto& [width_key, heads_key] : pairs) {
    const auto width = integer(top, width_key, 1, std::int64_t{1} << 40);
    const auto heads = integer(top, heads_key, 1, most);
    if (width && heads) return static_cast<int>(*width / *heads);  // HF: hidden_size // num_attention_heads
  }
  fail("head_dim", "missing (and no hidden_size with num_attention_heads to derive it from)");
}

inline void read_rope_dict(const object& d, rope::config& c, posenc::io::rope_settings& s) {
  constexpr std::int64_t most = std::int64_t{1} << 53;
  read_rope_type(d, c);
  if (const auto v = real(d, "factor")) c.factor = *v;
  if (const auto v = integer(d, "original_max_position_embeddings", 0, most)) c.original_max_position_embeddings = *v;
  if (const auto v = real(d, "beta_fast")) c.beta_fast = *v;
  if (const auto v = real(d, "beta_slow")) c.beta_slow = *v;
  if (const auto v = real(d, "mscale")) c.mscale = *v;
  if (const auto v = real(d, "mscale_all_dim")) c.mscale_all_dim = *v;
  if (const auto v = real(d, "attention_factor")) c.attention_factor = *v;
  if (const auto v = boolean(d, "truncate")) c.truncate = *v;
  if (const auto v = real(d, "low_freq_factor")) c.low_freq_factor = *v;
  if (const auto v = real(d, "high_freq_factor")) c.high_freq_factor = *v;
  if (auto v = reals(d, "short_factor")) s.short_factor = std::move(*v);
  if (auto v = reals(d, "long_factor")) s.long_factor = std::move(*v);
}

// ChatGLM's format (THUDM modeling_chatglm.py): kv_channels, seq_length, rope_ratio; rotary on
// half the head, interleaved (rope/chatglm.hpp).
inline bool chatglm_format(const object& top, const std::string& model_type) {
  return model_type == "chatglm" || top.has("kv_channels") || top.has("rope_ratio");
}

inline void read_chatglm(const object& top, rope::config& c, const posenc::io::hf_rope_options& opt) {
  constexpr std::int64_t most = std::int64_t{1} << 53;
  int kv = 0;
  if (const auto v = integer(top, "kv_channels", 1, 1 << 24))
    kv = static_cast<int>(*v);
  else
    kv = head_dim_of(top);  // ChatGLMConfig: hidden_size // num_attention_heads when kv_channels is None
  const double ratio = real(top, "rope_ratio").value_or(1.0);
  if (ratio != 1.0 && !opt.rope_ratio_meaning)
    fail("rope_ratio",
         "means base x rope_ratio (ChatGLM3, GLM-4) or positions / rope_ratio (ChatGLM2-6B-32K), and the config "
         "cannot say which: choose with --rope-ratio-meaning base|positions (Python: rope_ratio_meaning=)");
  const rope::config g =
      rope::chatglm_config(kv, ratio, opt.rope_ratio_meaning.value_or(rope::rope_ratio_meaning::base_times_ratio));
  c.head_dim = g.head_dim;
  c.rope_theta = g.rope_theta;
  c.partial_rotary_factor = g.partial_rotary_factor;
  c.rope_type = g.rope_type;
  c.factor = g.factor;
  if (const auto v = integer(top, "seq_length", 0, most)) c.max_position_embeddings = *v;
}

// One RoPE config: `top` the text model's object, `dict` its rope dict (v4 rope_scaling, v5
// rope_parameters, or one layer type's entry of a per-layer-type rope_parameters).
inline posenc::io::rope_settings settings_of(const object& top, const std::optional<object>& dict,
                                             const std::string& model_type, const posenc::io::hf_rope_options& opt) {
  constexpr std::int64_t most = std::int64_t{1} << 53;
  refuse_unread(top);
  refuse_other_schemes(top);
  posenc::io::rope_settings s;
  s.model_type = model_type;
  const std::string text_type = string(top, "model_type").value_or(model_type);
  s.layout = layout_of_model(text_type);
  rope::config& c = s.base;
  if (chatglm_format(top, text_type)) {
    read_chatglm(top, c, opt);
    s.layout = rope::layout::interleaved;
    return s;
  }
  // The defaults of the model's configuration class where they differ from the generic ones
  // (Gemma3TextConfig: head_dim 256, rope_theta 1e6; Llama4TextConfig: head_dim 128, 5e5): the
  // released Gemma-3 4B+ configs leave them out of text_config.
  const bool gemma3 = text_type == "gemma3_text" || text_type == "gemma3";
  const bool llama4 = text_type == "llama4_text" || text_type == "llama4";
  if ((gemma3 || llama4) && !top.has("head_dim"))
    c.head_dim = gemma3 ? 256 : 128;
  else
    c.head_dim = head_dim_of(top);
  if (gemma3) c.rope_theta = 1000000.0;
  if (llama4) c.rope_theta = 500000.0;
  if (const auto v = real(top, "rotary_emb_base")) c.rope_theta = *v;  // GPT-NeoX
  if (const auto v = real(top, "rope_theta")) c.rope_theta = *v;
  if (const auto v = real(top, "rotary_pct")) c.partial_rotary_factor = *v;  // GPT-NeoX
  if (const auto v = real(top, "partial_rotary_factor")) c.partial_rotary_factor = *v;
  if (const auto v = integer(top, "rotary_dim", 0, 1 << 24)) c.rotary_dim = static_cast<int>(*v);  // GPT-J
  if (const auto v = integer(top, "n_positions", 0, most)) c.max_position_embeddings = *v;         // GPT-J
  if (const auto v = integer(top, "max_position_embeddings", 0, most)) c.max_position_embeddings = *v;
  if (const auto v = integer(top, "original_max_position_embeddings", 0, most)) c.original_max_position_embeddings = *v;
  if (auto v = integers(top, "mrope_section")) s.mrope_section = std::move(*v);
  if (const auto v = boolean(top, "mrope_interleaved")) s.mrope_interleaved = *v;
  if (dict) {
    if (const auto v = real(*dict, "rope_theta")) c.rope_theta = *v;
    if (const auto v = real(*dict, "partial_rotary_factor")) c.partial_rotary_factor = *v;
    if (auto v = integers(*dict, "mrope_section")) s.mrope_section = std::move(*v);
    if (const auto v = boolean(*dict, "mrope_interleaved")) s.mrope_interleaved = *v;
    read_rope_dict(*dict, c, s);
  }
  return s;
}

// v5's per-layer-type rope_parameters: {"full_attention": {...}, "sliding_attention": {...}}.
inline bool per_layer_type_dict(const std::optional<object>& dict) {
  if (!dict) return false;
  for (const auto& [key, value] : dict->j->items())
    if (value.is_object()) return true;
  return false;
}

// v5 writes rope_parameters (with rope_theta inside); v4 rope_scaling (rope_theta at the top).
inline std::optional<object> rope_dict_of(const object& top) {
  std::optional<object> dict = sub_object(top, "rope_parameters");
  if (!dict) dict = sub_object(top, "rope_scaling");
  return dict;
}

}  // namespace posenc::io::detail
