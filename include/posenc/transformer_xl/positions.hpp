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
//
// position and fill_table take a transformer_xl::checked_config (validate.hpp), made from a config
// where it is passed: a broken precondition is a compile error naming it in constant evaluation,
// domain_error at run time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/sinusoidal/table.hpp"
#include "posenc/status.hpp"
#include "posenc/transformer_xl/config.hpp"
#include "posenc/transformer_xl/validate.hpp"

namespace posenc::transformer_xl {

// Rows of the table.
constexpr std::int64_t rows(const config& c) noexcept {
  if (c.model == model::transformer_xl) return c.klen;
  const std::int64_t forward = c.attn_type == attention::bi ? c.klen + c.qlen : c.klen + 1;
  return c.bi_data ? 2 * forward : forward;
}

// The relative position of row r (0 <= r < rows(c)).
constexpr posenc::result<std::int64_t> position(const checked_config& cc, std::int64_t r) noexcept {
  if (!cc.ok()) return {0, cc.check().error};
  const config& c = cc.get();
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

// The same from a plain config (a braced {.d_model = ..} binds here).
constexpr posenc::result<std::int64_t> position(const config& c, std::int64_t r) noexcept {
  return position(checked_config{c}, r);
}

// out[r * d_model + k]: element k of [sin | cos] at position(c, r); out.size() == rows(c) * d_model.
template <class T = double>
constexpr posenc::status fill_table(const checked_config& cc, std::span<T> out) noexcept {
  if (!cc.ok()) return cc.check().error;
  const config& c = cc.get();
  const auto d = static_cast<std::size_t>(c.d_model);
  if (out.size() != static_cast<std::size_t>(rows(c)) * d) return posenc::status::domain_error;
  const sinusoidal::checked_config sc{sinusoidal::config{.dim = c.d_model, .layout = sinusoidal::layout::concat}};
  for (std::size_t r = 0; r < static_cast<std::size_t>(rows(c)); ++r) {
    const std::int64_t p = position(cc, static_cast<std::int64_t>(r)).value;
    for (std::size_t k = 0; k < d; ++k) {
      const auto e = sinusoidal::element<T>(sc, p, static_cast<int>(k));
      if (!e.ok()) return e.error;
      out[r * d + k] = e.value;
    }
  }
  return posenc::status::ok;
}

template <class T = double>
constexpr posenc::status fill_table(const config& c, std::span<T> out) noexcept {
  return fill_table<T>(checked_config{c}, out);
}

}  // namespace posenc::transformer_xl
