// config.hpp: the absolute sinusoidal position encoding (Vaswani et al., "Attention Is All You
// Need", NeurIPS 2017, sec. 3.5) and its framework variants, as a plain aggregate.
//
//   constexpr posenc::sinusoidal::config paper{.dim = 512};                       // PE[p,2i] = sin
//   constexpr posenc::sinusoidal::config fairseq{.dim = 512, .exponent = sinusoidal::exponent::fairseq,
//                                                .layout = sinusoidal::layout::concat};
//
// Frequencies omega_i = base^(-e_i): e_i = 2i/d (the paper; XLM, DistilBERT, Marian, RoFormer) or
// e_i = i/(d/2 - 1) (fairseq's get_embedding and tensor2tensor's get_timing_signal_1d: the slowest
// timescale is exactly base). Layouts: interleaved PE[p, 2i] = sin(p omega_i), PE[p, 2i+1] =
// cos(p omega_i) (the paper, XLM, DistilBERT), or concatenated [sin | cos] halves (fairseq, t2t,
// Marian, Transformer-XL). Odd d: interleaved gives the last column sin of omega_{(d-1)/2}
// (DistilBERT's loop); concat with the paper's exponent gives sin the extra column (Marian:
// sentinel = d/2 + d%2); concat with fairseq's appends a zero column (fairseq).
// ../shared/reference/pe-formulas.md section 5 lists the sources.
#pragma once

namespace posenc::sinusoidal {

enum class exponent : unsigned char {
  paper,    // e_i = 2i/d
  fairseq,  // e_i = i/(d/2 - 1), i < d/2 (tensor2tensor's too)
};

enum class layout : unsigned char {
  interleaved,  // sin, cos, sin, cos, ...
  concat,       // sin ... sin | cos ... cos
};

struct config {
  int dim = 0;  // d, the model dimension
  double base = 10000.0;
  sinusoidal::exponent exponent = sinusoidal::exponent::paper;
  sinusoidal::layout layout = sinusoidal::layout::interleaved;
};

}  // namespace posenc::sinusoidal
