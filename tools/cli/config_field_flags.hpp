// config_field_flags.hpp: a scheme's config flags and their reader, derived from the scheme's list of
// config fields (posenc/<scheme>/config_fields.hpp, posenc/config_field.hpp), so that the flags, the
// help (with the library's defaults) and Python's keyword arguments are the same words:
//
//   config_field_flags<logn::config_fields>::flags    --base N, --at-least-one: flag_spec, in order
//   read_config_fields<logn::config_fields>(a, ctx, c, from_file)   the given flags over c
//   read_config_fields_per_head<kerple::log_config_fields>(a, ctx)
//                                  a config per head, each field a list (--p P0,P1,... --a A0,A1,...)
//
// Field `name` is flag --name with '-' for '_'; a bool field is a switch, --name when its default
// is false and --no-name when it is true; a field's cli_alias (an older flag) is accepted as well
// and listed after the fields. Help: the field's help, then "(required)" or "(default X)" with
// Config{}'s value. An integer field is read in the range of its member type (int: 32 bits; 64-bit
// members: |v| <= 2^62, as the schemes validate), an enumerated one as one of its words (a word's
// '_' spelling, as Python writes it, is accepted too).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include <posenc/config_field.hpp>

#include "args.hpp"
#include "hexfloat.hpp"

namespace posenc::cli {

// How the CLI takes a scheme's fields: one value each (one config), or a list of one value per head
// (KERPLE, whose table has a config per head).
enum class field_form : unsigned char { one_value, per_head };

namespace field_flags_impl {

template <class Field>
constexpr bool is_switch() {
  return std::is_same_v<typename Field::member_type, bool>;
}

// A switch whose default is true: --no-<name> turns it off.
template <class Field>
constexpr bool negated(const Field& f) {
  if constexpr (is_switch<Field>())
    return f.default_value();
  else
    return false;
}

template <class Field>
constexpr bool has_alias(const Field& f) {
  return !f.cli_alias.empty();
}

// The characters of every flag name, metavar and help line, in one constant buffer the flag table
// points into (a string_view in a constexpr table needs characters of static storage duration).
struct text {
  std::array<char, 4096> chars{};
  std::size_t size = 0;
  constexpr void add(std::string_view s, bool dashes = false) {
    for (const char ch : s) chars[size++] = dashes && ch == '_' ? '-' : ch;
  }
  constexpr void add_integer(long long v) {
    if (v < 0) {
      add("-");
      v = -v;
    }
    char digits[24]{};
    int n = 0;
    do digits[n++] = static_cast<char>('0' + v % 10), v /= 10;
    while (v != 0);
    while (n > 0) chars[size++] = digits[--n];
  }
  template <class M>
  constexpr void add_value(const M& v) {
    if constexpr (std::is_same_v<M, bool>)
      add(v ? "on" : "off");
    else if constexpr (std::is_integral_v<M>)
      add_integer(static_cast<long long>(v));
    else if constexpr (std::is_floating_point_v<M>)
      add_real(static_cast<double>(v));
  }
  // A whole number as an integer (8, 10000); another as the shortest m / 10^k (k <= 15) that
  // comes back to v exactly: m and 10^k are exact doubles (|m| <= 2^53, 10^k <= 10^22), so the
  // IEEE quotient is the decimal correctly rounded, as strtod reads it (0.1 prints "0.1"). A
  // default with no such decimal stops the build instead of printing a wrong one.
  constexpr void add_real(double v) {
    if (v > -0x1p53 && v < 0x1p53 && v == static_cast<double>(static_cast<long long>(v))) {
      add_integer(static_cast<long long>(v));
      return;
    }
    double ten_k = 1;
    for (int k = 1; k <= 15; ++k) {
      ten_k *= 10;
      const double scaled = v * ten_k;
      if (!(scaled > -0x1p53 && scaled < 0x1p53)) break;
      const long long m = static_cast<long long>(scaled < 0 ? scaled - 0.5 : scaled + 0.5);
      if (static_cast<double>(m) / ten_k != v) continue;
      add_decimal(m, k);
      return;
    }
    throw "posenc: a default the help cannot print";
  }
  // m / 10^k in positional notation: "-0.25" for (-25, 2).
  constexpr void add_decimal(long long m, int k) {
    if (m < 0) add("-"), m = -m;
    char digits[24]{};
    int n = 0;
    do digits[n++] = static_cast<char>('0' + m % 10), m /= 10;
    while (m != 0 || n <= k);
    while (n > 0) {
      if (n == k) chars[size++] = '.';
      chars[size++] = digits[--n];
    }
  }
};

struct span_at {
  std::size_t at = 0, len = 0;
};
struct entry {
  span_at name, value_name, help;
  flag_kind kind = flag_kind::value;
};

template <class Fields>
constexpr std::size_t flag_count(const Fields& fields) {
  std::size_t n = std::tuple_size_v<Fields>;
  for_each_field(fields, [&n](const auto& f) {
    if (has_alias(f)) ++n;
  });
  return n;
}

}  // namespace field_flags_impl

template <const auto& Fields, field_form Form = field_form::one_value>
struct config_field_flags {
  using fields_type = std::remove_cvref_t<decltype(Fields)>;
  static constexpr std::size_t field_count = std::tuple_size_v<fields_type>;
  static constexpr std::size_t count = field_flags_impl::flag_count(Fields);

  struct layout {
    field_flags_impl::text t;
    std::array<field_flags_impl::entry, count> entries{};
  };

  static constexpr layout make() {
    namespace impl = field_flags_impl;
    layout l;
    auto& t = l.t;
    auto begin = [&t] { return impl::span_at{t.size, 0}; };
    auto end = [&t](impl::span_at& s) { s.len = t.size - s.at; };
    std::size_t i = 0;
    for_each_field(Fields, [&](const auto& f) {
      using F = std::remove_cvref_t<decltype(f)>;
      using M = typename F::member_type;
      auto& e = l.entries[i++];
      e.name = begin();
      if (impl::negated(f)) t.add("no-");
      t.add(f.name, true);
      end(e.name);
      e.kind = impl::is_switch<F>() ? flag_kind::boolean : flag_kind::value;
      e.value_name = begin();
      if constexpr (Form == field_form::per_head) {
        static_assert(std::is_floating_point_v<M>, "posenc: a per-head field is a list of real numbers");
        t.add("X,X,...");
      } else if constexpr (!impl::is_switch<F>()) {
        if constexpr (std::is_enum_v<M>) {
          for (std::size_t k = 0; k < f.names.size(); ++k) {
            if (k != 0) t.add("|");
            t.add(f.names[k].name);
          }
        } else {
          t.add(std::is_integral_v<M> ? "N" : "X");
        }
      }
      end(e.value_name);
      e.help = begin();
      if (impl::negated(f)) {  // the help says what the field does; the switch turns it off
        t.add("turns off ");
        t.add(f.name);
        t.add(": ");
      }
      t.add(f.help);
      if (f.required()) {
        t.add(" (required)");
      } else if constexpr (std::is_enum_v<M>) {
        for (const auto& w : f.names)
          if (w.value == f.default_value()) {
            t.add(" (default ");
            t.add(w.name);
            t.add(")");
            break;
          }
      } else if constexpr (!impl::is_switch<F>()) {
        t.add(" (default ");
        t.add_value(f.default_value());
        t.add(")");
      }
      end(e.help);
    });
    for_each_field(Fields, [&](const auto& f) {  // the older spellings, after the fields
      if (!impl::has_alias(f)) return;
      auto& e = l.entries[i++];
      e.name = begin();
      t.add(f.cli_alias);
      end(e.name);
      e.kind = impl::is_switch<std::remove_cvref_t<decltype(f)>>() ? flag_kind::boolean : flag_kind::value;
      e.value_name = begin();
      if (e.kind == flag_kind::value) t.add("N");
      end(e.value_name);
      e.help = begin();
      t.add("the same as --");
      if (impl::negated(f)) t.add("no-");
      t.add(f.name, true);
      end(e.help);
    });
    return l;
  }
  static constexpr layout text = make();

  static constexpr std::string_view at(field_flags_impl::span_at s) {
    return std::string_view(text.t.chars.data() + s.at, s.len);
  }
  static constexpr std::array<flag_spec, count> make_flags() {
    std::array<flag_spec, count> r{};
    for (std::size_t k = 0; k < count; ++k) {
      const auto& e = text.entries[k];
      r[k] = {at(e.name), e.kind, at(e.value_name), at(e.help)};
    }
    return r;
  }
  // The flags, one per field in the list's order, then one per cli_alias.
  static constexpr std::array<flag_spec, count> flags = make_flags();
};

// The flags of Fields followed by a command's own (positions, ranges, output choices).
template <const auto& Fields, field_form Form = field_form::one_value, std::size_t B>
constexpr std::array<flag_spec, config_field_flags<Fields, Form>::count + B> with_config_flags(
    const flag_spec (&own)[B]) {
  return concat(config_field_flags<Fields, Form>::flags, own);
}

// Reads the flags of Fields over c, in the list's order: a flag given sets its member; a required
// field not given is an error unless from_file (a config.json gave it). Errors are usage_errors
// naming the flag as the user wrote it.
template <const auto& Fields, class Config>
void read_config_fields(const parsed_args& a, const std::string& ctx, Config& c, bool from_file = false) {
  using table = config_field_flags<Fields>;
  std::size_t i = 0, alias_i = table::field_count;
  for_each_field(Fields, [&](const auto& f) {
    using F = std::remove_cvref_t<decltype(f)>;
    using M = typename F::member_type;
    const std::string_view flag = table::flags[i++].name;
    const std::string_view alias = field_flags_impl::has_alias(f) ? table::flags[alias_i++].name : std::string_view{};
    if (!alias.empty() && a.has(flag) && a.has(alias))
      throw usage_error(ctx + ": give --" + std::string(flag) + " or --" + std::string(alias) + ", not both");
    const std::string_view given = a.has(flag) ? flag : (!alias.empty() && a.has(alias)) ? alias : std::string_view{};
    if constexpr (std::is_same_v<M, bool>) {
      if (!given.empty()) c.*f.member = !field_flags_impl::negated(f);
      return;
    } else {
      if (given.empty()) {
        if (f.required() && !from_file) throw usage_error(ctx + ": --" + std::string(flag) + " is required");
        return;
      }
      const std::string_view v = *a.value(given);
      const std::string what = "--" + std::string(given);
      if constexpr (std::is_enum_v<M>) {
        std::string expected;
        for (const auto& w : f.names) {
          std::string underscored(w.name);
          for (char& ch : underscored) ch = ch == '-' ? '_' : ch;
          if (v == w.name || v == underscored) {
            c.*f.member = w.value;
            return;
          }
          expected += expected.empty() ? "" : ", ";
          expected += w.name;
        }
        throw usage_error(ctx + ": invalid value " + quote(v) + " for " + what + " (expected one of: " + expected +
                          ")");
      } else if constexpr (std::is_integral_v<M>) {
        constexpr long long wide = 1LL << 62;
        constexpr long long lo = sizeof(M) < 8 ? static_cast<long long>(std::numeric_limits<M>::min()) : -wide;
        constexpr long long hi = sizeof(M) < 8 ? static_cast<long long>(std::numeric_limits<M>::max()) : wide;
        c.*f.member = static_cast<M>(parse_integer(v, lo, hi, what, ctx));
      } else {
        c.*f.member = parse_real<M>(v, what, ctx);
      }
    }
  });
}

// One Config per head from the per-head flags of Fields (with_config_flags<Fields,
// field_form::per_head>): each flag is a list "X,X,..." with one value per head, read as the double
// each entry rounds to; every field is required and every list has the first one's length.
template <const auto& Fields>
auto read_config_fields_per_head(const parsed_args& a, const std::string& ctx) {
  using Config = typename std::tuple_element_t<0, std::remove_cvref_t<decltype(Fields)>>::config_type;
  using table = config_field_flags<Fields, field_form::per_head>;
  constexpr std::size_t most_heads = 4096;
  std::vector<Config> heads;
  std::string first_flag;
  std::size_t i = 0;
  for_each_field(Fields, [&](const auto& f) {
    static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(f)>::member_type, double>,
                  "posenc: a per-head field is a double");
    const std::string flag(table::flags[i++].name);
    const std::optional<std::string_view> text = a.value(flag);
    if (!text) throw usage_error(ctx + ": --" + flag + " X,X,... (one value per head) is required");
    std::vector<double> values;
    std::string_view rest = *text;
    for (;;) {
      const std::size_t comma = rest.find(',');
      values.push_back(parse_real<double>(rest.substr(0, comma), "--" + flag + " entry", ctx));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
    if (values.size() > most_heads) throw usage_error(ctx + ": --" + flag + " has more than 4096 heads");
    if (first_flag.empty()) {
      first_flag = flag;
      heads.assign(values.size(), Config{});
    } else if (values.size() != heads.size()) {
      throw usage_error(ctx + ": --" + first_flag + " has " + std::to_string(heads.size()) + " values and --" + flag +
                        " " + std::to_string(values.size()) + " (one per head each)");
    }
    for (std::size_t h = 0; h < values.size(); ++h) heads[h].*f.member = values[h];
  });
  return heads;
}

}  // namespace posenc::cli
