// Fuzz harness: the CLI's readers of its own arguments (tools/cli/args.hpp, hexfloat.hpp): real
// numbers (f64, f32), integers in a range, and the flag parser. The first byte picks the reader, the
// rest is the text (for the flag parser, tokens separated by NUL bytes). Properties: the only
// exception is usage_error (the CLI's exit 2), its message one line; a real accepted is finite,
// equals glibc's strtod/strtof of the same text (an independent correctly rounded reader), and reads
// back to the same bits from both of the CLI's printed forms (hex float and shortest decimal); an
// integer accepted equals strtoll's and lies in its range. Run with tools/fuzz.sh cli_args SECONDS.
#include <bit>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/args.hpp"
#include "cli/hexfloat.hpp"
#include "fuzz_check.hpp"

namespace {

using posenc_fuzz::broken;

// The bits of a double or a float, so that -0 and +0 differ where == would not tell them apart.
template <class T>
auto bits(T v) {
  return std::bit_cast<std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>>(v);
}

template <class T>
void check_real(std::string_view text) {
  T v{};
  try {
    v = posenc::cli::parse_real<T>(text, "<x>", "fuzz");
  } catch (const posenc::cli::usage_error& e) {
    posenc_fuzz::one_error_line(e.what());
    return;
  }
  posenc_fuzz::finite(static_cast<double>(v), "an accepted real");
  const std::string s(text);
  const T reference = [&] {
    if constexpr (sizeof(T) == 8)
      return std::strtod(s.c_str(), nullptr);
    else
      return std::strtof(s.c_str(), nullptr);
  }();
  if (bits(v) != bits(reference))
    broken("an accepted real equals strtod/strtof's",
           s + " read as " + posenc::cli::format_hex(v) + ", strto* " + posenc::cli::format_hex(reference));
  for (const bool decimal : {false, true}) {
    const std::string printed = posenc::cli::format_real(v, decimal);
    T back{};
    try {
      back = posenc::cli::parse_real<T>(printed, "<x>", "fuzz");
    } catch (const posenc::cli::usage_error& e) {
      broken("what the CLI prints it reads back", printed + ": " + e.what());
    }
    if (bits(back) != bits(v))
      broken("what the CLI prints it reads back", printed + " is not " + posenc::cli::format_hex(v));
  }
}

void check_integer(std::string_view text) {
  constexpr long long lo = -1000, hi = 1LL << 21;
  long long v = 0;
  try {
    v = posenc::cli::parse_integer(text, lo, hi, "<n>", "fuzz");
  } catch (const posenc::cli::usage_error& e) {
    posenc_fuzz::one_error_line(e.what());
    return;
  }
  const std::string s(text);
  errno = 0;
  char* end = nullptr;
  const long long reference = std::strtoll(s.c_str(), &end, 10);
  if (v < lo || v > hi) broken("an accepted integer lies in its range", s);
  if (errno != 0 || end != s.c_str() + s.size() || reference != v)
    broken("an accepted integer equals strtoll's", s + " read as " + std::to_string(v));
}

constexpr posenc::cli::flag_spec flags[] = {
    {"type", posenc::cli::flag_kind::value, "f64|f32", "type"},
    {"layout", posenc::cli::flag_kind::value, "half-split|interleaved|pairs", "layout"},
    {"positions", posenc::cli::flag_kind::value, "N", "rows"},
    {"quiet", posenc::cli::flag_kind::boolean, "", "quiet"},
    {"json", posenc::cli::flag_kind::boolean, "", "json"},
};

void check_flags(std::string_view text) {
  std::vector<std::string_view> tokens;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t nul = text.find('\0', at);
    const std::size_t end = nul == std::string_view::npos ? text.size() : nul;
    tokens.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  try {
    const posenc::cli::parsed_args a = posenc::cli::parse_args(tokens, flags, "fuzz");
    for (const std::string_view name : a.names())
      if (posenc::cli::find_flag(flags, name) == nullptr) broken("only declared flags are read", std::string(name));
  } catch (const posenc::cli::usage_error& e) {
    posenc_fuzz::one_error_line(e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0: check_real<double>(text); break;
    case 1: check_real<float>(text); break;
    case 2: check_integer(text); break;
    default: check_flags(text); break;
  }
  return 0;
}
