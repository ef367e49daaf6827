// streaming_cache.hpp: StreamingLLM's KV cache (Xiao et al., "Efficient Streaming Language Models
// with Attention Sinks", arXiv:2309.17453; mit-han-lab/streaming-llm streaming_llm/kv_cache.py
// StartRecentKVCache, streaming_llm/pos_shift/modify_llama.py llama_pos_shift_attention_forward):
// which tokens a stream keeps, at which cache positions RoPE rotates them, and those RoPE rows.
//
// The cache keeps the first start_size tokens (the attention sinks) and the last recent_size: after
// n tokens, all of them while n <= start_size + recent_size, else tokens [0, S) and [n - R, n)
// (StartRecentKVCache.__call__). Keys are cached before RoPE and rotated at every step with their
// index in the cache, 0 .. kv_len - 1, not their position in the text ("key pos is the pos in
// cache"); the query is rotated at position_ids, which HF sets to the cache length before the new
// token is appended, i.e. kv_len - 1, the new token's own slot. So the step of token t reads
// kv_len = min(t, S + R) + 1 keys (the pruned cache of t tokens plus t) at positions 0 .. kv_len - 1
// and rotates the query at kv_len - 1: rows 0 .. kv_len - 1 of the plain RoPE table
// (make_streaming_table: the range table of those rows; streaming_step_slots gives the positions
// for rope::fill_table's list form, whose one run of positions is the same range fill). The scores depend on the
// cache-position differences only (RoFormer 3.2: <R_m q, R_n k> = q^T R_{n-m} k), which is what
// lets the cache drop tokens without a position past the model's training length
// (laws/rope/remapped_scores.hpp's streaming_scores; docs/rope-remap.md section 3).
// Errors: status::domain_error; in constant evaluation a compile error naming the precondition
// (posenc::rope::invalid_streaming_cache_config).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "posenc/rope/config.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/rope/table.hpp"
#include "posenc/status.hpp"
#include "posenc/validation.hpp"

namespace posenc::rope {

struct streaming_cache_config {
  std::uint64_t start_size = 4;     // S, the sink tokens (StartRecentKVCache's default)
  std::uint64_t recent_size = 512;  // R (the class default; the example script uses 2000)
};

// Reached only in constant evaluation on a broken precondition (not constexpr on purpose).
inline void invalid_streaming_cache_config(const char* precondition) noexcept { static_cast<void>(precondition); }

}  // namespace posenc::rope

namespace posenc::rope::detail {

constexpr posenc::validation streaming_failure(const char* precondition, bool report) noexcept {
  if (report) rope::invalid_streaming_cache_config(precondition);
  return {posenc::status::domain_error, precondition};
}

// The last cache position, S + R, is a table row.
constexpr posenc::validation validate_streaming_cache(const rope::streaming_cache_config& c, bool report) noexcept {
  if (c.recent_size < 1) return streaming_failure("StreamingLLM recent_size must be at least 1", report);
  if (c.start_size > rope::max_table_position || c.recent_size > rope::max_table_position - c.start_size)
    return streaming_failure("StreamingLLM start_size + recent_size must be at most 2^21", report);
  return {};
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

constexpr posenc::validation validate(const streaming_cache_config& c) noexcept {
  return rope::detail::validate_streaming_cache(c, false);
}

using checked_streaming_cache_config = posenc::checked<streaming_cache_config, &rope::detail::validate_streaming_cache>;

// Tokens the cache holds after n tokens: min(n, S + R).
constexpr std::uint64_t streaming_cache_length(const streaming_cache_config& c, std::uint64_t n) noexcept {
  const std::uint64_t size = c.start_size + c.recent_size;
  return n < size ? n : size;
}

// The step of token t: kv_len keys at cache positions 0 .. kv_len - 1, the query at kv_len - 1.
struct streaming_step {
  std::uint64_t keys = 0;
  std::uint64_t query_position = 0;
};

constexpr posenc::result<streaming_step> streaming_attention_step(const checked_streaming_cache_config& c,
                                                                  std::uint64_t token) noexcept {
  if (!c.ok()) return {{}, c.check().error};
  const std::uint64_t kv = streaming_cache_length(c.get(), token) + 1;
  return {{kv, kv - 1}, posenc::status::ok};
}

// The token (its index in the stream) at cache slot `slot` of the step of token t: the pruned cache
// of t tokens, then t itself at the last slot.
constexpr posenc::result<std::uint64_t> streaming_slot_token(const checked_streaming_cache_config& c,
                                                             std::uint64_t token, std::uint64_t slot) noexcept {
  if (!c.ok()) return {0, c.check().error};
  const std::uint64_t kept = streaming_cache_length(c.get(), token);
  if (slot > kept) {
    rope::detail::streaming_failure("StreamingLLM slot past the step's cache", std::is_constant_evaluated());
    return {0, posenc::status::domain_error};
  }
  if (slot == kept) return {token, posenc::status::ok};
  const std::uint64_t s = c.get().start_size, r = c.get().recent_size;
  if (token <= s + r || slot < s) return {slot, posenc::status::ok};
  return {token - r + (slot - s), posenc::status::ok};
}

// Every slot of the step of token t: tokens[s] the stream index, positions[s] = s the cache
// position RoPE rotates it at (the positions list of rope::fill_table). Both spans hold kv_len.
constexpr posenc::status streaming_step_slots(const checked_streaming_cache_config& c, std::uint64_t token,
                                              std::span<std::uint64_t> tokens,
                                              std::span<std::uint64_t> positions) noexcept {
  const posenc::result<streaming_step> st = streaming_attention_step(c, token);
  if (!st.ok()) return st.error;
  if (tokens.size() != st.value.keys || positions.size() != st.value.keys)
    return rope::detail::streaming_failure("StreamingLLM slot spans must hold the step's kv_len entries",
                                           std::is_constant_evaluated())
        .error;
  // streaming_slot_token's map, slot by slot without its checks (made once above): the sinks, then
  // the recent tokens, then t itself.
  const std::uint64_t kept = st.value.keys - 1, sinks = c.get().start_size, recent = c.get().recent_size;
  const bool pruned = token > sinks + recent;
  for (std::uint64_t s = 0; s < kept; ++s) {
    tokens[static_cast<std::size_t>(s)] = !pruned || s < sinks ? s : token - recent + (s - sinks);
    positions[static_cast<std::size_t>(s)] = s;
  }
  tokens[static_cast<std::size_t>(kept)] = token, positions[static_cast<std::size_t>(kept)] = kept;
  return posenc::status::ok;
}

// The RoPE rows of one step: row s at cache position s (rope::table's position column), and the
// stream index of the token each row rotates.
template <class T, std::size_t Slots, std::size_t RotaryDim, layout Layout = layout::half_split>
struct streaming_table {
  rope::table<T, Slots, RotaryDim, Layout> rows{};
  std::array<std::uint64_t, Slots> token{};
};

// The step of token t as a fixed-size table; Slots must be its kv_len (domain_error otherwise).
template <class T, std::size_t Slots, std::size_t RotaryDim, layout Layout = layout::half_split>
constexpr posenc::result<streaming_table<T, Slots, RotaryDim, Layout>> make_streaming_table(
    const config& cfg, const checked_streaming_cache_config& c, std::uint64_t token) noexcept {
  posenc::result<streaming_table<T, Slots, RotaryDim, Layout>> r{};
  std::array<std::uint64_t, Slots> positions{};
  r.error = streaming_step_slots(c, token, r.value.token, positions);
  if (!r.ok()) return r;
  // The slots' positions are 0 .. Slots - 1: the range table itself, with no list to read, built
  // where it is kept (at run time a copy of it would cost about what its fill does).
  r.error = rope::detail::build_member(r.value.rows, cfg, 0, nullptr, false);
  return r;
}

}  // namespace posenc::rope
