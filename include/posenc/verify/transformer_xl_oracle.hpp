// transformer_xl_oracle.hpp: the relative positions of Transformer-XL's and XLNet's sinusoid rows,
// built the way the two code bases build them (kimiyoung/transformer-xl mem_transformer.py,
// MemTransformerLM._forward; HF modeling_xlnet.py, XLNetModel.relative_positional_encoding), with
// torch.arange written out. Independent of posenc's transformer_xl::position. Used by
// tests/test_relative_positions.cpp and the verify engine (scheme_verify.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "posenc/transformer_xl/config.hpp"

namespace posenc::verify {

namespace detail::txl {

// torch.arange(start, end, step) for integers.
inline std::vector<std::int64_t> torch_arange(std::int64_t start, std::int64_t end, std::int64_t step) {
  std::vector<std::int64_t> r;
  for (std::int64_t x = start; step > 0 ? x < end : x > end; x += step) r.push_back(x);
  return r;
}

inline std::int64_t clamp_to(std::int64_t x, std::int64_t lo, std::int64_t hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

}  // namespace detail::txl

// The row positions as the two code bases build them (posenc/transformer_xl/positions.hpp cites the
// functions).
inline std::vector<std::int64_t> transformer_xl_positions(const transformer_xl::config& c) {
  if (c.model == transformer_xl::model::transformer_xl) {
    std::vector<std::int64_t> p = detail::txl::torch_arange(c.klen - 1, -1, -1);
    if (c.clamp_len > 0)
      for (auto& x : p) x = x > c.clamp_len ? c.clamp_len : x;
    return p;
  }
  const std::int64_t beg = c.klen, end = c.attn_type == transformer_xl::attention::bi ? -c.qlen : -1;
  std::vector<std::int64_t> p = detail::txl::torch_arange(beg, end, -1);
  if (c.bi_data) {
    const std::vector<std::int64_t> bwd = detail::txl::torch_arange(-beg, -end, 1);
    p.insert(p.end(), bwd.begin(), bwd.end());
  }
  if (c.clamp_len > 0)
    for (auto& x : p) x = detail::txl::clamp_to(x, -c.clamp_len, c.clamp_len);
  return p;
}

}  // namespace posenc::verify
