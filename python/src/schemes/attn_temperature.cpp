// attn_temperature.cpp: Llama-4's attention temperature in posenc._core, from the scheme's run-time
// generator (what `posenc emit attn-temperature` calls), with the scheme's validate message as the
// ValueError of a broken config.
//
//   attn_temperature_scales      attn_temperature::fill_scales          [positions]
#include <cstdint>
#include <span>
#include <string>

#include <posenc/attn_temperature.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "config_fields.hpp"

namespace posenc::python {
namespace {

py::array attn_temperature_scales(std::int64_t floor_scale, double attn_scale, std::uint64_t positions,
                                  std::int64_t start, const std::string& dtype_s) {
  const std::string ctx = "attn_temperature_scales";
  const attn_temperature::checked_config cc{
      attn_temperature::config{.floor_scale = floor_scale, .attn_scale = attn_scale}};
  if (!cc.ok()) fail(ctx + ": invalid attention-temperature config: " + cc.check().message);
  if (positions == 0) fail(ctx + ": positions must be at least 1");
  constexpr std::int64_t most = attn_temperature::max_position;
  if (start < 0 || start > most || positions - 1 > static_cast<std::uint64_t>(most - start))
    fail(ctx + ": positions outside [0, 2^52]");
  table_size(positions, 1, ctx);
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    py::array out = new_array<T>({static_cast<py::ssize_t>(positions)});
    const std::span<T> s = elements<T>(out);
    fill_unlocked(ctx, [&] { return attn_temperature::fill_scales<T>(cc, start, s); });
    return out;
  });
}

void bind_attn_temperature(py::module_& m) {
  publish_config_fields(m, "attn_temperature", attn_temperature::config_fields);
  m.def("attn_temperature_scales", &attn_temperature_scales, py::arg("floor_scale"), py::arg("attn_scale"),
        py::arg("positions"), py::arg("start"), py::arg("dtype"));
}

}  // namespace

const scheme_binding attn_temperature_binding{"attn_temperature", &bind_attn_temperature};

}  // namespace posenc::python
