// Fuzz harness: the `--format bin` tables `posenc verify <scheme> --table FILE` reads
// (tools/cli/table_bin.hpp). The first byte picks the reader (a RoPE table of cos/sin pairs, a real
// table in f64, f32, bf16, f16, q15 or q31, or an int32 table of buckets), the next two the table's
// shape (RoPE: rows and elements; the others: entries); the rest is the file. Properties: the only
// exception is the CLI's usage_error, of one line, and it comes exactly when the file's size is not
// the table's; a table read holds every value of the file, and writing it back in the emit's bin
// encoding (emit_values.hpp's put_le) gives the file's bytes: no value is altered on the way in (a
// NaN's payload included). Run with tools/fuzz.sh table_bin SECONDS.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli/table_bin.hpp"
#include "fuzz_check.hpp"

namespace table_bin_harness {

namespace cmd = posenc::cli::verify_cmd;

const std::string path = "table.bin", ctx = "verify fuzz";

// Reads with read(), which throws usage_error exactly when the size is wrong; returns whether it read.
template <class Read>
bool read_or_refuse(std::size_t size, std::uint64_t want, Read read) {
  try {
    read();
  } catch (const posenc::cli::usage_error& e) {
    posenc_fuzz::one_error_line(e.what());
    if (size == want)
      posenc_fuzz::broken("a file of the table's size is read", std::to_string(size) + " bytes refused");
    return false;
  }
  if (size != want)
    posenc_fuzz::broken("a file of another size is refused",
                        std::to_string(size) + " bytes read for " + std::to_string(want));
  return true;
}

template <class T>
void check_values(std::string_view file, std::uint64_t n) {
  std::vector<T> v;
  if (!read_or_refuse(file.size(), n * sizeof(T), [&] { v = cmd::load_bin_values<T>(file, n, path, ctx); })) return;
  std::string again(v.size() * sizeof(T), '\0');
  char* out = again.data();
  for (const T& x : v) out = posenc::cli::emit::put_le(out, x);
  if (again != file) posenc_fuzz::broken("a table read and written back is the file", "the bytes differ");
}

template <class T>
void check_rope(std::string_view file, std::uint64_t rows, std::size_t d) {
  cmd::loaded_table<T> t;
  if (!read_or_refuse(file.size(), rows * d * 2 * sizeof(T),
                      [&] { t = cmd::load_bin_table<T>(file, rows, d, path, ctx); }))
    return;
  std::string again(2 * t.cos.size() * sizeof(T), '\0');
  char* out = again.data();
  for (std::size_t i = 0; i < t.cos.size(); ++i) {
    out = posenc::cli::emit::put_le(out, t.cos[i]);
    out = posenc::cli::emit::put_le(out, t.sin[i]);
  }
  if (again != file) posenc_fuzz::broken("a RoPE table read and written back is the file", "the bytes differ");
}

inline void check_integers(std::string_view file, std::uint64_t n) {
  std::vector<std::int32_t> v;
  if (!read_or_refuse(file.size(), n * 4, [&] { v = cmd::load_bin_integers(file, n, path, ctx); })) return;
  std::string again;
  for (const std::int32_t x : v)
    for (int k = 0; k < 4; ++k) again += static_cast<char>((static_cast<std::uint32_t>(x) >> (8 * k)) & 0xFFu);
  if (again != file) posenc_fuzz::broken("an integer table read and written back is the file", "the bytes differ");
}

}  // namespace table_bin_harness

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace h = table_bin_harness;
  if (size < 3) return 0;
  const std::string_view file(reinterpret_cast<const char*>(data) + 3, size - 3);
  const std::uint64_t a = data[1], b = data[2];
  switch (data[0] % 8u) {
    case 0: h::check_rope<float>(file, a, 2 * (b % 32)); break;  // d: the rotary dim, even
    case 1: h::check_values<double>(file, a * 256 + b); break;
    case 2: h::check_values<float>(file, a * 256 + b); break;
    case 3: h::check_values<posenc::bfloat16>(file, a * 256 + b); break;
    case 4: h::check_values<posenc::float16>(file, a * 256 + b); break;
    case 5: h::check_values<posenc::q15>(file, a * 256 + b); break;
    case 6: h::check_values<posenc::q31>(file, a * 256 + b); break;
    default: h::check_integers(file, a * 256 + b); break;
  }
  return 0;
}
