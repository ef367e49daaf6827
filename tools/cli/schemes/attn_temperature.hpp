// schemes/attn_temperature.hpp: Llama-4's attention temperature on the command line, one place: its
// flags and the one reader of its config (which `emit` and `verify` both call), `posenc emit
// attn-temperature` (attn_temperature::fill_scales; columns position,scale) and, with the verify
// layer (POSENC_CLI_HAVE_VERIFY), `posenc verify` of the same table. schemes.hpp lists it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include <posenc/attn_temperature.hpp>
#include <posenc/status.hpp>

#if defined(POSENC_CLI_HAVE_IO)
#include <posenc/io/attn_temperature_hf_config.hpp>
#endif

#include "args.hpp"
#include "config_field_flags.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"
#include "scheme_command.hpp"

#if POSENC_CLI_HAVE_VERIFY
#include <posenc/verify/attn_temperature_verify.hpp>

#include "verify_table_input.hpp"
#endif

namespace posenc::cli::emit {

// --hf-config FILE: the temperature of a Llama-4 config.json (posenc::io), or nothing without the
// flag; without posenc::io the flag says it is not available (hf_config_flag.hpp).
inline std::optional<attn_temperature::config> hf_attn_temperature_config(const parsed_args& a, std::string_view ctx) {
#if defined(POSENC_CLI_HAVE_IO)
  return hf_config_value(a, ctx, [](std::string_view text) { return io::attn_temperature_from_hf_config(text); });
#else
  return no_hf_config<attn_temperature::config>(a, ctx);
#endif
}

inline constexpr flag_spec attn_temperature_table_flags[] = {
    {"positions", flag_kind::value, "N", "number of positions"},
    {"start", flag_kind::value, "P", "first 0-based position (default 0, <= 2^40)"},
    {"hf-config", flag_kind::value, "FILE",
     "floor_scale and attn_scale from a Llama-4 config.json (flags override it)"},
};
inline constexpr auto attn_temperature_flags =
    with_config_flags<attn_temperature::config_fields>(attn_temperature_table_flags);

inline attn_temperature::config read_attn_temperature_config(const parsed_args& a, const std::string& ctx) {
  const std::optional<attn_temperature::config> hf = hf_attn_temperature_config(a, ctx);  // flags override the file
  attn_temperature::config c = hf.value_or(attn_temperature::config{});
  read_config_fields<attn_temperature::config_fields>(a, ctx, c, hf.has_value());
  check_valid(attn_temperature::validate(c), ctx, "attention-temperature");
  return c;
}

// The first position of [first, first + n) whose scale overflows T (the scale grows with p, so it is
// the first step that does), named in the error rather than a table with an infinity.
template <class T>
long long first_overflow(const attn_temperature::config& c, long long first, long long n) {
  long long p = first;
  while (p < first + n) {
    if (attn_temperature::scale<T>(c, p).error == posenc::status::overflow) return p;
    p = (attn_temperature::step_of(c, p) + 1) * c.floor_scale - 1;  // the next step's first position
  }
  return first + n - 1;
}

inline std::string emit_attn_temperature(const parsed_args& a, const table_options& o) {
  const attn_temperature::config c = read_attn_temperature_config(a, o.ctx);
  const position_span ps = read_positions(a, o.ctx, static_cast<long long>(max_table_rows), 0, 0);
  const long long first = ps.start, n = ps.count;
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t;
    t.scheme = "attn-temperature";
    t.keys = {"position"};
    t.value = "scale";
    t.values.resize(static_cast<std::size_t>(n));
    const posenc::status st = attn_temperature::fill_scales<T>(c, first, std::span<T>(t.values));
    if (st == posenc::status::overflow)
      throw usage_error(o.ctx + ": the scale overflows " + std::string(dtype_name<T>()) + " at position " +
                        std::to_string(first_overflow<T>(c, first, n)));
    check_status(st, "attention temperatures");
    t.key_of = [first](std::size_t r, std::int64_t* k) { k[0] = first + static_cast<std::int64_t>(r); };
    t.shape = {static_cast<std::size_t>(n)};
    t.index_notes = {"[i]: position p = start + i (0-based): 1 + attn_scale ln(1 + floor((p + 1) / floor_scale))"};
    t.params = {{"floor_scale", std::to_string(c.floor_scale)},
                {"attn_scale", real_text(c.attn_scale)},
                {"start", std::to_string(first)},
                {"positions", std::to_string(n)},
                {"dtype", std::string(dtype_name<T>())}};
    return write_table(t, o);
  });
}

inline constexpr scheme_command attn_temperature_command{
    "attn-temperature",
    "attn-temperature --positions N [--start 0] [--floor-scale 8192] [--attn-scale 0.1] [--hf-config FILE]",
    attn_temperature_flags, true, emit_attn_temperature};
// This file's tables, as schemes.hpp collects them (its name + _commands).
inline constexpr scheme_command attn_temperature_commands[] = {attn_temperature_command};

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

inline pv::verify_report run_attn_temperature(const parsed_args& a, const options& o) {
  pv::attn_temperature_verify_request q;
  q.run = o.run;
  q.config = emit::read_attn_temperature_config(a, o.ctx);
  const emit::position_span ps = emit::read_positions(a, o.ctx, static_cast<long long>(max_entries), 0, 0);
  const long long n = ps.count;
  q.start = ps.start;
  q.positions = static_cast<std::size_t>(n);
  q.max_ulp = o.max_ulp;
  q.description = table_words(o) + "; positions " + std::to_string(q.start) + " .. " + std::to_string(q.start + n - 1) +
                  "; floor_scale " + std::to_string(q.config.floor_scale) + ", attn_scale " +
                  format_hex(q.config.attn_scale);
  return verify_real(o, {q.positions}, "scale",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_attn_temperature(q, in); });
}

inline constexpr verify_scheme attn_temperature_verify{"attn-temperature", run_attn_temperature, false};
inline constexpr verify_scheme attn_temperature_verifiers[] = {attn_temperature_verify};

}  // namespace posenc::cli::verify_schemes
#endif
