// schemes/deberta.hpp: DeBERTa's log buckets on the command line, one place: its flags and the one
// reader of its config (which `emit` and `verify` both call), `posenc emit deberta-bucket`
// (deberta::fill_buckets; columns relative_position,bucket) and, with the verify layer
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

#include <posenc/deberta.hpp>
#include <posenc/status.hpp>

#include "args.hpp"
#include "config_field_flags.hpp"
#include "emit_bucket_table.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"
#include "scheme_command.hpp"

#if POSENC_CLI_HAVE_VERIFY
#include <posenc/verify/deberta_verify.hpp>

#include "verify_table_input.hpp"
#endif

namespace posenc::cli::emit {

inline constexpr flag_spec deberta_table_flags[] = {
    {"range", flag_kind::value, "R", "relative positions -R .. R"},
};
inline constexpr auto deberta_flags = with_config_flags<deberta::config_fields>(deberta_table_flags);

inline deberta::config read_deberta_config(const parsed_args& a, const std::string& ctx) {
  deberta::config c{};
  read_config_fields<deberta::config_fields>(a, ctx, c);
  check_valid(deberta::checked_config{c}.check(), ctx, "DeBERTa");
  return c;
}

inline std::string emit_deberta(const parsed_args& a, const table_options& o) {
  const deberta::config c = read_deberta_config(a, o.ctx);
  const deberta::checked_config cc{c};
  const long long range = required_integer(a, "range", 0, 1LL << 62, o.ctx);
  table<std::int32_t> t = bucket_table("deberta-bucket", range, o);
  std::vector<std::int64_t> b(t.values.size());
  check_status(deberta::fill_buckets(cc, -range, std::span<std::int64_t>(b)), "DeBERTa buckets");
  for (std::size_t i = 0; i < b.size(); ++i) t.values[i] = static_cast<std::int32_t>(b[i]);  // |bucket| <= |r| < 2^24
  t.index_notes = {"[R + r]: the bucket of relative position r = query - key (DeBERTa's sign), -R <= r <= R"};
  t.params = {{"position_buckets", std::to_string(c.position_buckets)},
              {"max_relative_positions", std::to_string(c.max_relative_positions)},
              {"range R", std::to_string(range)}};
  return write_table(t, o);
}

inline constexpr scheme_command deberta_bucket_command{
    "deberta-bucket", "deberta-bucket [--position-buckets 256] [--max-relative-positions 512] --range R", deberta_flags,
    false, emit_deberta};
// This file's tables, as schemes.hpp collects them (its name + _commands).
inline constexpr scheme_command deberta_commands[] = {deberta_bucket_command};

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

inline pv::verify_report run_deberta(const parsed_args& a, const options& o) {
  pv::deberta_verify_request q;
  q.run = o.run;
  q.config = emit::read_deberta_config(a, o.ctx);
  integers_only(a, o);
  q.range = emit::required_integer(a, "range", 0, static_cast<long long>(max_entries / 2) - 1, o.ctx);
  q.description = table_words(o) + "; relative positions -" + std::to_string(q.range) + " .. " +
                  std::to_string(q.range) + " (query - key); position_buckets " +
                  std::to_string(q.config.position_buckets) + ", max_relative_positions " +
                  std::to_string(q.config.max_relative_positions);
  if (!o.table) return pv::verify_deberta(q, {});
  const std::vector<std::int32_t> v = read_integers(o, {static_cast<std::uint64_t>(2 * q.range + 1)}, "bucket");
  return pv::verify_deberta(q, v, false);
}

inline constexpr verify_scheme deberta_bucket_verify{"deberta-bucket", run_deberta, true};
inline constexpr verify_scheme deberta_verifiers[] = {deberta_bucket_verify};

}  // namespace posenc::cli::verify_schemes
#endif
