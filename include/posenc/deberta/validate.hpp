// validate.hpp: the preconditions of a DeBERTa bucket config, with rope/validate.hpp's report mode
// (a broken precondition in constant evaluation stops the compiler inside
// posenc::deberta::invalid_deberta_config, whose argument names it).
#pragma once

#include <cstdint>
#include <type_traits>

#include "posenc/deberta/config.hpp"
#include "posenc/status.hpp"
#include "posenc/validation.hpp"

namespace posenc::deberta {

using validation = posenc::validation;  // validation.hpp

inline void invalid_deberta_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::deberta

namespace posenc::deberta::detail {

constexpr deberta::validation bad(const char* m, bool report) noexcept {
  if (report) deberta::invalid_deberta_config(m);
  return {posenc::status::domain_error, m};
}

constexpr deberta::validation validate_config(const deberta::config& c, bool report) noexcept {
  if (c.position_buckets < 2 || c.position_buckets > 65536)
    return bad("position_buckets must be in [2, 65536]", report);
  if (c.max_relative_positions - 1 <= c.position_buckets / 2)
    return bad("max_relative_positions - 1 must exceed position_buckets / 2 (the log's base must exceed 1)", report);
  if (c.max_relative_positions > (std::int64_t{1} << 31))
    return bad("max_relative_positions must be at most 2^31", report);
  return {};
}

}  // namespace posenc::deberta::detail

namespace posenc::deberta {

constexpr validation validate(const config& c) noexcept { return deberta::detail::validate_config(c, false); }

constexpr validation require_valid(const config& c) noexcept {
  return deberta::detail::validate_config(c, std::is_constant_evaluated());
}

// A config validated once, where it is made (validation.hpp).
using checked_config = posenc::checked<config, &deberta::detail::validate_config>;

}  // namespace posenc::deberta
