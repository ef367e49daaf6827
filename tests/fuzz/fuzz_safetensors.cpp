// Fuzz harness: the .safetensors reader (posenc::io::read_safetensors, what `posenc verify --table
// FILE.safetensors` reads). Properties: no exception escapes (read_safetensors is noexcept); a failure
// is one line; each tensor read holds exactly its elements' bytes; writing the file read
// (write_safetensors) and reading that back gives the same names, types, shapes, bits and metadata.
// Run with tools/fuzz.sh safetensors SECONDS.
#include <posenc/io/safetensors.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using posenc_fuzz::broken;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto r = posenc::io::read_safetensors(bytes);
  if (!r) {
    posenc_fuzz::one_error_line(r.error());
    return 0;
  }
  const posenc::io::safetensors_file& f = r.value();
  for (const posenc::io::named_tensor& nt : f.tensors)
    if (nt.value.data.size() != nt.value.elements() * posenc::io::dtype_size(nt.value.dtype))
      broken("a tensor holds its elements", "tensor '" + nt.name + "'");
  std::string again;
  try {
    again = posenc::io::write_safetensors(f.tensors, f.metadata);
  } catch (const std::invalid_argument& e) {
    broken("what is read can be written", e.what());
  }
  const auto back = posenc::io::read_safetensors(again);
  if (!back) broken("what is written can be read back", back.error());
  const posenc::io::safetensors_file& g = back.value();
  if (g.metadata != f.metadata || g.tensors.size() != f.tensors.size())
    broken("write then read gives the same file", "metadata or tensor count differ");
  for (std::size_t i = 0; i < f.tensors.size(); ++i) {
    const posenc::io::named_tensor &a = f.tensors[i], &b = g.tensors[i];
    if (a.name != b.name || a.value.dtype != b.value.dtype || a.value.shape != b.value.shape ||
        a.value.data != b.value.data)
      broken("write then read gives the same file", "tensor '" + a.name + "' differs");
  }
  return 0;
}
