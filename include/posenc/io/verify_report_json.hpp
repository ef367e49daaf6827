// verify_report_json.hpp: a verification report of any table (posenc/verify/report.hpp) as JSON
// and back: what `posenc verify <table> --json` prints, what `posenc verify merge` reads, and the
// dict the Python module's posenc.verify returns. One definition of the keys for all three
// (docs/verify.md lists them). An entry is written as the report names it: RoPE's
// {"position", "element", "array"}, any other table's {"index", "at"} (its index in row order and
// the scheme's words for it); an integer-valued table has "integers" instead of "dtypes".
//
//   const std::string text = posenc::io::verify_report_to_json(report).dump(1);
//   auto r = posenc::io::verify_report_from_json(text);   // parse_result<verify_report>
//   if (!r) std::cerr << r.error() << '\n';                // "not valid JSON: ...", "dtypes[0].entries is missing"
//
// Every field of the report is kept, so that merging the JSON reports of a table's shards gives the
// report of one run over the whole table. Reals are JSON numbers (nlohmann-json writes the shortest
// decimal that reads back to the same double) except a non-finite one, written as the string
// "inf", "-inf" or "nan"; ulp_sum_q, a 128-bit integer, is a decimal string.
// Needs nlohmann-json (posenc::io); the report type itself is standard library only.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "posenc/io/parse_result.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/verify/report.hpp"

namespace posenc::io {

// The version of the report's JSON form ("posenc_verify_report").
inline constexpr int verify_report_json_version = 2;

}  // namespace posenc::io

namespace posenc::io::detail::vrj {

using ojson = nlohmann::ordered_json;
using posenc::verify::ulp_sum_type;
namespace verify = posenc::verify;

inline constexpr int json_version = posenc::io::verify_report_json_version;

inline std::string quoted(const std::string& s) { return "'" + s + "'"; }

inline ojson real(double x) {
  if (std::isfinite(x)) return x;
  return x != x ? "nan" : (x < 0 ? "-inf" : "inf");
}

inline std::string u128(ulp_sum_type v) {
  if (v == 0) return "0";
  std::string s;
  while (v != 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  return s;
}

inline ojson entry_json(const verify::table_entry& e) {
  return {{"position", e.position}, {"element", e.element}, {"array", e.is_sin ? "sin" : "cos"}};
}
inline ojson index_json(const posenc::laws::entry_index& i) {
  ojson j = {{"position", i.position}, {"pair", i.pair}, {"element", i.element}};
  j["partner"] = i.partner == posenc::laws::no_partner ? ojson(nullptr) : ojson(i.partner);
  return j;
}

inline ojson located(std::uint64_t index, const std::string& at) { return {{"index", index}, {"at", at}}; }

// One dtype's findings, its entries named as the report names them.
inline ojson dtype_json(const verify::dtype_findings& d, verify::entry_naming naming) {
  const bool cos_sin = naming == verify::entry_naming::cos_sin;
  ojson o;
  o["dtype"] = std::string(verify::dtype_name(d.dtype));
  o["entries"] = d.entries;
  o["not_correctly_rounded"] = d.not_correctly_rounded;
  o["beyond_tolerance"] = d.beyond_tolerance;
  o["passed"] = d.passed();
  o["max_ulp"] = real(d.max_ulp);
  o["mean_ulp"] = real(d.mean_ulp());
  o["ulp_sum_q"] = u128(d.ulp_sum_q);
  if (verify::is_fixed_point(d.dtype)) o["saturated"] = d.saturated;  // q15/q31 only: the float reports as before
  if (d.has_worst) {
    o["worst"] = cos_sin ? entry_json(d.worst) : located(d.worst.position, d.worst_at);
    o["worst"]["got"] = real(d.worst_got);
    o["worst"]["exact"] = real(d.worst_exact);
  } else {
    o["worst"] = nullptr;
  }
  o["first_failure"] = !d.has_first_failure ? ojson(nullptr)
                       : cos_sin            ? entry_json(d.first_failure)
                                            : located(d.first_failure.position, d.first_failure_at);
  return o;
}

inline ojson integers_json(const verify::integer_findings& f) {
  ojson o{{"entries", f.entries}, {"wrong", f.wrong}, {"max_error", f.max_error}, {"passed", f.passed()}};
  o["worst"] = ojson(nullptr);
  if (f.has_worst) {
    o["worst"] = located(f.worst, f.worst_at);
    o["worst"]["got"] = f.worst_got;
    o["worst"]["exact"] = f.worst_exact;
  }
  o["first_failure"] = f.has_first_failure ? located(f.first_failure, f.first_failure_at) : ojson(nullptr);
  return o;
}

// One law's findings on one dtype's table.
inline ojson law_json(const verify::law_findings& l) {
  ojson o;
  o["dtype"] = std::string(verify::dtype_name(l.dtype));
  o["law"] = l.law;
  o["ran"] = l.ran;
  o["skipped"] = l.skipped;
  o["holds"] = l.holds;
  o["deviation"] = real(l.deviation);
  o["bound"] = real(l.bound);
  o["checked"] = l.checked;
  o["failures"] = l.failures;
  o["worst"] = l.has_worst ? index_json(l.worst) : ojson(nullptr);
  o["first_failure"] = l.has_first_failure ? index_json(l.first_failure) : ojson(nullptr);
  return o;
}

inline ojson report_json(const verify::verify_report& r) {
  ojson j;
  j["posenc_verify_report"] = json_version;
  j["scheme"] = r.scheme;
  j["passed"] = r.passed();
  j["description"] = r.description;
  j["keys"] = r.keys;
  j["shape"] = r.shape;
  j["entries_named"] = r.naming == verify::entry_naming::cos_sin ? "cos_sin" : "indexed";
  j["integer_valued"] = r.integer_valued;
  j["start"] = r.start;
  j["rows"] = r.rows;
  j["block_rows"] = r.block_rows;
  j["first_block"] = r.first_block;
  j["end_block"] = r.end_block;
  j["total_blocks"] = r.total_blocks();
  j["max_ulp_allowed"] = r.max_ulp_allowed;
  j["seconds"] = real(r.seconds);
  if (r.integer_valued) {
    j["integers"] = integers_json(r.integers);
  } else {
    ojson ds = ojson::array();
    for (const auto& d : r.dtypes) ds.push_back(dtype_json(d, r.naming));
    j["dtypes"] = ds;
  }
  ojson ls = ojson::array();
  for (const auto& l : r.laws) {
    ojson o = law_json(l);
    if (r.integer_valued) o["dtype"] = "i32";  // the bucket laws read the integers
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

inline const ojson& field(const ojson& j, std::string_view key, std::string_view where) {
  const auto it = j.find(key);
  if (it == j.end()) throw bad_report(std::string(where) + std::string(key) + " is missing");
  return *it;
}
inline std::uint64_t u64(const ojson& j, std::string_view key, std::string_view where = "") {
  const ojson& v = field(j, key, where);
  if (!v.is_number_unsigned()) throw bad_report(std::string(where) + std::string(key) + " is not an unsigned integer");
  return v.get<std::uint64_t>();
}
inline std::int64_t i64(const ojson& j, std::string_view key, std::string_view where) {
  const ojson& v = field(j, key, where);
  if (!v.is_number_integer()) throw bad_report(std::string(where) + std::string(key) + " is not an integer");
  return v.get<std::int64_t>();
}
inline bool boolean(const ojson& j, std::string_view key, std::string_view where = "") {
  const ojson& v = field(j, key, where);
  if (!v.is_boolean()) throw bad_report(std::string(where) + std::string(key) + " is not true or false");
  return v.get<bool>();
}
inline std::string str(const ojson& j, std::string_view key, std::string_view where = "") {
  const ojson& v = field(j, key, where);
  if (!v.is_string()) throw bad_report(std::string(where) + std::string(key) + " is not a string");
  return v.get<std::string>();
}
inline double real_of(const ojson& j, std::string_view key, std::string_view where = "") {
  const ojson& v = field(j, key, where);
  if (v.is_number()) return v.get<double>();
  if (v == "inf") return std::numeric_limits<double>::infinity();
  if (v == "-inf") return -std::numeric_limits<double>::infinity();
  if (v == "nan") return std::numeric_limits<double>::quiet_NaN();
  throw bad_report(std::string(where) + std::string(key) + " is not a number");
}
inline ulp_sum_type u128_of(const ojson& j, std::string_view key, std::string_view where) {
  const std::string s = str(j, key, where);
  ulp_sum_type v = 0;
  const ulp_sum_type top = ~static_cast<ulp_sum_type>(0) / 10;
  if (s.empty()) throw bad_report(std::string(where) + std::string(key) + " is empty");
  for (const char c : s) {
    if (c < '0' || c > '9' || v > top)
      throw bad_report(std::string(where) + std::string(key) + " is not a 128-bit count");
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  return v;
}
inline verify::table_dtype dtype_of(const ojson& j, std::string_view where, bool integer_valued = false) {
  const std::string s = str(j, "dtype", where);
  if (integer_valued && s == "i32") return verify::table_dtype::f64;  // the laws of an integer table
  for (const auto t : {verify::table_dtype::f64, verify::table_dtype::f32, verify::table_dtype::bf16,
                       verify::table_dtype::f16, verify::table_dtype::q15, verify::table_dtype::q31})
    if (verify::dtype_name(t) == s) return t;
  throw bad_report(std::string(where) + "dtype " + quoted(s) + " is not one of f64, f32, bf16, f16, q15, q31");
}
inline verify::table_entry entry_of(const ojson& j, std::string_view where) {
  const std::string a = str(j, "array", where);
  if (a != "cos" && a != "sin") throw bad_report(std::string(where) + "array must be cos or sin");
  const std::uint64_t e = u64(j, "element", where);
  if (e > 0xFFFFFFFFu) throw bad_report(std::string(where) + "element is too large");
  return {u64(j, "position", where), static_cast<std::uint32_t>(e), a == "sin"};
}
// An entry of an indexed table: its index into position, its name into at.
inline std::uint64_t located_of(const ojson& j, std::string_view where, std::string& at) {
  at = str(j, "at", where);
  return u64(j, "index", where);
}
inline std::vector<std::string> strings_of(const ojson& j, std::string_view key) {
  const ojson& v = field(j, key, "");
  if (!v.is_array()) throw bad_report(std::string(key) + " is not an array");
  std::vector<std::string> out;
  for (const ojson& x : v) {
    if (!x.is_string()) throw bad_report(std::string(key) + " holds a value that is not a string");
    out.push_back(x.get<std::string>());
  }
  return out;
}
inline std::vector<std::uint64_t> extents_of(const ojson& j, std::string_view key) {
  const ojson& v = field(j, key, "");
  if (!v.is_array()) throw bad_report(std::string(key) + " is not an array");
  std::vector<std::uint64_t> out;
  for (const ojson& x : v) {
    if (!x.is_number_unsigned()) throw bad_report(std::string(key) + " holds a value that is not an unsigned integer");
    out.push_back(x.get<std::uint64_t>());
  }
  return out;
}

inline posenc::laws::entry_index index_of(const ojson& j, std::string_view where) {
  posenc::laws::entry_index i{i64(j, "position", where), i64(j, "pair", where), i64(j, "element", where)};
  const ojson& p = field(j, "partner", where);
  i.partner = p.is_null() ? posenc::laws::no_partner : i64(j, "partner", where);
  return i;
}

inline verify::verify_report report_of(const ojson& j) {
  if (!j.is_object()) throw bad_report("not a JSON object");
  if (!j.contains("posenc_verify_report")) throw bad_report("not a posenc verify report (no posenc_verify_report key)");
  if (u64(j, "posenc_verify_report") != json_version)
    throw bad_report("report format version " + field(j, "posenc_verify_report", "").dump() + ", this posenc reads " +
                     std::to_string(json_version));
  verify::verify_report r;
  r.scheme = str(j, "scheme");
  r.description = str(j, "description");
  r.keys = strings_of(j, "keys");
  r.shape = extents_of(j, "shape");
  const std::string naming = str(j, "entries_named");
  if (naming != "cos_sin" && naming != "indexed") throw bad_report("entries_named must be cos_sin or indexed");
  r.naming = naming == "cos_sin" ? verify::entry_naming::cos_sin : verify::entry_naming::indexed;
  const bool cos_sin = r.naming == verify::entry_naming::cos_sin;
  r.integer_valued = boolean(j, "integer_valued");
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
  const ojson& ls = field(j, "laws", "");
  if (r.integer_valued) {
    const ojson& o = field(j, "integers", "");
    const std::string w = "integers.";
    verify::integer_findings& f = r.integers;
    f.entries = u64(o, "entries", w);
    f.wrong = u64(o, "wrong", w);
    f.max_error = u64(o, "max_error", w);
    if (const ojson& wst = field(o, "worst", w); !wst.is_null()) {
      f.has_worst = true;
      f.worst = located_of(wst, w + "worst.", f.worst_at);
      f.worst_got = i64(wst, "got", w + "worst.");
      f.worst_exact = i64(wst, "exact", w + "worst.");
    }
    if (const ojson& ff = field(o, "first_failure", w); !ff.is_null()) {
      f.has_first_failure = true;
      f.first_failure = located_of(ff, w + "first_failure.", f.first_failure_at);
    }
  }
  const ojson no_dtypes = ojson::array();
  const ojson& ds = r.integer_valued ? no_dtypes : field(j, "dtypes", "");
  if (!ds.is_array() || !ls.is_array()) throw bad_report("dtypes and laws must be arrays");
  for (std::size_t i = 0; i < ds.size(); ++i) {
    const ojson& o = ds[i];
    const std::string w = "dtypes[" + std::to_string(i) + "].";
    verify::dtype_findings d;
    d.dtype = dtype_of(o, w);
    d.entries = u64(o, "entries", w);
    d.not_correctly_rounded = u64(o, "not_correctly_rounded", w);
    d.beyond_tolerance = u64(o, "beyond_tolerance", w);
    d.max_ulp = real_of(o, "max_ulp", w);
    d.ulp_sum_q = u128_of(o, "ulp_sum_q", w);
    if (verify::is_fixed_point(d.dtype)) d.saturated = u64(o, "saturated", w);
    if (const ojson& wst = field(o, "worst", w); !wst.is_null()) {
      d.has_worst = true;
      if (cos_sin)
        d.worst = entry_of(wst, w + "worst.");
      else
        d.worst.position = located_of(wst, w + "worst.", d.worst_at);
      d.worst_got = real_of(wst, "got", w + "worst.");
      d.worst_exact = real_of(wst, "exact", w + "worst.");
    }
    if (const ojson& ff = field(o, "first_failure", w); !ff.is_null()) {
      d.has_first_failure = true;
      if (cos_sin)
        d.first_failure = entry_of(ff, w + "first_failure.");
      else
        d.first_failure.position = located_of(ff, w + "first_failure.", d.first_failure_at);
    }
    r.dtypes.push_back(d);
  }
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const ojson& o = ls[i];
    const std::string w = "laws[" + std::to_string(i) + "].";
    verify::law_findings l;
    l.dtype = dtype_of(o, w, r.integer_valued);
    l.law = str(o, "law", w);
    l.ran = boolean(o, "ran", w);
    l.skipped = str(o, "skipped", w);
    l.holds = boolean(o, "holds", w);
    l.deviation = real_of(o, "deviation", w);
    l.bound = real_of(o, "bound", w);
    l.checked = u64(o, "checked", w);
    l.failures = u64(o, "failures", w);
    if (const ojson& wst = field(o, "worst", w); !wst.is_null()) {
      l.has_worst = true;
      l.worst = index_of(wst, w + "worst.");
    }
    if (const ojson& ff = field(o, "first_failure", w); !ff.is_null()) {
      l.has_first_failure = true;
      l.first_failure = index_of(ff, w + "first_failure.");
    }
    r.laws.push_back(l);
  }
  return r;
}

}  // namespace posenc::io::detail::vrj

namespace posenc::io {

// The report as a JSON object (nlohmann::ordered_json: the keys in the order docs/verify.md lists).
inline nlohmann::ordered_json verify_report_to_json(const verify::verify_report& r) {
  return detail::vrj::report_json(r);
}

// A report from the JSON text verify_report_to_json wrote; one line naming the problem otherwise.
inline parse_result<verify::verify_report> verify_report_from_json(std::string_view text) noexcept {
  using result = parse_result<verify::verify_report>;
  try {
    return detail::vrj::report_of(detail::vrj::ojson::parse(text));
  } catch (const detail::vrj::ojson::exception& e) {
    return result::failure(std::string("not valid JSON: ") + e.what());
  } catch (const detail::vrj::bad_report& e) {
    return result::failure(e.what());
  } catch (const std::exception& e) {
    return result::failure(e.what());
  }
}

}  // namespace posenc::io
