// console.hpp: text out of the firmware through newlib's write(1, ...), which the rdimon library
// (--specs=rdimon.specs) turns into semihosting SYS_WRITE calls: QEMU (-semihosting-config
// enable=on,target=native) or a debug probe prints them. On a board with a UART, write() is yours
// to provide (_write in newlib's terms) and nothing here changes.
//
// No printf: newlib-nano's stdio allocates its buffers with malloc, and this image has no heap. The
// numbers are formatted here, with integer arithmetic and the target's own float-to-integer
// conversion (libgcc, no libm).
#pragma once

#include <unistd.h>

#include <bit>
#include <cstddef>
#include <cstdint>

namespace firmware::console {

inline void text(const char* s) {
  std::size_t n = 0;
  while (s[n] != '\0') ++n;
  (void)write(1, s, n);
}

inline void hex32(std::uint32_t v) {
  char b[11] = {'0', 'x'};
  for (int i = 0; i < 8; ++i) b[2 + i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 0xFu];
  b[10] = '\0';
  text(b);
}

inline void unsigned_decimal(std::uint64_t v) {
  char b[21];
  std::size_t i = sizeof b - 1;
  b[i] = '\0';
  do {
    b[--i] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  text(b + i);
}

// v with 6 decimals (rounded half away from zero in double), then its bits: "-1.234567 (0xbf9e0652)".
inline void fixed6(float v) {
  double d = static_cast<double>(v);
  if (d < 0) {
    text("-");
    d = -d;
  }
  const auto scaled = static_cast<std::uint64_t>(d * 1e6 + 0.5);
  unsigned_decimal(scaled / 1000000u);
  char frac[8] = {'.'};
  std::uint64_t f = scaled % 1000000u;
  for (int i = 6; i >= 1; --i, f /= 10) frac[i] = static_cast<char>('0' + f % 10);
  frac[7] = '\0';
  text(frac);
  text(" (");
  hex32(std::bit_cast<std::uint32_t>(v));
  text(")");
}

}  // namespace firmware::console
