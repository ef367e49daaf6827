// verify.cpp: posenc._core.verify_rope, the binding of posenc::verify::verify_rope
// (verify/rope_verify.hpp): a RoPE cos/sin table someone else built, every entry against the MPFR
// oracle and every law of the registry, on all cores, without the GIL. The report comes back as a
// dict with the keys of `posenc verify rope --json` (tools/cli/verify_report_format.hpp), reals as
// Python floats (inf and nan included) and the exact ULP sum as a Python int.
//
// Compiled only when the verify layer is available (target posenc::verify: Boost, MPFR); module.cpp
// then binds it.
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include <posenc/rope/frequencies.hpp>
#include <posenc/verify/rope_verify.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "rope_config.hpp"

namespace posenc::python {
namespace {

namespace pv = posenc::verify;

std::string u128_text(pv::ulp_sum_type v) {
  if (v == 0) return "0";
  std::string s;
  while (v != 0) {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  }
  return s;
}

py::dict entry_dict(const pv::table_entry& e) {
  py::dict d;
  d["position"] = e.position;
  d["element"] = e.element;
  d["array"] = e.is_sin ? "sin" : "cos";
  return d;
}

py::dict index_dict(const posenc::laws::entry_index& i) {
  py::dict d;
  d["position"] = i.position;
  d["pair"] = i.pair;
  d["element"] = i.element;
  d["partner"] = i.partner == posenc::laws::no_partner ? py::object(py::none()) : py::object(py::int_(i.partner));
  return d;
}

py::dict dtype_dict(const pv::dtype_findings& f) {
  py::dict o;
  o["dtype"] = std::string(pv::dtype_name(f.dtype));
  o["passed"] = f.passed();
  o["entries"] = f.entries;
  o["not_correctly_rounded"] = f.not_correctly_rounded;
  o["beyond_tolerance"] = f.beyond_tolerance;
  o["max_ulp"] = f.max_ulp;
  o["mean_ulp"] = f.mean_ulp();
  o["ulp_sum_q"] = py::int_(py::str(u128_text(f.ulp_sum_q)));
  if (f.has_worst) {
    py::dict w = entry_dict(f.worst);
    w["got"] = f.worst_got;
    w["exact"] = f.worst_exact;
    o["worst"] = w;
  } else {
    o["worst"] = py::none();
  }
  o["first_failure"] = f.has_first_failure ? py::object(entry_dict(f.first_failure)) : py::object(py::none());
  return o;
}

py::dict law_dict(const pv::law_findings& l) {
  py::dict o;
  o["dtype"] = std::string(pv::dtype_name(l.dtype));
  o["law"] = l.law;
  o["ran"] = l.ran;
  o["skipped"] = l.skipped;
  o["holds"] = l.holds;
  o["deviation"] = l.deviation;
  o["bound"] = l.bound;
  o["checked"] = l.checked;
  o["failures"] = l.failures;
  o["worst"] = l.has_worst ? py::object(index_dict(l.worst)) : py::object(py::none());
  o["first_failure"] = l.has_first_failure ? py::object(index_dict(l.first_failure)) : py::object(py::none());
  return o;
}

py::dict report_dict(const pv::rope_verify_report& r) {
  py::dict j;
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
  j["seconds"] = r.seconds;
  py::list ds, ls;
  for (const auto& d : r.dtypes) ds.append(dtype_dict(d));
  for (const auto& l : r.laws) ls.append(law_dict(l));
  j["dtypes"] = ds;
  j["laws"] = ls;
  return j;
}

// cos and sin: C-contiguous [rows, rotary_dim] arrays of one dtype (bfloat16 as uint16 bits).
py::dict verify_rope(const std::string& json_text, const py::dict& overrides, const py::array& cos,
                     const py::array& sin, const std::string& dtype_s, std::uint64_t start, const std::string& layout_s,
                     bool fold, std::uint64_t max_ulp, unsigned threads, std::uint64_t shard_index,
                     std::uint64_t shard_count) {
  const std::string ctx = "verify";
  const io::rope_settings s = read_rope_config(json_text, overrides, ctx);
  const rope::config c = s.config();
  const auto d = static_cast<py::ssize_t>(rope::rotary_dim(c));
  for (const py::array* a : {&cos, &sin})
    if (a->ndim() != 2 || a->shape(1) != d)
      fail(ctx + ": cos and sin must have shape [rows, " + std::to_string(d) + "] (rotary_dim of the config), got " +
           (a->ndim() == 2 ? "[" + std::to_string(a->shape(0)) + ", " + std::to_string(a->shape(1)) + "]"
                           : std::to_string(a->ndim()) + " dimensions"));
  if (cos.shape(0) != sin.shape(0)) fail(ctx + ": cos and sin have different numbers of rows");
  if (layout_s != "half_split" && layout_s != "interleaved")
    fail(ctx + ": unknown layout '" + layout_s + "' (expected 'half_split' or 'interleaved')");
  pv::rope_verify_request q;
  q.config = c;
  q.start = start;
  q.rows = static_cast<std::uint64_t>(cos.shape(0));
  q.layout = layout_s == "interleaved" ? rope::layout::interleaved : rope::layout::half_split;
  q.fold_attention = fold;
  q.max_ulp = max_ulp;
  q.threads = threads;
  q.shard = {shard_index, shard_count};
  q.description = "rope table of " + std::to_string(q.rows) + " positions from " + std::to_string(start) +
                  ", rotary_dim " + std::to_string(d) + ", layout " + layout_s +
                  (fold ? ", attention factor folded" : "") + " (python posenc.verify)";
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    for (const py::array* a : {&cos, &sin})
      if (a->itemsize() != static_cast<py::ssize_t>(sizeof(T)) || (a->flags() & py::array::c_style) == 0)
        fail(ctx + ": cos and sin must be C-contiguous arrays of " + std::string(dtype_name<T>()));
    const auto n = static_cast<std::size_t>(cos.size());
    const T* cp = static_cast<const T*>(cos.data());
    const T* sp = static_cast<const T*>(sin.data());
    const pv::table_input in[] = {pv::given_table<T>(std::span<const T>(cp, n), std::span<const T>(sp, n))};
    pv::rope_verify_report rep;
    try {
      py::gil_scoped_release unlocked;
      rep = pv::verify_rope(q, in);
    } catch (const std::invalid_argument& e) {
      fail(ctx + ": " + e.what());
    }
    return report_dict(rep);
  });
}

}  // namespace

void bind_verify(py::module_& m) {
  m.def("verify_rope", &verify_rope, py::arg("json_text"), py::arg("overrides"), py::arg("cos"), py::arg("sin"),
        py::arg("dtype"), py::arg("start"), py::arg("layout"), py::arg("fold_attention"), py::arg("max_ulp"),
        py::arg("threads"), py::arg("shard_index"), py::arg("shard_count"),
        "The MPFR report of a RoPE table, as a dict (low level: use posenc.verify).");
}

}  // namespace posenc::python
