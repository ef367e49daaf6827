// emit_schemes.hpp: `posenc emit <scheme>` for every scheme but RoPE (issue 9). Each command reads
// the scheme's config from flags, checks it with the scheme's validate (whose sentence becomes the
// error), calls the scheme's run-time generator on a buffer (the same bits as its constexpr
// tables), and lays the result out with emit_table.hpp. No formula is evaluated here.
//
//   sinusoidal       sinusoidal::fill_table                 position,dim,value
//   transformer-xl   transformer_xl::fill_table / position  row,position,dim,value
//   alibi            alibi::fill_slopes                     head,slope
//   alibi --bias     alibi::fill_bias_by_distance           head,query,key,bias
//   t5-bucket        t5::fill_buckets                       relative_position,bucket
//   deberta-bucket   deberta::fill_buckets                  relative_position,bucket
//   shaw             shaw::fill_index_table                 query,key,index
//   xpos             xpos::fill_scales                      position,pair,scale
//   kerple-log       kerple::log_bias                       head,distance,bias
//   kerple-power     kerple::power_bias                     head,distance,bias
//   sandwich         sandwich::bias                         head,distance,bias
//   logn             logn::fill_factors                     n,factor
//
// Docs: docs/cli.md, section `posenc emit` for the other schemes.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <posenc/alibi.hpp>
#include <posenc/deberta.hpp>
#include <posenc/kerple.hpp>
#include <posenc/logn.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/sandwich.hpp>
#include <posenc/shaw.hpp>
#include <posenc/sinusoidal.hpp>
#include <posenc/status.hpp>
#include <posenc/t5.hpp>
#include <posenc/transformer_xl.hpp>
#include <posenc/xpos.hpp>

#include "args.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"

namespace posenc::cli::emit {

// Positions of sinusoidal, xpos and logn tables lie in [-2^40, 2^40] (the generators take far
// more; this keeps every row count and position sum in 64 bits with room to spare).
inline constexpr long long max_abs_position = 1LL << 40;
inline constexpr long long int_min = -(1LL << 31), int_max = (1LL << 31) - 1;

inline long long required_integer(const parsed_args& a, std::string_view name, long long lo, long long hi,
                                  const std::string& ctx) {
  if (!a.has(name)) throw usage_error(ctx + ": --" + std::string(name) + " is required");
  return flag_integer(a, name, lo, hi, 0, ctx);
}

// rows = a * b, an error when it exceeds max_table_rows (a, b below 2^62: no overflow).
inline std::size_t table_rows(std::uint64_t a, std::uint64_t b, const std::string& ctx, const std::string& what) {
  if (a != 0 && b > max_table_rows / a + 1)
    throw usage_error(ctx + ": table too large: " + what + " (at most 2^24 = 16777216 rows per run)");
  const std::uint64_t r = a * b;
  if (r > max_table_rows)
    throw usage_error(ctx + ": table too large: " + what + " = " + std::to_string(r) +
                      " rows (at most 2^24 = 16777216 per run)");
  return static_cast<std::size_t>(r);
}

// Positions first .. first + n - 1 within [-2^40, 2^40].
inline void check_position_range(long long first, long long n, const std::string& ctx) {
  if (first + n - 1 > max_abs_position)
    throw usage_error(ctx + ": --start " + std::to_string(first) + " --positions " + std::to_string(n) +
                      " ends at position " + std::to_string(first + n - 1) + " (positions must be <= 2^40)");
}

inline void check_valid(const posenc::validation& v, const std::string& ctx, std::string_view scheme) {
  if (!v.ok()) throw usage_error(ctx + ": invalid " + std::string(scheme) + " config: " + v.message);
}

inline void check_status(posenc::status st, const std::string& what) {
  if (st != posenc::status::ok) throw std::runtime_error(what + ": " + posenc::to_string(st));
}

template <class T>
std::size_t first_infinite(const std::vector<T>& v) {
  std::size_t k = 0;
  while (k + 1 < v.size() && !is_infinite(v[k])) ++k;
  return k;
}

// Calls f(std::type_identity<T>{}) with T the --dtype (default f64).
template <class F>
std::string with_dtype(const parsed_args& a, const std::string& ctx, F&& f) {
  const dtype t =
      flag_choice(a, "dtype", {{"f64", dtype::f64}, {"f32", dtype::f32}, {"bf16", dtype::bf16}, {"f16", dtype::f16}},
                  dtype::f64, ctx);
  switch (t) {
    case dtype::f32: return f(std::type_identity<float>{});
    case dtype::bf16: return f(std::type_identity<posenc::bfloat16>{});
    case dtype::f16: return f(std::type_identity<posenc::float16>{});
    case dtype::f64: break;
  }
  return f(std::type_identity<double>{});
}

inline std::string real_text(double v) { return format_hex(v); }

// ---- sinusoidal ----------------------------------------------------------------------------

inline std::string emit_sinusoidal(const parsed_args& a, const table_options& o) {
  sinusoidal::config c{};
  c.dim = static_cast<int>(required_integer(a, "dim", int_min, int_max, o.ctx));
  c.base = flag_real<double>(a, "base", 10000.0, o.ctx);
  c.exponent =
      flag_choice(a, "exponent", {{"paper", sinusoidal::exponent::paper}, {"fairseq", sinusoidal::exponent::fairseq}},
                  sinusoidal::exponent::paper, o.ctx);
  c.layout = flag_choice(a, "layout",
                         {{"interleaved", sinusoidal::layout::interleaved}, {"concat", sinusoidal::layout::concat}},
                         sinusoidal::layout::interleaved, o.ctx);
  const sinusoidal::checked_config cc{c};
  check_valid(cc.check(), o.ctx, "sinusoidal");
  const long long n = required_integer(a, "positions", 1, static_cast<long long>(max_table_rows), o.ctx);
  const long long first = flag_integer(a, "start", -max_abs_position, max_abs_position, 0, o.ctx);
  check_position_range(first, n, o.ctx);
  const std::size_t d = static_cast<std::size_t>(c.dim);
  const std::size_t rows = table_rows(static_cast<std::uint64_t>(n), d, o.ctx,
                                      "--positions " + std::to_string(n) + " x --dim " + std::to_string(d));
  return with_dtype(a, o.ctx, [&]<class T>(std::type_identity<T>) {
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
  transformer_xl::config c{};
  c.d_model = static_cast<int>(required_integer(a, "d-model", int_min, int_max, o.ctx));
  c.klen = required_integer(a, "klen", -(1LL << 62), 1LL << 62, o.ctx);
  c.model = flag_choice(
      a, "model", {{"transformer-xl", transformer_xl::model::transformer_xl}, {"xlnet", transformer_xl::model::xlnet}},
      transformer_xl::model::transformer_xl, o.ctx);
  if (c.model == transformer_xl::model::transformer_xl)
    for (const char* f : {"qlen", "attn-type", "bi-data"})
      if (a.has(f)) throw usage_error(o.ctx + ": flag --" + f + " applies to --model xlnet only");
  c.qlen = flag_integer(a, "qlen", -(1LL << 62), 1LL << 62, 0, o.ctx);
  c.clamp_len = flag_integer(a, "clamp-len", -(1LL << 62), 1LL << 62, -1, o.ctx);
  c.attn_type =
      flag_choice(a, "attn-type", {{"bi", transformer_xl::attention::bi}, {"uni", transformer_xl::attention::uni}},
                  transformer_xl::attention::bi, o.ctx);
  c.bi_data = a.has("bi-data");
  check_valid(transformer_xl::validate(c), o.ctx, "Transformer-XL");
  const std::int64_t nrows = transformer_xl::rows(c);
  const std::size_t d = static_cast<std::size_t>(c.d_model);
  const std::size_t rows = table_rows(static_cast<std::uint64_t>(nrows), d, o.ctx,
                                      std::to_string(nrows) + " relative positions x --d-model " + std::to_string(d));
  return with_dtype(a, o.ctx, [&]<class T>(std::type_identity<T>) {
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

// ---- ALiBi -----------------------------------------------------------------------------------

// Row r of a causal bias block (query i, key j <= i, r = i (i + 1) / 2 + j).
inline void causal_pair(std::uint64_t r, std::int64_t& i, std::int64_t& j) {
  auto q = static_cast<std::uint64_t>(std::sqrt(2.0 * static_cast<double>(r)));
  while (q * (q + 1) / 2 > r) --q;
  while ((q + 1) * (q + 2) / 2 <= r) ++q;
  i = static_cast<std::int64_t>(q);
  j = static_cast<std::int64_t>(r - q * (q + 1) / 2);
}

inline std::string emit_alibi(const parsed_args& a, const table_options& o) {
  alibi::config c{};
  c.heads = static_cast<int>(required_integer(a, "heads", int_min, int_max, o.ctx));
  c.max_bias = flag_real<double>(a, "max-bias", 8.0, o.ctx);
  const alibi::checked_config cc{c};
  check_valid(cc.check(), o.ctx, "ALiBi");
  const bool bias = a.has("bias"), symmetric = a.has("symmetric");
  if (!bias)
    for (const char* f : {"positions", "symmetric"})
      if (a.has(f)) throw usage_error(o.ctx + ": flag --" + f + " applies to 'emit alibi --bias' only");
  const auto heads = static_cast<std::size_t>(c.heads);
  std::size_t n = 0, per_head = 1;
  if (bias) {
    n = static_cast<std::size_t>(required_integer(a, "positions", 1, static_cast<long long>(max_table_rows), o.ctx));
    per_head = symmetric ? n * n : n * (n + 1) / 2;  // n <= 2^24: no overflow
  }
  const std::size_t rows =
      table_rows(heads, per_head, o.ctx,
                 "--heads " + std::to_string(heads) + " x " + std::to_string(per_head) + " entries per head");
  return with_dtype(a, o.ctx, [&]<class T>(std::type_identity<T>) {
    table<T> t;
    t.scheme = "alibi";
    t.params = {{"heads", std::to_string(c.heads)}, {"max_bias", real_text(c.max_bias)}};
    if (!bias) {
      t.keys = {"head"};
      t.value = "slope";
      t.values.resize(rows);
      check_status(alibi::fill_slopes<T>(cc, std::span<T>(t.values)), "ALiBi slopes");
      t.key_of = [](std::size_t r, std::int64_t* k) { k[0] = static_cast<std::int64_t>(r); };
      t.shape = {heads};
      t.index_notes = {"[h]: the slope m_h of head h"};
    } else {
      t.keys = {"head", "query", "key"};
      t.value = "bias";
      t.values.resize(rows);
      std::vector<T> by_distance(n);
      for (std::size_t h = 0; h < heads; ++h) {
        const posenc::status st = alibi::fill_bias_by_distance<T>(cc, static_cast<int>(h), std::span<T>(by_distance));
        if (st == posenc::status::overflow)
          throw usage_error(o.ctx + ": the bias overflows " + std::string(dtype_name<T>()) + " at head " +
                            std::to_string(h) + ", distance " + std::to_string(first_infinite(by_distance)));
        check_status(st, "ALiBi bias");
        T* out = t.values.data() + h * per_head;
        for (std::size_t i = 0, r = 0; i < n; ++i)
          for (std::size_t j = 0; j < (symmetric ? n : i + 1); ++j) out[r++] = by_distance[i >= j ? i - j : j - i];
      }
      t.key_of = [symmetric, n, per_head](std::size_t r, std::int64_t* k) {
        k[0] = static_cast<std::int64_t>(r / per_head);
        const std::size_t m = r % per_head;
        if (symmetric) {
          k[1] = static_cast<std::int64_t>(m / n);
          k[2] = static_cast<std::int64_t>(m % n);
        } else {
          causal_pair(m, k[1], k[2]);
        }
      };
      t.shape = {heads, per_head};
      if (symmetric) {
        t.shape = {heads, n, n};
        t.index_notes = {"[h][i][j]: head h, query i, key j: -m_h |i - j|"};
      } else {
        t.index_notes = {"[h][i (i + 1) / 2 + j]: head h, query i, key j <= i (causal): -m_h (i - j)"};
      }
      t.params.push_back({"positions", std::to_string(n)});
      t.params.push_back({"mask", symmetric ? "symmetric" : "causal"});
    }
    t.params.push_back({"dtype", std::string(dtype_name<T>())});
    return write_table(t, o);
  });
}

// ---- T5 and DeBERTa buckets (integers) --------------------------------------------------------

inline table<std::int32_t> bucket_table(std::string scheme, long long range, const table_options& o) {
  table<std::int32_t> t;
  t.scheme = std::move(scheme);
  t.keys = {"relative_position"};
  t.value = "bucket";
  const std::size_t rows = table_rows(2, static_cast<std::uint64_t>(range), o.ctx, "2 --range + 1") + 1;
  if (rows > max_table_rows)
    throw usage_error(o.ctx + ": table too large: 2 --range + 1 = " + std::to_string(rows) +
                      " rows (at most 2^24 = 16777216 per run)");
  t.values.resize(rows);
  t.key_of = [range](std::size_t r, std::int64_t* k) { k[0] = static_cast<std::int64_t>(r) - range; };
  t.shape = {rows};
  return t;
}

inline std::string emit_t5(const parsed_args& a, const table_options& o) {
  t5::config c{};
  c.relative_attention_num_buckets = static_cast<int>(required_integer(a, "num-buckets", int_min, int_max, o.ctx));
  c.relative_attention_max_distance = required_integer(a, "max-distance", -(1LL << 62), 1LL << 62, o.ctx);
  c.bidirectional = !a.has("causal");
  const t5::checked_config cc{c};
  check_valid(cc.check(), o.ctx, "T5");
  const long long range = required_integer(a, "range", 0, 1LL << 62, o.ctx);
  table<std::int32_t> t = bucket_table("t5-bucket", range, o);
  std::vector<int> b(t.values.size());
  check_status(t5::fill_buckets(cc, -range, std::span<int>(b)), "T5 buckets");
  for (std::size_t i = 0; i < b.size(); ++i) t.values[i] = static_cast<std::int32_t>(b[i]);
  t.index_notes = {"[R + r]: the bucket of relative position r = key - query, -R <= r <= R"};
  t.params = {{"relative_attention_num_buckets", std::to_string(c.relative_attention_num_buckets)},
              {"relative_attention_max_distance", std::to_string(c.relative_attention_max_distance)},
              {"bidirectional", c.bidirectional ? "true" : "false (--causal)"},
              {"range R", std::to_string(range)}};
  return write_table(t, o);
}

inline std::string emit_deberta(const parsed_args& a, const table_options& o) {
  deberta::config c{};
  c.position_buckets = static_cast<int>(required_integer(a, "bucket-size", int_min, int_max, o.ctx));
  c.max_relative_positions = required_integer(a, "max-position", -(1LL << 62), 1LL << 62, o.ctx);
  const deberta::checked_config cc{c};
  check_valid(cc.check(), o.ctx, "DeBERTa");
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

// ---- Shaw (integers) ---------------------------------------------------------------------------

inline std::string emit_shaw(const parsed_args& a, const table_options& o) {
  shaw::config c{};
  c.max_relative_position = static_cast<int>(flag_integer(a, "max-relative-position", int_min, int_max, 20, o.ctx));
  check_valid(shaw::validate(c), o.ctx, "Shaw");
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

// ---- XPOS ----------------------------------------------------------------------------------

inline std::string emit_xpos(const parsed_args& a, const table_options& o) {
  xpos::config c{};
  c.head_dim = static_cast<int>(required_integer(a, "head-dim", int_min, int_max, o.ctx));
  c.scale_base = static_cast<int>(flag_integer(a, "scale-base", int_min, int_max, 512, o.ctx));
  const xpos::checked_config cc{c};
  check_valid(cc.check(), o.ctx, "XPOS");
  const long long n = required_integer(a, "positions", 1, static_cast<long long>(max_table_rows), o.ctx);
  const long long first = flag_integer(a, "start", -max_abs_position, max_abs_position, 0, o.ctx);
  check_position_range(first, n, o.ctx);
  const bool inverse = a.has("inverse");
  const auto pairs = static_cast<std::size_t>(c.head_dim / 2);
  const std::size_t rows = table_rows(static_cast<std::uint64_t>(n), pairs, o.ctx,
                                      "--positions " + std::to_string(n) + " x " + std::to_string(pairs) + " pairs");
  return with_dtype(a, o.ctx, [&]<class T>(std::type_identity<T>) {
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

// ---- KERPLE and Sandwich (by distance) ---------------------------------------------------------

inline std::vector<double> real_list(const parsed_args& a, std::string_view name, const std::string& ctx) {
  const auto v = a.value(name);
  if (!v) throw usage_error(ctx + ": --" + std::string(name) + " X,X,... (one value per head) is required");
  std::vector<double> out;
  std::string_view rest = *v;
  for (;;) {
    const std::size_t comma = rest.find(',');
    out.push_back(parse_real<double>(rest.substr(0, comma), "--" + std::string(name) + " entry", ctx));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (out.size() > 4096) throw usage_error(ctx + ": --" + std::string(name) + " has more than 4096 heads");
  return out;
}

inline std::string list_text(const std::vector<double>& v) {
  std::string s;
  for (const double x : v) s += (s.empty() ? "" : ", ") + real_text(x);
  return s;
}

// Head h, distance k of a heads x distances table.
template <class T>
table<T> distance_table(std::string scheme, std::size_t heads, std::size_t n) {
  table<T> t;
  t.scheme = std::move(scheme);
  t.keys = {"head", "distance"};
  t.value = "bias";
  t.values.resize(heads * n);
  t.key_of = [n](std::size_t r, std::int64_t* k) {
    k[0] = static_cast<std::int64_t>(r / n);
    k[1] = static_cast<std::int64_t>(r % n);
  };
  t.shape = {heads, n};
  return t;
}

inline std::string emit_kerple(const parsed_args& a, const table_options& o, bool log) {
  const std::vector<double> p = real_list(a, "p", o.ctx), av = real_list(a, "a", o.ctx);
  if (p.size() != av.size())
    throw usage_error(o.ctx + ": --p has " + std::to_string(p.size()) + " values and --a " + std::to_string(av.size()) +
                      " (one per head each)");
  const auto n =
      static_cast<std::size_t>(required_integer(a, "distances", 1, static_cast<long long>(max_table_rows), o.ctx));
  table_rows(p.size(), n, o.ctx, std::to_string(p.size()) + " heads x --distances " + std::to_string(n));
  const char* domain =
      log ? "p and a finite and > 0, a >= 2^-60, a k < 2^84" : "a finite and > 0, p in (0, 2], distance k < 2^26";
  return with_dtype(a, o.ctx, [&]<class T>(std::type_identity<T>) {
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

inline std::string emit_sandwich(const parsed_args& a, const table_options& o) {
  sandwich::config c{};
  c.dim = static_cast<int>(required_integer(a, "dim", int_min, int_max, o.ctx));
  c.heads = static_cast<int>(required_integer(a, "heads", int_min, int_max, o.ctx));
  // sandwich::bias has no validate: its domain_error at distance 0 is the config's.
  if (sandwich::bias<double>(c, 0, 0).error == posenc::status::domain_error)
    throw usage_error(o.ctx + ": invalid Sandwich config: dim must be even and in [2, 4096], heads in [1, 4096]");
  const auto n =
      static_cast<std::size_t>(required_integer(a, "distances", 1, static_cast<long long>(max_table_rows), o.ctx));
  const auto heads = static_cast<std::size_t>(c.heads);
  table_rows(heads, n, o.ctx, "--heads " + std::to_string(heads) + " x --distances " + std::to_string(n));
  return with_dtype(a, o.ctx, [&]<class T>(std::type_identity<T>) {
    table<T> t = distance_table<T>("sandwich", heads, n);
    for (std::size_t h = 0; h < heads; ++h)
      for (std::size_t k = 0; k < n; ++k) {
        const posenc::result<T> r = sandwich::bias<T>(c, static_cast<int>(h), static_cast<std::int64_t>(k));
        check_status(r.error, "Sandwich bias");
        t.values[h * n + k] = r.value;
      }
    t.index_notes = {"[h][k]: head h, distance k: (sum_{i=1..d/2} cos(k 10000^(-2i/d)) - d/2) / (8 (h + 1) / H)"};
    t.params = {{"dim", std::to_string(c.dim)},
                {"heads", std::to_string(c.heads)},
                {"distances", std::to_string(n)},
                {"dtype", std::string(dtype_name<T>())}};
    return write_table(t, o);
  });
}

// ---- log-n scaling -------------------------------------------------------------------------

inline std::string emit_logn(const parsed_args& a, const table_options& o) {
  logn::config c{};
  c.base = flag_integer(a, "base", -(1LL << 62), 1LL << 62, 512, o.ctx);
  c.at_least_one = a.has("at-least-one");
  check_valid(logn::validate(c), o.ctx, "log-n");
  const long long n = required_integer(a, "positions", 1, static_cast<long long>(max_table_rows), o.ctx);
  const long long first = flag_integer(a, "start", 1, max_abs_position, 1, o.ctx);
  check_position_range(first, n, o.ctx);
  return with_dtype(a, o.ctx, [&]<class T>(std::type_identity<T>) {
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

// ---- the table of schemes ------------------------------------------------------------------

struct scheme_command {
  std::string_view name;
  std::string_view synopsis;              // the usage line(s), after "posenc emit "
  std::span<const std::string_view> own;  // its flags, besides the output ones
  bool real;                              // real-valued: --dtype and --decimal apply
  std::string (*run)(const parsed_args&, const table_options&);
};

inline constexpr std::string_view sinusoidal_flags[] = {"dim", "positions", "start", "base", "exponent", "layout"};
inline constexpr std::string_view transformer_xl_flags[] = {"d-model", "klen",      "qlen",   "clamp-len",
                                                            "model",   "attn-type", "bi-data"};
inline constexpr std::string_view alibi_flags[] = {"heads", "max-bias", "bias", "positions", "symmetric"};
inline constexpr std::string_view t5_flags[] = {"num-buckets", "max-distance", "causal", "range"};
inline constexpr std::string_view deberta_flags[] = {"bucket-size", "max-position", "range"};
inline constexpr std::string_view shaw_flags[] = {"max-relative-position", "positions"};
inline constexpr std::string_view xpos_flags[] = {"head-dim", "positions", "start", "scale-base", "inverse"};
inline constexpr std::string_view kerple_flags[] = {"p", "a", "distances"};
inline constexpr std::string_view sandwich_flags[] = {"dim", "heads", "distances"};
inline constexpr std::string_view logn_flags[] = {"base", "at-least-one", "positions", "start"};

inline std::string run_kerple_log(const parsed_args& a, const table_options& o) { return emit_kerple(a, o, true); }
inline std::string run_kerple_power(const parsed_args& a, const table_options& o) { return emit_kerple(a, o, false); }

inline constexpr scheme_command schemes[] = {
    {"sinusoidal",
     "sinusoidal --dim D --positions N [--start P] [--base 10000] [--exponent paper|fairseq] [--layout "
     "interleaved|concat]",
     sinusoidal_flags, true, emit_sinusoidal},
    {"transformer-xl",
     "transformer-xl --d-model D --klen K [--clamp-len C] [--model transformer-xl|xlnet] [--qlen Q] [--attn-type "
     "bi|uni] [--bi-data]",
     transformer_xl_flags, true, emit_transformer_xl},
    {"alibi", "alibi --heads H [--max-bias 8] [--bias --positions N [--symmetric]]", alibi_flags, true, emit_alibi},
    {"t5-bucket", "t5-bucket --num-buckets B --max-distance M [--causal] --range R", t5_flags, false, emit_t5},
    {"deberta-bucket", "deberta-bucket --bucket-size S --max-position M --range R", deberta_flags, false, emit_deberta},
    {"shaw", "shaw --positions N [--max-relative-position 20]", shaw_flags, false, emit_shaw},
    {"xpos", "xpos --head-dim D --positions N [--start P] [--scale-base 512] [--inverse]", xpos_flags, true, emit_xpos},
    {"kerple-log", "kerple-log --p P0,P1,... --a A0,A1,... --distances N", kerple_flags, true, run_kerple_log},
    {"kerple-power", "kerple-power --p P0,P1,... --a A0,A1,... --distances N", kerple_flags, true, run_kerple_power},
    {"sandwich", "sandwich --dim D --heads H --distances N", sandwich_flags, true, emit_sandwich},
    {"logn", "logn --positions N [--start 1] [--base 512] [--at-least-one]", logn_flags, true, emit_logn},
};

inline const scheme_command* find_scheme(std::string_view name) {
  for (const auto& s : schemes)
    if (s.name == name) return &s;
  return nullptr;
}

}  // namespace posenc::cli::emit
