// verify.cpp: posenc._core.verify_rope, the binding of posenc::verify::verify_rope
// (verify/rope_verify.hpp): a RoPE cos/sin table someone else built, every entry against the MPFR
// oracle and every law of the registry, on all cores, without the GIL. The report comes back as a
// dict with the keys of `posenc verify rope --json` (io/verify_report_json.hpp, one definition for
// both), reals as Python floats (inf and nan included) and the exact ULP sum as a Python int.
//
// Compiled only when the verify layer is available (target posenc::verify: Boost, MPFR); module.cpp
// then binds it.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>

#include <posenc/io/verify_report_json.hpp>
#include <posenc/rope/frequencies.hpp>
#include <posenc/verify/rope_verify.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "rope_config.hpp"

namespace posenc::python {
namespace {

namespace pv = posenc::verify;

// The report as the dict of its JSON form (posenc::io::verify_report_to_json, the keys of `posenc
// verify rope --json`), with the reals JSON writes as strings ("inf", "nan") as Python floats and
// the exact ULP sum as a Python int.
py::dict report_dict(const pv::verify_report& r) {
  const py::module_ builtins = py::module_::import("builtins");
  const py::object to_float = builtins.attr("float"), to_int = builtins.attr("int");
  py::dict j = py::module_::import("json").attr("loads")(io::verify_report_to_json(r).dump());
  const auto reals = [&](py::handle o, std::initializer_list<const char*> keys) {
    py::dict d = py::reinterpret_borrow<py::dict>(o);
    for (const char* k : keys)
      if (d.contains(k) && py::isinstance<py::str>(d[k])) d[k] = to_float(d[k]);
  };
  reals(j, {"seconds"});
  for (const py::handle d : j["dtypes"]) {
    reals(d, {"max_ulp", "mean_ulp"});
    py::dict dd = py::reinterpret_borrow<py::dict>(d);
    dd["ulp_sum_q"] = to_int(dd["ulp_sum_q"]);
    if (!dd["worst"].is_none()) reals(dd["worst"], {"got", "exact"});
  }
  for (const py::handle l : j["laws"]) reals(l, {"deviation", "bound"});
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
  if (layout_s != "half_split" && layout_s != "interleaved" && layout_s != "model")
    fail(ctx + ": unknown layout '" + layout_s + "' (expected 'half_split' or 'interleaved')");
  // "model": the config's own element order (interleaved for Llama-4, Cohere, GLM).
  const bool interleaved = layout_s == "interleaved" || (layout_s == "model" && s.layout == rope::layout::interleaved);
  pv::rope_verify_request q;
  q.config = c;
  q.start = start;
  q.rows = static_cast<std::uint64_t>(cos.shape(0));
  if (q.rows > 0) warn_past_max_position(c.max_position_embeddings, q.start + (q.rows - 1), ctx);
  q.layout = interleaved ? rope::layout::interleaved : rope::layout::half_split;
  q.fold_attention = fold;
  q.max_ulp = max_ulp;
  q.threads = threads;
  q.shard = {shard_index, shard_count};
  q.description = "rope table of " + std::to_string(q.rows) + " positions from " + std::to_string(start) +
                  ", rotary_dim " + std::to_string(d) + ", layout " +
                  (interleaved ? std::string("interleaved") : std::string("half_split")) +
                  (fold ? ", attention factor folded" : "") + " (python posenc.verify)";
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    for (const py::array* a : {&cos, &sin})
      if (a->itemsize() != static_cast<py::ssize_t>(sizeof(T)) || (a->flags() & py::array::c_style) == 0)
        fail(ctx + ": cos and sin must be C-contiguous arrays of " + std::string(dtype_name<T>()));
    const auto n = static_cast<std::size_t>(cos.size());
    const T* cp = static_cast<const T*>(cos.data());
    const T* sp = static_cast<const T*>(sin.data());
    const pv::table_input in[] = {pv::given_table<T>(std::span<const T>(cp, n), std::span<const T>(sp, n))};
    pv::verify_report rep;
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
