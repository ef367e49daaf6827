// Built against an installed posenc's posenc::io target (when the consumer's machine has
// nlohmann-json): the config.json reader is found and links.
#include <posenc/io/hf_config.hpp>

#include <cstdio>

int main() {
  const auto r = posenc::io::rope_from_hf_config(R"({"head_dim": 64, "rope_theta": 500000})");
  if (!r || r.value().config().rope_theta != 500000.0) return 1;
  std::printf("posenc::io found and usable\n");
  return 0;
}
