// schemes/shaw.hpp: Shaw's clipped relative indices on the command line, one place: its flags and
// the one reader of its config (which `emit` and `verify` both call), `posenc emit shaw`
// (shaw::fill_index_table; columns query,key,index) and, with the verify layer
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

#include <posenc/shaw.hpp>
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
#include <posenc/verify/shaw_verify.hpp>

#include "verify_table_input.hpp"
#endif

namespace posenc::cli::emit {

inline constexpr flag_spec shaw_table_flags[] = {
    {"positions", flag_kind::value, "N", "queries and keys 0 .. N-1"},
};
inline constexpr auto shaw_flags = with_config_flags<shaw::config_fields>(shaw_table_flags);

inline shaw::config read_shaw_config(const parsed_args& a, const std::string& ctx) {
  shaw::config c{};
  read_config_fields<shaw::config_fields>(a, ctx, c);
  check_valid(shaw::validate(c), ctx, "Shaw");
  return c;
}

inline std::string emit_shaw(const parsed_args& a, const table_options& o) {
  const shaw::config c = read_shaw_config(a, o.ctx);
  const auto n =
      static_cast<std::size_t>(required_integer(a, "positions", 1, static_cast<long long>(max_table_rows), o.ctx));
  const std::size_t rows = table_rows(n, n, o.ctx, "--positions " + std::to_string(n) + " squared");
  table<std::int32_t> t;
  t.scheme = "shaw";
  t.keys = {"query", "key"};
  t.value = "index";
  std::vector<int> v(rows);
  check_status(shaw::fill_index_table(c, 0, n, 0, std::span<int>(v)), "Shaw indices");
  t.values.assign(v.begin(), v.end());
  t.key_of = [n](std::size_t r, std::int64_t* k) {
    k[0] = static_cast<std::int64_t>(r / n);
    k[1] = static_cast<std::int64_t>(r % n);
  };
  t.shape = {n, n};
  t.index_notes = {"[i][j]: query i, key j: clip(j - i, -k, k) + k, an index into the (2k + 1)-row tables"};
  t.params = {{"max_relative_position k", std::to_string(c.max_relative_position)}, {"positions", std::to_string(n)}};
  return write_table(t, o);
}

inline constexpr scheme_command shaw_command{"shaw", "shaw --positions N [--max-relative-position 20]", shaw_flags,
                                             false, emit_shaw};
// This file's tables, as schemes.hpp collects them (its name + _commands).
inline constexpr scheme_command shaw_commands[] = {shaw_command};

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

inline pv::verify_report run_shaw(const parsed_args& a, const options& o) {
  pv::shaw_verify_request q;
  q.run = o.run;
  q.config = emit::read_shaw_config(a, o.ctx);
  integers_only(a, o);
  q.positions = static_cast<std::size_t>(emit::required_integer(a, "positions", 1, 2048, o.ctx));
  q.description = table_words(o) + "; queries and keys 0 .. " + std::to_string(q.positions - 1) +
                  "; max_relative_position " + std::to_string(q.config.max_relative_position);
  if (!o.table) return pv::verify_shaw(q, {});
  const auto n = static_cast<std::uint64_t>(q.positions);
  const std::vector<std::int32_t> v = read_integers(o, {n, n}, "index");
  return pv::verify_shaw(q, v, false);
}

inline constexpr verify_scheme shaw_verify{"shaw", run_shaw, true};
inline constexpr verify_scheme shaw_verifiers[] = {shaw_verify};

}  // namespace posenc::cli::verify_schemes
#endif
