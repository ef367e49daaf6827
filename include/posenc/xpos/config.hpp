// config.hpp: XPOS's per-position scale (Sun et al., "A Length-Extrapolatable Transformer", ACL
// 2023; microsoft/torchscale xpos_relative_position.py) as a plain aggregate.
//
//   constexpr posenc::xpos::config c{.head_dim = 128};   // scale_base 512 (xpos_scale_base)
//
// Pair j's scale at position n is zeta_j^(n / scale_base), zeta_j = (2j + 0.4 d) / (1.4 d), j < d/2:
// q is multiplied by it and k by its inverse, so their product depends on n - m alone. The
// rotation itself is RoPE's (interleaved, base 10000). zeta_j is the exact rational
// (10j + 2d) / (7d): 0.4 and 1.4 are the formula's decimals, taken as the exact values written.
#pragma once

namespace posenc::xpos {

struct config {
  int head_dim = 0;      // d, even
  int scale_base = 512;  // torchscale's xpos_scale_base
};

}  // namespace posenc::xpos
