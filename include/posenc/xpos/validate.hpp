// validate.hpp: the preconditions of an XPOS config, with rope/validate.hpp's report mode (in
// constant evaluation a broken precondition stops the compiler inside
// posenc::xpos::invalid_xpos_config, whose argument names it).
#pragma once

#include <type_traits>

#include "posenc/status.hpp"
#include "posenc/validation.hpp"
#include "posenc/xpos/config.hpp"

namespace posenc::xpos {

using validation = posenc::validation;  // validation.hpp

inline void invalid_xpos_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::xpos

namespace posenc::xpos::detail {

constexpr xpos::validation bad(const char* m, bool report) noexcept {
  if (report) xpos::invalid_xpos_config(m);
  return {posenc::status::domain_error, m};
}

constexpr xpos::validation validate_config(const xpos::config& c, bool report) noexcept {
  if (c.head_dim < 2 || c.head_dim > 65536 || c.head_dim % 2 != 0)
    return bad("head_dim must be even and in [2, 65536]", report);
  if (c.scale_base < 1 || c.scale_base > (1 << 30)) return bad("scale_base must be in [1, 2^30]", report);
  return {};
}

}  // namespace posenc::xpos::detail

namespace posenc::xpos {

constexpr validation validate(const config& c) noexcept { return xpos::detail::validate_config(c, false); }

constexpr validation require_valid(const config& c) noexcept {
  return xpos::detail::validate_config(c, std::is_constant_evaluated());
}

// A config validated once, where it is made (validation.hpp).
using checked_config = posenc::checked<config, &xpos::detail::validate_config>;

}  // namespace posenc::xpos
