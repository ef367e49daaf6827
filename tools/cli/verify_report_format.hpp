// verify_report_format.hpp: a posenc::verify::verify_report, of any table, as the text `posenc
// verify` and `posenc verify merge` print. Its JSON form (--json, and what `verify merge` reads) is
// posenc::io's (io/verify_report_json.hpp), shared with the Python module.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include <posenc/laws/law_result.hpp>
#include <posenc/verify/report.hpp>

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
// or why it was skipped (RoPE's lines and the other schemes').
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

inline std::string shape_line(const pv::verify_report& r) {
  std::string dims, names;
  for (std::size_t i = 0; i < r.shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(r.shape[i]);
  for (std::size_t i = 0; i < r.keys.size(); ++i) names += (i ? "; " : "") + r.keys[i];
  return "[" + dims + "] (" + names + ")";
}

// The rows (RoPE: positions) or entries the report covers, and the shard's blocks.
inline std::string covered_line(const pv::verify_report& r) {
  const std::uint64_t row0 = r.first_block * r.block_rows;
  const std::uint64_t row1 = std::min(r.rows, r.end_block * r.block_rows);
  const bool cos_sin = r.naming == pv::entry_naming::cos_sin;
  std::string s = cos_sin ? "rows:   positions " + std::to_string(r.start + row0) + " .. " +
                                std::to_string(r.start + row1 - 1) + " (" + std::to_string(row1 - row0) + " of " +
                                std::to_string(r.rows) + " rows"
                          : "slice:  entries " + std::to_string(row0) + " .. " + std::to_string(row1 - 1) + " (" +
                                std::to_string(row1 - row0) + " of " + std::to_string(r.rows);
  s += "; blocks " + std::to_string(r.first_block) + " .. " + std::to_string(r.end_block - 1) + " of " +
       std::to_string(r.total_blocks()) + ": a shard)\n";
  return s;
}

inline std::string text(const pv::verify_report& r) {
  const bool cos_sin = r.naming == pv::entry_naming::cos_sin;
  std::string s = "posenc verify " + r.scheme + ": " + (r.passed() ? "PASS" : "FAIL") + "\n";
  s += "table:  " + r.description + "\n";
  if (cos_sin) {
    const std::uint64_t row0 = r.first_block * r.block_rows;
    const std::uint64_t row1 = std::min(r.rows, r.end_block * r.block_rows);
    s += r.complete()
             ? "rows:   positions " + std::to_string(r.start + row0) + " .. " + std::to_string(r.start + row1 - 1) +
                   " (" + std::to_string(row1 - row0) + " of " + std::to_string(r.rows) + " rows)\n"
             : covered_line(r);
  } else {
    s += "shape:  " + shape_line(r) + "\n";
    if (!r.complete()) s += covered_line(r);
  }
  if (r.integer_valued) {
    s += "oracle: the published formula evaluated exactly (logarithms in MPFR); every entry must equal it\n\n";
    const auto& f = r.integers;
    s += "dtype  entries      wrong        max error  worst entry\n";
    s += pad("i32", 7) + pad(std::to_string(f.entries), 13) + pad(std::to_string(f.wrong), 13) +
         pad(std::to_string(f.max_error), 11);
    if (f.has_worst) s += f.worst_at + ": " + std::to_string(f.worst_got) + ", exact " + std::to_string(f.worst_exact);
    s += "\n";
    if (f.has_first_failure) s += "       first wrong entry: " + f.first_failure_at + "\n";
  } else {
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
        s += (cos_sin ? entry_text(d.worst) : d.worst_at) + ": " + format_hex(d.worst_got) + ", exact ~" +
             format_hex(d.worst_exact);
      s += "\n";
      if (d.has_first_failure)
        s += "       first entry beyond the allowed error: " +
             (cos_sin ? entry_text(d.first_failure) : d.first_failure_at) + "\n";
      if (pv::is_fixed_point(d.dtype))
        s += "       " + std::to_string(d.saturated) +
             " entries saturated (exact value past the range; ulp: the grid step 2^-" +
             (d.dtype == pv::table_dtype::q15 ? "15" : "31") + ")\n";
    }
  }
  if (cos_sin) {
    s += "\nlaws (their constexpr definitions, on every block of " + std::to_string(r.block_rows) + " rows):\n";
    for (const auto& l : r.laws) s += law_line(l, pv::dtype_name(l.dtype));
    s += "\ntime: " + fixed(r.seconds, 1) + " s\n";
    return s;
  }
  s += "\nlaws (their constexpr definitions, on the table verified):\n";
  if (r.laws.empty()) s += "  none of the registry's laws reads this scheme's tables\n";
  for (const auto& l : r.laws) s += law_line(l, r.integer_valued ? "i32" : pv::dtype_name(l.dtype), 27);
  s += "\ntime: " + fixed(r.seconds, 3) + " s\n";
  return s;
}

}  // namespace posenc::cli::verify_format
