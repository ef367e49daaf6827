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
// A config that selects a scheme posenc does not have yet is an error naming the field: M-RoPE
// (`mrope_section`, rope_type "mrope"), per-layer RoPE (Gemma-3's `rope_local_base_freq`, v5's
// per-layer-type `rope_parameters`, Llama-4's `no_rope_layers`). Keys posenc does not use are
// ignored, as HF ignores them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "posenc/io/detail/hf_fields.hpp"
#include "posenc/io/parse_result.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/scaling_names.hpp"

namespace posenc::io {

// A RoPE config that owns its LongRoPE lists: copy it freely, and take config() for the aggregate
// (whose spans point into this object, so it must outlive the aggregate's use).
struct rope_settings {
  rope::config base{};  // every field but short_factor and long_factor
  std::vector<double> short_factor, long_factor;
  rope::config config() const {
    rope::config c = base;
    c.short_factor = short_factor;
    c.long_factor = long_factor;
    return c;
  }
};

}  // namespace posenc::io

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

// The schemes posenc does not have yet, refused by name rather than read as plain RoPE.
inline void refuse_unsupported(const object& top, const std::optional<object>& dict) {
  for (const char* key : {"mrope_section", "mrope_interleaved"}) {
    if (dict && dict->has(key)) fail(dict->at(key), "M-RoPE is not supported by posenc yet");
    if (top.has(key)) fail(top.at(key), "M-RoPE is not supported by posenc yet");
  }
  if (top.has("rope_local_base_freq"))
    fail("rope_local_base_freq",
         "per-layer RoPE (a second base for sliding-window layers) is not supported by posenc yet");
  if (top.has("no_rope_layers"))
    fail("no_rope_layers", "per-layer RoPE (layers without RoPE) is not supported by posenc yet");
  if (dict)
    for (const char* key : {"full_attention", "sliding_attention"})
      if (dict->has(key)) fail(dict->at(key), "per-layer-type RoPE parameters are not supported by posenc yet");
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
  if (*t == "mrope") fail(dict.at(key), "M-RoPE (\"mrope\") is not supported by posenc yet");
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

inline posenc::io::rope_settings rope_of(const json& j) {
  constexpr std::int64_t most = std::int64_t{1} << 53;
  const object top{&j, ""};
  // v5 writes rope_parameters (with rope_theta inside); v4 rope_scaling (rope_theta at the top).
  std::optional<object> dict = sub_object(top, "rope_parameters");
  if (!dict) dict = sub_object(top, "rope_scaling");
  refuse_unsupported(top, dict);
  refuse_other_schemes(top);
  posenc::io::rope_settings s;
  rope::config& c = s.base;
  c.head_dim = head_dim_of(top);
  if (const auto v = real(top, "rotary_emb_base")) c.rope_theta = *v;  // GPT-NeoX
  if (const auto v = real(top, "rope_theta")) c.rope_theta = *v;
  if (const auto v = real(top, "rotary_pct")) c.partial_rotary_factor = *v;  // GPT-NeoX
  if (const auto v = real(top, "partial_rotary_factor")) c.partial_rotary_factor = *v;
  if (const auto v = integer(top, "rotary_dim", 0, 1 << 24)) c.rotary_dim = static_cast<int>(*v);  // GPT-J
  if (const auto v = integer(top, "n_positions", 0, most)) c.max_position_embeddings = *v;         // GPT-J
  if (const auto v = integer(top, "max_position_embeddings", 0, most)) c.max_position_embeddings = *v;
  if (const auto v = integer(top, "original_max_position_embeddings", 0, most)) c.original_max_position_embeddings = *v;
  if (dict) {
    if (const auto v = real(*dict, "rope_theta")) c.rope_theta = *v;
    if (const auto v = real(*dict, "partial_rotary_factor")) c.partial_rotary_factor = *v;
    read_rope_dict(*dict, c, s);
  }
  return s;
}

}  // namespace posenc::io::detail

namespace posenc::io {

// The RoPE part of a config.json's text. rope::validate is not applied: the caller may still
// override fields (the CLI's flags) and validates the result.
inline parse_result<rope_settings> rope_from_hf_config(std::string_view json_text) noexcept {
  return posenc::io::detail::guarded<rope_settings>(json_text, posenc::io::detail::rope_of);
}

}  // namespace posenc::io
