// The host's side of the firmware tests (tests/firmware/check_image.cmake): the tables and results of
// examples/firmware, computed by the host compiler from the same headers.
//
//   firmware_host_reference tables <dir>     writes each stored table's bytes to <dir>/<C name>.bin
//                                            (the host's constexpr tables, little-endian as the target)
//   firmware_host_reference checksum         prints "checksum 0x........": the host's run of the
//                                            firmware's computation over the host's tables
//   firmware_host_reference flip-bit <in> <out> <offset>
//                                            copies <in> to <out> with the lowest bit of the byte at
//                                            <offset> flipped (the twin: an image with one table bit changed)
//   firmware_host_reference rope-entry-offset
//                                            prints the byte offset, in the RoPE table, of the entry the
//                                            twin flips: sin at position 37, lane 31
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

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
      write_bytes(dir + "/posenc_fw_alibi_bias.bin", firmware::alibi_bias.data(), sizeof firmware::alibi_bias);
  if (!ok) std::fprintf(stderr, "firmware_host_reference: cannot write to %s\n", dir.c_str());
  return ok ? 0 : 1;
}

int checksum() {
  const firmware::demo_results r = firmware::run_demo(firmware::rope_table, firmware::alibi_bias.data());
  if (!r.ok) {
    std::fprintf(stderr, "firmware_host_reference: rope::rotate refused the shape\n");
    return 1;
  }
  std::printf("checksum 0x%08x\n",
              static_cast<unsigned>(firmware::checksum(firmware::rope_table, firmware::alibi_slopes.data(),
                                                       firmware::alibi_bias.data(), r)));
  return 0;
}

int flip_bit(const std::string& in_path, const std::string& out_path, unsigned long offset) {
  std::ifstream in(in_path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.eof() && !in) return 1;
  if (offset >= bytes.size()) {
    std::fprintf(stderr, "firmware_host_reference: offset %lu is past the end of %s\n", offset, in_path.c_str());
    return 1;
  }
  bytes[offset] = static_cast<char>(bytes[offset] ^ 1);
  return write_bytes(out_path, bytes.data(), bytes.size()) ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "tables" && argc == 3) return tables(argv[2]);
  if (cmd == "checksum" && argc == 2) return checksum();
  if (cmd == "flip-bit" && argc == 5) return flip_bit(argv[2], argv[3], std::strtoul(argv[4], nullptr, 0));
  if (cmd == "rope-entry-offset" && argc == 2) {
    const std::size_t index = 37 * firmware::head_dim + 31;
    std::printf("%zu\n", offsetof(firmware::rope_table_type, sin) + index * sizeof(float));
    return 0;
  }
  std::fprintf(stderr,
               "usage: firmware_host_reference tables <dir> | checksum | flip-bit <in> <out> <offset> | "
               "rope-entry-offset\n");
  return 2;
}
