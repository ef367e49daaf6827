// alibi_hf_config.hpp: a HuggingFace config.json read into alibi::config, with HF's key names and
// defaults (the fields: io/detail/hf_fields.hpp; RoPE's reader: io/rope_hf_config.hpp).
//
//   auto r = posenc::io::alibi_from_hf_config(text);   // text: the file's contents
//
// What is read: BLOOM (`n_head`, always ALiBi), MPT (`attn_config.alibi`, `alibi_bias_max`,
// `n_heads`), Falcon (`alibi`: true, `num_attention_heads`).
//
// Not part of the std-only core: it needs nlohmann-json (target posenc::io). No exception escapes:
// every failure is a parse_result holding one line that names the field (its JSON path).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "posenc/alibi/config.hpp"
#include "posenc/io/detail/hf_fields.hpp"
#include "posenc/io/parse_result.hpp"

namespace posenc::io::detail {

inline alibi::config alibi_of(const json& j) {
  const object top{&j, ""};
  alibi::config c{};
  const auto heads = [&](const char* key) {
    const auto h = integer(top, key, 1, 1 << 24);
    if (!h) fail(key, "missing (the number of attention heads)");
    return static_cast<int>(*h);
  };
  const std::optional<std::string> type = string(top, "model_type");
  if (const std::optional<object> attn = sub_object(top, "attn_config")) {  // MPT
    const std::optional<bool> on = boolean(*attn, "alibi");
    if (!on || !*on) fail(attn->at("alibi"), "not true: this model does not use ALiBi");
    if (const auto v = real(*attn, "alibi_bias_max")) c.max_bias = *v;
    c.heads = heads("n_heads");
    return c;
  }
  if (type == "bloom" || (!top.has("alibi") && top.has("n_head"))) {  // BLOOM: ALiBi always, bias max 8
    c.heads = heads(top.has("n_head") ? "n_head" : "num_attention_heads");
    return c;
  }
  if (const std::optional<bool> on = boolean(top, "alibi")) {  // Falcon
    if (!*on) fail("alibi", "false: this model does not use ALiBi");
    c.heads = heads(top.has("num_attention_heads") ? "num_attention_heads" : "n_head");
    return c;
  }
  fail("alibi", "no ALiBi settings (BLOOM's n_head, MPT's attn_config.alibi or Falcon's alibi)");
}

}  // namespace posenc::io::detail

namespace posenc::io {

inline parse_result<alibi::config> alibi_from_hf_config(std::string_view json_text) noexcept {
  return posenc::io::detail::guarded<alibi::config>(json_text, posenc::io::detail::alibi_of);
}

}  // namespace posenc::io
