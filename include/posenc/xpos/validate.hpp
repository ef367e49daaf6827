// validate.hpp: the preconditions of an XPOS config, with rope/validate.hpp's report mode (in
// constant evaluation a broken precondition stops the compiler inside
// posenc::xpos::invalid_xpos_config, whose argument names it).
#pragma once

#include <type_traits>

#include "posenc/status.hpp"
#include "posenc/xpos/config.hpp"

namespace posenc::xpos {

struct validation {
  posenc::status error = posenc::status::ok;
  const char* message = "ok";
  constexpr bool ok() const noexcept { return error == posenc::status::ok; }
  constexpr explicit operator bool() const noexcept { return ok(); }
};

inline void invalid_xpos_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::xpos

namespace posenc::detail::xposf {

constexpr xpos::validation bad(const char* m, bool report) noexcept {
  if (report) xpos::invalid_xpos_config(m);
  return {posenc::status::domain_error, m};
}

constexpr xpos::validation validate_config(const xpos::config& c, bool report) noexcept {
  if (c.head_dim < 2 || c.head_dim > 65536 || c.head_dim % 2 != 0) return bad("head_dim must be even and in [2, 65536]", report);
  if (c.scale_base < 1 || c.scale_base > (1 << 30)) return bad("scale_base must be in [1, 2^30]", report);
  return {};
}

}  // namespace posenc::detail::xposf

namespace posenc::xpos {

constexpr validation validate(const config& c) noexcept { return detail::xposf::validate_config(c, false); }

constexpr validation require_valid(const config& c) noexcept {
  return detail::xposf::validate_config(c, std::is_constant_evaluated());
}

// A config validated once, where it is made (rope::checked_config's twin).
class checked_config {
 public:
  constexpr checked_config(const config& c) noexcept : config_(c), check_(require_valid(c)) {}  // NOLINT
  constexpr const config& get() const noexcept { return config_; }
  constexpr const validation& check() const noexcept { return check_; }
  constexpr bool ok() const noexcept { return check_.ok(); }

 private:
  config config_;
  validation check_;
};

}  // namespace posenc::xpos
