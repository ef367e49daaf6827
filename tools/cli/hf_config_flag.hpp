// hf_config_flag.hpp: `--hf-config FILE` of `posenc emit rope`, `rope-freq`, `alibi` and
// `t5-bucket`: the file (a HuggingFace config.json) gives the values, and explicit flags override
// them (each command starts from the file's config and reads its flags over it). Reading goes
// through the library's posenc::io (posenc/io/read_text_file.hpp, posenc/io/rope_hf_config.hpp); any problem with the file is bad
// input: a usage_error naming the file and the field, before any output exists.
//
// A model whose layers differ (Gemma-3, Llama-4, Cohere2; posenc/io/rope_settings.hpp) needs
// --layer N: the table of layer N (a NoPE layer, or a layer past the model, is a usage error in one
// line). ChatGLM's rope_ratio needs --rope-ratio-meaning base|positions (posenc/rope/chatglm.hpp).
// The layout the model rotates in (interleaved for Llama-4, Cohere, GLM) comes with the settings,
// for --layout's default.
//
// Without nlohmann-json the tool is built without posenc::io (POSENC_CLI_HAVE_IO unset) and the
// flag says so when used.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <posenc/rope/chatglm.hpp>
#include <posenc/rope/config.hpp>
#include <posenc/rope/layers.hpp>
#include <posenc/rope/layout.hpp>
#include <posenc/rope/scaling_names.hpp>

#if defined(POSENC_CLI_HAVE_IO)
#include <posenc/io/read_text_file.hpp>
#include <posenc/io/rope_hf_config.hpp>
#endif

#include "args.hpp"

namespace posenc::cli::emit {

inline constexpr std::string_view hf_config_flag = "hf-config";

// The flags that pick a table out of a config.json (emit rope, rope-freq and verify rope take them).
inline constexpr flag_spec hf_layer_flags[] = {
    {"layer", flag_kind::value, "N",
     "--hf-config of a per-layer model (Gemma-3, Llama-4, Cohere2): layer N's table (0-based)"},
    {"rope-ratio-meaning", flag_kind::value, "base|positions",
     "--hf-config of a ChatGLM config: rope_ratio multiplies the base (ChatGLM3, GLM-4) or divides the positions "
     "(ChatGLM2-6B-32K)"},
    {"layer-map", flag_kind::boolean, "",
     "with --hf-config only: write the model's layer map (CSV layer,table,name,rotary_dim,rope_theta,rope_type,"
     "factor; table -1: no RoPE) instead of a table; emit each distinct table with --layer <a layer of it>"},
};

#if defined(POSENC_CLI_HAVE_IO)

// The file's text, or nothing without --hf-config.
inline std::optional<std::string> hf_config_text(const parsed_args& a, std::string_view ctx) {
  const auto path = a.value(hf_config_flag);
  if (!path) return std::nullopt;
  if (path->empty()) throw usage_error(std::string(ctx) + ": --hf-config has an empty value");
  auto text = io::read_text_file(std::string(*path));
  if (!text) throw usage_error(std::string(ctx) + ": --hf-config " + text.error());
  return std::move(text).value();
}

template <class T>
T hf_value(const io::parse_result<T>& r, const parsed_args& a, std::string_view ctx) {
  if (!r)
    throw usage_error(std::string(ctx) + ": --hf-config " + std::string(*a.value(hf_config_flag)) + ": " + r.error());
  return r.value();
}

// The RoPE model of --hf-config FILE's text (its layers' tables and map).
inline io::rope_model_settings hf_rope_model(const parsed_args& a, std::string_view ctx, const std::string& text) {
  io::hf_rope_options opt;
  opt.rope_ratio_meaning =
      flag_choice<std::optional<rope::rope_ratio_meaning>>(a, "rope-ratio-meaning",
                                                           {{"base", rope::rope_ratio_meaning::base_times_ratio},
                                                            {"positions", rope::rope_ratio_meaning::positions_divided}},
                                                           std::nullopt, ctx);
  return hf_value(io::rope_model_from_hf_config(text, opt), a, ctx);
}

// `emit rope --hf-config FILE --layer-map`: one CSV row per layer, the index of its distinct table
// (-1 for a NoPE layer), the table's name (the layer type it serves) and its RoPE; a model without
// a layer count has one row, layer "all". Every other table flag is refused (nothing is emitted).
inline std::string hf_layer_map(const parsed_args& a, std::string_view ctx) {
  for (const std::string_view f : a.names())
    if (f != hf_config_flag && f != "layer-map" && f != "rope-ratio-meaning" && f != "output")
      throw usage_error(std::string(ctx) + ": --layer-map writes the layer map only: --" + std::string(f) +
                        " does not apply");
  const auto text = hf_config_text(a, ctx);
  if (!text) throw usage_error(std::string(ctx) + ": --layer-map needs --hf-config FILE");
  const io::rope_model_settings m = hf_rope_model(a, ctx, *text);
  std::string out = "layer,table,name,rotary_dim,rope_theta,rope_type,factor\n";
  const auto row = [&](const std::string& layer, int t) {
    out += layer + "," + std::to_string(t) + ",";
    if (t < 0) {
      out += "none,,,,\n";
      return;
    }
    const rope::config c = m.tables[static_cast<std::size_t>(t)].config();
    char theta[64], factor[64];
    std::snprintf(theta, sizeof theta, "%.17g", c.rope_theta);
    std::snprintf(factor, sizeof factor, "%.17g", c.factor);
    out += m.table_names[static_cast<std::size_t>(t)] + "," + std::to_string(rope::rotary_dim(c)) + "," + theta + "," +
           std::string(rope::scaling_name(c.rope_type)) + "," + (c.rope_type == rope::scaling::default_ ? "" : factor) +
           "\n";
  };
  if (m.layer_table.empty()) row("all", 0);
  for (std::size_t l = 0; l < m.layer_table.size(); ++l) row(std::to_string(l), m.layer_table[l]);
  return out;
}

// The RoPE settings of --hf-config FILE, of layer --layer N for a per-layer model.
inline std::optional<io::rope_settings> hf_rope_settings(const parsed_args& a, std::string_view ctx) {
  const auto text = hf_config_text(a, ctx);
  if (!text) {
    for (const auto& f : hf_layer_flags)
      if (a.has(f.name)) throw usage_error(std::string(ctx) + ": --" + std::string(f.name) + " needs --hf-config FILE");
    return std::nullopt;
  }
  io::hf_rope_options opt;
  opt.rope_ratio_meaning =
      flag_choice<std::optional<rope::rope_ratio_meaning>>(a, "rope-ratio-meaning",
                                                           {{"base", rope::rope_ratio_meaning::base_times_ratio},
                                                            {"positions", rope::rope_ratio_meaning::positions_divided}},
                                                           std::nullopt, ctx);
  const io::rope_model_settings m = hf_value(io::rope_model_from_hf_config(*text, opt), a, ctx);
  const std::string file = std::string(ctx) + ": --hf-config " + std::string(*a.value(hf_config_flag));
  if (!a.has("layer")) {
    if (!m.per_layer()) return m.tables[0];
    throw usage_error(file + ": " + m.per_layer_key + ": per-layer RoPE (" + std::to_string(m.tables.size()) +
                      " distinct tables over " + std::to_string(m.layer_count()) +
                      " layers): choose one with --layer N (--layer-map lists them)");
  }
  const long long layer = flag_integer(a, "layer", 0, (1LL << 20) - 1, 0, ctx);
  const int t = m.table_of_layer(static_cast<int>(layer));
  if (t == rope::no_rope) throw usage_error(file + ": layer " + std::to_string(layer) + " has no RoPE (NoPE layer)");
  if (t < 0)
    throw usage_error(file + ": --layer " + std::to_string(layer) + " is past the model's " +
                      std::to_string(m.layer_count()) + " layers");
  return m.tables[static_cast<std::size_t>(t)];
}

// A scheme's config from --hf-config FILE, read by read(text) (posenc::io's <scheme>_from_hf_config),
// or nothing without the flag (schemes/alibi.hpp, schemes/t5.hpp).
template <class Read>
auto hf_config_value(const parsed_args& a, std::string_view ctx, Read read)
    -> std::optional<std::remove_cvref_t<decltype(read(std::string_view()).value())>> {
  const auto text = hf_config_text(a, ctx);
  if (!text) return std::nullopt;
  return hf_value(read(std::string_view(*text)), a, ctx);
}

#else

inline void no_hf_config(const parsed_args& a, std::string_view ctx) {
  if (a.has(hf_config_flag))
    throw usage_error(std::string(ctx) + ": --hf-config is not available (posenc was built without nlohmann-json)");
}

// The RoPE reader's result type without posenc::io: never holds a value.
struct no_rope_settings {
  rope::layout layout = rope::layout::half_split;
  rope::config config() const { return {}; }
};
inline std::optional<no_rope_settings> hf_rope_settings(const parsed_args& a, std::string_view ctx) {
  no_hf_config(a, ctx);
  for (const auto& f : hf_layer_flags)  // each reads a config.json, which this build cannot
    if (a.has(f.name)) throw usage_error(std::string(ctx) + ": --" + std::string(f.name) + " needs --hf-config FILE");
  return std::nullopt;
}
// A scheme's config without posenc::io: nothing, or the error if --hf-config was given.
template <class Config>
std::optional<Config> no_hf_config(const parsed_args& a, std::string_view ctx) {
  no_hf_config(a, ctx);
  return std::nullopt;
}

#endif

}  // namespace posenc::cli::emit
