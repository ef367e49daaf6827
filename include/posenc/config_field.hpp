// config_field.hpp: a scheme's config members as one constexpr list, so that everything that reads or
// describes a config (the posenc CLI's flags and help, Python's keyword arguments and their
// defaults) is derived from one place, the scheme's own <scheme>/config_fields.hpp.
//
//   posenc::config_field<Config, M>       {name, &Config::member, help, need, names, cli_alias}
//   posenc::for_each_field(fields, f)     f(field) for each field of a tuple of them, in order
//   field.default_value()                 Config{}'s value of the member: the one default
//
//   inline constexpr auto config_fields = std::make_tuple(
//       config_field<config, std::int64_t>{.name = "base", .member = &config::base, .help = "log base"},
//       config_field<config, bool>{.name = "at_least_one", .member = &config::at_least_one, .help = "..."});
//
// The pattern of Boost.Hana's BOOST_HANA_ADAPT_STRUCT and of rope/config_fields.hpp (RoPE's list,
// with HF's keys): one list of members from which both the names and the accessors come. The name is
// Python's keyword; the CLI's flag is the same name with '-' for '_' (a bool whose default is true:
// --no-<name>). A default lives in the config's member initializer only, so the CLI's help and
// Python's signatures show the value the library uses. A field the caller must give (a dimension,
// a head count) has need == required: neither the CLI nor Python falls back to Config{}'s value.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <utility>

namespace posenc {

// One word that spells a value of an enumerated member (the first of a field's words is the one
// written back).
template <class E>
struct named_value {
  std::string_view name;
  E value;
};

enum class field_need : unsigned char {
  optional,  // Config{}'s value when not given
  required,  // must be given (or read from a config.json where the scheme reads one)
};

template <class Config, class M, std::size_t Names = 0>
struct config_field {
  using config_type = Config;
  using member_type = M;
  std::string_view name;  // snake_case: Python's keyword; the CLI's flag is it with '-' for '_'
  M Config::*member;
  std::string_view help;  // one line, without the default (help texts add Config{}'s)
  field_need need = field_need::optional;
  std::array<named_value<M>, Names> names{};  // an enumerated member's words
  std::string_view cli_alias{};               // an older flag of the CLI for the same field, still accepted

  constexpr M default_value() const { return Config{}.*member; }
  constexpr bool required() const { return need == field_need::required; }
};

// f(field) for each field of `fields` (a std::tuple of config_field), in order.
template <class Fields, class F>
constexpr void for_each_field(const Fields& fields, F&& f) {
  std::apply([&f](const auto&... field) { (f(field), ...); }, fields);
}

}  // namespace posenc

namespace posenc::detail {

// The number of members of an aggregate A: the largest N for which A{x_1, ..., x_N} compiles, each
// x_i converting to anything. A scheme's config_fields.hpp compares it with its list's length, so a
// member added without its field stops the build. Used only in unevaluated requires-expressions.
struct any_member_value {
  template <class T>
  constexpr operator T() const noexcept {
    return T{};
  }
};
template <class A, std::size_t... I>
constexpr bool brace_initializable(std::index_sequence<I...>) noexcept {
  return requires { A{(static_cast<void>(I), any_member_value{})...}; };
}
template <class A, std::size_t N = 0>
constexpr std::size_t aggregate_member_count() noexcept {
  if constexpr (!brace_initializable<A>(std::make_index_sequence<N + 1>()))
    return N;
  else
    return aggregate_member_count<A, N + 1>();
}

// Whether `fields` has as many entries as Config has members (each scheme's static_assert; a
// member pointer that names no member stops the build by itself).
template <class Config, class Fields>
constexpr bool fields_cover_config(const Fields&) noexcept {
  return aggregate_member_count<Config>() == std::tuple_size_v<Fields>;
}

constexpr bool is_snake_case(std::string_view s) noexcept {
  if (s.empty() || s.front() == '_' || s.back() == '_') return false;
  for (const char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// Whether every name of `fields` is a snake_case identifier, so that Python's keyword and the CLI's
// dashed flag are the same word.
template <class Fields>
constexpr bool field_names_snake_case(const Fields& fields) noexcept {
  bool ok = true;
  for_each_field(fields, [&ok](const auto& f) { ok = ok && is_snake_case(f.name); });
  return ok;
}

}  // namespace posenc::detail
