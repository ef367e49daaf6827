// sinusoidal.cpp: the sinusoidal encoding's table in posenc._core, from the scheme's run-time
// generator (what `posenc emit sinusoidal` calls), with the scheme's validate message as the
// ValueError of a broken config.
//
//   sinusoidal_table        sinusoidal::fill_table                [positions, dim]
#include <cstdint>
#include <span>
#include <string>

#include <posenc/sinusoidal.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "config_fields.hpp"

namespace posenc::python {
namespace {

py::array sinusoidal_table(int dim, std::uint64_t positions, std::int64_t start, double base,
                           const std::string& exponent, const std::string& layout, const std::string& dtype_s) {
  const std::string ctx = "sinusoidal_table";
  sinusoidal::config c{.dim = dim, .base = base};
  if (exponent == "fairseq")
    c.exponent = sinusoidal::exponent::fairseq;
  else if (exponent != "paper")
    fail(ctx + ": unknown exponent '" + exponent + "' (expected 'paper' or 'fairseq')");
  if (layout == "concat")
    c.layout = sinusoidal::layout::concat;
  else if (layout != "interleaved")
    fail(ctx + ": unknown layout '" + layout + "' (expected 'interleaved' or 'concat')");
  const sinusoidal::checked_config cc{c};
  if (!cc.ok()) fail(ctx + ": invalid sinusoidal config: " + cc.check().message);
  if (positions == 0) fail(ctx + ": positions must be at least 1");
  constexpr std::int64_t most = std::int64_t{1} << 40;  // the CLI's |P| <= 2^40
  if (start < -most || start > most || positions > static_cast<std::uint64_t>(most - start))
    fail(ctx + ": positions outside [-2^40, 2^40]");
  table_size(positions, static_cast<std::uint64_t>(dim), ctx);
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    py::array out = new_array<T>({static_cast<py::ssize_t>(positions), dim});
    const std::span<T> s = elements<T>(out);
    fill_unlocked(ctx, [&] { return sinusoidal::fill_table<T>(cc, start, s); });
    return out;
  });
}

void bind_sinusoidal(py::module_& m) {
  publish_config_fields(m, "sinusoidal", sinusoidal::config_fields);
  m.def("sinusoidal_table", &sinusoidal_table, py::arg("dim"), py::arg("positions"), py::arg("start"), py::arg("base"),
        py::arg("exponent"), py::arg("layout"), py::arg("dtype"));
}

}  // namespace

const scheme_binding sinusoidal_binding{"sinusoidal", &bind_sinusoidal};

}  // namespace posenc::python
