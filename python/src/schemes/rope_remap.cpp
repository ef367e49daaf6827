// rope_remap.cpp: Leaky ReRoPE's decode table in posenc._core (rope/leaky_rerope.hpp; what `posenc
// emit leaky-rerope` calls), with the configs' validate messages as the ValueError of a broken one.
//
//   leaky_rerope_table   rope::fill_leaky_rerope_pair_table   (cos, sin), each [rows, rotary_dim / 2]
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <posenc/math/sincos_result.hpp>
#include <posenc/rope/frequencies.hpp>
#include <posenc/rope/leaky_rerope.hpp>

#include "bindings.hpp"
#include "common.hpp"

namespace posenc::python {
namespace {

py::tuple leaky_rerope_table(int head_dim, double rope_theta, double partial_rotary_factor, std::uint64_t window,
                             std::uint64_t leak, std::uint64_t rows, const std::string& dtype_s) {
  const std::string ctx = "leaky_rerope_table";
  const rope::config plain{
      .head_dim = head_dim, .rope_theta = rope_theta, .partial_rotary_factor = partial_rotary_factor};
  if (const auto v = rope::validate(plain); !v) fail(ctx + ": invalid RoPE config: " + v.message);
  const rope::checked_leaky_rerope_config c{rope::leaky_rerope_config{.window = window, .scaling_factor = leak}};
  if (!c.ok()) fail(ctx + ": " + c.check().message);
  if (rows == 0) fail(ctx + ": rows must be at least 1");
  const std::size_t pairs = static_cast<std::size_t>(rope::rotary_dim(plain)) / 2;
  table_size(rows, pairs, ctx);
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    std::vector<math::sincos_result<T>> vals(static_cast<std::size_t>(rows) * pairs);
    fill_unlocked(ctx, [&] { return rope::fill_leaky_rerope_pair_table<T>(plain, c, vals); });
    return cos_sin_arrays<T>(vals, static_cast<std::size_t>(rows), pairs);
  });
}

void bind_rope_remap(py::module_& m) {
  m.def("leaky_rerope_table", &leaky_rerope_table, py::arg("head_dim"), py::arg("rope_theta"),
        py::arg("partial_rotary_factor"), py::arg("window"), py::arg("leak"), py::arg("rows"), py::arg("dtype"));
}

}  // namespace

const scheme_binding rope_remap_binding{"rope_remap", &bind_rope_remap};

}  // namespace posenc::python
