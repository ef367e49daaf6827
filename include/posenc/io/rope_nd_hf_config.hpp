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
};

}  // namespace posenc::io

namespace posenc::io::detail {

inline rope_nd_settings rope_nd_of(const json& j) {
  const object top{&j, ""};
  rope_nd_settings s;
  const auto dims = reals(top, "axes_dims_rope");
  if (!dims) fail("axes_dims_rope", "missing: not an ND RoPE (FLUX-style) transformer config");
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
