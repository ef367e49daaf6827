// config.hpp: Llama-4's attention temperature as a plain aggregate: the step length floor_scale and
// the slope attn_scale of q's scale on the NoPE layers (HF Llama4TextConfig: floor_scale 8192,
// attn_scale 0.1; used when attn_temperature_tuning is set).
//
//   constexpr posenc::attn_temperature::config llama4{};                 // 8192, 0.1
//   constexpr posenc::attn_temperature::config tiny{.floor_scale = 4, .attn_scale = 0.25};
#pragma once

#include <cstdint>

namespace posenc::attn_temperature {

struct config {
  std::int64_t floor_scale = 8192;  // positions per step (HF floor_scale)
  double attn_scale = 0.1;          // the slope of the log; taken as its exact double value
};

}  // namespace posenc::attn_temperature
