// validate.hpp: the preconditions of a KERPLE head, with alibi/validate.hpp's report mode:
// validate() returns the first broken one as a value; the generators (bias.hpp) take a checked
// config, so in constant evaluation a broken precondition stops the compiler inside
// posenc::kerple::invalid_kerple_config (not constexpr on purpose) and GCC and Clang print its
// sentence. The limits keep the exact decision within 256 bits (bias.hpp): log: a >= 2^-60 (with
// a k < 2^84 per call, 1 + a k is exact); power: p <= 2 (with k < 2^26 per call, k^p < 2^52).
#pragma once

#include <type_traits>

#include "posenc/kerple/config.hpp"
#include "posenc/status.hpp"
#include "posenc/validation.hpp"

namespace posenc::kerple {

using validation = posenc::validation;  // validation.hpp

// Reached only in constant evaluation on a broken precondition (not constexpr on purpose).
inline void invalid_kerple_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::kerple

namespace posenc::kerple::detail {

constexpr bool finite_positive(double x) noexcept { return x > 0 && x <= 0x1.fffffffffffffp1023; }

constexpr kerple::validation bad(const char* m, bool report) noexcept {
  if (report) kerple::invalid_kerple_config(m);
  return {posenc::status::domain_error, m};
}

constexpr kerple::validation validate_log(const kerple::log_config& c, bool report) noexcept {
  if (!finite_positive(c.p)) return bad("KERPLE-log p must be finite and positive", report);
  if (!finite_positive(c.a) || c.a < 0x1p-60) return bad("KERPLE-log a must be finite and at least 2^-60", report);
  return {};
}

constexpr kerple::validation validate_power(const kerple::power_config& c, bool report) noexcept {
  if (!finite_positive(c.a)) return bad("KERPLE-power a must be finite and positive", report);
  if (!(c.p > 0.0 && c.p <= 2.0)) return bad("KERPLE-power p must be in (0, 2]", report);
  return {};
}

}  // namespace posenc::kerple::detail

namespace posenc::kerple {

constexpr validation validate(const log_config& c) noexcept { return kerple::detail::validate_log(c, false); }
constexpr validation validate(const power_config& c) noexcept { return kerple::detail::validate_power(c, false); }

constexpr validation require_valid(const log_config& c) noexcept {
  return kerple::detail::validate_log(c, std::is_constant_evaluated());
}
constexpr validation require_valid(const power_config& c) noexcept {
  return kerple::detail::validate_power(c, std::is_constant_evaluated());
}

// A head validated once, where it is made (validation.hpp).
using log_checked_config = posenc::checked<log_config, &kerple::detail::validate_log>;
using power_checked_config = posenc::checked<power_config, &kerple::detail::validate_power>;

}  // namespace posenc::kerple
