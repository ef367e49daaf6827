// args.hpp: the command-line machinery shared by every `posenc` command.
//
// - usage_error: any bad input. main() turns it into one stderr line
//   "posenc: error: <message>" and exit status 2, with nothing on stdout.
// - flag_spec / parse_args: `--name value`, `--name=value` and boolean `--name` flags, anywhere
//   after the command, mixed with positional arguments; `--` ends the flags. Only tokens starting
//   with "--" are flags, so "-1.5" is a positional number.
// - Typed accessors (flag_set, flag_choice, flag_integer; reals are in hexfloat.hpp) that name the
//   flag and the offending value in their errors.
// - command: the table entry of one subcommand (name, help text, flags, run function).
//
// Exceptions are used inside the tool only; main() catches everything.
#pragma once

#include <array>
#include <charconv>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "spellings.hpp"

namespace posenc::cli {

// A bad command line or an argument outside a function's domain: exit status 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A user-supplied token, quoted for an error message: control characters escaped (the error must
// stay on one line) and very long tokens shortened.
inline std::string quote(std::string_view token) {
  constexpr std::size_t max_shown = 60;
  std::string q = "'";
  std::size_t shown = 0;
  for (const char c : token) {
    if (shown++ == max_shown) {
      q += "...";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      constexpr const char* hex = "0123456789abcdef";
      q += "\\x";
      q += hex[u >> 4];
      q += hex[u & 0xf];
    } else {
      q += c;
    }
  }
  q += '\'';
  return q;
}

enum class flag_kind { boolean, value };

struct flag_spec {
  std::string_view name;  // without the leading "--"
  flag_kind kind;
  std::string_view value_name;  // for help text, e.g. "f64|f32"; empty for boolean flags
  std::string_view help;        // one line
};

// The flags every command accepts; `--help` prints the command's usage.
inline constexpr flag_spec help_flag{"help", flag_kind::boolean, "", "print this help and exit"};

// A command's flags: a shared table (the RoPE config flags) followed by the command's own.
template <std::size_t A, std::size_t B>
constexpr std::array<flag_spec, A + B> concat(const std::array<flag_spec, A>& a, const flag_spec (&b)[B]) {
  std::array<flag_spec, A + B> r{};
  for (std::size_t i = 0; i < A; ++i) r[i] = a[i];
  for (std::size_t i = 0; i < B; ++i) r[A + i] = b[i];
  return r;
}

// The union of flag lists, each name once: the flags a command's line may hold when each of its
// tables takes its own (emit, verify). A name used by two lists must have one kind, since the
// parser reads the line before it knows the table; a clash or a too small Max fails to compile.
template <std::size_t Max>
struct flag_union {
  std::array<flag_spec, Max> specs{};
  std::size_t size = 0;

  constexpr flag_union& add(std::span<const flag_spec> list) {
    for (const flag_spec& f : list) {
      bool seen = false;
      for (std::size_t i = 0; i < size; ++i)
        if (specs[i].name == f.name) {
          if (specs[i].kind != f.kind)
            throw usage_error("a flag name with two kinds");  // constant evaluation: an error
          seen = true;
        }
      if (seen) continue;
      if (size == Max) throw usage_error("flag_union: Max too small");  // constant evaluation: an error
      specs[size++] = f;
    }
    return *this;
  }
  constexpr std::span<const flag_spec> view() const { return {specs.data(), size}; }
};

class parsed_args {
 public:
  std::vector<std::string_view> positionals;

  // True iff the (boolean or value) flag was given.
  bool has(std::string_view name) const { return find(name) != nullptr; }
  // The value of a value flag, if given.
  std::optional<std::string_view> value(std::string_view name) const {
    const auto* f = find(name);
    if (f == nullptr) return std::nullopt;
    return f->second;
  }
  void add(std::string_view name, std::string_view val) { flags_.emplace_back(name, val); }
  // The names of the flags given, in command-line order.
  std::vector<std::string_view> names() const {
    std::vector<std::string_view> n;
    for (const auto& f : flags_) n.push_back(f.first);
    return n;
  }

 private:
  const std::pair<std::string_view, std::string_view>* find(std::string_view name) const {
    for (const auto& f : flags_)
      if (f.first == name) return &f;
    return nullptr;
  }
  std::vector<std::pair<std::string_view, std::string_view>> flags_;
};

inline const flag_spec* find_flag(std::span<const flag_spec> specs, std::string_view name) {
  for (const auto& s : specs)
    if (s.name == name) return &s;
  if (name == help_flag.name) return &help_flag;
  return nullptr;
}

// Splits `tokens` (everything after the command name) into positionals and flags. `context` is the
// command's name, used in messages ("math: unknown flag '--foo'").
inline parsed_args parse_args(std::span<const std::string_view> tokens, std::span<const flag_spec> specs,
                              std::string_view context) {
  parsed_args out;
  const std::string where = std::string(context) + ": ";
  bool only_positionals = false;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string_view tok = tokens[i];
    if (only_positionals || tok.size() < 2 || tok.substr(0, 2) != "--") {
      out.positionals.push_back(tok);
      continue;
    }
    if (tok == "--") {
      only_positionals = true;
      continue;
    }
    std::string_view name = tok.substr(2);
    std::optional<std::string_view> inline_value;
    if (const auto eq = name.find('='); eq != std::string_view::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const flag_spec* spec = find_flag(specs, name);
    if (spec == nullptr) throw usage_error(where + "unknown flag " + quote(tok));
    if (out.has(name)) throw usage_error(where + "flag --" + std::string(name) + " given twice");
    if (spec->kind == flag_kind::boolean) {
      if (inline_value) throw usage_error(where + "flag --" + std::string(name) + " takes no value, got " + quote(tok));
      out.add(name, {});
      continue;
    }
    std::string_view val;
    if (inline_value) {
      val = *inline_value;
    } else if (i + 1 < tokens.size() && tokens[i + 1].substr(0, 2) != "--") {
      val = tokens[++i];
    } else {
      throw usage_error(where + "flag --" + std::string(name) + " needs a value (" + std::string(spec->value_name) +
                        ")");
    }
    if (val.empty()) throw usage_error(where + "flag --" + std::string(name) + " has an empty value");
    out.add(name, canonical_value(name, val, spec->value_name));  // half_split -> half-split, float32 -> f32, ...
  }
  return out;
}

// Positional arguments: exactly the ones named in `names` (e.g. {"<x>", "<y>"}).
inline void expect_positionals(const parsed_args& args, std::span<const std::string_view> names,
                               std::string_view context) {
  const std::string where = std::string(context) + ": ";
  if (args.positionals.size() > names.size())
    throw usage_error(where + "unexpected extra argument " + quote(args.positionals[names.size()]));
  if (args.positionals.size() < names.size())
    throw usage_error(where + "missing argument " + std::string(names[args.positionals.size()]));
}

inline bool flag_set(const parsed_args& args, std::string_view name) { return args.has(name); }

// A value flag taking one of a fixed set of words, e.g. --type f64|f32.
template <class E>
E flag_choice(const parsed_args& args, std::string_view name,
              std::initializer_list<std::pair<std::string_view, E>> choices, E fallback, std::string_view context) {
  const auto v = args.value(name);
  if (!v) return fallback;
  std::string expected;
  for (const auto& c : choices) {
    if (c.first == *v) return c.second;
    expected += expected.empty() ? "" : ", ";
    expected += c.first;
  }
  throw usage_error(std::string(context) + ": invalid value " + quote(*v) + " for --" + std::string(name) +
                    " (expected one of: " + expected + ")");
}

// A decimal integer token in [lo, hi]; `what` names it ("--dim", "<position>").
inline long long parse_integer(std::string_view text, long long lo, long long hi, std::string_view what,
                               std::string_view context) {
  long long v = 0;
  const char* first = text.data();
  const char* last = first + text.size();
  // from_chars takes '-' only; after a '+' it must not find one ("+-44" was read as -44: found by
  // fuzzing, tests/fuzz/corpus/cli_args/finding-integer-two-signs).
  if (first != last && *first == '+') {
    ++first;
    if (first != last && *first == '-') first = last;  // no digits: refused below, the token quoted
  }
  const auto [ptr, ec] = std::from_chars(first, last, v);
  const auto range = " in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (ec == std::errc::result_out_of_range || (ec == std::errc{} && ptr == last && (v < lo || v > hi)))
    throw usage_error(std::string(context) + ": " + std::string(what) + " must be" + range + ", got " + quote(text));
  if (ec != std::errc{} || ptr != last || first == last)
    throw usage_error(std::string(context) + ": " + std::string(what) + " must be an integer" + range + ", got " +
                      quote(text));
  return v;
}

inline long long flag_integer(const parsed_args& args, std::string_view name, long long lo, long long hi,
                              long long fallback, std::string_view context) {
  const auto v = args.value(name);
  if (!v) return fallback;
  return parse_integer(*v, lo, hi, "--" + std::string(name), context);
}

// One subcommand. `run` appends its whole output to `out`; main() writes it only on success.
struct command {
  std::string_view name;
  std::string_view summary;  // one line, for `posenc --help`
  std::string_view usage;    // full help text, for `posenc <name> --help`
  std::span<const flag_spec> flags;
  void (*run)(const parsed_args& args, std::string& out);
  // Optional: the help of `posenc <name> ... --help` when it depends on the arguments (emit's
  // tables); null means usage + the flag list.
  std::string (*help)(const parsed_args& args) = nullptr;
};

// Help text for a command's flags, one per line.
inline std::string describe_flags(std::span<const flag_spec> specs) {
  std::string s;
  auto line = [&s](const flag_spec& f) {
    std::string head = "  --" + std::string(f.name);
    if (f.kind == flag_kind::value) head += " " + std::string(f.value_name);
    if (head.size() < 24)
      head.resize(24, ' ');
    else
      head += "  ";
    s += head + std::string(f.help) + "\n";
  };
  for (const auto& f : specs) line(f);
  line(help_flag);
  return s;
}

}  // namespace posenc::cli
