// config.hpp: the relative positions of Transformer-XL (Dai et al., ACL 2019) and XLNet (Yang et al.,
// NeurIPS 2019) as a plain aggregate, with the references' names (mem_transformer.py klen,
// clamp_len; HF XLNetConfig attn_type, bi_data).
//
//   constexpr posenc::transformer_xl::config wt103{.d_model = 512, .klen = 384, .qlen = 128};
//   constexpr posenc::transformer_xl::config x{.d_model = 64, .klen = 24, .qlen = 8,
//                                              .model = posenc::transformer_xl::model::xlnet};
#pragma once

#include <cstdint>

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

}  // namespace posenc::transformer_xl
