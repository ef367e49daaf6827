// emit_config.hpp: the RoPE config flags of `posenc emit` (HuggingFace config.json names with
// dashes: --rope-theta is rope_theta) read into a posenc::rope::config, checked with
// rope::validate, and described back in text for generated headers.
//
// Numbers are read with the tool's rules (hexfloat.hpp): each value is the exact binary number the
// text rounds to, once; --short-factor / --long-factor entries are read straight to float (HF
// keeps them as a float32 tensor), never through a double.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <posenc/rope/config.hpp>
#include <posenc/rope/validate.hpp>

#include "args.hpp"
#include "hexfloat.hpp"

namespace posenc::cli::emit {

inline constexpr flag_spec config_flags[] = {
    {"head-dim", flag_kind::value, "D", "head dimension (required)"},
    {"rope-theta", flag_kind::value, "B", "the base (default 10000)"},
    {"partial-rotary-factor", flag_kind::value, "F", "rotary dim = floor(head_dim * F) (default 1)"},
    {"rope-type", flag_kind::value, "TYPE", "default|linear|ntk|dynamic|yarn|longrope|llama3"},
    {"factor", flag_kind::value, "S", "scaling factor (yarn/longrope: unset = max / original max)"},
    {"original-max-position-embeddings", flag_kind::value, "L0", "pre-training context length"},
    {"max-position-embeddings", flag_kind::value, "L", "context length"},
    {"seq-len", flag_kind::value, "N", "dynamic: sequence length; longrope: long factors iff > L0"},
    {"beta-fast", flag_kind::value, "X", "yarn (default 32)"},
    {"beta-slow", flag_kind::value, "X", "yarn (default 1)"},
    {"mscale", flag_kind::value, "X", "yarn (DeepSeek; default unset)"},
    {"mscale-all-dim", flag_kind::value, "X", "yarn (DeepSeek; default unset)"},
    {"attention-factor", flag_kind::value, "X", "yarn/longrope: explicit attention factor"},
    {"no-truncate", flag_kind::boolean, "", "yarn: do not floor/ceil the correction range"},
    {"low-freq-factor", flag_kind::value, "X", "llama3 (default 1)"},
    {"high-freq-factor", flag_kind::value, "X", "llama3 (default 4)"},
    {"short-factor", flag_kind::value, "X,X,...", "longrope: rotary_dim/2 float32 factors"},
    {"long-factor", flag_kind::value, "X,X,...", "longrope: rotary_dim/2 float32 factors"},
};

struct rope_type_info {
  std::string_view name;
  rope::scaling type;
};
inline constexpr rope_type_info rope_types[] = {
    {"default", rope::scaling::default_}, {"linear", rope::scaling::linear},     {"ntk", rope::scaling::ntk},
    {"dynamic", rope::scaling::dynamic},  {"yarn", rope::scaling::yarn},         {"longrope", rope::scaling::longrope},
    {"llama3", rope::scaling::llama3},
};

inline std::string_view rope_type_name(rope::scaling s) {
  for (const auto& t : rope_types)
    if (t.type == s) return t.name;
  return "?";
}

// The config plus the storage its factor spans point into.
struct parsed_config {
  rope::config cfg{};
  std::shared_ptr<std::vector<float>> short_factor = std::make_shared<std::vector<float>>();
  std::shared_ptr<std::vector<float>> long_factor = std::make_shared<std::vector<float>>();
};

// "0.5,1,1.25": each entry read to float directly.
inline std::vector<float> parse_float_list(std::string_view text, std::string_view flag, std::string_view context) {
  std::vector<float> v;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t comma = text.find(',', pos);
    const std::string_view item = text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    v.push_back(parse_real<float>(item, "--" + std::string(flag) + " entry " + std::to_string(v.size()), context));
    if (comma == std::string_view::npos) return v;
    pos = comma + 1;
  }
}

inline std::int64_t flag_count(const parsed_args& a, std::string_view name, std::string_view ctx) {
  constexpr long long lim = std::int64_t{1} << 62;  // validate() then asks for [0, 2^53]
  return static_cast<std::int64_t>(flag_integer(a, name, -lim, lim, 0, ctx));
}

// Reads every config flag; throws usage_error on a malformed value or an invalid config.
inline parsed_config read_config(const parsed_args& a, std::string_view ctx) {
  parsed_config p;
  rope::config& c = p.cfg;
  if (!a.has("head-dim")) throw usage_error(std::string(ctx) + ": --head-dim is required");
  c.head_dim = static_cast<int>(flag_integer(a, "head-dim", -(1LL << 31) + 1, (1LL << 31) - 1, 0, ctx));
  c.rope_theta = flag_real<double>(a, "rope-theta", c.rope_theta, ctx);
  c.partial_rotary_factor = flag_real<double>(a, "partial-rotary-factor", c.partial_rotary_factor, ctx);
  if (const auto t = a.value("rope-type")) {
    bool found = false;
    std::string names;
    for (const auto& r : rope_types) {
      if (r.name == *t) {
        c.rope_type = r.type;
        found = true;
      }
      names += (names.empty() ? "" : ", ") + std::string(r.name);
    }
    if (!found)
      throw usage_error(std::string(ctx) + ": invalid value " + quote(*t) + " for --rope-type (expected one of: " + names + ")");
  }
  c.factor = flag_real<double>(a, "factor", c.factor, ctx);
  c.original_max_position_embeddings = flag_count(a, "original-max-position-embeddings", ctx);
  c.max_position_embeddings = flag_count(a, "max-position-embeddings", ctx);
  c.seq_len = flag_count(a, "seq-len", ctx);
  c.beta_fast = flag_real<double>(a, "beta-fast", c.beta_fast, ctx);
  c.beta_slow = flag_real<double>(a, "beta-slow", c.beta_slow, ctx);
  c.mscale = flag_real<double>(a, "mscale", c.mscale, ctx);
  c.mscale_all_dim = flag_real<double>(a, "mscale-all-dim", c.mscale_all_dim, ctx);
  if (a.has("attention-factor")) c.attention_factor = flag_real<double>(a, "attention-factor", 1.0, ctx);
  c.truncate = !a.has("no-truncate");
  c.low_freq_factor = flag_real<double>(a, "low-freq-factor", c.low_freq_factor, ctx);
  c.high_freq_factor = flag_real<double>(a, "high-freq-factor", c.high_freq_factor, ctx);
  if (const auto s = a.value("short-factor")) *p.short_factor = parse_float_list(*s, "short-factor", ctx);
  if (const auto s = a.value("long-factor")) *p.long_factor = parse_float_list(*s, "long-factor", ctx);
  c.short_factor = *p.short_factor;
  c.long_factor = *p.long_factor;
  if (const rope::validation v = rope::validate(c); !v)
    throw usage_error(std::string(ctx) + ": invalid RoPE config: " + v.message);
  return p;
}

// One line per field, "name = value" with reals as exact hex floats (and the shortest decimal).
inline std::string describe_config(const rope::config& c, std::string_view prefix) {
  std::string s;
  const auto line = [&](std::string_view k, const std::string& v) { s += std::string(prefix) + std::string(k) + " = " + v + "\n"; };
  const auto real = [](double x) { return format_hex(x) + " (" + format_decimal(x) + ")"; };
  const auto list = [](std::span<const float> v) {
    std::string r = "[";
    for (std::size_t i = 0; i < v.size(); ++i) r += (i ? ", " : "") + format_hex(v[i]);
    return r + "]";
  };
  line("head_dim", std::to_string(c.head_dim));
  line("rope_theta", real(c.rope_theta));
  line("partial_rotary_factor", real(c.partial_rotary_factor));
  line("rope_type", std::string(rope_type_name(c.rope_type)));
  line("factor", c.factor == 0.0 ? std::string("unset") : real(c.factor));
  line("original_max_position_embeddings", std::to_string(c.original_max_position_embeddings));
  line("max_position_embeddings", std::to_string(c.max_position_embeddings));
  line("seq_len", std::to_string(c.seq_len));
  line("beta_fast", real(c.beta_fast));
  line("beta_slow", real(c.beta_slow));
  line("mscale", real(c.mscale));
  line("mscale_all_dim", real(c.mscale_all_dim));
  line("attention_factor", c.attention_factor ? real(*c.attention_factor) : std::string("unset"));
  line("truncate", c.truncate ? "true" : "false");
  line("low_freq_factor", real(c.low_freq_factor));
  line("high_freq_factor", real(c.high_freq_factor));
  line("short_factor", list(c.short_factor));
  line("long_factor", list(c.long_factor));
  return s;
}

}  // namespace posenc::cli::emit
