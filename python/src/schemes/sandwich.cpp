// sandwich.cpp: Sandwich's biases in posenc._core, from the scheme's run-time generator (what
// `posenc emit sandwich` calls), with the scheme's validate message as the ValueError of a broken
// config.
//
//   sandwich_bias           sandwich::bias                        [heads, distances]
#include <cstddef>
#include <cstdint>
#include <string>

#include <posenc/sandwich.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "config_fields.hpp"
#include "fill_by_head.hpp"

namespace posenc::python {
namespace {

// The CLI's work limit (its max_sandwich_terms, `posenc emit sandwich`): each bias sums dim/2 cosines.
constexpr std::uint64_t max_sandwich_terms = std::uint64_t{1} << 28;

py::array sandwich_bias(int dim, int heads, std::uint64_t distances, const std::string& dtype_s) {
  const std::string ctx = "sandwich_bias";
  const sandwich::checked_config cc{sandwich::config{.dim = dim, .heads = heads}};
  if (!cc.ok()) fail(ctx + ": invalid Sandwich config: " + cc.check().message);
  if (distances == 0) fail(ctx + ": distances must be at least 1");
  const auto h = static_cast<std::uint64_t>(heads);
  table_size(h, distances, ctx);
  // heads x distances <= 2^32 (table_size) and dim/2 <= 2^11: the product fits.
  const std::uint64_t terms = h * distances * static_cast<std::uint64_t>(dim / 2);
  if (terms > max_sandwich_terms)
    fail(ctx + ": table too costly: heads x distances x dim/2 = " + std::to_string(terms) +
         " cosine terms (at most 2^28 = 268435456 per call)");
  const auto n = static_cast<std::size_t>(distances);
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    py::array out = new_array<T>({static_cast<py::ssize_t>(h), static_cast<py::ssize_t>(n)});
    const stop s =
        fill_by_head<T>(elements<T>(out), static_cast<std::size_t>(h), n, [&](std::size_t hd, std::size_t k) {
          return sandwich::bias<T>(cc, static_cast<int>(hd), static_cast<std::int64_t>(k));
        });
    check_status(s.error, ctx + at(s));  // |bias| <= H d / 8 (h + 1): no overflow, even in float16
    return out;
  });
}

void bind_sandwich(py::module_& m) {
  publish_config_fields(m, "sandwich", sandwich::config_fields);
  m.def("sandwich_bias", &sandwich_bias, py::arg("dim"), py::arg("heads"), py::arg("distances"), py::arg("dtype"));
}

}  // namespace

const scheme_binding sandwich_binding{"sandwich", &bind_sandwich};

}  // namespace posenc::python
