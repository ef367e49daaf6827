// config.hpp: DeBERTa-v2/v3's log-bucketed relative positions (He et al., "DeBERTa: Decoding-enhanced
// BERT with Disentangled Attention", ICLR 2021; v2/v3 add the log buckets) with HF's names
// (DebertaV2Config: position_buckets, max_relative_positions; a max_relative_positions below 1
// means max_position_embeddings, 512 in the released models).
//
//   constexpr posenc::deberta::config v3{};   // 256 buckets, max position 512 (deberta-v3-base)
#pragma once

#include <cstdint>

namespace posenc::deberta {

struct config {
  int position_buckets = 256;                 // bucket_size of make_log_bucket_position
  std::int64_t max_relative_positions = 512;  // max_position of make_log_bucket_position
};

}  // namespace posenc::deberta
