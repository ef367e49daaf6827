// validate.hpp: the precondition of a log-n config, with alibi/validate.hpp's report mode:
// validate() returns it broken as a value; the generators (factor.hpp) take a checked_config, so
// in constant evaluation a broken precondition stops the compiler inside
// posenc::logn::invalid_logn_config (not constexpr on purpose) and GCC and Clang print its sentence.
#pragma once

#include <cstdint>
#include <type_traits>

#include "posenc/logn/config.hpp"
#include "posenc/status.hpp"
#include "posenc/validation.hpp"

namespace posenc::logn {

using validation = posenc::validation;  // validation.hpp

// Reached only in constant evaluation on a broken precondition (not constexpr on purpose).
inline void invalid_logn_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::logn

namespace posenc::logn::detail {

constexpr logn::validation bad(const char* m, bool report) noexcept {
  if (report) logn::invalid_logn_config(m);
  return {posenc::status::domain_error, m};
}

// log_base(n) = log n / log base (math::log_ratio) needs an exact double base above 1.
constexpr logn::validation validate_config(const logn::config& c, bool report) noexcept {
  if (c.base < 2 || c.base >= (std::int64_t{1} << 53)) return bad("base must be in [2, 2^53)", report);
  return {};
}

}  // namespace posenc::logn::detail

namespace posenc::logn {

constexpr validation validate(const config& c) noexcept { return logn::detail::validate_config(c, false); }

constexpr validation require_valid(const config& c) noexcept {
  return logn::detail::validate_config(c, std::is_constant_evaluated());
}

// A config validated once, where it is made (validation.hpp).
using checked_config = posenc::checked<config, &logn::detail::validate_config>;

}  // namespace posenc::logn
