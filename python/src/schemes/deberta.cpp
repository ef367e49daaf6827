// deberta.cpp: DeBERTa's relative-position buckets in posenc._core, from the scheme's run-time
// generator (what `posenc emit deberta-bucket` calls), with the scheme's validate message as the
// ValueError of a broken config.
//
//   deberta_buckets         deberta::fill_buckets                 int64 [2 range + 1]
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <posenc/deberta.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "config_fields.hpp"

namespace posenc::python {
namespace {

py::array_t<std::int64_t> deberta_buckets(int position_buckets, std::int64_t max_relative_positions,
                                          std::int64_t range) {
  const std::string ctx = "deberta_buckets";
  const deberta::checked_config cc{
      deberta::config{.position_buckets = position_buckets, .max_relative_positions = max_relative_positions}};
  if (!cc.ok()) fail(ctx + ": invalid DeBERTa config: " + cc.check().message);
  constexpr std::int64_t most = std::int64_t{1} << 30;
  if (range < 0 || range > most) fail(ctx + ": range must be in [0, 2^30]");
  const std::size_t rows = 2 * static_cast<std::size_t>(range) + 1;
  py::array_t<std::int64_t> out(static_cast<py::ssize_t>(rows));
  const std::span<std::int64_t> o(out.mutable_data(), rows);
  fill_unlocked(ctx, [&] { return deberta::fill_buckets(cc, -range, o); });
  return out;
}

void bind_deberta(py::module_& m) {
  publish_config_fields(m, "deberta", deberta::config_fields);
  m.def("deberta_buckets", &deberta_buckets, py::arg("position_buckets"), py::arg("max_relative_positions"),
        py::arg("range"));
}

}  // namespace

const scheme_binding deberta_binding{"deberta", &bind_deberta};

}  // namespace posenc::python
