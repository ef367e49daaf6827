// t5_hf_config.hpp: a HuggingFace config.json read into t5::config, with HF's key names and
// defaults (the fields: io/detail/hf_fields.hpp; RoPE's reader: io/rope_hf_config.hpp).
//
//   auto r = posenc::io::t5_from_hf_config(text);      // text: the file's contents
//
// What is read: relative_attention_num_buckets (required), relative_attention_max_distance
// (default 128), is_decoder (decoder self-attention is causal).
//
// Not part of the std-only core: it needs nlohmann-json (target posenc::io). No exception escapes:
// every failure is a parse_result holding one line that names the field (its JSON path).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "posenc/io/detail/hf_fields.hpp"
#include "posenc/io/parse_result.hpp"
#include "posenc/t5/config.hpp"

namespace posenc::io::detail {

inline t5::config t5_of(const json& j) {
  const object top{&j, ""};
  t5::config c{};
  const auto buckets = integer(top, "relative_attention_num_buckets", 1, 1 << 24);
  if (!buckets) fail("relative_attention_num_buckets", "missing: not a T5-style config");
  c.relative_attention_num_buckets = static_cast<int>(*buckets);
  if (const auto v = integer(top, "relative_attention_max_distance", 0, std::int64_t{1} << 53))
    c.relative_attention_max_distance = *v;
  if (const auto v = boolean(top, "is_decoder")) c.bidirectional = !*v;
  return c;
}

}  // namespace posenc::io::detail

namespace posenc::io {

inline parse_result<t5::config> t5_from_hf_config(std::string_view json_text) noexcept {
  return posenc::io::detail::guarded<t5::config>(json_text, posenc::io::detail::t5_of);
}

}  // namespace posenc::io
