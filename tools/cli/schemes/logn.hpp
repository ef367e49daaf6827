// schemes/logn.hpp: the log-n factors on the command line, one place: its flags and the one reader
// of its config (which `emit` and `verify` both call), `posenc emit logn` (logn::fill_factors;
// columns n,factor) and, with the verify layer (POSENC_CLI_HAVE_VERIFY), `posenc verify` of the
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

#include <posenc/logn.hpp>
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
#include <posenc/verify/logn_verify.hpp>

#include "verify_table_input.hpp"
#endif

namespace posenc::cli::emit {

inline constexpr flag_spec logn_table_flags[] = {
    {"positions", flag_kind::value, "N", "number of n"},
    {"start", flag_kind::value, "P", "first n (default 1, <= 2^40)"},
};
inline constexpr auto logn_flags = with_config_flags<logn::config_fields>(logn_table_flags);

inline logn::config read_logn_config(const parsed_args& a, const std::string& ctx) {
  logn::config c{};
  read_config_fields<logn::config_fields>(a, ctx, c);
  check_valid(logn::validate(c), ctx, "log-n");
  return c;
}

inline std::string emit_logn(const parsed_args& a, const table_options& o) {
  const logn::config c = read_logn_config(a, o.ctx);
  const position_span ps = read_positions(a, o.ctx, static_cast<long long>(max_table_rows), 1, 1);
  const long long first = ps.start, n = ps.count;
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t;
    t.scheme = "logn";
    t.keys = {"n"};
    t.value = "factor";
    t.values.resize(static_cast<std::size_t>(n));
    check_status(logn::fill_factors<T>(c, first, std::span<T>(t.values)), "log-n factors");
    t.key_of = [first](std::size_t r, std::int64_t* k) { k[0] = first + static_cast<std::int64_t>(r); };
    t.shape = {static_cast<std::size_t>(n)};
    t.index_notes = {c.at_least_one ? "[i]: n = start + i: log_base(n) for n > base, else 1 (Qwen's logn)"
                                    : "[i]: n = start + i: log_base(n) (Su's log-n scaling)"};
    t.params = {{"base", std::to_string(c.base)},
                {"at_least_one", c.at_least_one ? "true" : "false"},
                {"start", std::to_string(first)},
                {"positions", std::to_string(n)},
                {"dtype", std::string(dtype_name<T>())}};
    return write_table(t, o);
  });
}

inline constexpr scheme_command logn_command{"logn", "logn --positions N [--start 1] [--base 512] [--at-least-one]",
                                             logn_flags, true, emit_logn};
// This file's tables, as schemes.hpp collects them (its name + _commands).
inline constexpr scheme_command logn_commands[] = {logn_command};

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

inline pv::verify_report run_logn(const parsed_args& a, const options& o) {
  pv::logn_verify_request q;
  q.run = o.run;
  q.config = emit::read_logn_config(a, o.ctx);
  const emit::position_span ps = emit::read_positions(a, o.ctx, static_cast<long long>(max_entries), 1, 1);
  const long long n = ps.count;
  q.start = ps.start;
  q.positions = static_cast<std::size_t>(n);
  q.max_ulp = o.max_ulp;
  q.description = table_words(o) + "; n = " + std::to_string(q.start) + " .. " + std::to_string(q.start + n - 1) +
                  "; base " + std::to_string(q.config.base) + (q.config.at_least_one ? ", at least one (Qwen)" : "");
  return verify_real(o, {q.positions}, "factor",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_logn(q, in); });
}

inline constexpr verify_scheme logn_verify{"logn", run_logn, false};
inline constexpr verify_scheme logn_verifiers[] = {logn_verify};

}  // namespace posenc::cli::verify_schemes
#endif
