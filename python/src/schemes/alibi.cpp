// alibi.cpp: ALiBi's tables in posenc._core, from the scheme's run-time generator (what
// `posenc emit alibi` calls), with the scheme's validate message as the ValueError of a broken
// config.
//
//   alibi_slopes            alibi::fill_slopes                    [heads]
//   alibi_bias_by_distance  alibi::fill_bias_by_distance          [heads, distances]
//   alibi_bias              alibi::fill_symmetric_bias_table, or the causal spread of the above
//                                                                  [heads, queries, keys]
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <posenc/alibi.hpp>
#include <posenc/io/alibi_hf_config.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "config_fields.hpp"

namespace posenc::python {
namespace {

alibi::checked_config alibi_config(const std::string& json_text, std::optional<int> heads,
                                   std::optional<double> max_bias, const std::string& ctx) {
  alibi::config c{};
  if (!json_text.empty()) {
    auto r = io::alibi_from_hf_config(json_text);
    if (!r) fail(ctx + ": " + r.error());
    c = r.value();
  } else if (!heads) {
    fail(ctx + ": heads is required (or a config.json)");
  }
  if (heads) c.heads = *heads;
  if (max_bias) c.max_bias = *max_bias;
  const alibi::checked_config cc{c};
  if (!cc.ok()) fail(ctx + ": invalid ALiBi config: " + cc.check().message);
  return cc;
}

py::array alibi_slopes(const std::string& json_text, std::optional<int> heads, std::optional<double> max_bias,
                       const std::string& dtype_s) {
  const alibi::checked_config cc = alibi_config(json_text, heads, max_bias, "alibi_slopes");
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    py::array out = new_array<T>({cc.get().heads});
    const std::span<T> s = elements<T>(out);
    fill_unlocked("alibi_slopes", [&] { return alibi::fill_slopes<T>(cc, s); });
    return out;
  });
}

// Head h's biases by distance into row h of out (heads x n); an overflow names head and distance.
template <class T>
void fill_by_distance(const alibi::checked_config& cc, std::span<T> out, std::size_t n, const std::string& ctx) {
  const auto heads = static_cast<std::size_t>(cc.get().heads);
  for (std::size_t h = 0; h < heads; ++h) {
    const std::span<T> row = out.subspan(h * n, n);
    posenc::status st = posenc::status::ok;
    {
      py::gil_scoped_release unlocked;
      st = alibi::fill_bias_by_distance<T>(cc, static_cast<int>(h), row);
    }
    if (st == posenc::status::overflow) {
      std::size_t k = 0;
      while (k + 1 < n && !std::isinf(exact_double(row[k]))) ++k;
      fail(ctx + ": the bias overflows " + std::string(dtype_name<T>()) + " at head " + std::to_string(h) +
           ", distance " + std::to_string(k));
    }
    check_status(st, ctx);
  }
}

py::array alibi_bias_by_distance(const std::string& json_text, std::optional<int> heads, std::optional<double> max_bias,
                                 std::uint64_t distances, const std::string& dtype_s) {
  const std::string ctx = "alibi_bias_by_distance";
  const alibi::checked_config cc = alibi_config(json_text, heads, max_bias, ctx);
  if (distances == 0) fail(ctx + ": distances must be at least 1");
  const auto h = static_cast<std::uint64_t>(cc.get().heads);
  table_size(h, distances, ctx);
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    py::array out = new_array<T>({static_cast<py::ssize_t>(h), static_cast<py::ssize_t>(distances)});
    fill_by_distance<T>(cc, elements<T>(out), static_cast<std::size_t>(distances), ctx);
    return out;
  });
}

// Dense [heads, n, n]: symmetric -m_h |i - j| everywhere, or causal -m_h (i - j) for j <= i and
// `masked` (rounded into T) above the diagonal.
py::array alibi_bias(const std::string& json_text, std::optional<int> heads, std::optional<double> max_bias,
                     std::uint64_t n, bool symmetric, double masked, const std::string& dtype_s) {
  const std::string ctx = "alibi_bias";
  const alibi::checked_config cc = alibi_config(json_text, heads, max_bias, ctx);
  if (n == 0) fail(ctx + ": positions must be at least 1");
  const auto h = static_cast<std::uint64_t>(cc.get().heads);
  table_size(h * n, n, ctx);
  if (n > (std::uint64_t{1} << 32)) fail(ctx + ": too many positions");
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    const auto H = static_cast<py::ssize_t>(h), N = static_cast<py::ssize_t>(n);
    py::array out = new_array<T>({H, N, N});
    const std::span<T> o = elements<T>(out);
    const auto nn = static_cast<std::size_t>(n);
    if (symmetric) {
      posenc::status st = posenc::status::ok;
      {
        py::gil_scoped_release unlocked;
        st = alibi::fill_symmetric_bias_table<T>(cc, nn, nn, o);
      }
      if (st == posenc::status::overflow) fail(ctx + ": the bias overflows " + std::string(dtype_name<T>()));
      check_status(st, ctx);
      return out;
    }
    std::vector<T> by_distance(static_cast<std::size_t>(h) * nn);
    fill_by_distance<T>(cc, std::span<T>(by_distance), nn, ctx);
    const T mask = from_double<T>(masked);
    {
      py::gil_scoped_release unlocked;  // reacquired before `out` (a Python object) is returned
      for (std::size_t head = 0; head < h; ++head)
        for (std::size_t i = 0; i < nn; ++i)
          for (std::size_t j = 0; j < nn; ++j)
            o[(head * nn + i) * nn + j] = j <= i ? by_distance[head * nn + i - j] : mask;
    }
    return out;
  });
}

void bind_alibi(py::module_& m) {
  publish_config_fields(m, "alibi", alibi::config_fields);
  m.def("alibi_slopes", &alibi_slopes, py::arg("json_text"), py::arg("heads"), py::arg("max_bias"), py::arg("dtype"));
  m.def("alibi_bias_by_distance", &alibi_bias_by_distance, py::arg("json_text"), py::arg("heads"), py::arg("max_bias"),
        py::arg("distances"), py::arg("dtype"));
  m.def("alibi_bias", &alibi_bias, py::arg("json_text"), py::arg("heads"), py::arg("max_bias"), py::arg("positions"),
        py::arg("symmetric"), py::arg("masked"), py::arg("dtype"));
}

}  // namespace

const scheme_binding alibi_binding{"alibi", &bind_alibi};

}  // namespace posenc::python
