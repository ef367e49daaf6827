// verify_scheme_format.hpp: a posenc::verify::scheme_verify_report as the text `posenc verify
// <scheme>` prints (the schemes other than RoPE; RoPE's is verify_report_format.hpp, whose columns
// and law lines it shares). Its JSON form is posenc::io's (io/scheme_verify_report_json.hpp).
#pragma once

#include <cstdint>
#include <string>

#include <posenc/verify/scheme_verify_report.hpp>

#include "hexfloat.hpp"
#include "verify_report_format.hpp"

namespace posenc::cli::verify_format {

inline std::string shape_line(const pv::scheme_verify_report& r) {
  std::string dims, names;
  for (std::size_t i = 0; i < r.shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(r.shape[i]);
  for (std::size_t i = 0; i < r.keys.size(); ++i) names += (i ? "; " : "") + r.keys[i];
  return "[" + dims + "] (" + names + ")";
}

inline std::string text(const pv::scheme_verify_report& r) {
  std::string s = "posenc verify " + r.scheme + ": " + (r.passed() ? "PASS" : "FAIL") + "\n";
  s += "table:  " + r.description + "\n";
  s += "shape:  " + shape_line(r) + "\n";
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
    for (const auto& n : r.dtypes) {
      const pv::dtype_findings& d = n.findings;
      s += pad(std::string(pv::dtype_name(d.dtype)), 7) + pad(std::to_string(d.entries), 13) +
           pad(std::to_string(d.not_correctly_rounded), 13) + pad(std::to_string(d.beyond_tolerance), 9) +
           pad(fixed(d.max_ulp, 4), 10) + pad(fixed(d.mean_ulp(), 4), 10);
      if (d.has_worst) s += n.worst_at + ": " + format_hex(d.worst_got) + ", exact ~" + format_hex(d.worst_exact);
      s += "\n";
      if (d.has_first_failure) s += "       first entry beyond the allowed error: " + n.first_failure_at + "\n";
    }
  }
  s += "\nlaws (their constexpr definitions, on the table verified):\n";
  if (r.laws.empty()) s += "  none of the registry's laws reads this scheme's tables\n";
  for (const auto& l : r.laws) s += law_line(l, r.integer_valued ? "i32" : pv::dtype_name(l.dtype), 27);
  s += "\ntime: " + fixed(r.seconds, 3) + " s\n";
  return s;
}

}  // namespace posenc::cli::verify_format
