// validate.hpp: the preconditions of an ALiBi config, checked in one constexpr pass, with the same
// report mode as rope/validate.hpp: validate() returns the first broken precondition as a value;
// the generators (slopes.hpp, bias.hpp) check in report mode, so in constant evaluation a broken
// precondition stops the compiler inside posenc::alibi::invalid_alibi_config, which is not
// constexpr on purpose, and both GCC 12 and Clang 16 print the precondition's sentence.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "posenc/alibi/config.hpp"
#include "posenc/status.hpp"
#include "posenc/validation.hpp"

namespace posenc::alibi {

using validation = posenc::validation;  // validation.hpp

// The largest head count: slopes' exponents are then rationals with denominators below 2^31.
inline constexpr int max_heads = 4096;

// Reached only in constant evaluation, on the path of a broken precondition (not constexpr on
// purpose: the compiler stops here and prints the call, whose argument names the precondition).
inline void invalid_alibi_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::alibi

namespace posenc::alibi::detail {

constexpr alibi::validation bad(const char* m, bool report) noexcept {
  if (report) alibi::invalid_alibi_config(m);
  return {posenc::status::domain_error, m};
}

// max_bias * 2^16 as an integer M (max_bias = M / 2^16), or -1 when max_bias is not such a
// multiple: the slopes' exponents max_bias (h+1)/c are then exact rationals M (h+1) / (2^16 c).
constexpr std::int64_t max_bias_units(double max_bias) noexcept {
  const double scaled = max_bias * 65536.0;  // exact: a power-of-two scaling of a double below 2^10
  if (!(scaled >= 1.0 && scaled <= 960.0 * 65536.0)) return -1;
  const auto m = static_cast<std::int64_t>(scaled);
  return static_cast<double>(m) == scaled ? m : -1;
}

constexpr alibi::validation validate_config(const alibi::config& c, bool report) noexcept {
  if (c.heads < 1) return bad("heads must be at least 1", report);
  if (c.heads > alibi::max_heads) return bad("heads must be at most 4096", report);
  if (!(c.max_bias > 0.0 && c.max_bias <= 960.0)) return bad("max_bias must be in (0, 960]", report);
  if (max_bias_units(c.max_bias) < 0) return bad("max_bias must be a multiple of 2^-16", report);
  return {};
}

}  // namespace posenc::alibi::detail

namespace posenc::alibi {

// Every precondition of the slopes and biases of this config, as a value (static_assert-able).
constexpr validation validate(const config& c) noexcept { return alibi::detail::validate_config(c, false); }

// The same in report mode when constant-evaluated (a compile error naming the precondition).
constexpr validation require_valid(const config& c) noexcept {
  return alibi::detail::validate_config(c, std::is_constant_evaluated());
}

// A config validated once, where it is made (validation.hpp).
using checked_config = posenc::checked<config, &alibi::detail::validate_config>;

}  // namespace posenc::alibi
