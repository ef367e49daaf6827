// verify_report_format.hpp: a posenc::verify::rope_verify_report as the text `posenc verify` prints.
// Its JSON form (--json, and what `verify merge` reads) is posenc::io's (io/verify_report_json.hpp),
// shared with the Python module.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include <posenc/laws/law_result.hpp>
#include <posenc/verify/rope_verify_report.hpp>

#include "args.hpp"
#include "hexfloat.hpp"

namespace posenc::cli::verify_format {

namespace pv = posenc::verify;

// ---- text ----

inline std::string fixed(double x, int digits) {
  if (!std::isfinite(x)) return x != x ? "nan" : (x < 0 ? "-inf" : "inf");
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, x);
  return b;
}
inline std::string sci(double x) {
  if (!std::isfinite(x)) return x != x ? "nan" : (x < 0 ? "-inf" : "inf");
  char b[64];
  std::snprintf(b, sizeof b, "%.3g", x);
  return b;
}
inline std::string pad(std::string s, std::size_t w) {
  if (s.size() < w) s.resize(w, ' ');
  return s;
}

inline std::string entry_text(const pv::table_entry& e) {
  return "position " + std::to_string(e.position) + ", element " + std::to_string(e.element) + ", " +
         (e.is_sin ? "sin" : "cos");
}

inline std::string index_text(const posenc::laws::entry_index& i) {
  std::string s = "position " + std::to_string(i.position);
  if (i.pair >= 0) s += ", pair " + std::to_string(i.pair);
  if (i.element >= 0) s += ", element " + std::to_string(i.element);
  if (i.partner != posenc::laws::no_partner) s += ", with " + std::to_string(i.partner);
  return s;
}

// One law's line of the report: its dtype (label), name, and worst measured value against its bound
// or why it was skipped (the RoPE report's and the other schemes', verify_scheme_format.hpp).
inline std::string law_line(const pv::law_findings& l, std::string_view label, std::size_t name_width = 22) {
  std::string s = "  " + pad(std::string(label), 5) + pad(l.law, name_width);
  if (!l.ran) return s + "skipped: " + l.skipped + "\n";
  s += std::string(l.holds ? "holds " : "FAILS ") + " worst " + pad(sci(l.deviation), 10) + " bound " +
       pad(sci(l.bound), 10) + " (" + std::to_string(l.checked) + " cases";
  if (l.failures > 0) s += ", " + std::to_string(l.failures) + " failed";
  s += ")";
  if (l.has_first_failure) s += "; first failure at " + index_text(l.first_failure);
  return s + "\n";
}

inline std::string text(const pv::rope_verify_report& r) {
  std::string s = std::string("posenc verify rope: ") + (r.passed() ? "PASS" : "FAIL") + "\n";
  s += "table:  " + r.description + "\n";
  const std::uint64_t row0 = r.first_block * r.block_rows;
  const std::uint64_t row1 = std::min(r.rows, r.end_block * r.block_rows);
  s += "rows:   positions " + std::to_string(r.start + row0) + " .. " + std::to_string(r.start + row1 - 1) + " (" +
       std::to_string(row1 - row0) + " of " + std::to_string(r.rows) + " rows";
  if (!r.complete())
    s += "; blocks " + std::to_string(r.first_block) + " .. " + std::to_string(r.end_block - 1) + " of " +
         std::to_string(r.total_blocks()) + ": a shard";
  s += ")\n";
  s += "oracle: MPFR, every entry against RN(exact value); allowed: " +
       (r.max_ulp_allowed == 0 ? std::string("correctly rounded only")
                               : "up to " + std::to_string(r.max_ulp_allowed) + " representable steps from it") +
       "\n\n";
  s += "dtype  entries      not CR       beyond   max ulp   mean ulp  worst entry\n";
  for (const auto& d : r.dtypes) {
    s += pad(std::string(pv::dtype_name(d.dtype)), 7) + pad(std::to_string(d.entries), 13) +
         pad(std::to_string(d.not_correctly_rounded), 13) + pad(std::to_string(d.beyond_tolerance), 9) +
         pad(fixed(d.max_ulp, 4), 10) + pad(fixed(d.mean_ulp(), 4), 10);
    if (d.has_worst)
      s += entry_text(d.worst) + ": " + format_hex(d.worst_got) + ", exact ~" + format_hex(d.worst_exact);
    s += "\n";
    if (d.has_first_failure) s += "       first entry beyond the allowed error: " + entry_text(d.first_failure) + "\n";
  }
  s += "\nlaws (their constexpr definitions, on every block of " + std::to_string(r.block_rows) + " rows):\n";
  for (const auto& l : r.laws) s += law_line(l, pv::dtype_name(l.dtype));
  s += "\ntime: " + fixed(r.seconds, 1) + " s\n";
  return s;
}

}  // namespace posenc::cli::verify_format
