// validate.hpp: the preconditions of a Transformer-XL / XLNet config, with alibi/validate.hpp's
// report mode: validate() returns the first broken one as a value; the generators (positions.hpp)
// take a checked_config, so in constant evaluation a broken precondition stops the compiler
// inside posenc::transformer_xl::invalid_transformer_xl_config (not constexpr on purpose) and GCC
// and Clang print its sentence.
#pragma once

#include <cstdint>
#include <type_traits>

#include "posenc/status.hpp"
#include "posenc/transformer_xl/config.hpp"
#include "posenc/validation.hpp"

namespace posenc::transformer_xl {

using validation = posenc::validation;  // validation.hpp

// Reached only in constant evaluation on a broken precondition (not constexpr on purpose).
inline void invalid_transformer_xl_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::transformer_xl

namespace posenc::transformer_xl::detail {

constexpr transformer_xl::validation bad(const char* m, bool report) noexcept {
  if (report) transformer_xl::invalid_transformer_xl_config(m);
  return {posenc::status::domain_error, m};
}

// d_model: the concat [sin | cos] layout needs it even; klen <= 2^40 keeps every position within
// the sinusoidal kernel's |p| <= 2^40; qlen is XLNet's current segment, part of klen.
constexpr transformer_xl::validation validate_config(const transformer_xl::config& c, bool report) noexcept {
  if (c.d_model < 2 || c.d_model % 2 != 0 || c.d_model > 65536)
    return bad("d_model must be even and in [2, 65536]", report);
  if (c.klen < 1 || c.klen > (std::int64_t{1} << 40)) return bad("klen must be in [1, 2^40]", report);
  if (c.qlen < 0 || c.qlen > c.klen) return bad("qlen must be in [0, klen]", report);
  return {};
}

}  // namespace posenc::transformer_xl::detail

namespace posenc::transformer_xl {

constexpr validation validate(const config& c) noexcept { return transformer_xl::detail::validate_config(c, false); }

constexpr validation require_valid(const config& c) noexcept {
  return transformer_xl::detail::validate_config(c, std::is_constant_evaluated());
}

// A config validated once, where it is made (validation.hpp).
using checked_config = posenc::checked<config, &transformer_xl::detail::validate_config>;

}  // namespace posenc::transformer_xl
