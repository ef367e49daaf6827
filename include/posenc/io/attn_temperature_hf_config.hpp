// attn_temperature_hf_config.hpp: a HuggingFace Llama-4 config.json read into
// attn_temperature::config, with HF's key names and defaults (the fields: io/detail/hf_fields.hpp;
// RoPE's reader: io/rope_hf_config.hpp).
//
//   auto r = posenc::io::attn_temperature_from_hf_config(text);   // text: the file's contents
//
// What is read, from `text_config` when the file has one (Llama4Config, the released checkpoints)
// or else from the top level (a Llama4TextConfig): `attn_temperature_tuning` (released configs store
// an int, 4, used for its truthiness, as HF and vLLM PR #19997 do; HF v5 types it bool),
// `floor_scale` (default 8192) and `attn_scale` (default 0.1). Without `attn_temperature_tuning` the
// file must say it is Llama-4 (`model_type` llama4 or llama4_text), whose HF default is on. A model
// whose `attn_temperature_tuning` is false or 0 has no temperature: that is the failure, naming the
// key, rather than a table of ones.
//
// Not part of the std-only core: it needs nlohmann-json (target posenc::io). No exception escapes:
// every failure is a parse_result holding one line that names the field (its JSON path).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "posenc/attn_temperature/config.hpp"
#include "posenc/attn_temperature/validate.hpp"
#include "posenc/io/detail/hf_fields.hpp"
#include "posenc/io/parse_result.hpp"

namespace posenc::io::detail {

inline bool is_llama4_type(const object& o) {
  const std::optional<std::string> t = string(o, "model_type");
  return t == "llama4" || t == "llama4_text";
}

// attn_temperature_tuning: true/false or an integer (truthy when not 0); nothing when absent.
inline std::optional<bool> temperature_tuning(const object& o) {
  const json* v = o.find("attn_temperature_tuning");
  if (v == nullptr) return std::nullopt;
  if (v->is_boolean()) return v->get<bool>();
  if (v->is_number_integer())
    return !(v->is_number_unsigned() ? v->get<std::uint64_t>() == 0 : v->get<std::int64_t>() == 0);
  fail(o.at("attn_temperature_tuning"), std::string("expected true, false or an integer, got ") + kind(*v));
}

// floor_scale: an integer token, or a real with an integral value (Python's floor division takes
// 8192.0 alike), in [1, 2^53].
inline std::optional<std::int64_t> floor_scale_of(const object& o) {
  const json* v = o.find("floor_scale");
  if (v == nullptr) return std::nullopt;
  constexpr std::int64_t most = std::int64_t{1} << 53;
  if (v->is_number_integer()) return integer(o, "floor_scale", 1, most);
  const double x = real_of(*v, o.at("floor_scale"));
  if (!(x >= 1 && x <= static_cast<double>(most) && std::floor(x) == x))
    fail(o.at("floor_scale"), "expected an integer in [1, 2^53]");
  return static_cast<std::int64_t>(x);
}

inline attn_temperature::config attn_temperature_of(const json& j) {
  const object top{&j, ""};
  const object text = top.has("text_config") ? *sub_object(top, "text_config") : top;
  const std::optional<bool> tuning = temperature_tuning(text);
  if (!tuning && !is_llama4_type(text) && !is_llama4_type(top))
    fail(text.at("attn_temperature_tuning"), "missing: not a Llama-4 config (no attention temperature)");
  if (tuning && !*tuning)
    fail(text.at("attn_temperature_tuning"), "false: this model does not scale q by an attention temperature");
  attn_temperature::config c{};
  if (const auto f = floor_scale_of(text)) c.floor_scale = *f;
  if (const auto a = real(text, "attn_scale")) c.attn_scale = *a;
  if (const posenc::validation v = attn_temperature::validate(c); !v.ok())
    fail(text.at("attn_scale"), v.message);  // floor_scale_of took [1, 2^53] already
  return c;
}

}  // namespace posenc::io::detail

namespace posenc::io {

inline parse_result<attn_temperature::config> attn_temperature_from_hf_config(std::string_view json_text) noexcept {
  return posenc::io::detail::guarded<attn_temperature::config>(json_text, posenc::io::detail::attn_temperature_of);
}

}  // namespace posenc::io
