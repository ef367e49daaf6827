// rotary_layout.hpp: where a rotary table puts the two elements of pair j, for every rotary
// encoding (RoPE and the schemes built on it) and for the laws that read any rotary table
// (laws/rotary/), which must not depend on RoPE's own headers:
//   interleaved: pair j = elements (2j, 2j+1)               (GPT-J, Meta, ggml NORMAL)
//   half_split:  pair j = elements (j, j + rotary_dim / 2)  (GPT-NeoX, HF rotate_half, ggml NEOX)
// rope::layout (rope/layout.hpp) is this type.
#pragma once

namespace posenc {

enum class rotary_layout : unsigned char { interleaved, half_split };

}  // namespace posenc
