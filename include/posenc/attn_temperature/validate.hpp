// validate.hpp: the preconditions of an attention-temperature config, with alibi/validate.hpp's
// report mode: validate() returns the first broken one as a value; the generators (scale.hpp) take
// a checked_config, so in constant evaluation a broken precondition stops the compiler inside
// posenc::attn_temperature::invalid_attn_temperature_config (not constexpr on purpose) and GCC and
// Clang print its sentence.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "posenc/attn_temperature/config.hpp"
#include "posenc/status.hpp"
#include "posenc/validation.hpp"

namespace posenc::attn_temperature {

using validation = posenc::validation;  // validation.hpp

// Reached only in constant evaluation on a broken precondition (not constexpr on purpose).
inline void invalid_attn_temperature_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::attn_temperature

namespace posenc::attn_temperature::detail {

constexpr attn_temperature::validation bad(const char* m, bool report) noexcept {
  if (report) attn_temperature::invalid_attn_temperature_config(m);
  return {posenc::status::domain_error, m};
}

// floor((p + 1) / floor_scale) needs a positive step (HF divides by it). A negative attn_scale
// would turn the temperature into a cooling HF never ships, and a NaN or an infinity has no
// correctly rounded table: refused rather than carried into the entries.
constexpr attn_temperature::validation validate_config(const attn_temperature::config& c, bool report) noexcept {
  if (c.floor_scale < 1 || c.floor_scale > (std::int64_t{1} << 53))
    return bad("floor_scale must be in [1, 2^53]", report);
  if (!(c.attn_scale >= 0.0 && c.attn_scale <= std::numeric_limits<double>::max()))
    return bad("attn_scale must be finite and >= 0", report);
  return {};
}

}  // namespace posenc::attn_temperature::detail

namespace posenc::attn_temperature {

constexpr validation validate(const config& c) noexcept { return attn_temperature::detail::validate_config(c, false); }

constexpr validation require_valid(const config& c) noexcept {
  return attn_temperature::detail::validate_config(c, std::is_constant_evaluated());
}

// A config validated once, where it is made (validation.hpp).
using checked_config = posenc::checked<config, &attn_temperature::detail::validate_config>;

}  // namespace posenc::attn_temperature
