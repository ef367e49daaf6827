// config.hpp: Sandwich's relative bias (Chi, Fan, Rudnicky, Ramadge, ACL 2023; NVIDIA NeMo
// SandwichRelativePositionEmbedding) as a plain aggregate, with NeMo's sizes.
//
//   constexpr posenc::sandwich::config nemo_head64{.dim = 64, .heads = 16};
#pragma once

namespace posenc::sandwich {

struct config {
  int dim = 0;    // d: NeMo's hidden size per head
  int heads = 0;  // H
};

}  // namespace posenc::sandwich
