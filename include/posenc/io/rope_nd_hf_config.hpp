// rope_nd_hf_config.hpp: a diffusers transformer config.json (FLUX, FLUX.2) read into ND axial
// RoPE's parameters (rope/nd.hpp), with diffusers' key names and defaults.
//
//   auto r = posenc::io::rope_nd_from_hf_config(text);   // r.value().axes_dim, .rope_theta
//
// What is read: axes_dims_rope (required: the axes' dims, FLUX.1 [16, 56, 56], FLUX.2 [32, 32, 32,
// 32]) and rope_theta. diffusers' FluxTransformer2DModel builds FluxPosEmbed(theta=10000, ...) with
// the theta written in its code, not read from the config, so a FLUX.1 config without rope_theta
// gets 10000; Flux2Transformer2DModel reads rope_theta (its class default 2000, used when the key is
// absent and _class_name says Flux2). A config whose _class_name is neither and that has no
// rope_theta is refused: the base would be a guess.
// Not part of the std-only core: it needs nlohmann-json (target posenc::io).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/io/detail/hf_fields.hpp"
#include "posenc/io/parse_result.hpp"

namespace posenc::io {

struct rope_nd_settings {
  std::vector<int> axes_dim;
  double rope_theta = 10000.0;
  bool turns = false;  // the angle is 2 pi p theta (DINOv3)
  int grid_h = 0;      // DINOv3: image_size / patch_size, the default grid; 0 otherwise
  int grid_w = 0;
};

}  // namespace posenc::io

namespace posenc::io::detail {

inline rope_nd_settings dinov3_of(const object& top) {
  rope_nd_settings s;
  const std::int64_t hidden = integer(top, "hidden_size", 1, 1 << 20).value_or(384);
  const std::int64_t heads = integer(top, "num_attention_heads", 1, 1 << 16).value_or(6);
  if (hidden % heads != 0 || (hidden / heads) % 4 != 0)
    fail("num_attention_heads", "hidden_size / num_attention_heads must be a multiple of 4 (two axes of pairs)");
  const int d = static_cast<int>(hidden / heads);
  s.axes_dim = {d / 2, d / 2};
  s.rope_theta = real(top, "rope_theta").value_or(100.0);
  s.turns = true;
  if (top.has("rope_scaling")) fail("rope_scaling", "DINOv3's RoPE has no scaling and posenc does not read one");
  if (const auto rp = sub_object(top, "rope_parameters"))
    if (const auto t = string(*rp, "rope_type"); t && *t != "default")
      fail("rope_parameters.rope_type", "DINOv3's RoPE has no scaling and posenc does not read one");
  const std::int64_t image = integer(top, "image_size", 1, 1 << 20).value_or(224);
  const std::int64_t patch = integer(top, "patch_size", 1, 1 << 20).value_or(16);
  s.grid_h = s.grid_w = static_cast<int>(image / patch);
  if (s.grid_h == 0) fail("patch_size", "larger than image_size: no patch");
  return s;
}

inline rope_nd_settings rope_nd_of(const json& j) {
  const object top{&j, ""};
  if (string(top, "model_type").value_or("") == "dinov3_vit") return dinov3_of(top);
  rope_nd_settings s;
  const auto dims = reals(top, "axes_dims_rope");
  if (!dims) fail("axes_dims_rope", "missing: not an ND RoPE (FLUX-style) transformer or DINOv3 config");
  for (std::size_t i = 0; i < dims->size(); ++i) {
    const double d = (*dims)[i];
    if (!(d >= 1 && d <= 65536 && d == static_cast<double>(static_cast<int>(d))))
      fail("axes_dims_rope[" + std::to_string(i) + "]", "expected an integer in [1, 65536]");
    s.axes_dim.push_back(static_cast<int>(d));
  }
  const std::string cls = string(top, "_class_name").value_or("");
  if (const auto v = real(top, "rope_theta")) {
    s.rope_theta = *v;
  } else if (cls == "Flux2Transformer2DModel") {
    s.rope_theta = 2000.0;
  } else if (cls != "FluxTransformer2DModel") {
    fail("rope_theta", "missing, and _class_name is not a FLUX transformer whose base posenc knows");
  }
  return s;
}

}  // namespace posenc::io::detail

namespace posenc::io {

inline parse_result<rope_nd_settings> rope_nd_from_hf_config(std::string_view json_text) noexcept {
  return posenc::io::detail::guarded<rope_nd_settings>(json_text, posenc::io::detail::rope_nd_of);
}

}  // namespace posenc::io
