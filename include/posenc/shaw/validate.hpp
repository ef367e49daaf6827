// validate.hpp: the precondition of a Shaw config, with alibi/validate.hpp's report mode:
// validate() returns it broken as a value; the generators (relative_index.hpp) take a
// checked_config, so in constant evaluation a broken precondition stops the compiler inside
// posenc::shaw::invalid_shaw_config (not constexpr on purpose) and GCC and Clang print its sentence.
#pragma once

#include <type_traits>

#include "posenc/shaw/config.hpp"
#include "posenc/status.hpp"
#include "posenc/validation.hpp"

namespace posenc::shaw {

using validation = posenc::validation;  // validation.hpp

// The largest clip: 2k + 1 indices fit an int.
inline constexpr int max_max_relative_position = 1 << 30;

// Reached only in constant evaluation on a broken precondition (not constexpr on purpose).
inline void invalid_shaw_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::shaw

namespace posenc::shaw::detail {

constexpr shaw::validation bad(const char* m, bool report) noexcept {
  if (report) shaw::invalid_shaw_config(m);
  return {posenc::status::domain_error, m};
}

constexpr shaw::validation validate_config(const shaw::config& c, bool report) noexcept {
  if (c.max_relative_position < 1 || c.max_relative_position > shaw::max_max_relative_position)
    return bad("max_relative_position must be in [1, 2^30]", report);
  return {};
}

}  // namespace posenc::shaw::detail

namespace posenc::shaw {

constexpr validation validate(const config& c) noexcept { return shaw::detail::validate_config(c, false); }

constexpr validation require_valid(const config& c) noexcept {
  return shaw::detail::validate_config(c, std::is_constant_evaluated());
}

// A config validated once, where it is made (validation.hpp).
using checked_config = posenc::checked<config, &shaw::detail::validate_config>;

}  // namespace posenc::shaw
