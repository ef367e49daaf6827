// verify_report_format.hpp: a posenc::verify::rope_verify_report as the text `posenc verify` prints
// and as JSON (--json), and back from JSON (`posenc verify merge`).
//
// The JSON keeps every field of the report, so that merging the JSON reports of a table's shards
// gives the report one run over the whole table gives (docs/verify.md). Reals are JSON numbers
// (nlohmann-json writes the shortest decimal that reads back to the same double) except a
// non-finite one, written as the string "inf", "-inf" or "nan"; ulp_sum_q, a 128-bit integer, is a
// decimal string.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>

#include <posenc/laws/law_result.hpp>
#include <posenc/verify/rope_verify_report.hpp>

#include "args.hpp"
#include "hexfloat.hpp"

namespace posenc::cli::verify_format {

namespace pv = posenc::verify;
using json = nlohmann::ordered_json;

inline constexpr int json_version = 1;

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
  for (const auto& l : r.laws) {
    s += "  " + pad(std::string(pv::dtype_name(l.dtype)), 5) + pad(l.law, 22);
    if (!l.ran) {
      s += "skipped: " + l.skipped + "\n";
      continue;
    }
    s += std::string(l.holds ? "holds " : "FAILS ") + " worst " + pad(sci(l.deviation), 10) + " bound " +
         pad(sci(l.bound), 10) + " (" + std::to_string(l.checked) + " cases";
    if (l.failures > 0) s += ", " + std::to_string(l.failures) + " failed";
    s += ")";
    if (l.has_first_failure) s += "; first failure at " + index_text(l.first_failure);
    s += "\n";
  }
  s += "\ntime: " + fixed(r.seconds, 1) + " s\n";
  return s;
}

// ---- JSON ----

inline json real(double x) {
  if (std::isfinite(x)) return x;
  return x != x ? "nan" : (x < 0 ? "-inf" : "inf");
}

inline std::string u128(pv::ulp_sum_type v) {
  if (v == 0) return "0";
  std::string s;
  while (v != 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  return s;
}

inline json entry_json(const pv::table_entry& e) {
  return {{"position", e.position}, {"element", e.element}, {"array", e.is_sin ? "sin" : "cos"}};
}
inline json index_json(const posenc::laws::entry_index& i) {
  json j = {{"position", i.position}, {"pair", i.pair}, {"element", i.element}};
  j["partner"] = i.partner == posenc::laws::no_partner ? json(nullptr) : json(i.partner);
  return j;
}

inline json to_json(const pv::rope_verify_report& r) {
  json j;
  j["posenc_verify_report"] = json_version;
  j["scheme"] = "rope";
  j["passed"] = r.passed();
  j["description"] = r.description;
  j["start"] = r.start;
  j["rows"] = r.rows;
  j["block_rows"] = r.block_rows;
  j["first_block"] = r.first_block;
  j["end_block"] = r.end_block;
  j["total_blocks"] = r.total_blocks();
  j["max_ulp_allowed"] = r.max_ulp_allowed;
  j["seconds"] = real(r.seconds);
  json ds = json::array();
  for (const auto& d : r.dtypes) {
    json o;
    o["dtype"] = std::string(pv::dtype_name(d.dtype));
    o["entries"] = d.entries;
    o["not_correctly_rounded"] = d.not_correctly_rounded;
    o["beyond_tolerance"] = d.beyond_tolerance;
    o["max_ulp"] = real(d.max_ulp);
    o["mean_ulp"] = real(d.mean_ulp());
    o["ulp_sum_q"] = u128(d.ulp_sum_q);
    if (d.has_worst) {
      o["worst"] = entry_json(d.worst);
      o["worst"]["got"] = real(d.worst_got);
      o["worst"]["exact"] = real(d.worst_exact);
    } else {
      o["worst"] = nullptr;
    }
    o["first_failure"] = d.has_first_failure ? entry_json(d.first_failure) : json(nullptr);
    ds.push_back(o);
  }
  j["dtypes"] = ds;
  json ls = json::array();
  for (const auto& l : r.laws) {
    json o;
    o["dtype"] = std::string(pv::dtype_name(l.dtype));
    o["law"] = l.law;
    o["ran"] = l.ran;
    o["skipped"] = l.skipped;
    o["holds"] = l.holds;
    o["deviation"] = real(l.deviation);
    o["bound"] = real(l.bound);
    o["checked"] = l.checked;
    o["failures"] = l.failures;
    o["worst"] = l.has_worst ? index_json(l.worst) : json(nullptr);
    o["first_failure"] = l.has_first_failure ? index_json(l.first_failure) : json(nullptr);
    ls.push_back(o);
  }
  j["laws"] = ls;
  return j;
}

// ---- from JSON (merge) ----

// Thrown for a report that is not one posenc wrote; the caller names the file.
struct bad_report : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline const json& field(const json& j, std::string_view key, std::string_view where) {
  const auto it = j.find(key);
  if (it == j.end()) throw bad_report(std::string(where) + std::string(key) + " is missing");
  return *it;
}
inline std::uint64_t u64(const json& j, std::string_view key, std::string_view where = "") {
  const json& v = field(j, key, where);
  if (!v.is_number_unsigned()) throw bad_report(std::string(where) + std::string(key) + " is not an unsigned integer");
  return v.get<std::uint64_t>();
}
inline std::int64_t i64(const json& j, std::string_view key, std::string_view where) {
  const json& v = field(j, key, where);
  if (!v.is_number_integer()) throw bad_report(std::string(where) + std::string(key) + " is not an integer");
  return v.get<std::int64_t>();
}
inline bool boolean(const json& j, std::string_view key, std::string_view where = "") {
  const json& v = field(j, key, where);
  if (!v.is_boolean()) throw bad_report(std::string(where) + std::string(key) + " is not true or false");
  return v.get<bool>();
}
inline std::string str(const json& j, std::string_view key, std::string_view where = "") {
  const json& v = field(j, key, where);
  if (!v.is_string()) throw bad_report(std::string(where) + std::string(key) + " is not a string");
  return v.get<std::string>();
}
inline double real_of(const json& j, std::string_view key, std::string_view where = "") {
  const json& v = field(j, key, where);
  if (v.is_number()) return v.get<double>();
  if (v == "inf") return std::numeric_limits<double>::infinity();
  if (v == "-inf") return -std::numeric_limits<double>::infinity();
  if (v == "nan") return std::numeric_limits<double>::quiet_NaN();
  throw bad_report(std::string(where) + std::string(key) + " is not a number");
}
inline pv::ulp_sum_type u128_of(const json& j, std::string_view key, std::string_view where) {
  const std::string s = str(j, key, where);
  pv::ulp_sum_type v = 0;
  const pv::ulp_sum_type top = ~static_cast<pv::ulp_sum_type>(0) / 10;
  if (s.empty()) throw bad_report(std::string(where) + std::string(key) + " is empty");
  for (const char c : s) {
    if (c < '0' || c > '9' || v > top)
      throw bad_report(std::string(where) + std::string(key) + " is not a 128-bit count");
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  return v;
}
inline pv::table_dtype dtype_of(const json& j, std::string_view where) {
  const std::string s = str(j, "dtype", where);
  for (const auto t : {pv::table_dtype::f64, pv::table_dtype::f32, pv::table_dtype::bf16, pv::table_dtype::f16})
    if (pv::dtype_name(t) == s) return t;
  throw bad_report(std::string(where) + "dtype " + quote(s) + " is not one of f64, f32, bf16, f16");
}
inline pv::table_entry entry_of(const json& j, std::string_view where) {
  const std::string a = str(j, "array", where);
  if (a != "cos" && a != "sin") throw bad_report(std::string(where) + "array must be cos or sin");
  const std::uint64_t e = u64(j, "element", where);
  if (e > 0xFFFFFFFFu) throw bad_report(std::string(where) + "element is too large");
  return {u64(j, "position", where), static_cast<std::uint32_t>(e), a == "sin"};
}
inline posenc::laws::entry_index index_of(const json& j, std::string_view where) {
  posenc::laws::entry_index i{i64(j, "position", where), i64(j, "pair", where), i64(j, "element", where)};
  const json& p = field(j, "partner", where);
  i.partner = p.is_null() ? posenc::laws::no_partner : i64(j, "partner", where);
  return i;
}

inline pv::rope_verify_report from_json(const json& j) {
  if (!j.is_object()) throw bad_report("not a JSON object");
  if (!j.contains("posenc_verify_report")) throw bad_report("not a posenc verify report (no posenc_verify_report key)");
  if (u64(j, "posenc_verify_report") != json_version)
    throw bad_report("report format version " + field(j, "posenc_verify_report", "").dump() + ", this posenc reads " +
                     std::to_string(json_version));
  if (str(j, "scheme") != "rope") throw bad_report("scheme " + quote(str(j, "scheme")) + " is not rope");
  pv::rope_verify_report r;
  r.description = str(j, "description");
  r.start = u64(j, "start");
  r.rows = u64(j, "rows");
  r.block_rows = u64(j, "block_rows");
  r.first_block = u64(j, "first_block");
  r.end_block = u64(j, "end_block");
  r.max_ulp_allowed = u64(j, "max_ulp_allowed");
  r.seconds = real_of(j, "seconds");
  if (r.block_rows == 0 || r.first_block >= r.end_block || r.end_block > r.total_blocks())
    throw bad_report("its blocks " + std::to_string(r.first_block) + " .. " + std::to_string(r.end_block) +
                     " are not a range of the table's " + std::to_string(r.total_blocks()));
  const json& ds = field(j, "dtypes", "");
  const json& ls = field(j, "laws", "");
  if (!ds.is_array() || !ls.is_array()) throw bad_report("dtypes and laws must be arrays");
  for (std::size_t i = 0; i < ds.size(); ++i) {
    const json& o = ds[i];
    const std::string w = "dtypes[" + std::to_string(i) + "].";
    pv::dtype_findings d;
    d.dtype = dtype_of(o, w);
    d.entries = u64(o, "entries", w);
    d.not_correctly_rounded = u64(o, "not_correctly_rounded", w);
    d.beyond_tolerance = u64(o, "beyond_tolerance", w);
    d.max_ulp = real_of(o, "max_ulp", w);
    d.ulp_sum_q = u128_of(o, "ulp_sum_q", w);
    if (const json& wst = field(o, "worst", w); !wst.is_null()) {
      d.has_worst = true;
      d.worst = entry_of(wst, w + "worst.");
      d.worst_got = real_of(wst, "got", w + "worst.");
      d.worst_exact = real_of(wst, "exact", w + "worst.");
    }
    if (const json& ff = field(o, "first_failure", w); !ff.is_null()) {
      d.has_first_failure = true;
      d.first_failure = entry_of(ff, w + "first_failure.");
    }
    r.dtypes.push_back(d);
  }
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const json& o = ls[i];
    const std::string w = "laws[" + std::to_string(i) + "].";
    pv::law_findings l;
    l.dtype = dtype_of(o, w);
    l.law = str(o, "law", w);
    l.ran = boolean(o, "ran", w);
    l.skipped = str(o, "skipped", w);
    l.holds = boolean(o, "holds", w);
    l.deviation = real_of(o, "deviation", w);
    l.bound = real_of(o, "bound", w);
    l.checked = u64(o, "checked", w);
    l.failures = u64(o, "failures", w);
    if (const json& wst = field(o, "worst", w); !wst.is_null()) {
      l.has_worst = true;
      l.worst = index_of(wst, w + "worst.");
    }
    if (const json& ff = field(o, "first_failure", w); !ff.is_null()) {
      l.has_first_failure = true;
      l.first_failure = index_of(ff, w + "first_failure.");
    }
    r.laws.push_back(l);
  }
  return r;
}

}  // namespace posenc::cli::verify_format
