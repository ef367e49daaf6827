// reference.cpp: the host's side of the example: what the images must hold and print, computed by
// the host compiler from the same headers (src/model_tables.hpp, src/attention_demo.hpp).
//
//   reference tables <dir>   writes each table the image stores to <dir>/<C name>.bin: the host's
//                            constexpr tables, whose bytes the image's must equal (little-endian,
//                            as the Arm target)
//   reference checksum       prints "checksum 0x........", the host's run of the firmware's
//                            computation over the host's tables: each image must print the same
//
// run.sh compiles it with c++ -std=c++20 -O2 -ffp-contract=off (as posenc::posenc: no fused
// multiply-add, so the host's float arithmetic is the Cortex-M's).
#include <bit>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <string>

#include "attention_demo.hpp"
#include "model_tables.hpp"

static_assert(std::endian::native == std::endian::little,
              "the table bytes are compared with a little-endian Arm image");

namespace {

bool write_bytes(const std::string& path, const void* p, std::size_t n) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(p), static_cast<std::streamsize>(n));
  return static_cast<bool>(out);
}

int tables(const std::string& dir) {
  const bool ok =
      write_bytes(dir + "/posenc_fw_rope_table.bin", &firmware::rope_table, sizeof firmware::rope_table) &&
      write_bytes(dir + "/posenc_fw_alibi_slopes.bin", firmware::alibi_slopes.data(), sizeof firmware::alibi_slopes) &&
      write_bytes(dir + "/posenc_fw_alibi_bias.bin", firmware::alibi_bias.data(), sizeof firmware::alibi_bias) &&
      write_bytes(dir + "/posenc_fw_rope_q15_table.bin", &firmware::rope_q15_table, sizeof firmware::rope_q15_table);
  if (!ok) std::fprintf(stderr, "reference: cannot write to %s\n", dir.c_str());
  return ok ? 0 : 1;
}

int checksum() {
  const firmware::demo_results r =
      firmware::run_demo(firmware::rope_table, firmware::alibi_bias.data(), firmware::rope_q15_table);
  if (!r.ok) {
    std::fprintf(stderr, "reference: rope::rotate or rope::rotate_fixed refused the shape\n");
    return 1;
  }
  std::printf("checksum 0x%08x\n",
              static_cast<unsigned>(firmware::checksum(firmware::rope_table, firmware::alibi_slopes.data(),
                                                       firmware::alibi_bias.data(), firmware::rope_q15_table, r)));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "tables" && argc == 3) return tables(argv[2]);
  if (cmd == "checksum" && argc == 2) return checksum();
  std::fprintf(stderr, "usage: reference tables <dir> | checksum\n");
  return 2;
}
