// t5.cpp: T5's relative-position buckets in posenc._core, from the scheme's run-time generator
// (what `posenc emit t5-bucket` calls), with the scheme's validate message as the ValueError of a
// broken config.
//
//   t5_buckets              t5::fill_buckets                      int32 [2 range + 1]
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <posenc/io/t5_hf_config.hpp>
#include <posenc/t5.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "config_fields.hpp"

namespace posenc::python {
namespace {

py::array_t<std::int32_t> t5_buckets(const std::string& json_text, std::optional<int> num_buckets,
                                     std::optional<std::int64_t> max_distance, std::optional<bool> bidirectional,
                                     std::int64_t range) {
  const std::string ctx = "t5_buckets";
  t5::config c{};
  if (!json_text.empty()) {
    auto r = io::t5_from_hf_config(json_text);
    if (!r) fail(ctx + ": " + r.error());
    c = r.value();
  } else if (!num_buckets || !max_distance) {
    fail(ctx + ": num_buckets and max_distance are required (or a config.json)");
  }
  if (num_buckets) c.relative_attention_num_buckets = *num_buckets;
  if (max_distance) c.relative_attention_max_distance = *max_distance;
  if (bidirectional) c.bidirectional = *bidirectional;
  const t5::checked_config cc{c};
  if (!cc.ok()) fail(ctx + ": invalid T5 config: " + cc.check().message);
  constexpr std::int64_t most = std::int64_t{1} << 30;
  if (range < 0 || range > most) fail(ctx + ": range must be in [0, 2^30]");
  const std::size_t rows = 2 * static_cast<std::size_t>(range) + 1;
  py::array_t<std::int32_t> out(static_cast<py::ssize_t>(rows));
  std::vector<int> b(rows);
  fill_unlocked(ctx, [&] { return t5::fill_buckets(cc, -range, std::span<int>(b)); });
  std::int32_t* o = out.mutable_data();
  for (std::size_t i = 0; i < rows; ++i) o[i] = static_cast<std::int32_t>(b[i]);  // buckets < 4096
  return out;
}

void bind_t5(py::module_& m) {
  publish_config_fields(m, "t5", t5::config_fields);
  m.def("t5_buckets", &t5_buckets, py::arg("json_text"), py::arg("num_buckets"), py::arg("max_distance"),
        py::arg("bidirectional"), py::arg("range"));
}

}  // namespace

const scheme_binding t5_binding{"t5", &bind_t5};

}  // namespace posenc::python
