// logn.cpp: log-n attention scaling's factors in posenc._core, from the scheme's run-time generator
// (what `posenc emit logn` calls), with the scheme's validate message as the ValueError of a broken
// config.
//
//   logn_factors            logn::fill_factors                    [positions]
#include <cstdint>
#include <span>
#include <string>

#include <posenc/logn.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "config_fields.hpp"

namespace posenc::python {
namespace {

py::array logn_factors(std::int64_t base, bool at_least_one, std::uint64_t positions, std::int64_t start,
                       const std::string& dtype_s) {
  const std::string ctx = "logn_factors";
  const logn::checked_config cc{logn::config{.base = base, .at_least_one = at_least_one}};
  if (!cc.ok()) fail(ctx + ": invalid log-n config: " + cc.check().message);
  if (positions == 0) fail(ctx + ": positions must be at least 1");
  constexpr std::int64_t most = std::int64_t{1} << 52;
  if (start < 1 || start > most || positions > static_cast<std::uint64_t>(most - start))
    fail(ctx + ": n outside [1, 2^52]");
  table_size(positions, 1, ctx);
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    py::array out = new_array<T>({static_cast<py::ssize_t>(positions)});
    const std::span<T> s = elements<T>(out);
    fill_unlocked(ctx, [&] { return logn::fill_factors<T>(cc, start, s); });
    return out;
  });
}

void bind_logn(py::module_& m) {
  publish_config_fields(m, "logn", logn::config_fields);
  m.def("logn_factors", &logn_factors, py::arg("base"), py::arg("at_least_one"), py::arg("positions"), py::arg("start"),
        py::arg("dtype"));
}

}  // namespace

const scheme_binding logn_binding{"logn", &bind_logn};

}  // namespace posenc::python
