// hexfloat.hpp: reading and printing real numbers exactly.
//
// Input: decimal ("0.1", "-2.5e-3", ".5") or C99 hex-float ("0x1.8p+1", "-0X.Cp-2") text,
// converted straight to T with one correct rounding (std::from_chars<T>; a float is never read
// through a double, which could round twice). Rejected, with an error naming the token: empty
// text, trailing garbage, a second sign, NaN and infinities (posenc's functions are evaluated at
// finite arguments only), values overflowing T, and non-zero values so small that they round
// to zero in T (the user did not mean zero; a subnormal result is accepted).
//
// Output: C99 "%a" hex floats (exact), or with --decimal the shortest decimal string that reads
// back to the same T (std::to_chars without a precision, i.e. shortest round trip for T).
#pragma once

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

#include "args.hpp"

namespace posenc::cli {

enum class real_type { f64, f32 };

template <class T>
constexpr std::string_view type_name() {
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, float>);
  return std::is_same_v<T, double> ? "f64" : "f32";
}

// The `--type f64|f32` flag (default f64).
inline constexpr flag_spec type_flag{"type", flag_kind::value, "f64|f32",
                                     "floating-point type of arguments and result (default f64)"};
inline real_type flag_type(const parsed_args& args, std::string_view context) {
  return flag_choice(args, "type", {{"f64", real_type::f64}, {"f32", real_type::f32}}, real_type::f64, context);
}

namespace impl {  // helpers of this header, not commands

inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char ca = (a[i] >= 'A' && a[i] <= 'Z') ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    if (ca != b[i]) return false;
  }
  return true;
}

inline bool is_digit(char c, bool hex) {
  return (c >= '0' && c <= '9') || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
}

// Only called when from_chars reported result_out_of_range, to tell overflow from underflow:
// strtod/strtof return +-HUGE_VAL (infinity) on overflow and a zero/tiny value on underflow.
template <class T>
bool overflows(const std::string& text) {
  if constexpr (std::is_same_v<T, float>)
    return std::isinf(std::strtof(text.c_str(), nullptr));
  else
    return std::isinf(std::strtod(text.c_str(), nullptr));
}

}  // namespace impl

// Reads `text` as a finite T. `what` names the argument in messages ("<x>", "--base").
template <class T>
T parse_real(std::string_view text, std::string_view what, std::string_view context) {
  const std::string where = std::string(context) + ": " + std::string(what) + " ";
  const std::string bad =
      where + "is not a number: " + quote(text) + " (expected decimal like 0.25 or hex float like 0x1p-2)";
  if (text.empty()) throw usage_error(where + "is empty (expected a number)");
  std::string_view body = text;
  bool negative = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  bool hex = false;
  if (body.size() >= 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
    hex = true;
    body.remove_prefix(2);
  }
  if (!hex) {
    // from_chars would accept these; the functions' domain is the finite reals.
    for (const char* special : {"inf", "infinity", "nan"})
      if (impl::iequals(body, special) || (impl::iequals(body.substr(0, 4), "nan(")))
        throw usage_error(where + "must be finite, got " + quote(text) +
                          " (posenc evaluates its functions at finite arguments only)");
  }
  // A digit or a point must follow the sign and prefix (from_chars would take another sign).
  if (body.empty() || !(impl::is_digit(body[0], hex) || body[0] == '.')) throw usage_error(bad);
  // An exponent's sign must be followed by a digit: libstdc++ 12's from_chars read "0x1.8p+-1" as
  // 0x1.8p-1, where strtod stops at the 'p' (found by the suite's fuzzing smoke run,
  // tests/fuzz/corpus/cli_args/finding-exponent-two-signs).
  const std::size_t exp_at = body.find_first_of(hex ? "pP" : "eE");
  if (exp_at != std::string_view::npos && exp_at + 1 < body.size() &&
      (body[exp_at + 1] == '+' || body[exp_at + 1] == '-') &&
      (exp_at + 2 >= body.size() || !impl::is_digit(body[exp_at + 2], false)))
    throw usage_error(bad);
  T v{};
  const char* last = body.data() + body.size();
  const auto [ptr, ec] =
      std::from_chars(body.data(), last, v, hex ? std::chars_format::hex : std::chars_format::general);
  if (ec == std::errc::result_out_of_range) {
    const std::string whole(text);
    if (impl::overflows<T>(whole))
      throw usage_error(where + "overflows " + std::string(type_name<T>()) + ": " + quote(text));
    throw usage_error(where + "underflows to zero in " + std::string(type_name<T>()) + ": " + quote(text) +
                      " (write 0 if zero is meant)");
  }
  if (ec != std::errc{} || ptr != last) throw usage_error(bad);
  if (!std::isfinite(v)) throw usage_error(bad);  // defensive: excluded above
  return negative ? -v : v;
}

// C99 "%a": exact. A float is printed through the (exact) double conversion.
template <class T>
std::string format_hex(T v) {
  char buf[64];
  const int n = std::snprintf(buf, sizeof buf, "%a", static_cast<double>(v));
  if (n <= 0 || static_cast<std::size_t>(n) >= sizeof buf) throw std::runtime_error("cannot format a hex float");
  return std::string(buf, static_cast<std::size_t>(n));
}

// The shortest decimal that reads back (as T) to v.
template <class T>
std::string format_decimal(T v) {
  char buf[64];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  if (ec != std::errc{}) throw std::runtime_error("cannot format a decimal");
  return std::string(buf, ptr);
}

template <class T>
std::string format_real(T v, bool decimal) {
  return decimal ? format_decimal(v) : format_hex(v);
}

// The `--decimal` flag.
inline constexpr flag_spec decimal_flag{"decimal", flag_kind::boolean, "",
                                        "print the shortest round-trip decimal instead of an exact hex float"};

// A real-valued flag, e.g. --base 10000.
template <class T>
T flag_real(const parsed_args& args, std::string_view name, T fallback, std::string_view context) {
  const auto v = args.value(name);
  if (!v) return fallback;
  return parse_real<T>(*v, "--" + std::string(name), context);
}

}  // namespace posenc::cli
