// rope_hf_layers.hpp: a config.json's RoPE layer by layer (rope/layers.hpp), for
// io/rope_hf_config.hpp. HF's configuration classes and models (pe-formulas-more.md sections 2,
// 3 and 5):
//   layer types   `layer_types` as written; else Gemma-2 (i + 1) % 2, Gemma-3 (i + 1) % p with p =
//                 `sliding_window_pattern` or `_sliding_window_pattern` (default 6), Cohere2 the
//                 same (default 4): "sliding_attention" when nonzero, else "full_attention"
//   tables        v5 per-layer-type `rope_parameters`: one table per layer type it lists. v4 flat:
//                 the model's table; Gemma-3 adds the sliding layers' table, base
//                 `rope_local_base_freq` (default 10000) with no scaling (rope::with_local_base)
//   NoPE          `no_rope_layers` ("1 means RoPE"; Llama-4 and SmolLM3 derive it from
//                 `no_rope_layer_interval`, default 4, when absent or empty); Cohere2's full layers
//   score scale   `query_pre_attn_scalar`
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "posenc/io/detail/hf_fields.hpp"
#include "posenc/io/detail/rope_hf_settings.hpp"
#include "posenc/io/rope_settings.hpp"
#include "posenc/rope/config_fields.hpp"
#include "posenc/rope/layers.hpp"

namespace posenc::io::detail {

inline bool is_one_of(const std::string& s, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return s == n; });
}

// Every field equal (lists element by element): two layer types that share a table.
inline bool same_table(const posenc::io::rope_settings& a, const posenc::io::rope_settings& b) {
  const rope::config x = a.config(), y = b.config();
  bool same = true;
  rope::for_each_config_field([&](const auto& f) {
    const auto& u = x.*f.member;
    const auto& v = y.*f.member;
    if constexpr (requires { u.size(); })
      same = same && std::equal(u.begin(), u.end(), v.begin(), v.end());
    else
      same = same && u == v;
  });
  return same && a.mrope_section == b.mrope_section && a.mrope_interleaved == b.mrope_interleaved;
}

// The layer types: layer_types as written, or the family's pattern; empty when neither applies.
inline std::vector<std::string> layer_types_of(const object& top, const std::string& family, std::int64_t& layers) {
  std::vector<std::string> types;
  if (const json* v = top.find("layer_types")) {
    if (!v->is_array()) fail(top.at("layer_types"), std::string("expected an array of strings, got ") + kind(*v));
    for (std::size_t i = 0; i < v->size(); ++i) {
      if (!(*v)[i].is_string()) fail(top.at("layer_types") + "[" + std::to_string(i) + "]", "expected a string");
      types.push_back((*v)[i].get<std::string>());
    }
    if (layers == 0) layers = static_cast<std::int64_t>(types.size());
    if (static_cast<std::int64_t>(types.size()) != layers)
      fail(top.at("layer_types"), "has " + std::to_string(types.size()) + " entries for " + std::to_string(layers) +
                                      " layers (num_hidden_layers)");
    return types;
  }
  int pattern = 0;
  if (family == "gemma2") pattern = 2;
  if (is_one_of(family, {"gemma3", "gemma3_text"})) pattern = 6;
  if (family == "cohere2") pattern = 4;
  if (pattern == 0) return types;
  for (const char* key : {"sliding_window_pattern", "_sliding_window_pattern"})
    if (const auto p = integer(top, key, 1, 1 << 20)) pattern = static_cast<int>(*p);
  if (layers == 0) fail("num_hidden_layers", "missing: the layer pattern needs the layer count");
  for (int i = 0; i < layers; ++i)
    types.emplace_back(rope::sliding_layer(i, pattern) ? "sliding_attention" : "full_attention");
  return types;
}

// The NoPE layers: no_rope_layers as written (1 = RoPE), or the interval's pattern; empty if none.
inline std::vector<bool> rope_layers_of(const object& top, const std::string& family, std::int64_t layers) {
  std::vector<bool> rope_on;
  if (const auto v = integers(top, "no_rope_layers"); v && !v->empty()) {
    if (layers != 0 && static_cast<std::int64_t>(v->size()) != layers)
      fail("no_rope_layers", "has " + std::to_string(v->size()) + " entries for " + std::to_string(layers) + " layers");
    for (std::size_t i = 0; i < v->size(); ++i) {
      if ((*v)[i] > 1) fail("no_rope_layers[" + std::to_string(i) + "]", "expected 0 (NoPE) or 1 (RoPE)");
      rope_on.push_back((*v)[i] == 1);
    }
    return rope_on;
  }
  if (!is_one_of(family, {"llama4", "llama4_text", "smollm3"})) return rope_on;
  const int interval = static_cast<int>(integer(top, "no_rope_layer_interval", 1, 1 << 20).value_or(4));
  if (layers == 0) fail("num_hidden_layers", "missing: the NoPE layers (no_rope_layer_interval) need the layer count");
  for (int i = 0; i < layers; ++i) rope_on.push_back(rope::rope_layer_of_interval(i, interval));
  return rope_on;
}

inline int table_named(const posenc::io::rope_model_settings& m, const std::string& name) {
  for (std::size_t t = 0; t < m.table_names.size(); ++t)
    if (m.table_names[t] == name) return static_cast<int>(t);
  return rope::no_rope;
}

// Tables and layer map from the layer types: v5's per-layer-type dict, or Gemma-3's two bases.
inline void read_tables(const object& top, const std::optional<object>& dict, const std::vector<std::string>& types,
                        posenc::io::rope_model_settings& m, const posenc::io::hf_rope_options& opt) {
  const std::string family = string(top, "model_type").value_or(m.model_type);
  if (per_layer_type_dict(dict)) {
    for (const auto& [key, value] : dict->j->items()) {
      if (!value.is_object()) continue;  // e.g. v5's top-level "truncate" quirk
      m.tables.push_back(settings_of(top, sub_object(*dict, key), m.model_type, opt));
      m.table_names.push_back(key);
    }
    if (types.empty()) fail(dict->path, "is per layer type, and the config has no layer_types");
    for (std::size_t i = 0; i < types.size(); ++i) {
      const int t = table_named(m, types[i]);
      if (t == rope::no_rope) fail(dict->at(types[i]), "missing: layer " + std::to_string(i) + " is " + types[i]);
      m.layer_table.push_back(t);
    }
    m.per_layer_key = dict->path;
    return;
  }
  m.tables.push_back(settings_of(top, dict, m.model_type, opt));
  const bool gemma3 = is_one_of(family, {"gemma3", "gemma3_text"});
  if (!gemma3 && !top.has("rope_local_base_freq")) {
    m.table_names.emplace_back("rope");
    return;
  }
  // Gemma-3: full layers keep the model's table; sliding layers get base rope_local_base_freq, unscaled.
  m.table_names.emplace_back("full_attention");
  posenc::io::rope_settings local = m.tables[0];
  local.base = rope::with_local_base(local.base, real(top, "rope_local_base_freq").value_or(10000.0));
  local.short_factor.clear();
  local.long_factor.clear();
  m.tables.push_back(local);
  m.table_names.emplace_back("sliding_attention");
  if (types.empty()) fail("layer_types", "missing: rope_local_base_freq needs the sliding layers");
  for (const std::string& t : types) m.layer_table.push_back(t == "sliding_attention" ? 1 : 0);
  m.per_layer_key = top.has("rope_local_base_freq") ? "rope_local_base_freq" : "model_type";
}

// Tables equal field for field become one (gpt-oss's two layer types; Gemma-3 with equal bases).
inline void merge_equal_tables(posenc::io::rope_model_settings& m) {
  for (std::size_t t = m.tables.size(); t-- > 1;) {
    for (std::size_t u = 0; u < t; ++u) {
      if (!same_table(m.tables[t], m.tables[u])) continue;
      for (int& l : m.layer_table)
        l = l == static_cast<int>(t) ? static_cast<int>(u) : l > static_cast<int>(t) ? l - 1 : l;
      m.tables.erase(m.tables.begin() + static_cast<std::ptrdiff_t>(t));
      m.table_names.erase(m.table_names.begin() + static_cast<std::ptrdiff_t>(t));
      break;
    }
  }
}

inline posenc::io::rope_model_settings model_of(const json& j, const posenc::io::hf_rope_options& opt) {
  posenc::io::rope_model_settings m;
  const object outer{&j, ""};
  const object top = text_object(j);
  m.model_type = string(outer, "model_type").value_or("");
  const std::string family = string(top, "model_type").value_or(m.model_type);
  std::int64_t layers = integer(top, "num_hidden_layers", 1, 1 << 20).value_or(0);
  if (layers == 0) layers = integer(top, "num_layers", 1, 1 << 20).value_or(0);  // ChatGLM
  const std::vector<std::string> types = layer_types_of(top, family, layers);
  const std::optional<object> dict = rope_dict_of(top);
  read_tables(top, dict, types, m, opt);
  m.layout = m.tables[0].layout;
  if (const auto q = real(top, "query_pre_attn_scalar")) m.query_pre_attn_scalar = *q;
  if (m.layer_table.empty() && layers > 0) m.layer_table.assign(static_cast<std::size_t>(layers), 0);
  const std::vector<bool> rope_on = rope_layers_of(top, family, layers);
  for (std::size_t i = 0; i < rope_on.size(); ++i) {
    if (m.layer_table.size() <= i) m.layer_table.push_back(0);
    if (!rope_on[i]) m.layer_table[i] = rope::no_rope;
  }
  if (!rope_on.empty()) m.per_layer_key = top.has("no_rope_layers") ? "no_rope_layers" : "no_rope_layer_interval";
  if (family == "cohere2") {  // Cohere2Attention: RoPE only when the layer is sliding
    for (std::size_t i = 0; i < types.size(); ++i)
      if (types[i] != "sliding_attention") m.layer_table[i] = rope::no_rope;
    m.per_layer_key = top.has("layer_types") ? "layer_types" : "sliding_window_pattern";
  }
  merge_equal_tables(m);
  const bool nope = std::count(m.layer_table.begin(), m.layer_table.end(), rope::no_rope) > 0;
  if (m.tables.size() == 1 && !nope) m.per_layer_key.clear();
  return m;
}

}  // namespace posenc::io::detail
