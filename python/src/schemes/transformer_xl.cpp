// transformer_xl.cpp: Transformer-XL's and XLNet's relative sinusoid table in posenc._core, from
// the scheme's run-time generator (what `posenc emit transformer-xl` calls), with the scheme's
// validate message as the ValueError of a broken config.
//
//   transformer_xl_table      transformer_xl::fill_table          [rows, d_model]
//   transformer_xl_positions  transformer_xl::position            int64 [rows]
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <posenc/transformer_xl.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "config_fields.hpp"

namespace posenc::python {
namespace {

transformer_xl::checked_config txl_config(int d_model, std::int64_t klen, std::int64_t qlen, std::int64_t clamp_len,
                                          const std::string& model, const std::string& attn, bool bi_data,
                                          const std::string& ctx) {
  transformer_xl::config c{.d_model = d_model, .klen = klen, .qlen = qlen, .clamp_len = clamp_len, .bi_data = bi_data};
  if (model == "xlnet")
    c.model = transformer_xl::model::xlnet;
  else if (model != "transformer_xl")
    fail(ctx + ": unknown model '" + model + "' (expected 'transformer-xl' or 'xlnet')");
  if (attn == "uni")
    c.attn_type = transformer_xl::attention::uni;
  else if (attn != "bi")
    fail(ctx + ": unknown attn_type '" + attn + "' (expected 'bi' or 'uni')");
  const transformer_xl::checked_config cc{c};
  if (!cc.ok()) fail(ctx + ": invalid Transformer-XL config: " + cc.check().message);
  return cc;
}

py::array transformer_xl_table(int d_model, std::int64_t klen, std::int64_t qlen, std::int64_t clamp_len,
                               const std::string& model, const std::string& attn, bool bi_data,
                               const std::string& dtype_s) {
  const std::string ctx = "transformer_xl_table";
  const transformer_xl::checked_config cc = txl_config(d_model, klen, qlen, clamp_len, model, attn, bi_data, ctx);
  const auto rows = static_cast<std::uint64_t>(transformer_xl::rows(cc.get()));
  table_size(rows, static_cast<std::uint64_t>(d_model), ctx);
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    py::array out = new_array<T>({static_cast<py::ssize_t>(rows), d_model});
    const std::span<T> s = elements<T>(out);
    fill_unlocked(ctx, [&] { return transformer_xl::fill_table<T>(cc, s); });
    return out;
  });
}

// The relative position of each row of transformer_xl_table (d_model does not matter: 2 passes).
py::array_t<std::int64_t> transformer_xl_positions(std::int64_t klen, std::int64_t qlen, std::int64_t clamp_len,
                                                   const std::string& model, const std::string& attn, bool bi_data) {
  const std::string ctx = "transformer_xl_positions";
  const transformer_xl::checked_config cc = txl_config(2, klen, qlen, clamp_len, model, attn, bi_data, ctx);
  const auto rows = static_cast<std::uint64_t>(transformer_xl::rows(cc.get()));
  table_size(rows, 1, ctx);
  py::array_t<std::int64_t> out(static_cast<py::ssize_t>(rows));
  const std::span<std::int64_t> o(out.mutable_data(), static_cast<std::size_t>(rows));
  fill_unlocked(ctx, [&] {
    for (std::size_t r = 0; r < o.size(); ++r) {
      const posenc::result<std::int64_t> p = transformer_xl::position(cc, static_cast<std::int64_t>(r));
      if (!p.ok()) return p.error;
      o[r] = p.value;
    }
    return posenc::status::ok;
  });
  return out;
}

void bind_transformer_xl(py::module_& m) {
  publish_config_fields(m, "transformer_xl", transformer_xl::config_fields);
  m.def("transformer_xl_table", &transformer_xl_table, py::arg("d_model"), py::arg("klen"), py::arg("qlen"),
        py::arg("clamp_len"), py::arg("model"), py::arg("attn_type"), py::arg("bi_data"), py::arg("dtype"));
  m.def("transformer_xl_positions", &transformer_xl_positions, py::arg("klen"), py::arg("qlen"), py::arg("clamp_len"),
        py::arg("model"), py::arg("attn_type"), py::arg("bi_data"));
}

}  // namespace

const scheme_binding transformer_xl_binding{"transformer_xl", &bind_transformer_xl};

}  // namespace posenc::python
