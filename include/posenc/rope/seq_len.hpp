// seq_len.hpp: the sequence length that dynamic NTK and LongRoPE read, by HF's rule when the
// config leaves it unset.
//
// Dynamic NTK rescales the base, and LongRoPE picks its long factors, from the length of the
// sequence being encoded, not from the config alone. HF's rotary classes take that length from
// the positions of the forward call: `dynamic_rope_update` (modeling_rope_utils.py) sets
// `seq_len = torch.max(position_ids) + 1` and recomputes inv_freq with it (dynamic: the base
// grows once seq_len > max_position_embeddings; longrope: the long factors once seq_len >
// original_max_position_embeddings). A table is one such call, so its sequence length is its
// last position plus one.
//
// config::seq_len == 0 means "unset": every table fill (fill.hpp, table.hpp), posenc verify,
// posenc emit and the Python module resolve it with with_seq_len_of_positions before computing a
// frequency. A seq_len the user gives is kept as given (a model served with a fixed length, or one
// chunk of a longer table: chunks of one table must share the whole table's seq_len, so a caller
// that fills a table in pieces resolves it once, for the whole table, and passes it down).
// The frequency functions (frequencies.hpp) see no positions: there, unset keeps its HF meaning
// at construction time (dynamic unscaled, LongRoPE short factors), as HF's inv_freq at init.
#pragma once

#include <cstdint>

#include "posenc/rope/config.hpp"

namespace posenc::rope {

// Whether a config's frequencies depend on the sequence length (dynamic NTK, LongRoPE).
constexpr bool reads_seq_len(const config& c) noexcept {
  return c.rope_type == scaling::dynamic || c.rope_type == scaling::longrope;
}

// c with seq_len = last_position + 1 when c reads a sequence length and leaves it unset (0); c
// unchanged otherwise. last_position is the largest position of the table (positions are at most
// 2^21 in a table, so the sum cannot overflow).
constexpr config with_seq_len_of_positions(const config& c, std::uint64_t last_position) noexcept {
  if (!reads_seq_len(c) || c.seq_len != 0 || last_position >= (std::uint64_t{1} << 62)) return c;
  config r = c;
  r.seq_len = static_cast<std::int64_t>(last_position) + 1;
  return r;
}

}  // namespace posenc::rope
