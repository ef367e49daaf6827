// config.hpp: an ALiBi configuration (Press, Smith, Lewis, "Train Short, Test Long: Attention with
// Linear Biases Enables Input Length Extrapolation", ICLR 2022) as a plain aggregate.
//
//   constexpr posenc::alibi::config bloom{.heads = 16};                 // max_bias 8: the paper's
//   constexpr posenc::alibi::config ggml_style{.heads = 12, .max_bias = 8.0};
//
// Head h (0-based) has the slope m_h = 2^(-max_bias (h + 1) / c) for h < c, c = 2^floor(log2 heads),
// and m_h = 2^(-max_bias (2 (h - c) + 1) / (2c)) for the heads past c: the rule of the paper's
// reference code (get_slopes), BLOOM (build_alibi_tensor), MPT (gen_slopes, alibi_bias_max) and
// ggml (max_bias from GGUF's attention.max_alibi_bias), which agree on every head count
// (../shared/reference/pe-formulas.md section 3). Every value is the exact real, rounded once.
#pragma once

namespace posenc::alibi {

struct config {
  int heads = 0;          // number of attention heads, 1 .. 4096
  double max_bias = 8.0;  // the paper's 8; ggml/MPT's max_bias / alibi_bias_max
};

}  // namespace posenc::alibi
