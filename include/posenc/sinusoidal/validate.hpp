// validate.hpp: the preconditions of a sinusoidal config, with rope/validate.hpp's report mode (in
// constant evaluation a broken precondition stops the compiler inside
// posenc::sinusoidal::invalid_sinusoidal_config, whose argument names it).
#pragma once

#include <type_traits>

#include "posenc/sinusoidal/config.hpp"
#include "posenc/status.hpp"
#include "posenc/validation.hpp"

namespace posenc::sinusoidal {

using validation = posenc::validation;  // validation.hpp

inline void invalid_sinusoidal_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::sinusoidal

namespace posenc::sinusoidal::detail {

constexpr sinusoidal::validation bad(const char* m, bool report) noexcept {
  if (report) sinusoidal::invalid_sinusoidal_config(m);
  return {posenc::status::domain_error, m};
}

constexpr sinusoidal::validation validate_config(const sinusoidal::config& c, bool report) noexcept {
  if (c.dim < 1 || c.dim > 65536) return bad("dim must be in [1, 65536]", report);
  if (c.exponent == sinusoidal::exponent::fairseq && c.dim < 4)
    return bad("the fairseq exponent i/(d/2 - 1) needs dim >= 4 (fairseq divides by zero below)", report);
  if (!(c.base > 1.0 && c.base < 0x1p960)) return bad("base must be in (1, 2^960)", report);
  return {};
}

}  // namespace posenc::sinusoidal::detail

namespace posenc::sinusoidal {

constexpr validation validate(const config& c) noexcept { return sinusoidal::detail::validate_config(c, false); }

constexpr validation require_valid(const config& c) noexcept {
  return sinusoidal::detail::validate_config(c, std::is_constant_evaluated());
}

// A config validated once, where it is made (validation.hpp).
using checked_config = posenc::checked<config, &sinusoidal::detail::validate_config>;

}  // namespace posenc::sinusoidal
