// schemes/transformer_xl.hpp: Transformer-XL's and XLNet's relative sinusoids on the command line,
// one place: its flags and the one reader of its config (which `emit` and `verify` both call),
// `posenc emit transformer-xl` (transformer_xl::fill_table / position; columns
// row,position,dim,value) and, with the verify layer (POSENC_CLI_HAVE_VERIFY), `posenc verify` of
// the same table. schemes.hpp lists it.
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
#include <posenc/transformer_xl.hpp>

#include "args.hpp"
#include "config_field_flags.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"
#include "scheme_command.hpp"

#if POSENC_CLI_HAVE_VERIFY
#include <posenc/verify/transformer_xl_verify.hpp>

#include "verify_table_input.hpp"
#endif

namespace posenc::cli::emit {

inline constexpr auto transformer_xl_flags = config_field_flags<transformer_xl::config_fields>::flags;

inline transformer_xl::config read_transformer_xl_config(const parsed_args& a, const std::string& ctx) {
  transformer_xl::config c{};
  read_config_fields<transformer_xl::config_fields>(a, ctx, c);
  if (c.model == transformer_xl::model::transformer_xl)  // these say something about XLNet only
    for (const char* f : {"qlen", "attn-type", "bi-data"})
      if (a.has(f)) throw usage_error(ctx + ": flag --" + f + " applies to --model xlnet only");
  check_valid(transformer_xl::validate(c), ctx, "Transformer-XL");
  return c;
}

inline std::string emit_transformer_xl(const parsed_args& a, const table_options& o) {
  const transformer_xl::config c = read_transformer_xl_config(a, o.ctx);
  const std::int64_t nrows = transformer_xl::rows(c);
  const std::size_t d = static_cast<std::size_t>(c.d_model);
  const std::size_t rows = table_rows(static_cast<std::uint64_t>(nrows), d, o.ctx,
                                      std::to_string(nrows) + " relative positions x --d-model " + std::to_string(d));
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t;
    t.scheme = "transformer-xl";
    t.keys = {"row", "position", "dim"};
    t.value = "value";
    t.values.resize(rows);
    check_status(transformer_xl::fill_table<T>(c, std::span<T>(t.values)), "Transformer-XL table");
    t.key_of = [c, d](std::size_t r, std::int64_t* k) {
      k[0] = static_cast<std::int64_t>(r / d);
      k[1] = transformer_xl::position(c, k[0]).value;
      k[2] = static_cast<std::int64_t>(r % d);
    };
    t.shape = {static_cast<std::size_t>(nrows), d};
    t.index_notes = {"[r][k]: row r (relative position transformer_xl::position(r), listed in the CSV),",
                     "element k of [sin | cos] of position * 10000^(-2i/d_model)"};
    t.params = {{"model", c.model == transformer_xl::model::xlnet ? "xlnet" : "transformer-xl"},
                {"d_model", std::to_string(c.d_model)},
                {"klen", std::to_string(c.klen)},
                {"qlen", std::to_string(c.qlen)},
                {"clamp_len", std::to_string(c.clamp_len)},
                {"attn_type", c.attn_type == transformer_xl::attention::bi ? "bi" : "uni"},
                {"bi_data", c.bi_data ? "true" : "false"},
                {"dtype", std::string(dtype_name<T>())}};
    return write_table(t, o);
  });
}

inline constexpr scheme_command transformer_xl_command{
    "transformer-xl",
    "transformer-xl --d-model D --klen K [--clamp-len C] [--model transformer-xl|xlnet] [--qlen Q] [--attn-type "
    "bi|uni] [--bi-data]",
    transformer_xl_flags, true, emit_transformer_xl};
// This file's tables, as schemes.hpp collects them (its name + _commands).
inline constexpr scheme_command transformer_xl_commands[] = {transformer_xl_command};

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

inline pv::verify_report run_transformer_xl(const parsed_args& a, const options& o) {
  pv::transformer_xl_verify_request q;
  q.run = o.run;
  q.config = emit::read_transformer_xl_config(a, o.ctx);
  const transformer_xl::config& c = q.config;
  const auto rows = static_cast<std::uint64_t>(transformer_xl::rows(c));
  const auto d = static_cast<std::uint64_t>(c.d_model);
  if (rows > max_entries) throw usage_error(o.ctx + ": table too large: " + std::to_string(rows) + " rows");
  check_entries(rows * d, o, std::to_string(rows) + " rows x --d-model " + std::to_string(d));
  q.max_ulp = o.max_ulp;
  q.description = table_words(o) + "; " + (c.model == transformer_xl::model::xlnet ? "xlnet" : "transformer-xl") +
                  ", d_model " + std::to_string(c.d_model) + ", klen " + std::to_string(c.klen) + ", qlen " +
                  std::to_string(c.qlen) + ", clamp_len " + std::to_string(c.clamp_len) + ", attn_type " +
                  (c.attn_type == transformer_xl::attention::bi ? "bi" : "uni") + ", bi_data " +
                  (c.bi_data ? "true" : "false");
  return verify_real(o, {rows, d}, "value",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_transformer_xl(q, in); });
}

inline constexpr verify_scheme transformer_xl_verify{"transformer-xl", run_transformer_xl, false};
inline constexpr verify_scheme transformer_xl_verifiers[] = {transformer_xl_verify};

}  // namespace posenc::cli::verify_schemes
#endif
