// flip_bit <in> <out> <offset>: copies the file <in> to <out> with the lowest bit of the byte at
// <offset> flipped. check_image.cmake's twin: an image whose table differs from the host's by one bit.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: flip_bit <in> <out> <offset>\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const unsigned long offset = std::strtoul(argv[3], nullptr, 0);
  if (!in.is_open() || offset >= bytes.size()) {
    std::fprintf(stderr, "flip_bit: cannot read byte %lu of %s\n", offset, argv[1]);
    return 1;
  }
  bytes[offset] = static_cast<char>(bytes[offset] ^ 1);
  std::ofstream out(argv[2], std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return out ? 0 : 1;
}
