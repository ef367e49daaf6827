// verify_scheme_runners.hpp: `posenc verify <scheme>` for each scheme other than RoPE: its config
// read by the reader `posenc emit <scheme>` also calls (scheme_configs.hpp), its description, its table's shape, and the call of the
// library's engine (posenc/verify/scheme_verify.hpp) on posenc's table or the --table file
// (verify_table_input.hpp). commands_verify_schemes.hpp lists them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <posenc/alibi.hpp>
#include <posenc/deberta.hpp>
#include <posenc/kerple.hpp>
#include <posenc/logn.hpp>
#include <posenc/sandwich.hpp>
#include <posenc/shaw.hpp>
#include <posenc/sinusoidal.hpp>
#include <posenc/t5.hpp>
#include <posenc/transformer_xl.hpp>
#include <posenc/verify/scheme_verify.hpp>
#include <posenc/xpos.hpp>

#include "args.hpp"
#include "emit_scheme_util.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"
#include "scheme_configs.hpp"
#include "verify_table_input.hpp"

namespace posenc::cli::verify_schemes {

// ---- ALiBi ----

inline pv::verify_report run_alibi(const parsed_args& a, const options& o) {
  pv::alibi_verify_request q;
  q.run = o.run;
  const emit::alibi_choice ac = emit::read_alibi_config(a, o.ctx);
  q.config = ac.config;
  q.bias = ac.bias;
  q.symmetric = ac.symmetric;
  if (q.bias) {
    q.positions =
        static_cast<std::size_t>(emit::required_integer(a, "positions", 1, static_cast<long long>(max_entries), o.ctx));
    check_entries(static_cast<std::uint64_t>(q.config.heads) * pv::alibi_entries_per_head(q), o,
                  "--heads " + std::to_string(q.config.heads) + " x " + std::to_string(pv::alibi_entries_per_head(q)) +
                      " entries per head");
  }
  q.max_ulp = o.max_ulp;
  q.description = table_words(o) + "; " +
                  (q.bias ? "biases of " + std::to_string(q.positions) + " positions, " +
                                (q.symmetric ? "symmetric" : "causal (keys j <= i)")
                          : std::string("slopes")) +
                  "; heads " + std::to_string(q.config.heads) + ", max_bias " + format_hex(q.config.max_bias);
  const auto heads = static_cast<std::uint64_t>(q.config.heads);
  const std::uint64_t n = q.positions;
  const std::vector<std::uint64_t> shape = !q.bias       ? std::vector<std::uint64_t>{heads}
                                           : q.symmetric ? std::vector<std::uint64_t>{heads, n, n}
                                                         : std::vector<std::uint64_t>{heads, n * (n + 1) / 2};
  return verify_real(o, shape, q.bias ? "bias" : "slope",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_alibi(q, in); });
}

// ---- sinusoidal, Transformer-XL, XPOS ----

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

// ---- KERPLE, Sandwich, log-n ----

inline pv::verify_report run_kerple(const parsed_args& a, const options& o, bool log) {
  pv::kerple_verify_request q;
  q.run = o.run;
  q.log = log;
  emit::kerple_heads heads = emit::read_kerple_config(a, o.ctx);
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

inline pv::verify_report run_sandwich(const parsed_args& a, const options& o) {
  pv::sandwich_verify_request q;
  q.run = o.run;
  q.config = emit::read_sandwich_config(a, o.ctx);
  q.distances =
      static_cast<std::size_t>(emit::required_integer(a, "distances", 1, static_cast<long long>(max_entries), o.ctx));
  const auto heads = static_cast<std::uint64_t>(q.config.heads);
  check_entries(heads * q.distances, o,
                "--heads " + std::to_string(heads) + " x --distances " + std::to_string(q.distances));
  // The oracle sums dim/2 cosines at about 450 bits per entry: cap the work of a run (2^22 terms,
  // about 20 s on one core); --shard K/N shares a table's terms among N runs.
  const std::uint64_t terms = heads * q.distances * static_cast<std::uint64_t>(q.config.dim / 2);
  if (terms / o.run.shard.count > (std::uint64_t{1} << 22))
    throw usage_error(o.ctx + ": table too costly to verify: --heads x --distances x dim/2 = " + std::to_string(terms) +
                      " MPFR cosines (at most 2^22 = 4194304 per run: give --shard K/N)");
  q.max_ulp = o.max_ulp;
  q.description = table_words(o) + "; distances 0 .. " + std::to_string(q.distances - 1) + "; dim " +
                  std::to_string(q.config.dim) + ", heads " + std::to_string(q.config.heads);
  return verify_real(o, {heads, q.distances}, "bias",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_sandwich(q, in); });
}

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

// ---- T5 buckets ----

inline pv::verify_report run_t5(const parsed_args& a, const options& o) {
  pv::t5_verify_request q;
  q.run = o.run;
  q.config = emit::read_t5_config(a, o.ctx);
  integers_only(a, o);
  // Default: twice max_distance, so the table shows every bucket and the saturation past it.
  const long long fallback = std::min<long long>(2 * q.config.relative_attention_max_distance, 1LL << 23);
  q.range = flag_integer(a, "range", 0, (1LL << 23) - 1, fallback, o.ctx);
  q.description = table_words(o) + "; relative positions -" + std::to_string(q.range) + " .. " +
                  std::to_string(q.range) + "; relative_attention_num_buckets " +
                  std::to_string(q.config.relative_attention_num_buckets) + ", relative_attention_max_distance " +
                  std::to_string(q.config.relative_attention_max_distance) +
                  (q.config.bidirectional ? ", bidirectional" : ", causal");
  const std::vector<std::uint64_t> shape{static_cast<std::uint64_t>(2 * q.range + 1)};
  if (!o.table) return pv::verify_t5(q, {});
  const std::vector<std::int32_t> v = read_integers(o, shape, "bucket");
  return pv::verify_t5(q, v, false);
}

// ---- DeBERTa buckets, Shaw indices ----

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

}  // namespace posenc::cli::verify_schemes
