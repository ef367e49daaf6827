// relative.cpp: the relative-position schemes' tables in posenc._core, each from the scheme's
// run-time generator (what `posenc emit kerple-log|kerple-power|sandwich|shaw|transformer-xl`
// calls, tools/cli/emit_biases.hpp, emit_buckets.hpp, emit_sinusoids.hpp), with the scheme's
// validate message as the ValueError of a broken config.
//
//   kerple_bias             kerple::log_bias / power_bias          [heads, distances]
//   sandwich_bias           sandwich::bias                         [heads, distances]
//   shaw_relative_indices   shaw::fill_index_table                 int32 [positions, positions]
//   transformer_xl_table    transformer_xl::fill_table             [rows, d_model]
//   transformer_xl_positions  transformer_xl::position             int64 [rows]
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <posenc/kerple.hpp>
#include <posenc/sandwich.hpp>
#include <posenc/shaw.hpp>
#include <posenc/transformer_xl.hpp>

#include "bindings.hpp"
#include "common.hpp"

namespace posenc::python {
namespace {

// Where a per-entry fill of a [heads, distances] table stopped and why; the fill runs without the
// GIL, so the ValueError is raised after it, from this record.
struct stop {
  posenc::status error = posenc::status::ok;
  std::size_t head = 0, distance = 0;
};

// out[h n + k] = bias(h, k).value for every head h and distance k < n, up to the first error.
template <class T, class Bias>
stop fill_by_head(std::span<T> out, std::size_t heads, std::size_t n, Bias&& bias) {
  py::gil_scoped_release unlocked;
  for (std::size_t h = 0; h < heads; ++h)
    for (std::size_t k = 0; k < n; ++k) {
      const posenc::result<T> r = bias(h, k);
      if (r.error != posenc::status::ok) return {r.error, h, k};
      out[h * n + k] = r.value;
    }
  return {};
}

std::string at(const stop& s) {
  return " at head " + std::to_string(s.head) + ", distance " + std::to_string(s.distance);
}

// ---- KERPLE ----------------------------------------------------------------------------------

// One table of KERPLE-log (-p_h log(1 + a_h k)) or KERPLE-power (-a_h k^p_h), a head per (p, a).
py::array kerple_bias(bool log, const std::vector<double>& p, const std::vector<double>& a, std::uint64_t distances,
                      const std::string& dtype_s) {
  const std::string ctx = log ? "kerple_log_bias" : "kerple_power_bias";
  const std::string scheme = log ? "KERPLE-log" : "KERPLE-power";
  if (p.empty() || p.size() != a.size())
    fail(ctx + ": p has " + std::to_string(p.size()) + " values and a " + std::to_string(a.size()) +
         " (one per head each, at least one head)");
  if (distances == 0) fail(ctx + ": distances must be at least 1");
  // KERPLE-power's per-call limit, k < 2^26 (k^p < 2^52), refused before any allocation.
  if (!log && distances > (std::uint64_t{1} << 26))
    fail(ctx + ": distances must be at most 2^26 = 67108864 (KERPLE-power's range: k < 2^26)");
  const std::size_t heads = p.size();
  table_size(heads, distances, ctx);
  // Each head validated once, here, so that a broken head is named before any entry is computed.
  std::vector<kerple::log_checked_config> logs;
  std::vector<kerple::power_checked_config> powers;
  for (std::size_t h = 0; h < heads; ++h) {
    const posenc::validation v = log ? logs.emplace_back(kerple::log_config{.p = p[h], .a = a[h]}).check()
                                     : powers.emplace_back(kerple::power_config{.a = a[h], .p = p[h]}).check();
    if (!v) fail(ctx + ": invalid " + scheme + " head " + std::to_string(h) + ": " + v.message);
  }
  const auto n = static_cast<std::size_t>(distances);
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    py::array out = new_array<T>({static_cast<py::ssize_t>(heads), static_cast<py::ssize_t>(n)});
    const stop s = fill_by_head<T>(elements<T>(out), heads, n, [&](std::size_t h, std::size_t k) {
      return log ? kerple::log_bias<T>(logs[h], k) : kerple::power_bias<T>(powers[h], k);
    });
    if (s.error == posenc::status::overflow) fail(ctx + ": the bias overflows " + std::string(dtype_name<T>()) + at(s));
    if (s.error == posenc::status::domain_error)  // the per-call limits of kerple/bias.hpp
      fail(ctx + ": head " + std::to_string(s.head) + ", distance " + std::to_string(s.distance) + " is outside " +
           scheme + "'s range (" + (log ? "a k < 2^84" : "k < 2^26") + ")");
    check_status(s.error, ctx);
    return out;
  });
}

// ---- Sandwich --------------------------------------------------------------------------------

// The CLI's work limit (emit_biases.hpp max_sandwich_terms): each bias sums dim/2 cosines.
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

// ---- Shaw ------------------------------------------------------------------------------------

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

// ---- Transformer-XL / XLNet ------------------------------------------------------------------

transformer_xl::checked_config txl_config(int d_model, std::int64_t klen, std::int64_t qlen, std::int64_t clamp_len,
                                          const std::string& model, const std::string& attn, bool bi_data,
                                          const std::string& ctx) {
  transformer_xl::config c{.d_model = d_model, .klen = klen, .qlen = qlen, .clamp_len = clamp_len, .bi_data = bi_data};
  if (model == "xlnet")
    c.model = transformer_xl::model::xlnet;
  else if (model != "transformer_xl")
    fail(ctx + ": unknown model '" + model + "' (expected 'transformer-xl' or 'xlnet')");
  if (attn == "uni")
    c.attn_type = transformer_xl::attention::uni;
  else if (attn != "bi")
    fail(ctx + ": unknown attn_type '" + attn + "' (expected 'bi' or 'uni')");
  const transformer_xl::checked_config cc{c};
  if (!cc.ok()) fail(ctx + ": invalid Transformer-XL config: " + cc.check().message);
  return cc;
}

py::array transformer_xl_table(int d_model, std::int64_t klen, std::int64_t qlen, std::int64_t clamp_len,
                               const std::string& model, const std::string& attn, bool bi_data,
                               const std::string& dtype_s) {
  const std::string ctx = "transformer_xl_table";
  const transformer_xl::checked_config cc = txl_config(d_model, klen, qlen, clamp_len, model, attn, bi_data, ctx);
  const auto rows = static_cast<std::uint64_t>(transformer_xl::rows(cc.get()));
  table_size(rows, static_cast<std::uint64_t>(d_model), ctx);
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    py::array out = new_array<T>({static_cast<py::ssize_t>(rows), d_model});
    const std::span<T> s = elements<T>(out);
    fill_unlocked(ctx, [&] { return transformer_xl::fill_table<T>(cc, s); });
    return out;
  });
}

// The relative position of each row of transformer_xl_table (d_model does not matter: 2 passes).
py::array_t<std::int64_t> transformer_xl_positions(std::int64_t klen, std::int64_t qlen, std::int64_t clamp_len,
                                                   const std::string& model, const std::string& attn, bool bi_data) {
  const std::string ctx = "transformer_xl_positions";
  const transformer_xl::checked_config cc = txl_config(2, klen, qlen, clamp_len, model, attn, bi_data, ctx);
  const auto rows = static_cast<std::uint64_t>(transformer_xl::rows(cc.get()));
  table_size(rows, 1, ctx);
  py::array_t<std::int64_t> out(static_cast<py::ssize_t>(rows));
  const std::span<std::int64_t> o(out.mutable_data(), static_cast<std::size_t>(rows));
  fill_unlocked(ctx, [&] {
    for (std::size_t r = 0; r < o.size(); ++r) {
      const posenc::result<std::int64_t> p = transformer_xl::position(cc, static_cast<std::int64_t>(r));
      if (!p.ok()) return p.error;
      o[r] = p.value;
    }
    return posenc::status::ok;
  });
  return out;
}

}  // namespace

void bind_relative(py::module_& m) {
  m.def(
      "kerple_log_bias",
      [](const std::vector<double>& p, const std::vector<double>& a, std::uint64_t distances,
         const std::string& dtype) { return kerple_bias(true, p, a, distances, dtype); },
      py::arg("p"), py::arg("a"), py::arg("distances"), py::arg("dtype"));
  m.def(
      "kerple_power_bias",
      [](const std::vector<double>& p, const std::vector<double>& a, std::uint64_t distances,
         const std::string& dtype) { return kerple_bias(false, p, a, distances, dtype); },
      py::arg("p"), py::arg("a"), py::arg("distances"), py::arg("dtype"));
  m.def("sandwich_bias", &sandwich_bias, py::arg("dim"), py::arg("heads"), py::arg("distances"), py::arg("dtype"));
  m.def("shaw_relative_indices", &shaw_relative_indices, py::arg("max_relative_position"), py::arg("positions"));
  m.def("transformer_xl_table", &transformer_xl_table, py::arg("d_model"), py::arg("klen"), py::arg("qlen"),
        py::arg("clamp_len"), py::arg("model"), py::arg("attn_type"), py::arg("bi_data"), py::arg("dtype"));
  m.def("transformer_xl_positions", &transformer_xl_positions, py::arg("klen"), py::arg("qlen"), py::arg("clamp_len"),
        py::arg("model"), py::arg("attn_type"), py::arg("bi_data"));
}

}  // namespace posenc::python
