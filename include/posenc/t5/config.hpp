// config.hpp: T5's relative-position buckets (Raffel et al., "Exploring the Limits of Transfer
// Learning with a Unified Text-to-Text Transformer", JMLR 2020, sec. 2.1) as a plain aggregate,
// with HuggingFace's names (T5Config, T5Attention._relative_position_bucket).
//
//   constexpr posenc::t5::config encoder{};                                  // 32 buckets, 128
//   constexpr posenc::t5::config decoder{.bidirectional = false};            // causal self-attention
#pragma once

#include <cstdint>

namespace posenc::t5 {

struct config {
  int relative_attention_num_buckets = 32;             // all buckets (both halves if bidirectional)
  std::int64_t relative_attention_max_distance = 128;  // where the log buckets saturate
  bool bidirectional = true;                           // encoder; false: decoder self-attention
};

}  // namespace posenc::t5
