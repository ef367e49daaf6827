// rerope.hpp: ReRoPE (Su, "Rectified Rotary Position Embeddings", kexue.fm/archives/9708;
// bojone/rerope rerope_patch.py forward_with_rerope): the relative position min(i - j, w) and the
// one RoPE table it needs.
//
// What the reference computes, for a query at i and a key at j <= i (window w):
//   prefill (q_len > 1): score1 = <R_i q, R_j k> (plain RoPE), score2 = <R_w q, k> (q rotated at the
//     constant position w, k unrotated), and torch.where(|i - j| < w, score1, score2): the score of
//     the relative position i - j inside the window and of w outside it. Rows read: 0 .. max(L-1, w)
//     of the plain table for a sequence of L tokens (rerope_prefill_rows).
//   decode (q_len == 1): q unrotated, each cached k rotated by R_{-min(i - j, w)} (cos, -sin of row
//     min(i - j, w)): rows 0 .. w, whatever the context length (rerope_rows, fill_rerope_table).
// Both give q^T R_{-r} k with r = min(i - j, w), the relative position of rerope_relative_position.
// The query's log-n scale max(1, log(i + 1) / log(training_length)) is posenc::logn's factor with
// {.base = training_length, .at_least_one = true} at n = i + 1 (docs/rope-remap.md section 1).
//
// Every entry is a plain RoPE entry RN_T(cos/sin(p theta_j)) of rope::fill_table, correctly rounded:
// the ReRoPE table is the RoPE table's first w + 1 rows. Errors: status::domain_error (window 0,
// window past 2^21, a key after its query, a span of the wrong size); in constant evaluation a
// compile error naming the precondition (posenc::rope::invalid_rerope_config).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "posenc/rope/config.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/table.hpp"
#include "posenc/status.hpp"
#include "posenc/validation.hpp"

namespace posenc::rope {

struct rerope_config {
  std::uint64_t window = 512;  // w: rerope_patch.py's `window` (its README's results use 1024)
};

// Reached only in constant evaluation on a broken ReRoPE precondition (not constexpr on purpose:
// the compiler stops here and prints the sentence, as invalid_rope_config, validate.hpp).
inline void invalid_rerope_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::rope

namespace posenc::rope::detail {

constexpr posenc::validation rerope_failure(const char* precondition, bool report) noexcept {
  if (report) rope::invalid_rerope_config(precondition);
  return {posenc::status::domain_error, precondition};
}

// The window is a row of the table (q is rotated at position w), so it is a table position.
constexpr posenc::validation validate_rerope(const rope::rerope_config& c, bool report) noexcept {
  if (c.window < 1) return rerope_failure("ReRoPE window w must be at least 1", report);
  if (c.window > rope::max_table_position) return rerope_failure("ReRoPE window w must be at most 2^21", report);
  return {};
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

constexpr posenc::validation validate(const rerope_config& c) noexcept {
  return rope::detail::validate_rerope(c, false);
}

// A ReRoPE config validated once, where it is made (validation.hpp).
using checked_rerope_config = posenc::checked<rerope_config, &rope::detail::validate_rerope>;

// min(query - key, w): the relative position whose RoPE score ReRoPE uses. Causal: key <= query.
constexpr posenc::result<std::uint64_t> rerope_relative_position(const checked_rerope_config& c, std::uint64_t query,
                                                                 std::uint64_t key) noexcept {
  if (!c.ok()) return {0, c.check().error};
  if (key > query) {
    rope::detail::rerope_failure("ReRoPE is causal: the key must not follow the query", std::is_constant_evaluated());
    return {0, posenc::status::domain_error};
  }
  const std::uint64_t rel = query - key, w = c.get().window;
  return {rel < w ? rel : w, posenc::status::ok};
}

// Rows of the decode table: positions 0 .. w.
constexpr std::uint64_t rerope_rows(const rerope_config& c) noexcept { return c.window + 1; }

// Rows of the plain table the prefill form reads for a sequence of `length` tokens: 0 .. max(L-1, w).
constexpr std::uint64_t rerope_prefill_rows(const rerope_config& c, std::uint64_t length) noexcept {
  return length > c.window + 1 ? length : c.window + 1;
}

// The decode table, expanded over the rotary dim: cos.size() == sin.size() == (w + 1) rotary_dim(cfg),
// row r = RoPE position r (rope::fill_table's rows and bits).
template <storage_type T>
constexpr posenc::status fill_rerope_table(const config& cfg, const checked_rerope_config& c, std::span<T> cos,
                                           std::span<T> sin, layout l = layout::half_split) noexcept {
  if (!c.ok()) return c.check().error;
  const auto d = static_cast<std::uint64_t>(rope::rotary_dim(cfg));
  if (d != 0 && cos.size() != rerope_rows(c.get()) * d)
    return rope::detail::rerope_failure("ReRoPE table spans must hold w + 1 rows", std::is_constant_evaluated()).error;
  return rope::fill_table<T>(cfg, cos, sin, l);
}

// The same rows compact, {sin, cos} per pair (the row format of rope::rotate, which with
// direction::inverse rotates a cached key by R_{-r}).
template <storage_type T>
constexpr posenc::status fill_rerope_pair_table(const config& cfg, const checked_rerope_config& c,
                                                std::span<math::sincos_result<T>> out) noexcept {
  if (!c.ok()) return c.check().error;
  const auto d = static_cast<std::uint64_t>(rope::rotary_dim(cfg));
  if (d != 0 && out.size() != rerope_rows(c.get()) * (d / 2))
    return rope::detail::rerope_failure("ReRoPE table spans must hold w + 1 rows", std::is_constant_evaluated()).error;
  return rope::fill_pair_table<T>(cfg, out);
}

// A fixed-size decode table: rope::table<T, Window + 1, RotaryDim, Layout> of positions 0 .. Window.
template <class T, std::uint64_t Window, std::size_t RotaryDim, layout Layout = layout::half_split>
constexpr posenc::result<table<T, Window + 1, RotaryDim, Layout>> make_rerope_table(const config& cfg) noexcept {
  const checked_rerope_config c{rerope_config{.window = Window}};
  if (!c.ok()) return {{}, c.check().error};
  return rope::make_table<T, Window + 1, RotaryDim, Layout>(cfg);
}

}  // namespace posenc::rope
