// emit_sinusoids.hpp: `posenc emit sinusoidal`, `transformer-xl` and `xpos`: real tables by position
// from sinusoidal::fill_table, transformer_xl::fill_table and xpos::fill_scales (emit_schemes.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <posenc/sinusoidal.hpp>
#include <posenc/status.hpp>
#include <posenc/transformer_xl.hpp>
#include <posenc/xpos.hpp>

#include "args.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "scheme_configs.hpp"

namespace posenc::cli::emit {

// ---- sinusoidal ----------------------------------------------------------------------------

inline std::string emit_sinusoidal(const parsed_args& a, const table_options& o) {
  const sinusoidal::config c = read_sinusoidal_config(a, o.ctx);
  const sinusoidal::checked_config cc{c};
  const position_span ps = read_positions(a, o.ctx, static_cast<long long>(max_table_rows), -max_abs_position, 0);
  const long long first = ps.start, n = ps.count;
  const std::size_t d = static_cast<std::size_t>(c.dim);
  const std::size_t rows = table_rows(static_cast<std::uint64_t>(n), d, o.ctx,
                                      "--positions " + std::to_string(n) + " x --dim " + std::to_string(d));
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t;
    t.scheme = "sinusoidal";
    t.keys = {"position", "dim"};
    t.value = "value";
    t.values.resize(rows);
    check_status(sinusoidal::fill_table<T>(cc, first, std::span<T>(t.values)), "sinusoidal table");
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

// ---- Transformer-XL / XLNet ------------------------------------------------------------------

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

// ---- XPOS ----------------------------------------------------------------------------------

inline std::string emit_xpos(const parsed_args& a, const table_options& o) {
  const xpos::config c = read_xpos_config(a, o.ctx);
  const xpos::checked_config cc{c};
  const position_span ps = read_positions(a, o.ctx, static_cast<long long>(max_table_rows), -max_abs_position, 0);
  const long long first = ps.start, n = ps.count;
  const bool inverse = a.has("inverse");
  const auto pairs = static_cast<std::size_t>(c.head_dim / 2);
  const std::size_t rows = table_rows(static_cast<std::uint64_t>(n), pairs, o.ctx,
                                      "--positions " + std::to_string(n) + " x " + std::to_string(pairs) + " pairs");
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t;
    t.scheme = "xpos";
    t.keys = {"position", "pair"};
    t.value = "scale";
    t.values.resize(rows);
    const posenc::status st = xpos::fill_scales<T>(cc, first, std::span<T>(t.values), inverse);
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

}  // namespace posenc::cli::emit
