// commands_verify_schemes.hpp: `posenc verify <scheme>` for the schemes other than RoPE (issue 10),
// and the `verify` command's table entry (its flags: RoPE's, merge's and the schemes').
//
//   posenc verify alibi (--heads H | --hf-config FILE) [--max-bias 8] [--bias --positions N [--symmetric]]
//   posenc verify t5-bucket (--num-buckets B --max-distance M | --hf-config FILE) [--causal] [--range R]
//   posenc verify sinusoidal|transformer-xl|xpos|kerple-log|kerple-power|sandwich|logn|deberta-bucket|shaw
//       [the flags of `posenc emit <scheme>`] [--dtype T[,T...]] [--table FILE] [--max-ulp K] [--json] [-o FILE]
// Each reads the scheme's config exactly as `posenc emit <scheme>` does (the same flags), builds
// posenc's table in each dtype (or reads --table FILE: .npy, .safetensors or the --format bin
// layout of `posenc emit <scheme>`) and checks every entry against its exact value and every law of
// the registry that applies (posenc/verify/scheme_verify.hpp). Exit 0 when everything holds, 1 when
// something fails, 2 on bad input. Docs: docs/verify.md, docs/cli.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <posenc/alibi.hpp>
#include <posenc/deberta.hpp>
#include <posenc/io/npy.hpp>
#include <posenc/io/safetensors.hpp>
#include <posenc/io/scheme_verify_report_json.hpp>
#include <posenc/io/tensor.hpp>
#include <posenc/kerple.hpp>
#include <posenc/logn.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/sandwich.hpp>
#include <posenc/shaw.hpp>
#include <posenc/sinusoidal.hpp>
#include <posenc/t5.hpp>
#include <posenc/transformer_xl.hpp>
#include <posenc/verify/scheme_verify.hpp>
#include <posenc/xpos.hpp>

#include "args.hpp"
#include "commands_verify.hpp"
#include "emit_output.hpp"
#include "emit_scheme_util.hpp"
#include "emit_schemes.hpp"
#include "hf_config_flag.hpp"
#include "verify_scheme_format.hpp"

namespace posenc::cli::verify_schemes {

namespace pv = posenc::verify;

// ---- the flags: `posenc emit <scheme>`'s, those verify rope does not already have ----

constexpr bool emit_scheme_flag(std::string_view name) {
  for (const auto& s : emit::schemes)
    for (const std::string_view f : s.own)
      if (f == name) return true;
  return false;
}
constexpr bool rope_verify_flag(std::string_view name) {
  for (const auto& f : verify_cmd::all_flags)
    if (f.name == name) return true;
  return false;
}
constexpr bool added_flag(const flag_spec& f) { return emit_scheme_flag(f.name) && !rope_verify_flag(f.name); }
constexpr std::size_t added_flag_count() {
  std::size_t n = 0;
  for (const auto& f : emit::own_flags) n += added_flag(f) ? 1u : 0u;
  return n;
}
constexpr auto all_flags = [] {
  std::array<flag_spec, verify_cmd::all_flags.size() + added_flag_count()> r{};
  std::size_t i = 0;
  for (const auto& f : verify_cmd::all_flags) r[i++] = f;
  for (const auto& f : emit::own_flags)
    if (added_flag(f)) r[i++] = f;
  return r;
}();

// The flags every `verify <scheme>` takes besides the scheme's own (emit_schemes.hpp's lists).
inline constexpr std::string_view common_flags[] = {"dtype", "table", "max-ulp", "json", "quiet", "output"};

// ---- what every scheme's verification shares ----

enum class table_file { bin, npy, safetensors };

struct options {
  std::string ctx;                      // "verify alibi"
  std::optional<std::string> table;     // --table FILE
  table_file kind = table_file::bin;    // its format, by its name
  std::vector<pv::table_dtype> dtypes;  // --dtype, or the default
  bool dtype_given = false;
  std::uint64_t max_ulp = 0;
};

inline std::optional<io::tensor_dtype> tensor_dtype_of(pv::table_dtype t) {
  switch (t) {
    case pv::table_dtype::f64: return io::tensor_dtype::f64;
    case pv::table_dtype::f32: return io::tensor_dtype::f32;
    case pv::table_dtype::bf16: return io::tensor_dtype::bf16;
    case pv::table_dtype::f16: return io::tensor_dtype::f16;
  }
  return std::nullopt;
}

template <class R>
R file_value(io::parse_result<R> r, const std::string& path, const std::string& ctx) {
  if (!r) throw usage_error(ctx + ": " + quote(path) + ": " + r.error());
  return r.value();
}

inline std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// The tensor of a .npy file or the tensor `column` of a .safetensors file, of the dtype asked for
// (if any) and of the shape `posenc emit <scheme>` gives the table.
inline io::tensor read_tensor(const options& o, std::optional<io::tensor_dtype> want,
                              const std::vector<std::uint64_t>& shape, std::string_view column) {
  const std::string& path = *o.table;
  io::tensor t;
  if (o.kind == table_file::npy) {
    t = file_value(io::read_npy_file(path, want), path, o.ctx);
  } else {
    const io::safetensors_file f = file_value(io::read_safetensors_file(path), path, o.ctx);
    t = file_value(io::find_tensor(f, std::string(column), want), path, o.ctx);
  }
  if (t.shape != shape)
    throw usage_error(o.ctx + ": " + quote(path) + " holds a " + shape_text(t.shape) + " tensor; this table is " +
                      shape_text(shape));
  return t;
}

// Someone else's real-valued table in T: the --format bin layout (little-endian T in row order) or
// the tensor of a .npy/.safetensors file.
template <class T>
std::vector<T> read_values(const options& o, const std::vector<std::uint64_t>& shape, const io::tensor* tensor) {
  if (tensor != nullptr) return file_value(io::tensor_values<T>(*tensor), *o.table, o.ctx);
  std::uint64_t n = 1;
  for (const std::uint64_t d : shape) n *= d;
  const std::string data = verify_cmd::read_file_bytes(*o.table, o.ctx);
  if (data.size() != n * sizeof(T))
    throw usage_error(o.ctx + ": " + quote(*o.table) + " has " + std::to_string(data.size()) + " bytes; a " +
                      std::string(emit::dtype_name<T>()) + " table of " + std::to_string(n) + " entries has " +
                      std::to_string(n * sizeof(T)));
  std::vector<T> v(n);
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  for (std::size_t i = 0; i < n; ++i) v[i] = verify_cmd::get_le<T>(p + i * sizeof(T));
  return v;
}

template <class F>
decltype(auto) with_table_dtype(pv::table_dtype t, F&& f) {
  switch (t) {
    case pv::table_dtype::f64: break;
    case pv::table_dtype::f32: return f(std::type_identity<float>{});
    case pv::table_dtype::bf16: return f(std::type_identity<posenc::bfloat16>{});
    case pv::table_dtype::f16: return f(std::type_identity<posenc::float16>{});
  }
  return f(std::type_identity<double>{});
}

// A real-valued scheme: posenc's own table in every dtype asked for, or the file's. engine(inputs)
// is the library's verify_<scheme>.
template <class Engine>
pv::scheme_verify_report verify_real(const options& o, const std::vector<std::uint64_t>& shape, std::string_view column,
                                     Engine engine) {
  if (!o.table) {
    std::vector<pv::values_input> in;
    for (const auto t : o.dtypes) in.push_back(pv::own_values(t));
    return engine(std::span<const pv::values_input>(in));
  }
  std::optional<io::tensor> tensor;
  pv::table_dtype dtype = o.dtypes[0];
  if (o.kind != table_file::bin) {
    tensor = read_tensor(o, o.dtype_given ? tensor_dtype_of(dtype) : std::nullopt, shape, column);
    bool known = false;
    for (const auto t : {pv::table_dtype::f64, pv::table_dtype::f32, pv::table_dtype::bf16, pv::table_dtype::f16})
      if (tensor_dtype_of(t) == tensor->dtype) dtype = t, known = true;
    if (!known)
      throw usage_error(o.ctx + ": " + quote(*o.table) + " holds " + std::string(io::dtype_name(tensor->dtype)) +
                        " values, not f64, f32, bf16 or f16 (a bfloat16 .npy holds '<u2' bits: give --dtype bf16)");
  }
  return with_table_dtype(dtype, [&]<class T>(std::type_identity<T>) {
    const std::vector<T> v = read_values<T>(o, shape, tensor ? &*tensor : nullptr);
    const pv::values_input in[] = {pv::given_values<T>(std::span<const T>(v))};
    return engine(std::span<const pv::values_input>(in));
  });
}

// An integer table (buckets): the file's int32 values (.npy '<i4', safetensors I32, or bin).
inline std::vector<std::int32_t> read_integers(const options& o, const std::vector<std::uint64_t>& shape,
                                               std::string_view column) {
  if (o.kind == table_file::bin) {
    std::uint64_t n = 1;
    for (const std::uint64_t d : shape) n *= d;
    const std::string data = verify_cmd::read_file_bytes(*o.table, o.ctx);
    if (data.size() != n * 4)
      throw usage_error(o.ctx + ": " + quote(*o.table) + " has " + std::to_string(data.size()) +
                        " bytes; an int32 table of " + std::to_string(n) + " entries has " + std::to_string(n * 4));
    std::vector<std::int32_t> v(n);
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t b = 0;
      for (std::size_t k = 0; k < 4; ++k)
        b |= static_cast<std::uint32_t>(static_cast<unsigned char>(data[4 * i + k])) << (8 * k);
      v[i] = static_cast<std::int32_t>(b);
    }
    return v;
  }
  const io::tensor t = read_tensor(o, io::tensor_dtype::i32, shape, column);
  return file_value(io::tensor_values<std::int32_t>(t), *o.table, o.ctx);
}

// The integer tables (buckets, indices) have no dtype and no tolerance.
inline void integers_only(const parsed_args& a, const options& o) {
  if (a.has("dtype") || o.max_ulp != 0)
    throw usage_error(o.ctx + ": the table holds integers: --dtype and --max-ulp do not apply");
}

inline std::string table_words(const options& o) { return o.table ? "table " + *o.table : "posenc's own table"; }

// The most entries one run verifies: 2^22 (each holds its exact value, about 56 bytes, and costs an
// MPFR evaluation of a few microseconds; emit writes up to 2^24).
inline constexpr std::uint64_t max_entries = std::uint64_t{1} << 22;

inline void check_entries(std::uint64_t entries, const options& o, const std::string& what) {
  if (entries > max_entries)
    throw usage_error(o.ctx + ": table too large to verify: " + what + " = " + std::to_string(entries) +
                      " entries (at most 2^22 = 4194304 per run)");
}

// ---- ALiBi ----

inline pv::scheme_verify_report run_alibi(const parsed_args& a, const options& o) {
  const std::optional<alibi::config> hf = emit::hf_alibi_config(a, o.ctx);  // flags override the file
  pv::alibi_verify_request q;
  q.config = hf.value_or(alibi::config{});
  if (!hf || a.has("heads"))
    q.config.heads = static_cast<int>(emit::required_integer(a, "heads", emit::int_min, emit::int_max, o.ctx));
  q.config.max_bias = flag_real<double>(a, "max-bias", q.config.max_bias, o.ctx);
  emit::check_valid(alibi::checked_config{q.config}.check(), o.ctx, "ALiBi");
  q.bias = a.has("bias");
  q.symmetric = a.has("symmetric");
  if (!q.bias)
    for (const char* f : {"positions", "symmetric"})
      if (a.has(f)) throw usage_error(o.ctx + ": flag --" + f + " applies to 'verify alibi --bias' only");
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

inline pv::scheme_verify_report run_sinusoidal(const parsed_args& a, const options& o) {
  pv::sinusoidal_verify_request q;
  q.config.dim = static_cast<int>(emit::required_integer(a, "dim", emit::int_min, emit::int_max, o.ctx));
  q.config.base = flag_real<double>(a, "base", 10000.0, o.ctx);
  q.config.exponent =
      flag_choice(a, "exponent", {{"paper", sinusoidal::exponent::paper}, {"fairseq", sinusoidal::exponent::fairseq}},
                  sinusoidal::exponent::paper, o.ctx);
  q.config.layout = flag_choice(
      a, "layout", {{"interleaved", sinusoidal::layout::interleaved}, {"concat", sinusoidal::layout::concat}},
      sinusoidal::layout::interleaved, o.ctx);
  emit::check_valid(sinusoidal::checked_config{q.config}.check(), o.ctx, "sinusoidal");
  const long long n = emit::required_integer(a, "positions", 1, static_cast<long long>(max_entries), o.ctx);
  q.start = flag_integer(a, "start", -emit::max_abs_position, emit::max_abs_position, 0, o.ctx);
  emit::check_position_range(q.start, n, o.ctx);
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

inline pv::scheme_verify_report run_transformer_xl(const parsed_args& a, const options& o) {
  pv::transformer_xl_verify_request q;
  transformer_xl::config& c = q.config;
  c.d_model = static_cast<int>(emit::required_integer(a, "d-model", emit::int_min, emit::int_max, o.ctx));
  c.klen = emit::required_integer(a, "klen", -(1LL << 62), 1LL << 62, o.ctx);
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
  emit::check_valid(transformer_xl::validate(c), o.ctx, "Transformer-XL");
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

inline pv::scheme_verify_report run_xpos(const parsed_args& a, const options& o) {
  pv::xpos_verify_request q;
  q.config.head_dim = static_cast<int>(emit::required_integer(a, "head-dim", emit::int_min, emit::int_max, o.ctx));
  q.config.scale_base = static_cast<int>(flag_integer(a, "scale-base", emit::int_min, emit::int_max, 512, o.ctx));
  emit::check_valid(xpos::checked_config{q.config}.check(), o.ctx, "XPOS");
  const long long n = emit::required_integer(a, "positions", 1, static_cast<long long>(max_entries), o.ctx);
  q.start = flag_integer(a, "start", -emit::max_abs_position, emit::max_abs_position, 0, o.ctx);
  emit::check_position_range(q.start, n, o.ctx);
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

inline pv::scheme_verify_report run_kerple(const parsed_args& a, const options& o, bool log) {
  pv::kerple_verify_request q;
  q.log = log;
  q.p = emit::real_list(a, "p", o.ctx);
  q.a = emit::real_list(a, "a", o.ctx);
  if (q.p.size() != q.a.size())
    throw usage_error(o.ctx + ": --p has " + std::to_string(q.p.size()) + " values and --a " +
                      std::to_string(q.a.size()) + " (one per head each)");
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
inline pv::scheme_verify_report run_kerple_log(const parsed_args& a, const options& o) {
  return run_kerple(a, o, true);
}
inline pv::scheme_verify_report run_kerple_power(const parsed_args& a, const options& o) {
  return run_kerple(a, o, false);
}

inline pv::scheme_verify_report run_sandwich(const parsed_args& a, const options& o) {
  pv::sandwich_verify_request q;
  q.config.dim = static_cast<int>(emit::required_integer(a, "dim", emit::int_min, emit::int_max, o.ctx));
  q.config.heads = static_cast<int>(emit::required_integer(a, "heads", emit::int_min, emit::int_max, o.ctx));
  emit::check_valid(sandwich::validate(q.config), o.ctx, "Sandwich");
  q.distances =
      static_cast<std::size_t>(emit::required_integer(a, "distances", 1, static_cast<long long>(max_entries), o.ctx));
  const auto heads = static_cast<std::uint64_t>(q.config.heads);
  check_entries(heads * q.distances, o,
                "--heads " + std::to_string(heads) + " x --distances " + std::to_string(q.distances));
  // The oracle sums dim/2 cosines at about 450 bits per entry: cap the work (2^22 terms, about 20 s).
  const std::uint64_t terms = heads * q.distances * static_cast<std::uint64_t>(q.config.dim / 2);
  if (terms > (std::uint64_t{1} << 22))
    throw usage_error(o.ctx + ": table too costly to verify: --heads x --distances x dim/2 = " + std::to_string(terms) +
                      " MPFR cosines (at most 2^22 = 4194304 per run)");
  q.max_ulp = o.max_ulp;
  q.description = table_words(o) + "; distances 0 .. " + std::to_string(q.distances - 1) + "; dim " +
                  std::to_string(q.config.dim) + ", heads " + std::to_string(q.config.heads);
  return verify_real(o, {heads, q.distances}, "bias",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_sandwich(q, in); });
}

inline pv::scheme_verify_report run_logn(const parsed_args& a, const options& o) {
  pv::logn_verify_request q;
  q.config.base = flag_integer(a, "base", -(1LL << 62), 1LL << 62, 512, o.ctx);
  q.config.at_least_one = a.has("at-least-one");
  emit::check_valid(logn::validate(q.config), o.ctx, "log-n");
  const long long n = emit::required_integer(a, "positions", 1, static_cast<long long>(max_entries), o.ctx);
  q.start = flag_integer(a, "start", 1, emit::max_abs_position, 1, o.ctx);
  emit::check_position_range(q.start, n, o.ctx);
  q.positions = static_cast<std::size_t>(n);
  q.max_ulp = o.max_ulp;
  q.description = table_words(o) + "; n = " + std::to_string(q.start) + " .. " + std::to_string(q.start + n - 1) +
                  "; base " + std::to_string(q.config.base) + (q.config.at_least_one ? ", at least one (Qwen)" : "");
  return verify_real(o, {q.positions}, "factor",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_logn(q, in); });
}

// ---- T5 buckets ----

inline pv::scheme_verify_report run_t5(const parsed_args& a, const options& o) {
  const std::optional<t5::config> hf = emit::hf_t5_config(a, o.ctx);  // flags override the file
  pv::t5_verify_request q;
  q.config = hf.value_or(t5::config{});
  if (!hf || a.has("num-buckets"))
    q.config.relative_attention_num_buckets =
        static_cast<int>(emit::required_integer(a, "num-buckets", emit::int_min, emit::int_max, o.ctx));
  if (!hf || a.has("max-distance"))
    q.config.relative_attention_max_distance =
        emit::required_integer(a, "max-distance", -(1LL << 62), 1LL << 62, o.ctx);
  if (a.has("causal")) q.config.bidirectional = false;
  emit::check_valid(t5::checked_config{q.config}.check(), o.ctx, "T5");
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

inline pv::scheme_verify_report run_deberta(const parsed_args& a, const options& o) {
  pv::deberta_verify_request q;
  q.config.position_buckets =
      static_cast<int>(emit::required_integer(a, "bucket-size", emit::int_min, emit::int_max, o.ctx));
  q.config.max_relative_positions = emit::required_integer(a, "max-position", -(1LL << 62), 1LL << 62, o.ctx);
  emit::check_valid(deberta::checked_config{q.config}.check(), o.ctx, "DeBERTa");
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

inline pv::scheme_verify_report run_shaw(const parsed_args& a, const options& o) {
  pv::shaw_verify_request q;
  q.config.max_relative_position =
      static_cast<int>(flag_integer(a, "max-relative-position", emit::int_min, emit::int_max, 20, o.ctx));
  emit::check_valid(shaw::validate(q.config), o.ctx, "Shaw");
  integers_only(a, o);
  q.positions = static_cast<std::size_t>(emit::required_integer(a, "positions", 1, 2048, o.ctx));
  q.description = table_words(o) + "; queries and keys 0 .. " + std::to_string(q.positions - 1) +
                  "; max_relative_position " + std::to_string(q.config.max_relative_position);
  if (!o.table) return pv::verify_shaw(q, {});
  const auto n = static_cast<std::uint64_t>(q.positions);
  const std::vector<std::int32_t> v = read_integers(o, {n, n}, "index");
  return pv::verify_shaw(q, v, false);
}

// ---- the table of schemes ----

struct verify_scheme {
  std::string_view name;
  pv::scheme_verify_report (*run)(const parsed_args&, const options&);
  bool integer_valued;
};

inline constexpr verify_scheme schemes[] = {
    {"sinusoidal", run_sinusoidal, false},
    {"transformer-xl", run_transformer_xl, false},
    {"alibi", run_alibi, false},
    {"t5-bucket", run_t5, true},
    {"xpos", run_xpos, false},
    {"kerple-log", run_kerple_log, false},
    {"kerple-power", run_kerple_power, false},
    {"sandwich", run_sandwich, false},
    {"logn", run_logn, false},
    {"deberta-bucket", run_deberta, true},
    {"shaw", run_shaw, true},
};

inline const verify_scheme* find(std::string_view name) {
  for (const auto& s : schemes)
    if (s.name == name) return &s;
  return nullptr;
}

inline std::string scheme_names() {
  std::string s;
  for (const auto& v : schemes) s += (s.empty() ? "" : ", ") + std::string(v.name);
  return s;
}

}  // namespace posenc::cli::verify_schemes

namespace posenc::cli::verify_cmd {

// `posenc verify <scheme>` (declared in commands_verify.hpp, whose run() dispatches here).
inline void run_scheme(const parsed_args& a, std::string_view name, std::span<const std::string_view> extra,
                       const std::string& output, std::string& out) {
  namespace vs = verify_schemes;
  const vs::verify_scheme* s = vs::find(name);
  const emit::scheme_command* e = emit::find_scheme(name);
  if (s == nullptr || e == nullptr)
    throw usage_error("verify: unknown table " + quote(name) + " (expected rope, " + vs::scheme_names() + " or merge)");
  vs::options o;
  o.ctx = "verify " + std::string(name);
  if (!extra.empty()) throw usage_error(o.ctx + ": unexpected argument " + quote(extra[0]));
  for (const std::string_view f : a.names()) {
    bool known = false;
    for (const std::string_view g : e->own) known = known || g == f;
    for (const std::string_view g : vs::common_flags) known = known || g == f;
    if (!known) throw usage_error(o.ctx + ": flag --" + std::string(f) + " does not apply to '" + o.ctx + "'");
  }
  if (const auto t = a.value("table")) {
    o.table = std::string(*t);
    if (o.table->empty()) throw usage_error(o.ctx + ": --table has an empty value");
    const auto ends = [&](std::string_view x) { return o.table->size() >= x.size() && o.table->ends_with(x); };
    o.kind = ends(".npy")           ? vs::table_file::npy
             : ends(".safetensors") ? vs::table_file::safetensors
                                    : vs::table_file::bin;
  }
  o.dtype_given = a.has("dtype");
  if (o.dtype_given && !s->integer_valued) o.dtypes = parse_dtypes(*a.value("dtype"), o.ctx);
  if (!o.dtype_given)
    o.dtypes =
        o.table ? std::vector{pv::table_dtype::f64}
                : std::vector{pv::table_dtype::f64, pv::table_dtype::f32, pv::table_dtype::bf16, pv::table_dtype::f16};
  if (o.table && o.dtypes.size() != 1) throw usage_error(o.ctx + ": --table FILE holds one dtype: give one --dtype");
  o.max_ulp = static_cast<std::uint64_t>(flag_integer(a, "max-ulp", 0, 1LL << 40, 0, o.ctx));
  pv::scheme_verify_report r;
  try {
    r = s->run(a, o);
  } catch (const std::invalid_argument& ex) {
    throw usage_error(o.ctx + ": " + ex.what());
  }
  const std::string text = a.has("json") ? io::scheme_verify_report_to_json(r).dump(1) + "\n" : verify_format::text(r);
  if (output.empty())
    out += text;
  else
    emit::write_file_atomically(output, text);
  command_status = r.passed() ? 0 : 1;
}

inline constexpr std::string_view full_usage =
    "usage: posenc verify rope (--head-dim D | --hf-config FILE) [config flags] [--positions N] [--start P]\n"
    "                          [--dtype T[,T...]] [--layout L] [--fold-attention] [--table FILE]\n"
    "                          [--max-ulp K] [--shard K/N] [--threads N] [--json] [--quiet] [-o FILE]\n"
    "       posenc verify merge REPORT.json... [--json] [-o FILE]\n"
    "       posenc verify alibi (--heads H | --hf-config FILE) [--max-bias 8] [--bias --positions N [--symmetric]]\n"
    "       posenc verify t5-bucket (--num-buckets B --max-distance M | --hf-config FILE) [--causal] [--range R]\n"
    "       posenc verify sinusoidal|transformer-xl|xpos|kerple-log|kerple-power|sandwich|logn [the emit flags]\n"
    "       posenc verify deberta-bucket|shaw [the emit flags]\n"
    "       posenc verify <scheme> ... [--dtype T[,T...]] [--table FILE] [--max-ulp K] [--json] [-o FILE]\n"
    "\n"
    "verify rope builds posenc's RoPE table of positions [P, P + N) in each dtype (or reads --table\n"
    "FILE, laid out as 'posenc emit rope --format bin' writes it: per row and element, cos then sin)\n"
    "and checks every entry against its exact value (MPFR) and every law of the registry on every\n"
    "block of 1024 rows, on all cores. It prints the entries checked, the maximum and mean error in\n"
    "ULPs per dtype with the worst entry, each law's worst measured deviation and its bound, and the\n"
    "time taken; --json prints the same as JSON. --shard K/N verifies the K-th of N slices of the\n"
    "blocks (K = 0 .. N-1); verify merge combines the slices' JSON reports into the report of the\n"
    "whole table. N defaults to the config's max_position_embeddings.\n"
    "\n"
    "verify <scheme> (every other table of 'posenc emit') takes the config flags of 'posenc emit\n"
    "<scheme>', builds the table in each dtype (default f64,f32,bf16,f16; buckets and indices are\n"
    "integers) or reads --table FILE (.npy, .safetensors or the --format bin layout of 'posenc emit\n"
    "<scheme>'; bin: one --dtype, default f64), and checks every entry against RN(exact value) from\n"
    "MPFR (integers: the published formula, exact) and every law of the registry that applies. At\n"
    "most 2^22 entries per run. t5-bucket's --range defaults to 2 x max_distance.\n"
    "\n"
    "Exit status: 0 everything holds, 1 something fails, 2 bad input. Docs: docs/verify.md.\n"
    "\n"
    "flags:\n";

}  // namespace posenc::cli::verify_cmd

namespace posenc::cli {

inline constexpr command verify_command{"verify", "verify a table against MPFR and the laws (RoPE: sharded, merged)",
                                        verify_cmd::full_usage, verify_schemes::all_flags, verify_cmd::run};

}  // namespace posenc::cli
