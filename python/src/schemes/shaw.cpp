// shaw.cpp: Shaw et al.'s clipped relative-position indices in posenc._core, from the scheme's
// run-time generator (what `posenc emit shaw` calls), with the scheme's validate message as the
// ValueError of a broken config.
//
//   shaw_relative_indices   shaw::fill_index_table                int32 [positions, positions]
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>

#include <posenc/shaw.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "config_fields.hpp"

namespace posenc::python {
namespace {

py::array_t<std::int32_t> shaw_relative_indices(int max_relative_position, std::uint64_t positions) {
  const std::string ctx = "shaw_relative_indices";
  const shaw::checked_config cc{shaw::config{.max_relative_position = max_relative_position}};
  if (!cc.ok()) fail(ctx + ": invalid Shaw config: " + cc.check().message);
  if (positions == 0) fail(ctx + ": positions must be at least 1");
  const std::size_t size = table_size(positions, positions, ctx);
  const auto n = static_cast<py::ssize_t>(positions);
  py::array_t<std::int32_t> out({n, n});
  // The core writes int; the array holds int32 (indices are at most 2^31 - 1, shaw/validate.hpp).
  static_assert(std::is_same_v<std::int32_t, int>, "shaw::fill_index_table writes int: int32 expected to be int");
  const std::span<int> o(out.mutable_data(), size);
  fill_unlocked(ctx, [&] { return shaw::fill_index_table(cc, 0, static_cast<std::size_t>(positions), 0, o); });
  return out;
}

void bind_shaw(py::module_& m) {
  publish_config_fields(m, "shaw", shaw::config_fields);
  m.def("shaw_relative_indices", &shaw_relative_indices, py::arg("max_relative_position"), py::arg("positions"));
}

}  // namespace

const scheme_binding shaw_binding{"shaw", &bind_shaw};

}  // namespace posenc::python
