// policy_scope.hpp: why --policy ggml-float32 does not apply to a config, in one line. The rule and
// its reason are the library's (rope::applies, posenc/rope/policy.hpp; Python's ValueError quotes
// the same reason); the CLI adds which config it was given, so `emit` and `report precision` say
// the same thing.
#pragma once

#include <string>

#include <posenc/rope/config.hpp>
#include <posenc/rope/policy.hpp>

#include "emit_config.hpp"

namespace posenc::cli {

// "" when rope::ggml_float32 covers c; else "<the library's reason> (this config: rope_type R[, proportional])".
inline std::string ggml_refusal(const rope::config& c) {
  const rope::validation v = rope::applies(rope::ggml_float32, c);
  if (v) return {};
  return std::string(v.message) + " (this config: rope_type " + std::string(emit::rope_type_name(c.rope_type)) +
         (c.proportional ? ", proportional" : "") + ")";
}

}  // namespace posenc::cli
