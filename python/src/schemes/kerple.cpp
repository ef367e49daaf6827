// kerple.cpp: KERPLE's biases in posenc._core, from the scheme's run-time generator (what
// `posenc emit kerple-log|kerple-power` calls), with the scheme's validate message as the
// ValueError of a broken head.
//
//   kerple_log_bias         kerple::log_bias                      [heads, distances]
//   kerple_power_bias       kerple::power_bias                    [heads, distances]
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <posenc/kerple.hpp>

#include "bindings.hpp"
#include "common.hpp"
#include "config_fields.hpp"
#include "fill_by_head.hpp"

namespace posenc::python {
namespace {

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

void bind_kerple(py::module_& m) {
  // p and a of one head each; Python takes a sequence per keyword, one value per head.
  publish_config_fields(m, "kerple_log", kerple::log_config_fields);
  publish_config_fields(m, "kerple_power", kerple::power_config_fields);
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
}

}  // namespace

const scheme_binding kerple_binding{"kerple", &bind_kerple};

}  // namespace posenc::python
