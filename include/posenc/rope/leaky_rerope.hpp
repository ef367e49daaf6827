// leaky_rerope.hpp: Leaky ReRoPE (Su, kexue.fm/archives/9708; bojone/rerope leaky_rerope_patch.py
// forward_with_leaky_rerope): the relative position rel if rel < w, else w + (rel - w) / k, and the
// tables it needs, every entry correctly rounded.
//
// What the reference computes (window w, scaling_factor k, offset = w (k - 1)), for a query at i and
// a key at j <= i, rel = i - j:
//   rotary_emb  = LlamaRotaryEmbedding (plain, angle p theta_j), rotary_emb2 =
//   LlamaLinearScalingRotaryEmbedding(scaling_factor = k) (angle p theta_j / k: positions divided by k);
//   prefill: score1 = <R_i q, R_j k> from the plain table, score2 = <R'_{i + offset} q, R'_j k> from
//     the scaled one, torch.where(|rel| < w, score1, score2). score2's angle is
//     (rel + w (k - 1)) theta / k = (w + (rel - w) / k) theta. Rows read for L tokens: plain 0 .. L-1,
//     scaled 0 .. L - 1 + offset (leaky_rerope_scaled_config gives that table's config).
//   decode: q unrotated, each cached k rotated by cat(cos[:w], cos2[w + offset:])[rel] with -sin:
//     plain row rel for rel < w, scaled row rel + offset for rel >= w (fill_leaky_rerope_table).
// So the remapped position (leaky_rerope_relative_position) is the exact rational
// {rel, 1} inside the window and {k w + rel - w, k} outside (remapped_position.hpp): an integer row of
// the scaled table, whose entries RN_T(cos/sin(p theta_j / k)) are the exact real angle rounded once,
// where w + (rel - w) / k is not a double in general (k = 3: thirds).
//
// k is an integer >= 2, as in the reference (scaling_factor = 16 there; it indexes the scaled table
// by position_ids + w (k - 1), an integer only for integer k). The RoPE config is the plain one: its
// rope_type default (the reference's LlamaRotaryEmbedding) or linear (then the scaled table's factor
// is factor * k, which must be exact in double). Errors: status::domain_error; in constant
// evaluation a compile error naming the precondition (posenc::rope::invalid_leaky_rerope_config).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "posenc/math/double_double.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/detail/frequency_cache.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/remapped_position.hpp"
#include "posenc/rope/validate.hpp"
#include "posenc/status.hpp"
#include "posenc/validation.hpp"

namespace posenc::rope {

struct leaky_rerope_config {
  std::uint64_t window = 512;         // w (leaky_rerope_patch.py `window`)
  std::uint64_t scaling_factor = 16;  // k (leaky_rerope_patch.py `scaling_factor`)
};

// Reached only in constant evaluation on a broken Leaky ReRoPE precondition (not constexpr on purpose).
inline void invalid_leaky_rerope_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::rope

namespace posenc::rope::detail {

constexpr posenc::validation leaky_failure(const char* precondition, bool report) noexcept {
  if (report) rope::invalid_leaky_rerope_config(precondition);
  return {posenc::status::domain_error, precondition};
}

// k w is the first row of the scaled table a kernel reads, so it must be a table position.
constexpr posenc::validation validate_leaky_rerope(const rope::leaky_rerope_config& c, bool report) noexcept {
  if (c.window < 1) return leaky_failure("Leaky ReRoPE window w must be at least 1", report);
  if (c.scaling_factor < 2)
    return leaky_failure("Leaky ReRoPE scaling_factor k must be an integer >= 2 (k = 1 is plain RoPE)", report);
  if (c.window > rope::max_table_position || c.scaling_factor > rope::max_table_position / c.window)
    return leaky_failure("Leaky ReRoPE k * w must be at most 2^21", report);
  return {};
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

constexpr posenc::validation validate(const leaky_rerope_config& c) noexcept {
  return rope::detail::validate_leaky_rerope(c, false);
}

using checked_leaky_rerope_config = posenc::checked<leaky_rerope_config, &rope::detail::validate_leaky_rerope>;

// rel = query - key if rel < w, else w + (rel - w) / k = (k w + rel - w) / k, exactly. Causal.
constexpr posenc::result<remapped_position> leaky_rerope_relative_position(const checked_leaky_rerope_config& c,
                                                                           std::uint64_t query,
                                                                           std::uint64_t key) noexcept {
  if (!c.ok()) return {{}, c.check().error};
  if (key > query) {
    rope::detail::leaky_failure("Leaky ReRoPE is causal: the key must not follow the query",
                                std::is_constant_evaluated());
    return {{}, posenc::status::domain_error};
  }
  const std::uint64_t rel = query - key, w = c.get().window, k = c.get().scaling_factor;
  if (rel < w) return {{rel, 1}, posenc::status::ok};
  return {{k * w + (rel - w), k}, posenc::status::ok};
}

// The config of the scaled table (LlamaLinearScalingRotaryEmbedding with scaling_factor k): linear,
// factor k (plain default) or factor * k (plain linear, when that product is a double exactly).
constexpr posenc::result<config> leaky_rerope_scaled_config(const config& plain,
                                                            const checked_leaky_rerope_config& c) noexcept {
  if (!c.ok()) return {plain, c.check().error};
  if (plain.proportional || (plain.rope_type != scaling::default_ && plain.rope_type != scaling::linear))
    return {plain, rope::detail::leaky_failure("Leaky ReRoPE needs a default or linear RoPE config (not proportional)",
                                               std::is_constant_evaluated())
                       .error};
  const auto k = static_cast<double>(c.get().scaling_factor);  // exact: k <= 2^21
  config s = plain;
  s.rope_type = scaling::linear;
  s.factor = plain.rope_type == scaling::linear ? plain.factor * k : k;
  if (plain.rope_type == scaling::linear && posenc::detail::two_prod(plain.factor, k).lo != 0.0)
    return {plain,
            rope::detail::leaky_failure("Leaky ReRoPE: factor * k is not exact in double", std::is_constant_evaluated())
                .error};
  return {s, posenc::status::ok};
}

// Rows of the scaled table the prefill form reads for `length` tokens: 0 .. length - 1 + w (k - 1).
constexpr std::uint64_t leaky_rerope_scaled_rows(const leaky_rerope_config& c, std::uint64_t length) noexcept {
  return length + c.window * (c.scaling_factor - 1);
}

}  // namespace posenc::rope

namespace posenc::rope::detail {

// The decode table over rows rel = 0 .. rows - 1: rows below w from the plain fill at positions
// 0 .. w - 1, the others from the scaled fill starting at position k w (rel = w). fill(cfg, start,
// first_row, n, frequencies) fills n rows of the destination from row first_row. The plain
// frequencies are evaluated once and the scaled fill gets theta_j / k from them (frequency_cache.hpp):
// the second fill's frequencies were a fixed 17-24 us, 5% of a 4096-row table (docs/performance.md 7).
template <class Fill>
constexpr posenc::status leaky_decode_rows(const rope::config& plain, const rope::checked_leaky_rerope_config& c,
                                           std::size_t rows, Fill fill) noexcept {
  if (!c.ok()) return c.check().error;
  const posenc::result<rope::config> scaled = rope::leaky_rerope_scaled_config(plain, c);
  if (!scaled.ok()) return scaled.error;
  const std::uint64_t w = c.get().window, k = c.get().scaling_factor;
  const std::size_t inside = rows < w ? rows : static_cast<std::size_t>(w);
  const frequency_cache theta = cache_frequencies(plain);
  posenc::status s = inside > 0 ? fill(plain, 0, 0, inside, theta.get()) : posenc::status::ok;
  if (s == posenc::status::ok && rows > inside) {
    const frequency_cache theta_k = divided_frequencies(theta, k);
    s = fill(scaled.value, k * w, inside, rows - inside, theta_k.get());
  }
  return s;
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

// The decode table, expanded: row rel (0 <= rel < cos.size() / rotary_dim) holds cos/sin of the
// remapped position of rel: plain row rel for rel < w, scaled row k w + rel - w beyond.
template <storage_type T>
constexpr posenc::status fill_leaky_rerope_table(const config& plain, const checked_leaky_rerope_config& c,
                                                 std::span<T> cos, std::span<T> sin,
                                                 layout l = layout::half_split) noexcept {
  // A broken plain config is named as such (in constant evaluation: invalid_rope_config), not as a span shape.
  if (const posenc::validation v = rope::require_valid(plain); !v) return v.error;
  const auto d = static_cast<std::size_t>(rope::rotary_dim(plain) > 0 ? rope::rotary_dim(plain) : 0);
  if (d == 0 || cos.size() != sin.size() || cos.size() % d != 0 || cos.empty())
    return rope::detail::leaky_failure("Leaky ReRoPE table spans must be whole rows of rotary_dim(cfg)",
                                       std::is_constant_evaluated())
        .error;
  return rope::detail::leaky_decode_rows(
      plain, c, cos.size() / d,
      [&](const config& cfg, std::uint64_t start, std::size_t row, std::size_t n, const math::frequency_value* f) {
        return rope::detail::fill<T>(cfg, {.start = start,
                                           .size = n * d,
                                           .sin_size = n * d,
                                           .dest = {cos.data() + row * d, sin.data() + row * d, nullptr, 0, l},
                                           .frequencies = f});
      });
}

// The same rows compact, {sin, cos} per pair (rope::rotate's row format; direction::inverse for k).
template <storage_type T>
constexpr posenc::status fill_leaky_rerope_pair_table(const config& plain, const checked_leaky_rerope_config& c,
                                                      std::span<math::sincos_result<T>> out) noexcept {
  if (const posenc::validation v = rope::require_valid(plain); !v) return v.error;
  const auto half = static_cast<std::size_t>(rope::rotary_dim(plain) > 0 ? rope::rotary_dim(plain) / 2 : 0);
  if (half == 0 || out.size() % half != 0 || out.empty())
    return rope::detail::leaky_failure("Leaky ReRoPE table spans must be whole rows of rotary_dim(cfg)",
                                       std::is_constant_evaluated())
        .error;
  return rope::detail::leaky_decode_rows(
      plain, c, out.size() / half,
      [&](const config& cfg, std::uint64_t start, std::size_t row, std::size_t n, const math::frequency_value* f) {
        return rope::detail::fill<T>(cfg, {.start = start,
                                           .size = n * half,
                                           .sin_size = n * half,
                                           .dest = {nullptr, nullptr, out.data() + row * half, 0, layout::half_split},
                                           .frequencies = f});
      });
}

}  // namespace posenc::rope
