// scheme_verify_report_json.hpp: the report of verifying a scheme's table other than RoPE's
// (posenc/verify/scheme_verify_report.hpp) as JSON: what `posenc verify <scheme> --json` prints.
// The same version, keys and law entries as a RoPE report (verify_report_json.hpp; docs/verify.md),
// with what differs:
//   "keys", "shape"       what each index of the table is, and its extents
//   "integer_valued"      the table holds integers (buckets): "integers" instead of "dtypes"
//   dtypes[].worst        {"index", "at", "got", "exact"}: the entry's index in row order, named
//   dtypes[].first_failure  {"index", "at"}, or null
//   integers              {"entries", "wrong", "max_error", "passed", "worst", "first_failure"}
// No shards (the tables are small), so no block fields and no reading back.
// Needs nlohmann-json (posenc::io).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "posenc/io/verify_report_json.hpp"
#include "posenc/verify/scheme_verify_report.hpp"

namespace posenc::io {

inline nlohmann::ordered_json scheme_verify_report_to_json(const posenc::verify::scheme_verify_report& r) {
  namespace vrj = posenc::io::detail::vrj;
  using ojson = nlohmann::ordered_json;
  const auto located = [](std::uint64_t index, const std::string& at) { return ojson{{"index", index}, {"at", at}}; };
  ojson j;
  j["posenc_verify_report"] = verify_report_json_version;
  j["scheme"] = r.scheme;
  j["passed"] = r.passed();
  j["description"] = r.description;
  j["keys"] = r.keys;
  j["shape"] = r.shape;
  j["integer_valued"] = r.integer_valued;
  j["max_ulp_allowed"] = r.max_ulp_allowed;
  j["seconds"] = vrj::real(r.seconds);
  if (r.integer_valued) {
    const auto& f = r.integers;
    ojson o{{"entries", f.entries}, {"wrong", f.wrong}, {"max_error", f.max_error}, {"passed", f.passed()}};
    o["worst"] = ojson(nullptr);
    if (f.has_worst) {
      o["worst"] = located(f.worst, f.worst_at);
      o["worst"]["got"] = f.worst_got;
      o["worst"]["exact"] = f.worst_exact;
    }
    o["first_failure"] = f.has_first_failure ? located(f.first_failure, f.first_failure_at) : ojson(nullptr);
    j["integers"] = o;
  } else {
    ojson ds = ojson::array();
    for (const auto& d : r.dtypes) {
      ojson o = vrj::dtype_json(d.findings);
      if (d.findings.has_worst) {
        o["worst"] = located(d.findings.worst.position, d.worst_at);
        o["worst"]["got"] = vrj::real(d.findings.worst_got);
        o["worst"]["exact"] = vrj::real(d.findings.worst_exact);
      }
      if (d.findings.has_first_failure)
        o["first_failure"] = located(d.findings.first_failure.position, d.first_failure_at);
      ds.push_back(o);
    }
    j["dtypes"] = ds;
  }
  ojson ls = ojson::array();
  for (const auto& l : r.laws) {
    ojson o = vrj::law_json(l);
    if (r.integer_valued) o["dtype"] = "i32";  // the bucket laws read the integers
    ls.push_back(o);
  }
  j["laws"] = ls;
  return j;
}

}  // namespace posenc::io
