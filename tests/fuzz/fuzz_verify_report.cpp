// Fuzz harness: the verify report reader (posenc::io::verify_report_from_json, what `posenc verify
// merge` reads). Properties: no exception escapes (the reader is noexcept); a failure is one line; a
// report read, written (verify_report_to_json) and read again is written the same: every field the
// reader accepts survives the round trip. Run with tools/fuzz.sh verify_report SECONDS.
#include <posenc/io/verify_report_json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using posenc_fuzz::broken;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto r = posenc::io::verify_report_from_json(text);
  if (!r) {
    posenc_fuzz::one_error_line(r.error());
    return 0;
  }
  const std::string once = posenc::io::verify_report_to_json(r.value()).dump(1);
  const auto back = posenc::io::verify_report_from_json(once);
  if (!back) broken("what is read can be written and read back", back.error());
  const std::string twice = posenc::io::verify_report_to_json(back.value()).dump(1);
  if (once != twice) broken("write then read gives the same report", "the second writing differs");
  return 0;
}
