// Fuzz harness: the .npy reader (posenc::io::read_npy, what `posenc verify --table FILE.npy` reads).
// Properties: no exception escapes (read_npy is noexcept); a failure is one line; a tensor read
// holds exactly its elements' bytes, and writing it (write_npy) and reading that back gives the same
// type, shape and bits. Run with tools/fuzz.sh npy SECONDS.
#include <posenc/io/npy.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using posenc_fuzz::broken;
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto r = posenc::io::read_npy(bytes);
  if (!r) {
    posenc_fuzz::one_error_line(r.error());
    return 0;
  }
  const posenc::io::tensor& t = r.value();
  if (t.data.size() != t.elements() * posenc::io::dtype_size(t.dtype))
    broken("a tensor holds its elements",
           std::to_string(t.data.size()) + " bytes for " + std::to_string(t.elements()) + " elements");
  const std::string again = posenc::io::write_npy(t);
  const auto back = posenc::io::read_npy(again);
  if (!back) broken("what is read can be written and read back", back.error());
  if (back.value().dtype != t.dtype || back.value().shape != t.shape || back.value().data != t.data)
    broken("write then read gives the same tensor", "type, shape or bits differ");
  return 0;
}
