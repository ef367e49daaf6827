// spellings.hpp: the two spellings of a name the CLI reads (issue 20: the CLI and Python agree).
// Python's module spells names as C++ identifiers (half_split, hf_float32, float32); the CLI's
// words are dashed and short (half-split, hf-float32, f32). Both are accepted wherever a name is
// read; what the tool writes (file contents, headers' comments, metadata) keeps the CLI's word, so
// the alternative spelling maps to the canonical one as soon as the command line is parsed.
#pragma once

#include <cstddef>
#include <string_view>

namespace posenc::cli {

// Alternative spelling -> the CLI's canonical word. One table: a new name with two spellings is
// one line here (the rope_type names are the library's, rope/scaling_names.hpp, read by emit_config.hpp).
struct spelling {
  std::string_view alternative, canonical;
};
inline constexpr spelling spellings[] = {
    {"half_split", "half-split"},
    {"hf_float32", "hf-float32"},
    {"ggml_float32", "ggml-float32"},
    {"float64", "f64"},
    {"float32", "f32"},
    {"bfloat16", "bf16"},
    {"float16", "f16"},
    {"double", "f64"},  // the C names Python's dtype argument takes too (python/posenc/_dtypes.py)
    {"single", "f32"},
    {"float", "f32"},
    {"half", "f16"},
    {"neox", "half-split"},  // the layouts by the model that made them known (Python's _LAYOUTS)
    {"gptj", "interleaved"},
};

// The flags whose value is one name (dtype lists are split by their readers and each entry mapped).
inline constexpr std::string_view named_value_flags[] = {"dtype", "layout", "policy", "model", "type"};

// The canonical word of `name` (a view of static storage), or `name` itself when it has no other
// spelling.
constexpr std::string_view canonical_name(std::string_view name) {
  for (const auto& s : spellings)
    if (s.alternative == name) return s.canonical;
  return name;
}

// The word of `words` (a flag's value list, "transformer-xl|xlnet") that `value` spells with '_' for
// '-' (transformer_xl), as a view of `words`; or `value` itself. Every flag whose values are listed
// words takes Python's spelling of them this way, with no table entry.
constexpr std::string_view listed_word(std::string_view value, std::string_view words) {
  while (!words.empty()) {
    const std::size_t bar = words.find('|');
    const std::string_view word = words.substr(0, bar);
    bool same = word.size() == value.size() && word.find('-') != std::string_view::npos;
    for (std::size_t i = 0; same && i < word.size(); ++i)
      same = word[i] == value[i] || (word[i] == '-' && value[i] == '_');
    if (same) return word;
    if (bar == std::string_view::npos) break;
    words.remove_prefix(bar + 1);
  }
  return value;
}

// The value stored for flag --flag, whose value list is `words`: its canonical word when the flag
// takes a name.
constexpr std::string_view canonical_value(std::string_view flag, std::string_view value, std::string_view words = {}) {
  for (const std::string_view f : named_value_flags)
    if (f == flag) {
      const std::string_view c = canonical_name(value);
      if (c != value) return c;
    }
  return listed_word(value, words);
}

}  // namespace posenc::cli
