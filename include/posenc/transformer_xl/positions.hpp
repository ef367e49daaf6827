// positions.hpp: the relative positions whose sinusoids Transformer-XL (Dai et al., ACL 2019) and
// XLNet (Yang et al., NeurIPS 2019) feed their attention, and the table of those sinusoids.
//
//   transformer_xl::config c{.d_model = 512, .klen = 384, .qlen = 128};       // Transformer-XL
//   transformer_xl::config x{..., .model = transformer_xl::model::xlnet, .bi_data = true};
//   transformer_xl::position(c, row)           the relative position of row
//   transformer_xl::rows(c)                    how many rows
//   transformer_xl::fill_table<T>(c, span)     rows x d_model, [sin | cos] of position * inv_freq
//
// Transformer-XL (kimiyoung/transformer-xl mem_transformer.py, MemTransformerLM._forward):
// pos_seq = arange(klen - 1, -1, -1), clamped to at most clamp_len when clamp_len > 0; klen rows.
// XLNet (HF modeling_xlnet.py XLNetModel.relative_positional_encoding): beg = klen, end = -qlen
// ("bi") or -1 ("uni"); forward rows arange(beg, end, -1), and with bi_data a second, backward half
// arange(-beg, -end, 1); each clamped to [-clamp_len, clamp_len] when clamp_len > 0.
// The embedding is [sin(pos inv_freq) | cos(pos inv_freq)], inv_freq_i = 10000^(-2i/d): the
// sinusoidal scheme's paper exponent in the concat layout (d_model even), so every entry is
// exact then rounded once (posenc/sinusoidal/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "posenc/sinusoidal/table.hpp"
#include "posenc/status.hpp"
#include "posenc/validation.hpp"

namespace posenc::transformer_xl {

enum class model : unsigned char { transformer_xl, xlnet };
enum class attention : unsigned char { bi, uni };  // XLNet's attn_type

struct config {
  int d_model = 0;
  std::int64_t klen = 0;  // memory + current segment length
  std::int64_t qlen = 0;  // current segment length (XLNet)
  std::int64_t clamp_len = -1;
  transformer_xl::model model = model::transformer_xl;
  attention attn_type = attention::bi;
  bool bi_data = false;  // XLNet: forward and backward halves
};

using validation = posenc::validation;  // validation.hpp

inline void invalid_transformer_xl_config(const char* precondition) noexcept { static_cast<void>(precondition); }

constexpr validation validate(const config& c) noexcept {
  const auto bad = [](const char* m) { return validation{posenc::status::domain_error, m}; };
  if (c.d_model < 2 || c.d_model % 2 != 0 || c.d_model > 65536) return bad("d_model must be even and in [2, 65536]");
  if (c.klen < 1 || c.klen > (std::int64_t{1} << 40)) return bad("klen must be in [1, 2^40]");
  if (c.qlen < 0 || c.qlen > c.klen) return bad("qlen must be in [0, klen]");
  return {};
}

// Rows of the table.
constexpr std::int64_t rows(const config& c) noexcept {
  if (c.model == model::transformer_xl) return c.klen;
  const std::int64_t forward = c.attn_type == attention::bi ? c.klen + c.qlen : c.klen + 1;
  return c.bi_data ? 2 * forward : forward;
}

// The relative position of row r (0 <= r < rows(c)).
constexpr posenc::result<std::int64_t> position(const config& c, std::int64_t r) noexcept {
  const validation v = validate(c);
  if (!v.ok()) {
    if (std::is_constant_evaluated()) invalid_transformer_xl_config(v.message);
    return {0, v.error};
  }
  if (r < 0 || r >= rows(c)) return {0, posenc::status::domain_error};
  std::int64_t p = 0;
  if (c.model == model::transformer_xl) {
    p = c.klen - 1 - r;
    if (c.clamp_len > 0 && p > c.clamp_len) p = c.clamp_len;
    return {p, posenc::status::ok};
  }
  const std::int64_t forward = c.attn_type == attention::bi ? c.klen + c.qlen : c.klen + 1;
  p = r < forward ? c.klen - r : -c.klen + (r - forward);  // arange(beg, end, -1), then arange(-beg, -end, 1)
  if (c.clamp_len > 0) p = p > c.clamp_len ? c.clamp_len : (p < -c.clamp_len ? -c.clamp_len : p);
  return {p, posenc::status::ok};
}

// out[r * d_model + k]: element k of [sin | cos] at position(c, r); out.size() == rows(c) * d_model.
template <class T = double>
constexpr posenc::status fill_table(const config& c, std::span<T> out) noexcept {
  const validation v = validate(c);
  if (!v.ok()) {
    if (std::is_constant_evaluated()) invalid_transformer_xl_config(v.message);
    return v.error;
  }
  const auto d = static_cast<std::size_t>(c.d_model);
  if (out.size() != static_cast<std::size_t>(rows(c)) * d) return posenc::status::domain_error;
  const sinusoidal::checked_config sc{sinusoidal::config{.dim = c.d_model, .layout = sinusoidal::layout::concat}};
  for (std::size_t r = 0; r < static_cast<std::size_t>(rows(c)); ++r) {
    const std::int64_t p = position(c, static_cast<std::int64_t>(r)).value;
    for (std::size_t k = 0; k < d; ++k) {
      const auto e = sinusoidal::element<T>(sc, p, static_cast<int>(k));
      if (!e.ok()) return e.error;
      out[r * d + k] = e.value;
    }
  }
  return posenc::status::ok;
}

}  // namespace posenc::transformer_xl
