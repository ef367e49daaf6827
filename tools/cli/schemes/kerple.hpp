// schemes/kerple.hpp: KERPLE's biases (log and power kernels) on the command line, one place: its
// flags and the one reader of its config (which `emit` and `verify` both call), `posenc emit
// kerple-log`, `posenc emit kerple-power` (kerple::log_bias / power_bias; columns
// head,distance,bias) and, with the verify layer (POSENC_CLI_HAVE_VERIFY), `posenc verify` of the
// same table. schemes.hpp lists it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <posenc/kerple.hpp>
#include <posenc/status.hpp>

#include "args.hpp"
#include "config_field_flags.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"
#include "scheme_command.hpp"

#if POSENC_CLI_HAVE_VERIFY
#include <posenc/verify/kerple_verify.hpp>

#include "verify_table_input.hpp"
#endif

namespace posenc::cli::emit {

inline constexpr flag_spec kerple_table_flags[] = {
    {"distances", flag_kind::value, "N", "distances 0 .. N-1"},
};
// A config per head (kerple/config_fields.hpp): each field is a list, one value per head.
inline constexpr auto kerple_log_flags =
    with_config_flags<kerple::log_config_fields, field_form::per_head>(kerple_table_flags);
inline constexpr auto kerple_power_flags =
    with_config_flags<kerple::power_config_fields, field_form::per_head>(kerple_table_flags);

// p and a of each head (kerple::log_bias / power_bias check each pair's domain entry by entry).
struct kerple_heads {
  std::vector<double> p, a;
};

inline kerple_heads read_kerple_config(const parsed_args& a, const std::string& ctx, bool log) {
  kerple_heads k;
  auto add = [&k](const auto& head) {
    k.p.push_back(head.p);
    k.a.push_back(head.a);
  };
  if (log)
    for (const kerple::log_config& h : read_config_fields_per_head<kerple::log_config_fields>(a, ctx)) add(h);
  else
    for (const kerple::power_config& h : read_config_fields_per_head<kerple::power_config_fields>(a, ctx)) add(h);
  return k;
}

inline std::string emit_kerple(const parsed_args& a, const table_options& o, bool log) {
  const kerple_heads heads = read_kerple_config(a, o.ctx, log);
  const std::vector<double>&p = heads.p, &av = heads.a;
  const auto n =
      static_cast<std::size_t>(required_integer(a, "distances", 1, static_cast<long long>(max_table_rows), o.ctx));
  table_rows(p.size(), n, o.ctx, std::to_string(p.size()) + " heads x --distances " + std::to_string(n));
  const char* domain =
      log ? "p and a finite and > 0, a >= 2^-60, a k < 2^84" : "a finite and > 0, p in (0, 2], distance k < 2^26";
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t = distance_table<T>(log ? "kerple-log" : "kerple-power", p.size(), n);
    for (std::size_t h = 0; h < p.size(); ++h)
      for (std::size_t k = 0; k < n; ++k) {
        const posenc::result<T> r = log ? kerple::log_bias<T>(p[h], av[h], k) : kerple::power_bias<T>(av[h], p[h], k);
        const std::string at = " at head " + std::to_string(h) + ", distance " + std::to_string(k);
        if (r.error == posenc::status::overflow)
          throw usage_error(o.ctx + ": the bias overflows " + std::string(dtype_name<T>()) + at);
        if (r.error == posenc::status::domain_error)
          throw usage_error(o.ctx + ": p = " + real_text(p[h]) + ", a = " + real_text(av[h]) + at +
                            " are outside KERPLE-" + (log ? "log" : "power") + "'s domain (" + domain + ")");
        check_status(r.error, "KERPLE bias");
        t.values[h * n + k] = r.value;
      }
    t.index_notes = {log ? "[h][k]: head h, distance k = |query - key|: -p_h log(1 + a_h k)"
                         : "[h][k]: head h, distance k = |query - key|: -a_h k^p_h"};
    t.params = {{"p (per head)", list_text(p)},
                {"a (per head)", list_text(av)},
                {"distances", std::to_string(n)},
                {"dtype", std::string(dtype_name<T>())}};
    return write_table(t, o);
  });
}

inline std::string emit_kerple_log(const parsed_args& a, const table_options& o) { return emit_kerple(a, o, true); }
inline std::string emit_kerple_power(const parsed_args& a, const table_options& o) { return emit_kerple(a, o, false); }

inline constexpr scheme_command kerple_log_command{"kerple-log", "kerple-log --p P0,P1,... --a A0,A1,... --distances N",
                                                   kerple_log_flags, true, emit_kerple_log};
inline constexpr scheme_command kerple_power_command{"kerple-power",
                                                     "kerple-power --p P0,P1,... --a A0,A1,... --distances N",
                                                     kerple_power_flags, true, emit_kerple_power};
// This file's tables, as schemes.hpp collects them (its name + _commands).
inline constexpr scheme_command kerple_commands[] = {kerple_log_command, kerple_power_command};

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

inline pv::verify_report run_kerple(const parsed_args& a, const options& o, bool log) {
  pv::kerple_verify_request q;
  q.run = o.run;
  q.log = log;
  emit::kerple_heads heads = emit::read_kerple_config(a, o.ctx, log);
  q.p = std::move(heads.p);
  q.a = std::move(heads.a);
  q.distances =
      static_cast<std::size_t>(emit::required_integer(a, "distances", 1, static_cast<long long>(max_entries), o.ctx));
  check_entries(q.p.size() * q.distances, o,
                std::to_string(q.p.size()) + " heads x --distances " + std::to_string(q.distances));
  q.max_ulp = o.max_ulp;
  q.description = table_words(o) + "; distances 0 .. " + std::to_string(q.distances - 1) + "; p " +
                  emit::list_text(q.p) + "; a " + emit::list_text(q.a);
  return verify_real(o, {q.p.size(), q.distances}, "bias",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_kerple(q, in); });
}
inline pv::verify_report run_kerple_log(const parsed_args& a, const options& o) { return run_kerple(a, o, true); }
inline pv::verify_report run_kerple_power(const parsed_args& a, const options& o) { return run_kerple(a, o, false); }

inline constexpr verify_scheme kerple_log_verify{"kerple-log", run_kerple_log, false};
inline constexpr verify_scheme kerple_power_verify{"kerple-power", run_kerple_power, false};
inline constexpr verify_scheme kerple_verifiers[] = {kerple_log_verify, kerple_power_verify};

}  // namespace posenc::cli::verify_schemes
#endif
