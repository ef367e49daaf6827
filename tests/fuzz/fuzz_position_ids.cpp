// Fuzz harness: the position-id files of `posenc emit|verify mrope` and `rope-nd` (--position-ids
// FILE; tools/cli/position_ids.hpp). The first byte picks the reader: M-RoPE's "t,h,w" integers, or
// ND RoPE's "p0,...,p{A-1}" reals with A = 1 .. 4 axes; the rest is the file. Properties: the only
// exception is the CLI's usage_error, of one line; every position read is in range (M-RoPE: an
// integer in [0, 2^21]; ND: finite, |p| <= 2^21); and the positions written back as a file (integers
// in decimal, reals as C99 hex floats and as shortest round-trip decimals) are read back with the
// same bits. Run with tools/fuzz.sh position_ids SECONDS.
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "cli/position_ids.hpp"
#include "fuzz_check.hpp"

namespace position_ids_harness {

namespace emit = posenc::cli::emit;

// A file of `streams` columns from positions stored stream-major, each written by put(value).
template <class V, class Put>
std::string position_file(const std::string& header, const std::vector<V>& pos, std::size_t streams, Put put) {
  const std::size_t n = pos.size() / streams;
  std::string text = header + "\n";
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t s = 0; s < streams; ++s) text += (s ? "," : "") + put(pos[s * n + i]);
    text += "\n";
  }
  return text;
}

inline std::string shortest(double x) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

inline std::string hex(double x) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::hex);
  return (std::signbit(x) ? "-0x" : "0x") + std::string(buf[0] == '-' ? buf + 1 : buf, r.ptr);
}

inline void check_mrope(std::string_view text) {
  std::vector<std::uint64_t> pos;
  try {
    pos = emit::mrope_positions(text, "ids.csv", "emit mrope");
  } catch (const posenc::cli::usage_error& e) {
    posenc_fuzz::one_error_line(e.what());
    return;
  }
  if (pos.empty() || pos.size() % 3 != 0)
    posenc_fuzz::broken("three positions a token", std::to_string(pos.size()) + " positions");
  for (const std::uint64_t p : pos)
    if (p > 2097152) posenc_fuzz::broken("an M-RoPE position is in [0, 2^21]", std::to_string(p));
  const std::string again = position_file("t,h,w", pos, 3, [](std::uint64_t p) { return std::to_string(p); });
  if (emit::mrope_positions(again, "again.csv", "emit mrope") != pos)
    posenc_fuzz::broken("positions written and read back are the same", "an M-RoPE position differs");
}

inline void check_nd(std::string_view text, std::size_t axes) {
  std::vector<double> pos;
  try {
    pos = emit::nd_positions(text, axes, "ids.csv", "emit rope-nd");
  } catch (const posenc::cli::usage_error& e) {
    posenc_fuzz::one_error_line(e.what());
    return;
  }
  if (pos.empty() || pos.size() % axes != 0)
    posenc_fuzz::broken("one position an axis", std::to_string(pos.size()) + " positions");
  for (const double p : pos) {
    posenc_fuzz::finite(p, "an ND position");
    if (!(p <= 2097152.0 && p >= -2097152.0)) posenc_fuzz::broken("an ND position is within 2^21", shortest(p));
  }
  std::string header;
  for (std::size_t k = 0; k < axes; ++k) header += (k ? ",p" : "p") + std::to_string(k);
  for (const bool as_hex : {false, true}) {
    const std::string again = position_file(header, pos, axes, [&](double p) { return as_hex ? hex(p) : shortest(p); });
    const std::vector<double> back = emit::nd_positions(again, axes, "again.csv", "emit rope-nd");
    if (back.size() != pos.size() || std::memcmp(back.data(), pos.data(), pos.size() * sizeof(double)) != 0)
      posenc_fuzz::broken("positions written and read back have the same bits",
                          as_hex ? "written as hex floats" : "written as shortest decimals");
  }
}

}  // namespace position_ids_harness

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const unsigned pick = data[0] % 5u;
  if (pick == 0)
    position_ids_harness::check_mrope(text);
  else
    position_ids_harness::check_nd(text, pick);
  return 0;
}
