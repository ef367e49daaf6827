// validate.hpp: the preconditions of a Sandwich config, with alibi/validate.hpp's report mode:
// validate() returns the first broken one as a value; the generator (bias.hpp) takes a
// checked_config, so in constant evaluation a broken precondition stops the compiler inside
// posenc::sandwich::invalid_sandwich_config (not constexpr on purpose) and GCC and Clang print its
// sentence.
#pragma once

#include <type_traits>

#include "posenc/sandwich/config.hpp"
#include "posenc/status.hpp"
#include "posenc/validation.hpp"

namespace posenc::sandwich {

using validation = posenc::validation;  // validation.hpp

// The limits of the accurate path's error bound (bias.hpp sum_approx: d/2 terms, times H < 2^13).
inline constexpr int max_dim = 4096;
inline constexpr int max_heads = 4096;

// Reached only in constant evaluation on a broken precondition (not constexpr on purpose).
inline void invalid_sandwich_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::sandwich

namespace posenc::sandwich::detail {

constexpr sandwich::validation bad(const char* m, bool report) noexcept {
  if (report) sandwich::invalid_sandwich_config(m);
  return {posenc::status::domain_error, m};
}

// dim even: the sum runs over i = 1 .. d/2 with the exponent 2i/d (NeMo's hidden size per head).
constexpr sandwich::validation validate_config(const sandwich::config& c, bool report) noexcept {
  if (c.dim < 2 || c.dim > sandwich::max_dim || c.dim % 2 != 0) return bad("dim must be even and in [2, 4096]", report);
  if (c.heads < 1 || c.heads > sandwich::max_heads) return bad("heads must be in [1, 4096]", report);
  return {};
}

}  // namespace posenc::sandwich::detail

namespace posenc::sandwich {

constexpr validation validate(const config& c) noexcept { return sandwich::detail::validate_config(c, false); }

constexpr validation require_valid(const config& c) noexcept {
  return sandwich::detail::validate_config(c, std::is_constant_evaluated());
}

// A config validated once, where it is made (validation.hpp).
using checked_config = posenc::checked<config, &sandwich::detail::validate_config>;

}  // namespace posenc::sandwich
