// schemes.cpp: the other schemes' tables in posenc._core, each from the scheme's run-time
// generator (the functions `posenc emit <scheme>` calls, tools/cli/emit_schemes.hpp), with the
// scheme's validate message as the ValueError of a broken config.
//
//   alibi_slopes            alibi::fill_slopes                    [heads]
//   alibi_bias_by_distance  alibi::fill_bias_by_distance          [heads, distances]
//   alibi_bias              alibi::fill_symmetric_bias_table, or the causal spread of the above
//                                                                  [heads, queries, keys]
//   t5_buckets              t5::fill_buckets                      int32 [2 range + 1]
//   deberta_buckets         deberta::fill_buckets                 int64 [2 range + 1]
//   logn_factors            logn::fill_factors                    [positions]
//   sinusoidal_table        sinusoidal::fill_table                [positions, dim]
//   xpos_scales             xpos::fill_scales                     [positions, head_dim / 2]
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <posenc/alibi.hpp>
#include <posenc/deberta.hpp>
#include <posenc/io/hf_config.hpp>
#include <posenc/logn.hpp>
#include <posenc/sinusoidal.hpp>
#include <posenc/t5.hpp>
#include <posenc/xpos.hpp>

#include "bindings.hpp"
#include "common.hpp"

namespace posenc::python {
namespace {

// ---- ALiBi -----------------------------------------------------------------------------------

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

// ---- T5 ----------------------------------------------------------------------------------------

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

// ---- DeBERTa and log-n -----------------------------------------------------------------------

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

// ---- sinusoidal and XPOS -----------------------------------------------------------------------

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

}  // namespace

void bind_schemes(py::module_& m) {
  m.def("alibi_slopes", &alibi_slopes, py::arg("json_text"), py::arg("heads"), py::arg("max_bias"), py::arg("dtype"));
  m.def("alibi_bias_by_distance", &alibi_bias_by_distance, py::arg("json_text"), py::arg("heads"), py::arg("max_bias"),
        py::arg("distances"), py::arg("dtype"));
  m.def("alibi_bias", &alibi_bias, py::arg("json_text"), py::arg("heads"), py::arg("max_bias"), py::arg("positions"),
        py::arg("symmetric"), py::arg("masked"), py::arg("dtype"));
  m.def("t5_buckets", &t5_buckets, py::arg("json_text"), py::arg("num_buckets"), py::arg("max_distance"),
        py::arg("bidirectional"), py::arg("range"));
  m.def("deberta_buckets", &deberta_buckets, py::arg("position_buckets"), py::arg("max_relative_positions"),
        py::arg("range"));
  m.def("logn_factors", &logn_factors, py::arg("base"), py::arg("at_least_one"), py::arg("positions"), py::arg("start"),
        py::arg("dtype"));
  m.def("sinusoidal_table", &sinusoidal_table, py::arg("dim"), py::arg("positions"), py::arg("start"), py::arg("base"),
        py::arg("exponent"), py::arg("layout"), py::arg("dtype"));
  m.def("xpos_scales", &xpos_scales, py::arg("head_dim"), py::arg("positions"), py::arg("start"), py::arg("scale_base"),
        py::arg("inverse"), py::arg("dtype"));
}

}  // namespace posenc::python
