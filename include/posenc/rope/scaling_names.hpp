// scaling_names.hpp: the name of each RoPE scaling as HuggingFace's rope_type spells it, one table
// that the config.json reader (io/rope_hf_config.hpp), the command line (--rope-type) and the Python
// module (rope_type=...) all read, so that a scaling added to rope::scaling is named once.
// (HF's older aliases, "su" for longrope and v5's "proportional", are the config reader's own.)
#pragma once

#include <optional>
#include <string_view>

#include "posenc/rope/config.hpp"

namespace posenc::rope {

struct scaling_name_entry {
  std::string_view name;
  scaling type;
};

// In rope::scaling's order; the names of modeling_rope_utils.py's ROPE_INIT_FUNCTIONS (ntk: the
// static NTK-aware base, which HF has no rope_type for).
inline constexpr scaling_name_entry scaling_names[] = {
    {"default", scaling::default_}, {"linear", scaling::linear}, {"ntk", scaling::ntk},
    {"dynamic", scaling::dynamic},  {"yarn", scaling::yarn},     {"longrope", scaling::longrope},
    {"llama3", scaling::llama3},
};

constexpr std::string_view scaling_name(scaling s) noexcept {
  for (const auto& e : scaling_names)
    if (e.type == s) return e.name;
  return "?";
}

constexpr std::optional<scaling> scaling_from_name(std::string_view name) noexcept {
  for (const auto& e : scaling_names)
    if (e.name == name) return e.type;
  return std::nullopt;
}

}  // namespace posenc::rope
