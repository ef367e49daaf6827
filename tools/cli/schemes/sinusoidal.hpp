// schemes/sinusoidal.hpp: the sinusoidal encodings' table on the command line, one place: its flags
// and the one reader of its config (which `emit` and `verify` both call), `posenc emit sinusoidal`
// (sinusoidal::fill_table; columns position,dim,value) and, with the verify layer
// (POSENC_CLI_HAVE_VERIFY), `posenc verify` of the same table. schemes.hpp lists it.
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

#include <posenc/sinusoidal.hpp>
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
#include <posenc/verify/sinusoidal_verify.hpp>

#include "verify_table_input.hpp"
#endif

namespace posenc::cli::emit {

inline constexpr flag_spec sinusoidal_table_flags[] = {
    {"positions", flag_kind::value, "N", "number of positions"},
    {"start", flag_kind::value, "P", "first position (default 0, |P| <= 2^40)"},
};
inline constexpr auto sinusoidal_flags = with_config_flags<sinusoidal::config_fields>(sinusoidal_table_flags);

inline sinusoidal::config read_sinusoidal_config(const parsed_args& a, const std::string& ctx) {
  sinusoidal::config c{};
  read_config_fields<sinusoidal::config_fields>(a, ctx, c);
  check_valid(sinusoidal::checked_config{c}.check(), ctx, "sinusoidal");
  return c;
}

inline std::string emit_sinusoidal(const parsed_args& a, const table_options& o) {
  const sinusoidal::config c = read_sinusoidal_config(a, o.ctx);
  const sinusoidal::checked_config cc{c};
  const position_span ps = read_positions(a, o.ctx, static_cast<long long>(max_table_rows), -max_abs_position, 0);
  const long long first = ps.start, n = ps.count;
  const std::size_t d = static_cast<std::size_t>(c.dim);
  const std::size_t rows = table_rows(static_cast<std::uint64_t>(n), d, o.ctx,
                                      "--positions " + std::to_string(n) + " x --dim " + std::to_string(d));
  return with_dtype_or_fixed(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t;
    t.scheme = "sinusoidal";
    t.keys = {"position", "dim"};
    t.value = "value";
    t.values.resize(rows);
    if constexpr (is_fixed<T>()) {  // q15/q31: the saturations counted and noted
      const posenc::fixed_fill_status st = sinusoidal::fill_table<T>(cc, first, std::span<T>(t.values));
      check_status(st.error, "sinusoidal table");
      t.saturated = st.saturated;
      note_saturation<T>(o.ctx, st.saturated, rows);
    } else {
      check_status(sinusoidal::fill_table<T>(cc, first, std::span<T>(t.values)), "sinusoidal table");
    }
    t.key_of = [first, d](std::size_t r, std::int64_t* k) {
      k[0] = first + static_cast<std::int64_t>(r / d);
      k[1] = static_cast<std::int64_t>(r % d);
    };
    t.shape = {static_cast<std::size_t>(n), d};
    t.index_notes = {"[i][k]: position start + i, element k of the encoding vector in the layout below"};
    t.params = {{"dim", std::to_string(c.dim)},
                {"base", real_text(c.base)},
                {"exponent", c.exponent == sinusoidal::exponent::paper ? "paper (2i/d)" : "fairseq (i/(d/2 - 1))"},
                {"layout", c.layout == sinusoidal::layout::interleaved ? "interleaved (sin, cos, ...)"
                                                                       : "concat (sin... | cos...)"},
                {"start", std::to_string(first)},
                {"positions", std::to_string(n)},
                {"dtype", std::string(dtype_name<T>())}};
    return write_table(t, o);
  });
}

inline constexpr scheme_command sinusoidal_command{
    "sinusoidal",
    "sinusoidal --dim D --positions N [--start P] [--base 10000] [--exponent paper|fairseq] [--layout "
    "interleaved|concat]",
    sinusoidal_flags, true, emit_sinusoidal};
// This file's tables, as schemes.hpp collects them (its name + _commands).
inline constexpr scheme_command sinusoidal_commands[] = {sinusoidal_command};

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

inline pv::verify_report run_sinusoidal(const parsed_args& a, const options& o) {
  pv::sinusoidal_verify_request q;
  q.run = o.run;
  q.config = emit::read_sinusoidal_config(a, o.ctx);
  const emit::position_span ps =
      emit::read_positions(a, o.ctx, static_cast<long long>(max_entries), -emit::max_abs_position, 0);
  const long long n = ps.count;
  q.start = ps.start;
  q.positions = static_cast<std::size_t>(n);
  const auto d = static_cast<std::uint64_t>(q.config.dim);
  check_entries(q.positions * d, o, "--positions " + std::to_string(n) + " x --dim " + std::to_string(d));
  q.max_ulp = o.max_ulp;
  q.description = table_words(o) + "; positions " + std::to_string(q.start) + " .. " + std::to_string(q.start + n - 1) +
                  "; dim " + std::to_string(q.config.dim) + ", base " + format_hex(q.config.base) + ", exponent " +
                  (q.config.exponent == sinusoidal::exponent::paper ? "paper" : "fairseq") + ", layout " +
                  (q.config.layout == sinusoidal::layout::interleaved ? "interleaved" : "concat");
  return verify_real(o, {q.positions, d}, "value",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_sinusoidal(q, in); });
}

inline constexpr verify_scheme sinusoidal_verify{"sinusoidal", run_sinusoidal, false, {}, /*fixed_point=*/true};
inline constexpr verify_scheme sinusoidal_verifiers[] = {sinusoidal_verify};

}  // namespace posenc::cli::verify_schemes
#endif
