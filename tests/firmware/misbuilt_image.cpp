// The misbuilt twin of examples/firmware's image, for check_image.cmake's MODE misbuilt: the same
// tables under the same C names, built the ways the checks exist to catch, each of which they must
// report:
//   - the tables are not const: .data (flash copied to RAM at start-up, RAM the board may not have),
//     not .rodata;
//   - a namespace-scope variable with a dynamic initialiser: an .init_array entry, run by startup.S;
//   - that initialiser calls sinf (libm), and main allocates (malloc, free): heap and libm symbols;
//   - it prints nothing (no checksum, no "done") and exits with status 3: a run that did not finish.
// build_images.cmake compiles it for the mps2-an386 board (4 MiB of RAM hold the .data tables).
#include <array>
#include <cmath>
#include <cstdlib>

#include "model_tables.hpp"

extern "C" {
firmware::rope_table_type posenc_fw_rope_table = firmware::rope_table;
std::array<float, firmware::alibi_heads> posenc_fw_alibi_slopes = firmware::alibi_slopes;
std::array<float, firmware::alibi_bias_entries> posenc_fw_alibi_bias = firmware::alibi_bias;
firmware::rope_q15_table_type posenc_fw_rope_q15_table = firmware::rope_q15_table;
}

namespace {

volatile float angle = 0.5f;
const float computed_at_start_up = std::sin(angle);  // not a constant: run by .init_array

}  // namespace

int main() {
  auto* scratch = static_cast<float*>(std::malloc(sizeof(float)));
  if (scratch == nullptr) return 1;
  *scratch = computed_at_start_up + posenc_fw_rope_table.cos[1] + posenc_fw_alibi_slopes[0] + posenc_fw_alibi_bias[1] +
             static_cast<float>(posenc_fw_rope_q15_table.cos[1].bits);
  const int status = *scratch > 100.0f ? 4 : 3;
  std::free(scratch);
  return status;
}
