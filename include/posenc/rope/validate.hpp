// validate.hpp: the preconditions of a RoPE config, checked in one constexpr pass.
//
//   static_assert(posenc::rope::validate(cfg).ok(), "bad RoPE config");
//   if (auto v = posenc::rope::validate(cfg); !v) { std::fputs(v.message, stderr); ... }
// The message is one English line naming the first broken precondition. The conditions are those
// under which HF's modeling_rope_utils.py computes a meaningful result (and ours is exact): e.g.
// ntk/dynamic raise the base to d/(d-2), so d = 2 divides by zero; YaRN's ramp needs
// beta_fast > beta_slow; Llama-3's smoothed band divides by high_freq_factor - low_freq_factor, and
// with high_freq_factor == low_freq_factor (Llama-4's rope_scaling) that band is empty, so HF accepts
// it and so does posenc; high_freq_factor < low_freq_factor is refused (the bands would overlap).
//
// validate() only reports. The generators (checked_config.hpp, and through it frequencies, angles
// and tables) check in "report" mode: in constant evaluation a broken precondition then stops the
// compiler inside posenc::rope::invalid_rope_config, a function that is deliberately not constexpr
// (the technique of {fmt}'s report_error), whose argument is the same sentence. GCC 12 prints
//   in 'constexpr' expansion of 'posenc::rope::detail::bad(((const char*)"rope_theta (the base)
//   must be finite and > 1"), 1)'  ...  call to non-'constexpr' function
//   'void posenc::rope::invalid_rope_config(const char*)'
// and Clang 16 "in call to 'bad(&"rope_theta (the base) must be finite and > 1"[0], true)'".
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/dims.hpp"
#include "posenc/status.hpp"
#include "posenc/validation.hpp"

namespace posenc::rope {

using validation = posenc::validation;  // validation.hpp

// Reached only in constant evaluation, on the path of a broken precondition: it is not constexpr
// on purpose, so that the compiler stops here and prints the call that led to it, whose argument
// names the precondition. Never called at run time.
inline void invalid_rope_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::rope

namespace posenc::rope::detail {

constexpr bool finite(double x) noexcept {
  return (std::bit_cast<std::uint64_t>(x) & 0x7FF0000000000000u) != 0x7FF0000000000000u;
}
constexpr bool positive(double x) noexcept { return finite(x) && x > 0; }

// A broken precondition: the validation that names it, or, when the caller asked for a report in
// constant evaluation, a compile error that names it (see the top of this file).
constexpr rope::validation bad(const char* m, bool report) noexcept {
  if (report) rope::invalid_rope_config(m);
  return {posenc::status::domain_error, m};
}

constexpr rope::validation validate_dims(const rope::config& c, bool report) noexcept {
  if (c.head_dim <= 0 && c.rotary_dim <= 0) return bad("head_dim must be positive", report);
  if (!prf_ok(c.partial_rotary_factor)) return bad("partial_rotary_factor must be in (0, 1]", report);
  if (c.rotary_dim > 0 && c.head_dim > 0 && c.rotary_dim > c.head_dim)
    return bad("rotary_dim exceeds head_dim", report);
  const std::int64_t d = rotary_dim(c);
  if (d == 0) return bad("rotary dim is zero", report);
  if (d % 2 != 0) return bad("rotary dim must be even", report);
  if (d > 65536) return bad("rotary dim above 65536", report);
  if (c.proportional && c.rope_type != rope::scaling::default_ && c.rope_type != rope::scaling::linear)
    return bad("proportional applies to the default and linear rope types only", report);
  if (c.proportional && rotating_pairs(c) == 0)
    return bad("proportional: no rotating pair (partial_rotary_factor * head_dim < 2)", report);
  return {};
}

constexpr rope::validation validate_yarn(const rope::config& c, bool report) noexcept {
  if (!positive(c.beta_fast) || !positive(c.beta_slow)) return bad("beta_fast and beta_slow must be positive", report);
  if (!(c.beta_fast > c.beta_slow)) return bad("beta_fast must exceed beta_slow", report);
  if (!finite(c.mscale) || c.mscale < 0 || !finite(c.mscale_all_dim) || c.mscale_all_dim < 0)
    return bad("mscale and mscale_all_dim must be finite and non-negative", report);
  return {};
}

constexpr rope::validation validate_longrope(const rope::config& c, bool report) noexcept {
  const std::int64_t half = rotary_dim(c) / 2;
  if (c.original_max_position_embeddings < 2)
    return bad("longrope needs original_max_position_embeddings >= 2", report);
  if (static_cast<std::int64_t>(c.short_factor.size()) != half)
    return bad("short_factor must have rotary_dim/2 entries", report);
  if (static_cast<std::int64_t>(c.long_factor.size()) != half)
    return bad("long_factor must have rotary_dim/2 entries", report);
  for (const double f : c.short_factor)
    if (!positive(f)) return bad("short_factor entries must be positive and finite", report);
  for (const double f : c.long_factor)
    if (!positive(f)) return bad("long_factor entries must be positive and finite", report);
  return {};
}

constexpr rope::validation validate_scaling(const rope::config& c, bool report) noexcept {
  using rope::scaling;
  const scaling t = c.rope_type;
  const bool derived = (t == scaling::yarn || t == scaling::longrope) && c.factor == 0.0;
  if (t != scaling::default_ || c.proportional) {
    if (derived) {
      if (c.max_position_embeddings <= 0 || c.original_max_position_embeddings <= 0)
        return bad("factor unset: max_position_embeddings and original_max_position_embeddings must be positive",
                   report);
    } else if (!(c.proportional && c.factor == 0.0) && !positive(c.factor)) {
      return bad("factor must be positive and finite", report);
    }
  }
  if ((t == scaling::ntk || t == scaling::dynamic) && rotary_dim(c) <= 2)
    return bad("ntk and dynamic need a rotary dim above 2 (exponent d/(d-2))", report);
  if (t == scaling::dynamic && (c.max_position_embeddings <= 0 || c.seq_len < 0))
    return bad("dynamic needs max_position_embeddings > 0 and seq_len >= 0", report);
  if ((t == scaling::yarn || t == scaling::llama3) && c.original_max_position_embeddings <= 0)
    return bad("original_max_position_embeddings must be positive", report);
  if (t == scaling::yarn) return validate_yarn(c, report);
  if (t == scaling::longrope) return validate_longrope(c, report);
  if (t == scaling::llama3) {
    if (!positive(c.low_freq_factor) || !positive(c.high_freq_factor))
      return bad("low_freq_factor and high_freq_factor must be positive", report);
    // Equal factors: no pair is smoothed (L0 theta_j == 2 pi hff never holds exactly: pi is
    // transcendental), as in HF's _compute_llama3_parameters, which only masks the smoothed values.
    if (c.high_freq_factor < c.low_freq_factor)
      return bad("high_freq_factor must not be below low_freq_factor", report);
  }
  return {};
}

// validate() with report = true stops constant evaluation at the first broken precondition.
constexpr rope::validation validate_config(const rope::config& c, bool report) noexcept {
  if (const rope::validation v = validate_dims(c, report); !v) return v;
  if (!finite(c.rope_theta) || !(c.rope_theta > 1.0))
    return bad("rope_theta (the base) must be finite and > 1", report);
  if (!(c.rope_theta < 0x1p960)) return bad("rope_theta (the base) must be below 2^960", report);
  if (c.attention_factor.has_value() && !positive(*c.attention_factor))
    return bad("attention_factor must be positive and finite", report);
  if (c.original_max_position_embeddings < 0 || c.max_position_embeddings < 0 ||
      c.original_max_position_embeddings > (std::int64_t{1} << 53) ||
      c.max_position_embeddings > (std::int64_t{1} << 53) || c.seq_len > (std::int64_t{1} << 53))
    return bad("position counts must be in [0, 2^53]", report);
  return validate_scaling(c, report);
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

// Every precondition of inv_freq / attention_factor (frequencies.hpp) for this config, as a value:
// usable in static_assert(!validate(bad).ok()) and at run time alike.
constexpr validation validate(const config& c) noexcept { return rope::detail::validate_config(c, false); }

// The same check in report mode when constant-evaluated: a broken precondition is a compile error
// naming it; at run time it is returned, as validate() does.
constexpr validation require_valid(const config& c) noexcept {
  return rope::detail::validate_config(c, std::is_constant_evaluated());
}

}  // namespace posenc::rope
