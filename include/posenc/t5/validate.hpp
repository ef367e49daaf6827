// validate.hpp: the preconditions of a T5 bucket config, with rope/validate.hpp's report mode:
// validate() returns the first broken precondition; the generators (bucket.hpp) check in report
// mode, so in constant evaluation a broken precondition stops the compiler inside
// posenc::t5::invalid_t5_config (not constexpr on purpose) and GCC and Clang print its sentence.
#pragma once

#include <cstdint>
#include <type_traits>

#include "posenc/status.hpp"
#include "posenc/t5/config.hpp"
#include "posenc/validation.hpp"

namespace posenc::t5 {

using validation = posenc::validation;  // validation.hpp

// The limits that keep the exact decision cheap and within 64-bit integers (bucket.hpp).
inline constexpr int max_num_buckets = 4096;
inline constexpr std::int64_t max_max_distance = std::int64_t{1} << 40;

inline void invalid_t5_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::t5

namespace posenc::t5::detail {

constexpr t5::validation bad(const char* m, bool report) noexcept {
  if (report) t5::invalid_t5_config(m);
  return {posenc::status::domain_error, m};
}

// The buckets of one side and the exact ones among them (HF: num_buckets //= 2 when bidirectional;
// max_exact = num_buckets // 2).
constexpr int side_buckets(const t5::config& c) noexcept {
  return c.bidirectional ? c.relative_attention_num_buckets / 2 : c.relative_attention_num_buckets;
}
constexpr int max_exact(const t5::config& c) noexcept { return side_buckets(c) / 2; }

constexpr t5::validation validate_config(const t5::config& c, bool report) noexcept {
  if (c.relative_attention_num_buckets < (c.bidirectional ? 4 : 2))
    return bad("relative_attention_num_buckets must be at least 2 (4 when bidirectional)", report);
  if (c.relative_attention_num_buckets > t5::max_num_buckets)
    return bad("relative_attention_num_buckets must be at most 4096", report);
  if (c.relative_attention_max_distance <= max_exact(c))
    return bad("relative_attention_max_distance must exceed the exact buckets (num_buckets/2, per side)", report);
  if (c.relative_attention_max_distance > t5::max_max_distance)
    return bad("relative_attention_max_distance must be at most 2^40", report);
  return {};
}

}  // namespace posenc::t5::detail

namespace posenc::t5 {

constexpr validation validate(const config& c) noexcept { return t5::detail::validate_config(c, false); }

constexpr validation require_valid(const config& c) noexcept {
  return t5::detail::validate_config(c, std::is_constant_evaluated());
}

// A config validated once, where it is made (validation.hpp).
using checked_config = posenc::checked<config, &t5::detail::validate_config>;

}  // namespace posenc::t5
