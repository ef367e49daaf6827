// validate.hpp: the preconditions of a RoPE config, checked in one constexpr pass.
//
//   static_assert(posenc::rope::validate(cfg).ok(), "bad RoPE config");
//   if (auto v = posenc::rope::validate(cfg); !v) { std::fputs(v.message, stderr); ... }
// The message is one English line naming the first broken precondition. The conditions are those
// under which HF's modeling_rope_utils.py computes a meaningful result (and ours is exact): e.g.
// ntk/dynamic raise the base to d/(d-2), so d = 2 divides by zero; YaRN's ramp needs
// beta_fast > beta_slow; Llama-3 divides by high_freq_factor - low_freq_factor.
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/dims.hpp"
#include "posenc/status.hpp"

namespace posenc::rope {

struct validation {
  posenc::status error = posenc::status::ok;
  const char* message = "ok";
  constexpr bool ok() const noexcept { return error == posenc::status::ok; }
  constexpr explicit operator bool() const noexcept { return ok(); }
};

}  // namespace posenc::rope

namespace posenc::detail::ropef {

constexpr bool finite(double x) noexcept {
  return (std::bit_cast<std::uint64_t>(x) & 0x7FF0000000000000u) != 0x7FF0000000000000u;
}
constexpr bool positive(double x) noexcept { return finite(x) && x > 0; }

constexpr rope::validation bad(const char* m) noexcept { return {posenc::status::domain_error, m}; }

constexpr rope::validation validate_dims(const rope::config& c) noexcept {
  if (c.head_dim <= 0 && c.rotary_dim <= 0) return bad("head_dim must be positive");
  if (!prf_ok(c.partial_rotary_factor)) return bad("partial_rotary_factor must be in (0, 1]");
  if (c.rotary_dim > 0 && c.head_dim > 0 && c.rotary_dim > c.head_dim) return bad("rotary_dim exceeds head_dim");
  const std::int64_t d = rotary_dim(c);
  if (d == 0) return bad("rotary dim is zero");
  if (d % 2 != 0) return bad("rotary dim must be even");
  if (d > 65536) return bad("rotary dim above 65536");
  if (c.proportional && c.rope_type != rope::scaling::default_ && c.rope_type != rope::scaling::linear)
    return bad("proportional applies to the default and linear rope types only");
  if (c.proportional && rotating_pairs(c) == 0) return bad("proportional: no rotating pair (partial_rotary_factor * head_dim < 2)");
  return {};
}

constexpr rope::validation validate_yarn(const rope::config& c) noexcept {
  if (!positive(c.beta_fast) || !positive(c.beta_slow)) return bad("beta_fast and beta_slow must be positive");
  if (!(c.beta_fast > c.beta_slow)) return bad("beta_fast must exceed beta_slow");
  if (!finite(c.mscale) || c.mscale < 0 || !finite(c.mscale_all_dim) || c.mscale_all_dim < 0)
    return bad("mscale and mscale_all_dim must be finite and non-negative");
  return {};
}

constexpr rope::validation validate_longrope(const rope::config& c) noexcept {
  const std::int64_t half = rotary_dim(c) / 2;
  if (c.original_max_position_embeddings < 2) return bad("longrope needs original_max_position_embeddings >= 2");
  if (static_cast<std::int64_t>(c.short_factor.size()) != half) return bad("short_factor must have rotary_dim/2 entries");
  if (static_cast<std::int64_t>(c.long_factor.size()) != half) return bad("long_factor must have rotary_dim/2 entries");
  for (const float f : c.short_factor)
    if (!positive(static_cast<double>(f))) return bad("short_factor entries must be positive and finite");
  for (const float f : c.long_factor)
    if (!positive(static_cast<double>(f))) return bad("long_factor entries must be positive and finite");
  return {};
}

constexpr rope::validation validate_scaling(const rope::config& c) noexcept {
  using rope::scaling;
  const scaling t = c.rope_type;
  const bool derived = (t == scaling::yarn || t == scaling::longrope) && c.factor == 0.0;
  if (t != scaling::default_ || c.proportional) {
    if (derived) {
      if (c.max_position_embeddings <= 0 || c.original_max_position_embeddings <= 0)
        return bad("factor unset: max_position_embeddings and original_max_position_embeddings must be positive");
    } else if (!(c.proportional && c.factor == 0.0) && !positive(c.factor)) {
      return bad("factor must be positive and finite");
    }
  }
  if ((t == scaling::ntk || t == scaling::dynamic) && rotary_dim(c) <= 2)
    return bad("ntk and dynamic need a rotary dim above 2 (exponent d/(d-2))");
  if (t == scaling::dynamic && (c.max_position_embeddings <= 0 || c.seq_len < 0))
    return bad("dynamic needs max_position_embeddings > 0 and seq_len >= 0");
  if ((t == scaling::yarn || t == scaling::llama3) && c.original_max_position_embeddings <= 0)
    return bad("original_max_position_embeddings must be positive");
  if (t == scaling::yarn) return validate_yarn(c);
  if (t == scaling::longrope) return validate_longrope(c);
  if (t == scaling::llama3) {
    if (!positive(c.low_freq_factor) || !positive(c.high_freq_factor)) return bad("low_freq_factor and high_freq_factor must be positive");
    if (!(c.high_freq_factor > c.low_freq_factor)) return bad("high_freq_factor must exceed low_freq_factor");
  }
  return {};
}

}  // namespace posenc::detail::ropef

namespace posenc::rope {

// Every precondition of inv_freq / attention_factor (frequencies.hpp) for this config.
constexpr validation validate(const config& c) noexcept {
  if (const validation v = detail::ropef::validate_dims(c); !v) return v;
  if (!detail::ropef::finite(c.rope_theta) || !(c.rope_theta > 1.0)) return detail::ropef::bad("rope_theta (the base) must be finite and > 1");
  if (!(c.rope_theta < 0x1p960)) return detail::ropef::bad("rope_theta (the base) must be below 2^960");
  if (c.attention_factor.has_value() && !detail::ropef::positive(*c.attention_factor))
    return detail::ropef::bad("attention_factor must be positive and finite");
  if (c.original_max_position_embeddings < 0 || c.max_position_embeddings < 0 ||
      c.original_max_position_embeddings > (std::int64_t{1} << 53) || c.max_position_embeddings > (std::int64_t{1} << 53) ||
      c.seq_len > (std::int64_t{1} << 53))
    return detail::ropef::bad("position counts must be in [0, 2^53]");
  return detail::ropef::validate_scaling(c);
}

}  // namespace posenc::rope
