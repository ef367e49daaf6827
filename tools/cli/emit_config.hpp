// emit_config.hpp: the RoPE config flags of `posenc emit`, read into a posenc::rope::config,
// checked with rope::validate, and described back in text for generated headers. All three come
// from the library's one list of config fields (posenc/rope/config_fields.hpp): flag --a-b is
// field a_b (HuggingFace's config.json key with dashes: --rope-theta is rope_theta), and a new
// field of rope::config becomes a flag, a reader line and a comment line by itself.
//
// Flags by member type: integers and reals take a value (reals with the tool's rules,
// hexfloat.hpp: each value is the exact binary number the text rounds to, once); rope_type one of
// its names; a bool field is a switch that sets the value its default is not (--proportional,
// --no-truncate); --short-factor / --long-factor take comma lists, each entry read as the double its
// text rounds to, once (the exact tables use that double; only --policy hf-float32 rounds it on to
// float32, as HF's torch.tensor(..., dtype=torch.float32) does).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <posenc/rope/config.hpp>
#include <posenc/rope/config_fields.hpp>
#include <posenc/rope/scaling_names.hpp>
#include <posenc/rope/validate.hpp>

#include "args.hpp"
#include "hexfloat.hpp"

namespace posenc::cli::emit {

// --rope-type's names are the library's (rope/scaling_names.hpp), as config.json and Python read them.
inline std::string_view rope_type_name(rope::scaling s) { return rope::scaling_name(s); }

// ---- the flag table, built at compile time from rope::config_fields ----

// A bool field whose default is true is switched off by --no-<name>.
template <class Field>
constexpr bool negated_switch(const Field& f) {
  if constexpr (std::is_same_v<typename Field::member_type, bool>)
    return rope::config{}.*f.member;
  else
    return false;
}

template <class M>
constexpr flag_kind kind_of() {
  return std::is_same_v<M, bool> ? flag_kind::boolean : flag_kind::value;
}

template <class M>
constexpr std::string_view value_name_of() {
  if constexpr (std::is_same_v<M, bool>)
    return "";
  else if constexpr (std::is_same_v<M, rope::scaling>)
    return "default|linear|ntk|dynamic|yarn|longrope|llama3";
  else if constexpr (std::is_same_v<M, std::span<const double>>)
    return "X,X,...";
  else if constexpr (std::is_integral_v<M>)
    return "N";
  else
    return "X";
}

// The flag names and help lines, written into one constant buffer that the flag table points into
// (a string_view in a constexpr table needs characters of static storage duration).
struct flag_text {
  std::array<char, 4096> chars{};
  std::size_t size = 0;
  struct entry {
    std::size_t name_at = 0, name_len = 0, help_at = 0, help_len = 0;
    flag_kind kind = flag_kind::value;
    std::string_view value_name;
  };
  std::array<entry, rope::config_field_count> fields{};

  constexpr void add(std::string_view s, bool dashes) {
    for (const char ch : s) chars[size++] = dashes && ch == '_' ? '-' : ch;
  }
};

constexpr flag_text make_flag_text() {
  flag_text t;
  std::size_t i = 0;
  rope::for_each_config_field([&](const auto& f) {
    using M = typename std::remove_cvref_t<decltype(f)>::member_type;
    auto& e = t.fields[i++];
    const bool neg = negated_switch(f);
    e.name_at = t.size;
    if (neg) t.add("no-", false);
    t.add(f.name, true);
    e.name_len = t.size - e.name_at;
    e.help_at = t.size;
    if (neg) {  // the help says what the field does; the switch turns it off
      t.add("turns off ", false);
      t.add(f.name, false);
      t.add(": ", false);
    }
    t.add(f.help, false);
    e.help_len = t.size - e.help_at;
    e.kind = kind_of<M>();
    e.value_name = value_name_of<M>();
  });
  return t;
}
inline constexpr flag_text config_flag_text = make_flag_text();

constexpr std::array<flag_spec, rope::config_field_count> make_config_flags() {
  std::array<flag_spec, rope::config_field_count> r{};
  for (std::size_t i = 0; i < r.size(); ++i) {
    const auto& e = config_flag_text.fields[i];
    r[i] = {std::string_view(config_flag_text.chars.data() + e.name_at, e.name_len), e.kind, e.value_name,
            std::string_view(config_flag_text.chars.data() + e.help_at, e.help_len)};
  }
  return r;
}
// config_flags[i] is the flag of the i-th field of rope::config_fields.
inline constexpr std::array<flag_spec, rope::config_field_count> config_flags = make_config_flags();

// ---- reading and describing a config ----

// The config plus the storage its lists point into (one vector per field, unused ones empty).
struct parsed_config {
  rope::config cfg{};
  std::shared_ptr<std::array<std::vector<double>, rope::config_field_count>> lists =
      std::make_shared<std::array<std::vector<double>, rope::config_field_count>>();
};

// "0.5,1,1.25": each entry read as the double it rounds to, once.
inline std::vector<double> parse_real_list(std::string_view text, std::string_view flag, std::string_view context) {
  std::vector<double> v;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t comma = text.find(',', pos);
    const std::string_view item =
        text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    v.push_back(parse_real<double>(item, "--" + std::string(flag) + " entry " + std::to_string(v.size()), context));
    if (comma == std::string_view::npos) return v;
    pos = comma + 1;
  }
}

inline rope::scaling parse_rope_type(std::string_view t, std::string_view flag, std::string_view ctx) {
  if (const std::optional<rope::scaling> s = rope::scaling_from_name(t)) return *s;
  std::string names;
  for (const auto& r : rope::scaling_names) names += (names.empty() ? "" : ", ") + std::string(r.name);
  throw usage_error(std::string(ctx) + ": invalid value " + quote(t) + " for --" + std::string(flag) +
                    " (expected one of: " + names + ")");
}

// Reads every config flag over base (the defaults, or the values of --hf-config: a flag given
// overrides the file's value); throws usage_error on a malformed value or an invalid config.
inline parsed_config read_config(const parsed_args& a, std::string_view ctx, const rope::config* base = nullptr) {
  parsed_config p;
  rope::config& c = p.cfg;
  if (base != nullptr)
    c = *base;  // its lists are copied into p.lists below (a flag's list replaces them)
  else if (!a.has("head-dim"))
    throw usage_error(std::string(ctx) + ": --head-dim is required (or --hf-config FILE)");
  std::size_t i = 0;
  rope::for_each_config_field([&](const auto& f) {
    using M = typename std::remove_cvref_t<decltype(f)>::member_type;
    const std::size_t k = i++;
    const std::string_view flag = config_flags[k].name;
    M& m = c.*f.member;
    if constexpr (std::is_same_v<M, bool>) {
      if (a.has(flag)) m = !m;  // a switch sets the value the default is not
    } else if constexpr (std::is_same_v<M, int>) {
      m = static_cast<int>(flag_integer(a, flag, -(1LL << 31) + 1, (1LL << 31) - 1, m, ctx));
    } else if constexpr (std::is_same_v<M, std::int64_t>) {
      constexpr long long lim = std::int64_t{1} << 62;  // validate() then asks for [0, 2^53]
      m = static_cast<std::int64_t>(flag_integer(a, flag, -lim, lim, m, ctx));
    } else if constexpr (std::is_same_v<M, double>) {
      m = flag_real<double>(a, flag, m, ctx);
    } else if constexpr (std::is_same_v<M, std::optional<double>>) {
      if (a.has(flag)) m = flag_real<double>(a, flag, 0.0, ctx);
    } else if constexpr (std::is_same_v<M, rope::scaling>) {
      if (const auto v = a.value(flag)) m = parse_rope_type(*v, flag, ctx);
    } else {
      static_assert(std::is_same_v<M, std::span<const double>>, "a rope::config member type the CLI does not read");
      if (const auto v = a.value(flag))
        (*p.lists)[k] = parse_real_list(*v, flag, ctx);
      else
        (*p.lists)[k].assign(m.begin(), m.end());  // the base config's list (--hf-config), kept alive here
      m = (*p.lists)[k];
    }
  });
  if (const rope::validation v = rope::validate(c); !v)
    throw usage_error(std::string(ctx) + ": invalid RoPE config: " + v.message);
  return p;
}

// One line per field, "name = value" with reals as exact hex floats (and the shortest decimal).
inline std::string describe_config(const rope::config& c, std::string_view prefix) {
  std::string s;
  const auto real = [](double x) { return format_hex(x) + " (" + format_decimal(x) + ")"; };
  rope::for_each_config_field([&](const auto& f) {
    using M = typename std::remove_cvref_t<decltype(f)>::member_type;
    const M& m = c.*f.member;
    std::string v;
    if constexpr (std::is_same_v<M, bool>) {
      v = m ? "true" : "false";
    } else if constexpr (std::is_integral_v<M>) {
      v = std::to_string(m);
    } else if constexpr (std::is_same_v<M, double>) {
      v = real(m);
    } else if constexpr (std::is_same_v<M, std::optional<double>>) {
      v = m ? real(*m) : std::string("unset");
    } else if constexpr (std::is_same_v<M, rope::scaling>) {
      v = std::string(rope_type_name(m));
    } else {
      v = "[";
      for (std::size_t j = 0; j < m.size(); ++j) v += (j ? ", " : "") + format_hex(m[j]);
      v += "]";
    }
    s += std::string(prefix) + std::string(f.name) + " = " + v + "\n";
  });
  return s;
}

}  // namespace posenc::cli::emit
