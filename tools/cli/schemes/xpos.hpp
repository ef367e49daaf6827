// schemes/xpos.hpp: XPOS's scales on the command line, one place: its flags and the one reader of
// its config (which `emit` and `verify` both call), `posenc emit xpos` (xpos::fill_scales; columns
// position,pair,scale) and, with the verify layer (POSENC_CLI_HAVE_VERIFY), `posenc verify` of the
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

#include <posenc/status.hpp>
#include <posenc/xpos.hpp>

#include "args.hpp"
#include "config_field_flags.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"
#include "scheme_command.hpp"

#if POSENC_CLI_HAVE_VERIFY
#include <posenc/verify/xpos_verify.hpp>

#include "verify_table_input.hpp"
#endif

namespace posenc::cli::emit {

inline constexpr flag_spec xpos_table_flags[] = {
    {"positions", flag_kind::value, "N", "number of positions"},
    {"start", flag_kind::value, "P", "first position (default 0, |P| <= 2^40)"},
    {"inverse", flag_kind::boolean, "", "the keys' factor zeta^(-n/scale_base)"},
};
inline constexpr auto xpos_flags = with_config_flags<xpos::config_fields>(xpos_table_flags);

inline xpos::config read_xpos_config(const parsed_args& a, const std::string& ctx) {
  xpos::config c{};
  read_config_fields<xpos::config_fields>(a, ctx, c);
  check_valid(xpos::checked_config{c}.check(), ctx, "XPOS");
  return c;
}

inline std::string emit_xpos(const parsed_args& a, const table_options& o) {
  const xpos::config c = read_xpos_config(a, o.ctx);
  const xpos::checked_config cc{c};
  const position_span ps = read_positions(a, o.ctx, static_cast<long long>(max_table_rows), -max_abs_position, 0);
  const long long first = ps.start, n = ps.count;
  const bool inverse = a.has("inverse");
  const auto pairs = static_cast<std::size_t>(c.head_dim / 2);
  const std::size_t rows = table_rows(static_cast<std::uint64_t>(n), pairs, o.ctx,
                                      "--positions " + std::to_string(n) + " x " + std::to_string(pairs) + " pairs");
  return with_dtype_or_fixed(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t;
    t.scheme = "xpos";
    t.keys = {"position", "pair"};
    t.value = "scale";
    t.values.resize(rows);
    posenc::status st = posenc::status::ok;
    if constexpr (is_fixed<T>()) {  // q15/q31: scales past 1 saturate, counted and noted
      const posenc::fixed_fill_status f = xpos::fill_scales<T>(cc, first, std::span<T>(t.values), inverse);
      st = f.error;
      t.saturated = f.saturated;
      note_saturation<T>(o.ctx, f.saturated, rows);
    } else {
      st = xpos::fill_scales<T>(cc, first, std::span<T>(t.values), inverse);
    }
    if (st == posenc::status::overflow) {
      const std::size_t k = first_infinite(t.values);
      throw usage_error(o.ctx + ": the scale overflows " + std::string(dtype_name<T>()) + " at position " +
                        std::to_string(first + static_cast<long long>(k / pairs)) + ", pair " +
                        std::to_string(k % pairs));
    }
    check_status(st, "XPOS scales");
    t.key_of = [first, pairs](std::size_t r, std::int64_t* k) {
      k[0] = first + static_cast<std::int64_t>(r / pairs);
      k[1] = static_cast<std::int64_t>(r % pairs);
    };
    t.shape = {static_cast<std::size_t>(n), pairs};
    t.index_notes = {std::string("[i][j]: position n = start + i, pair j: zeta_j^(") + (inverse ? "-" : "") +
                     "n / scale_base), zeta_j = (2j + 0.4 d) / (1.4 d)"};
    t.params = {{"head_dim", std::to_string(c.head_dim)},
                {"scale_base", std::to_string(c.scale_base)},
                {"factor", inverse ? "inverse (the keys')" : "scale (the queries')"},
                {"start", std::to_string(first)},
                {"positions", std::to_string(n)},
                {"dtype", std::string(dtype_name<T>())}};
    return write_table(t, o);
  });
}

inline constexpr scheme_command xpos_command{
    "xpos", "xpos --head-dim D --positions N [--start P] [--scale-base 512] [--inverse]", xpos_flags, true, emit_xpos};
// This file's tables, as schemes.hpp collects them (its name + _commands).
inline constexpr scheme_command xpos_commands[] = {xpos_command};

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

inline pv::verify_report run_xpos(const parsed_args& a, const options& o) {
  pv::xpos_verify_request q;
  q.run = o.run;
  q.config = emit::read_xpos_config(a, o.ctx);
  const emit::position_span ps =
      emit::read_positions(a, o.ctx, static_cast<long long>(max_entries), -emit::max_abs_position, 0);
  const long long n = ps.count;
  q.start = ps.start;
  q.positions = static_cast<std::size_t>(n);
  q.inverse = a.has("inverse");
  const auto pairs = static_cast<std::uint64_t>(q.config.head_dim / 2);
  check_entries(q.positions * pairs, o, "--positions " + std::to_string(n) + " x " + std::to_string(pairs) + " pairs");
  q.max_ulp = o.max_ulp;
  q.description = table_words(o) + "; " + (q.inverse ? "inverse scales" : "scales") + " of positions " +
                  std::to_string(q.start) + " .. " + std::to_string(q.start + n - 1) + "; head_dim " +
                  std::to_string(q.config.head_dim) + ", scale_base " + std::to_string(q.config.scale_base);
  return verify_real(o, {q.positions, pairs}, "scale",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_xpos(q, in); });
}

inline constexpr verify_scheme xpos_verify{"xpos", run_xpos, false, {}, /*fixed_point=*/true};
inline constexpr verify_scheme xpos_verifiers[] = {xpos_verify};

}  // namespace posenc::cli::verify_schemes
#endif
