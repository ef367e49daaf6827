// xpos.cpp: XPOS's scales in posenc._core, from the scheme's run-time generator (what
// `posenc emit xpos` calls), with the scheme's validate message as the ValueError of a broken
// config.
//
//   xpos_scales             xpos::fill_scales                     [positions, head_dim / 2]
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <posenc/xpos.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "config_fields.hpp"

namespace posenc::python {
namespace {

py::array xpos_scales(int head_dim, std::uint64_t positions, std::int64_t start, int scale_base, bool inverse,
                      const std::string& dtype_s) {
  const std::string ctx = "xpos_scales";
  const xpos::checked_config cc{xpos::config{.head_dim = head_dim, .scale_base = scale_base}};
  if (!cc.ok()) fail(ctx + ": invalid XPOS config: " + cc.check().message);
  if (positions == 0) fail(ctx + ": positions must be at least 1");
  constexpr std::int64_t most = std::int64_t{1} << 40;
  if (start < -most || start > most || positions > static_cast<std::uint64_t>(most - start))
    fail(ctx + ": positions outside [-2^40, 2^40]");
  const auto pairs = static_cast<std::uint64_t>(head_dim / 2);
  table_size(positions, pairs, ctx);
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    py::array out = new_array<T>({static_cast<py::ssize_t>(positions), static_cast<py::ssize_t>(pairs)});
    const std::span<T> s = elements<T>(out);
    posenc::status st = posenc::status::ok;
    {
      py::gil_scoped_release unlocked;
      st = xpos::fill_scales<T>(cc, start, s, inverse);
    }
    if (st == posenc::status::overflow) {
      std::size_t k = 0;
      while (k + 1 < s.size() && !std::isinf(exact_double(s[k]))) ++k;
      fail(ctx + ": the scale overflows " + std::string(dtype_name<T>()) + " at position " +
           std::to_string(start + static_cast<std::int64_t>(k / pairs)) + ", pair " + std::to_string(k % pairs));
    }
    check_status(st, ctx);
    return out;
  });
}

void bind_xpos(py::module_& m) {
  publish_config_fields(m, "xpos", xpos::config_fields);
  m.def("xpos_scales", &xpos_scales, py::arg("head_dim"), py::arg("positions"), py::arg("start"), py::arg("scale_base"),
        py::arg("inverse"), py::arg("dtype"));
}

}  // namespace

const scheme_binding xpos_binding{"xpos", &bind_xpos};

}  // namespace posenc::python
