// config.hpp: Shaw, Uszkoreit, Vaswani, "Self-Attention with Relative Position Representations"
// (NAACL 2018) as a plain aggregate: the clip k of tensor2tensor's max_relative_position.
//
//   constexpr posenc::shaw::config t2t{};                             // k = 20 (tensor2tensor)
//   constexpr posenc::shaw::config small{.max_relative_position = 4};
#pragma once

namespace posenc::shaw {

struct config {
  int max_relative_position = 20;  // k: indices 0 .. 2k
};

}  // namespace posenc::shaw
