// commands_math.hpp: `posenc math <sin|cos|exp|log|pow|sqrt> <x> [y] [--type f64|f32] [--decimal]`.
//
// Prints RN_T(f(x)) (or RN_T(x^y)) computed by posenc::math, the arguments being the exact binary
// values of type T that the user wrote. Arguments for which the result would be NaN or infinite
// (log of x <= 0, sqrt of x < 0, pow of a negative base with a non-integer exponent or of zero
// with a negative exponent, a result overflowing T) are errors, never printed.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include <posenc/math/exp_log.hpp>
#include <posenc/math/pow.hpp>
#include <posenc/math/sqrt.hpp>
#include <posenc/math/trig.hpp>
#include <posenc/status.hpp>

#include "args.hpp"
#include "hexfloat.hpp"

namespace posenc::cli {

namespace impl {  // helpers of this header, not commands

// The math functions return T (C Annex F special values); accept posenc::result<T> as well so
// that the tool does not depend on that choice. An error status becomes the matching special
// value, which math_value() below reports.
template <class T>
T unwrap(T v) {
  return v;
}
template <class T>
T unwrap(const posenc::result<T>& r) {
  if (r.ok()) return r.value;
  if (r.error == posenc::status::overflow) return std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::quiet_NaN();
}

enum class math_fn { sin, cos, exp, log, pow, sqrt };

struct math_fn_info {
  std::string_view name;
  math_fn fn;
  bool binary;  // takes <x> and <y>
};

inline constexpr math_fn_info math_functions[] = {
    {"sin", math_fn::sin, false}, {"cos", math_fn::cos, false}, {"exp", math_fn::exp, false},
    {"log", math_fn::log, false}, {"pow", math_fn::pow, true},  {"sqrt", math_fn::sqrt, false},
};

// Rejects the arguments at which the function is NaN or has a pole (C Annex F), before computing.
template <class T>
void check_math_domain(math_fn fn, T x, T y, const parsed_args& args, const std::string& ctx) {
  const auto& p = args.positionals;
  if (fn == math_fn::log && !(x > 0))
    throw usage_error(ctx + ": <x> must be > 0, got " + quote(p[1]) + " (log is -infinity at 0 and not real below)");
  if (fn == math_fn::sqrt && x < 0)
    throw usage_error(ctx + ": <x> must be >= 0, got " + quote(p[1]) + " (the result is not real)");
  if (fn == math_fn::pow && y != 0) {  // pow(x, +-0) = 1 for every x
    if (x < 0 && std::trunc(y) != y)
      throw usage_error(ctx + ": a negative <x> needs an integer <y>, got <x> = " + quote(p[1]) +
                        ", <y> = " + quote(p[2]) + " (the result is not real)");
    if (x == 0 && y < 0)
      throw usage_error(ctx + ": <x> = " + quote(p[1]) + " with a negative <y> = " + quote(p[2]) +
                        " is a pole (the result is infinite)");
  }
}

template <class T>
T call_math(math_fn fn, T x, T y) {
  switch (fn) {
    case math_fn::sin: return unwrap<T>(posenc::math::sin(x));
    case math_fn::cos: return unwrap<T>(posenc::math::cos(x));
    case math_fn::exp: return unwrap<T>(posenc::math::exp(x));
    case math_fn::log: return unwrap<T>(posenc::math::log(x));
    case math_fn::pow: return unwrap<T>(posenc::math::pow(x, y));
    case math_fn::sqrt: return unwrap<T>(posenc::math::sqrt(x));
  }
  return std::numeric_limits<T>::quiet_NaN();
}

template <class T>
std::string math_value(const math_fn_info& f, const parsed_args& args, bool decimal) {
  const std::string ctx = "math " + std::string(f.name);
  const auto& p = args.positionals;
  const T x = parse_real<T>(p[1], "<x>", ctx);
  const T y = f.binary ? parse_real<T>(p[2], "<y>", ctx) : T(0);
  check_math_domain(f.fn, x, y, args, ctx);
  const T r = call_math(f.fn, x, y);
  std::string at = "<x> = " + quote(p[1]);
  if (f.binary) at += ", <y> = " + quote(p[2]);
  if (std::isinf(r)) throw usage_error(ctx + ": result overflows " + std::string(type_name<T>()) + " for " + at);
  if (std::isnan(r)) throw usage_error(ctx + ": result is not a real number for " + at);
  return format_real(r, decimal) + "\n";
}

}  // namespace impl

inline constexpr flag_spec math_flags[] = {type_flag, decimal_flag};

inline constexpr std::string_view math_usage =
    "usage: posenc math <function> <x> [<y>] [--type f64|f32] [--decimal]\n"
    "\n"
    "Prints the correctly rounded value of a posenc::math function (round to nearest, ties to\n"
    "even, one rounding from the exact real result).\n"
    "\n"
    "functions:\n"
    "  sin <x>    cos <x>    exp <x>    log <x>    sqrt <x>    pow <x> <y>\n"
    "\n"
    "Arguments are decimal (0.1, -2.5e-3) or C99 hex floats (0x1.8p+1), finite, converted once\n"
    "to the chosen type; the output is an exact hex float (%a), or the shortest decimal that\n"
    "reads back to the same value with --decimal. Arguments where the result is not a finite\n"
    "real (log x <= 0, sqrt x < 0, pow of a negative x with non-integer y or of 0 with y < 0,\n"
    "overflow) are errors.\n"
    "\n"
    "flags:\n";

inline void run_math(const parsed_args& args, std::string& out) {
  if (args.positionals.empty()) throw usage_error("math: missing <function> (one of: sin, cos, exp, log, pow, sqrt)");
  const std::string_view name = args.positionals[0];
  const impl::math_fn_info* f = nullptr;
  for (const auto& candidate : impl::math_functions)
    if (candidate.name == name) f = &candidate;
  if (f == nullptr)
    throw usage_error("math: unknown function " + quote(name) + " (expected one of: sin, cos, exp, log, pow, sqrt)");
  const std::string ctx = "math " + std::string(name);
  constexpr std::string_view unary[] = {"<function>", "<x>"};
  constexpr std::string_view binary[] = {"<function>", "<x>", "<y>"};
  if (f->binary)
    expect_positionals(args, binary, ctx);
  else
    expect_positionals(args, unary, ctx);
  const bool decimal = flag_set(args, "decimal");
  if (flag_type(args, ctx) == real_type::f32)
    out += impl::math_value<float>(*f, args, decimal);
  else
    out += impl::math_value<double>(*f, args, decimal);
}

inline constexpr command math_command{"math", "evaluate one posenc::math function, correctly rounded", math_usage,
                                      math_flags, run_math};

}  // namespace posenc::cli
