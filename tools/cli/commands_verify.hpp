// commands_verify.hpp: `posenc verify rope` and `posenc verify merge` (issue 10, "posenc verify").
//
//   posenc verify rope (--head-dim D | --hf-config FILE) [config flags] [--positions N] [--start P]
//                      [--dtype T[,T...]] [--layout L] [--fold-attention] [--table FILE]
//                      [--max-ulp K] [--shard K/N] [--threads N] [--json] [--quiet] [-o FILE]
//       posenc's own table (or --table FILE, someone else's) against the MPFR oracle, entry by
//       entry, and every law of the registry (posenc/verify/rope_verify.hpp); the report as text
//       or JSON. Exit 0 when everything holds, 1 when something fails, 2 on bad input.
//   posenc verify merge REPORT.json... [--json] [-o FILE]
//       the JSON reports of a table's shards (any table's), combined into the report of the whole
//       table.
// `posenc verify <scheme>` for the other schemes, the dispatch of `posenc verify` and the command's
// table entry are in commands_verify_schemes.hpp. Progress goes to stderr: a bar on a terminal, a
// line per tenth otherwise (--quiet: none).
// Docs: docs/verify.md, docs/cli.md.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <posenc/io/npy.hpp>
#include <posenc/io/safetensors.hpp>
#include <posenc/io/tensor.hpp>
#include <posenc/io/verify_report_json.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/bits.hpp>
#include <posenc/numeric/fixed_point.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/rope/config.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/layout.hpp>
#include <posenc/verify/rope_verify.hpp>

#include "args.hpp"
#include "commands_emit.hpp"
#include "emit_config.hpp"
#include "emit_output.hpp"
#include "hf_config_flag.hpp"
#include "table_bin.hpp"
#include "verify_report_format.hpp"
#include "warning.hpp"

namespace posenc::cli {

// The exit status of a command that ran to the end but found something wrong (verify: 1).
inline int command_status = 0;

}  // namespace posenc::cli

namespace posenc::cli::verify_cmd {

namespace pv = posenc::verify;

inline constexpr flag_spec own_flags[] = {
    {"positions", flag_kind::value, "N", "rows of the table (default: the config's max_position_embeddings)"},
    {"start", flag_kind::value, "P", "first position (default 0); the last must be <= 2^21"},
    {"dtype", flag_kind::value, "T[,T...]",
     "f64|f32|bf16|f16|q15|q31, comma-separated (default f32,bf16; --table: f32, or the file's)"},
    {"layout", flag_kind::value, "L",
     "half-split or interleaved (default: the --hf-config model's, else half-split), or pairs: --table FILE holds one "
     "cos and one sin per pair ('posenc emit rope --layout pairs')"},
    {"fold-attention", flag_kind::boolean, "", "entries af cos, af sin (the attention factor folded in)"},
    {"table", flag_kind::value, "FILE",
     "verify FILE instead: .npy, .safetensors or the --format bin layout of 'posenc emit rope'"},
    {"shard", flag_kind::value, "K/N", "verify only slice K of N (K = 0 .. N-1) of the table's blocks"},
    {"threads", flag_kind::value, "N", "worker threads (default: every hardware thread)"},
    {"hf-config", flag_kind::value, "FILE", "the config from a HuggingFace config.json (flags override it)"},
};
// The report's flags, every verified table's (max-ulp: the real-valued ones'); merge takes json and
// output.
inline constexpr flag_spec report_flags[] = {
    {"json", flag_kind::boolean, "", "print the report as JSON (what 'verify merge' reads)"},
    {"output", flag_kind::value, "FILE", "same as -o FILE: write the report to FILE atomically"},
    {"quiet", flag_kind::boolean, "", "no progress on stderr"},
    {"max-ulp", flag_kind::value, "K", "allow entries K representable steps from RN(exact) (default 0)"},
};
inline constexpr std::size_t merge_flag_count = 2;  // json, output
inline constexpr std::size_t integer_report_flag_count = 3;

// verify rope's flags: RoPE's config, its table's, the report's.
inline constexpr auto all_flags = [] {
  flag_union<64> u;
  u.add(emit::config_flags).add(own_flags).add(emit::hf_layer_flags).add(report_flags);
  return u;
}();

// ---- progress on stderr ----

class progress_meter {
 public:
  explicit progress_meter(bool quiet) : quiet_(quiet), tty_(::isatty(2) != 0), t0_(std::chrono::steady_clock::now()) {}
  void operator()(std::uint64_t done, std::uint64_t total) {
    if (quiet_) return;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    if (tty_) {
      constexpr int width = 40;
      const int filled = static_cast<int>(width * done / total);
      std::fprintf(stderr, "\r[%.*s%*s] %llu/%llu blocks %6.1f s", filled, "########################################",
                   width - filled, "", static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                   s);
      if (done == total) std::fputc('\n', stderr);
    } else if (done * 10 / total != (done - 1) * 10 / total || done == total) {
      std::fprintf(stderr, "posenc verify: %llu/%llu blocks, %.1f s\n", static_cast<unsigned long long>(done),
                   static_cast<unsigned long long>(total), s);
    }
    std::fflush(stderr);
  }

 private:
  bool quiet_, tty_;
  std::chrono::steady_clock::time_point t0_;
};

// ---- reading the flags ----

inline pv::shard_spec parse_shard(std::string_view text, const std::string& ctx) {
  const std::size_t slash = text.find('/');
  const auto bad = [&](const std::string& why) {
    return usage_error(ctx + ": --shard must be K/N with 0 <= K < N, got " + quote(text) + why);
  };
  if (slash == std::string_view::npos) throw bad("");
  std::uint64_t k = 0, n = 0;
  const std::string_view ks = text.substr(0, slash), ns = text.substr(slash + 1);
  const auto rk = std::from_chars(ks.data(), ks.data() + ks.size(), k);
  const auto rn = std::from_chars(ns.data(), ns.data() + ns.size(), n);
  if (ks.empty() || ns.empty() || rk.ec != std::errc{} || rk.ptr != ks.data() + ks.size() || rn.ec != std::errc{} ||
      rn.ptr != ns.data() + ns.size())
    throw bad("");
  if (n == 0) throw bad(" (N must be at least 1)");
  if (k >= n) throw bad(" (shards are numbered 0 .. N-1)");
  return {k, n};
}

// fixed_too: the table may be q15/q31 (RoPE's); the other schemes' verify refuses them.
inline std::vector<pv::table_dtype> parse_dtypes(std::string_view text, const std::string& ctx,
                                                 bool fixed_too = false) {
  std::vector<pv::table_dtype> v;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t comma = text.find(',', pos);
    const std::string_view item =
        canonical_name(text.substr(pos, comma == std::string_view::npos ? comma : comma - pos));  // float32: f32
    bool found = false;
    for (const auto t : {pv::table_dtype::f64, pv::table_dtype::f32, pv::table_dtype::bf16, pv::table_dtype::f16,
                         pv::table_dtype::q15, pv::table_dtype::q31})
      if (pv::dtype_name(t) == item) {
        if (pv::is_fixed_point(t) && !fixed_too)
          throw usage_error(ctx + ": --dtype " + std::string(item) +
                            ": q15/q31 tables are verified for rope, sinusoidal, xpos and alibi (slopes) only");
        if (std::find(v.begin(), v.end(), t) != v.end())
          throw usage_error(ctx + ": --dtype lists " + quote(item) + " twice");
        v.push_back(t);
        found = true;
      }
    if (!found)
      throw usage_error(ctx + ": invalid value " + quote(item) + " in --dtype (expected f64, f32, bf16, f16" +
                        (fixed_too ? ", q15 or q31)" : " or f16)"));
    if (comma == std::string_view::npos) return v;
    pos = comma + 1;
  }
}

inline std::string layout_name(rope::layout l) { return l == rope::layout::half_split ? "half-split" : "interleaved"; }

// One line naming the config: every field that differs from the defaults, then the table's shape.
inline std::string describe(const rope::config& c, const std::string& table, rope::layout lay, bool fold,
                            std::size_t d) {
  std::string fields;
  const std::string all = emit::describe_config(c, "");
  const std::string defaults = emit::describe_config(rope::config{}, "");
  std::size_t a = 0, b = 0;
  while (a < all.size()) {
    const std::size_t ea = all.find('\n', a), eb = defaults.find('\n', b);
    const std::string la = all.substr(a, ea - a), lb = b < defaults.size() ? defaults.substr(b, eb - b) : "";
    if (la != lb) fields += (fields.empty() ? "" : ", ") + la;
    a = ea + 1;
    b = eb == std::string::npos ? defaults.size() : eb + 1;
  }
  return table + "; rotary_dim " + std::to_string(d) + ", " + layout_name(lay) +
         (fold ? ", attention factor folded" : "") + "; config: " + fields;
}

// ---- verify rope ----

inline void finish(const pv::verify_report& r, bool as_json, const std::string& output, std::string& out) {
  const std::string text = as_json ? io::verify_report_to_json(r).dump(1) + "\n" : verify_format::text(r);
  if (output.empty())
    out += text;
  else
    emit::write_file_atomically(output, text);
  command_status = r.passed() ? 0 : 1;
}

// --table FILE's format, by its name: .npy and .safetensors as `emit rope --format npy|safetensors`
// writes them, anything else the --format bin layout.
enum class table_file { bin, npy, safetensors };

inline table_file table_file_of(const std::string& path) {
  const auto ends = [&](std::string_view e) {
    return path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".npy")) return table_file::npy;
  if (ends(".safetensors")) return table_file::safetensors;
  return table_file::bin;
}

inline std::optional<io::tensor_dtype> tensor_dtype_of(std::optional<pv::table_dtype> t) {
  if (!t) return std::nullopt;
  switch (*t) {
    case pv::table_dtype::f64: return io::tensor_dtype::f64;
    case pv::table_dtype::f32: return io::tensor_dtype::f32;
    case pv::table_dtype::bf16: return io::tensor_dtype::bf16;
    case pv::table_dtype::f16: return io::tensor_dtype::f16;
    case pv::table_dtype::q15: return io::tensor_dtype::i16;  // the raw integers, as 'emit --dtype q15' writes
    case pv::table_dtype::q31: return io::tensor_dtype::i32;
  }
  return std::nullopt;
}

inline pv::table_dtype table_dtype_of(io::tensor_dtype t, const std::string& path, const std::string& ctx) {
  switch (t) {
    case io::tensor_dtype::f64: return pv::table_dtype::f64;
    case io::tensor_dtype::f32: return pv::table_dtype::f32;
    case io::tensor_dtype::bf16: return pv::table_dtype::bf16;
    case io::tensor_dtype::f16: return pv::table_dtype::f16;
    case io::tensor_dtype::i16: return pv::table_dtype::q15;  // 'emit --dtype q15' writes the raw integers
    case io::tensor_dtype::i32: return pv::table_dtype::q31;
    default: break;
  }
  throw usage_error(
      ctx + ": " + quote(path) + " holds " + std::string(io::dtype_name(t)) +
      " values, not a RoPE table's f64, f32, bf16, f16 or q15/q31 integers (a bfloat16 .npy holds '<u2' bits: give "
      "--dtype bf16)");
}

inline std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// The table of a .npy ([2, rows, rotary_dim]: cos then sin) or .safetensors file (tensors cos and
// sin, [rows, rotary_dim] each), with the dtype asked for or, without --dtype, the file's.
struct tensor_table {
  io::tensor cos, sin;
  pv::table_dtype dtype = pv::table_dtype::f32;
};

template <class R>
R file_value(io::parse_result<R> r, const std::string& path, const std::string& ctx) {
  if (!r) throw usage_error(ctx + ": " + quote(path) + ": " + r.error());
  return r.value();
}

// d: the values a row holds, rotary_dim (or rotary_dim/2 with --layout pairs, pairs = true).
inline tensor_table read_tensor_table(const std::string& path, table_file kind, std::optional<pv::table_dtype> want,
                                      std::uint64_t rows, std::size_t d, const std::string& ctx, bool pairs = false) {
  tensor_table t;
  const std::vector<std::uint64_t> row_shape{rows, d};
  const auto shape_error = [&](const io::tensor& x, const std::string& expected) {
    return usage_error(ctx + ": " + quote(path) + " holds a " + shape_text(x.shape) + " tensor; " +
                       std::to_string(rows) + " rows of " +
                       (pairs ? std::to_string(d) + " pairs" : "rotary_dim " + std::to_string(d)) + " are " + expected);
  };
  if (kind == table_file::npy) {
    io::tensor all = file_value(io::read_npy_file(path, tensor_dtype_of(want)), path, ctx);
    const std::vector<std::uint64_t> want_shape{2, rows, d};
    if (all.shape != want_shape) throw shape_error(all, shape_text(want_shape) + " (cos, then sin)");
    const std::size_t half = all.data.size() / 2;
    t.cos = {all.dtype, row_shape, all.data.substr(0, half)};
    t.sin = {all.dtype, row_shape, all.data.substr(half)};
  } else {
    const io::safetensors_file f = file_value(io::read_safetensors_file(path), path, ctx);
    t.cos = file_value(io::find_tensor(f, "cos", tensor_dtype_of(want)), path, ctx);
    t.sin = file_value(io::find_tensor(f, "sin", tensor_dtype_of(want)), path, ctx);
    for (const io::tensor* x : {&t.cos, &t.sin})
      if (x->shape != row_shape) throw shape_error(*x, shape_text(row_shape) + " each (cos and sin)");
    if (t.sin.dtype != t.cos.dtype) throw usage_error(ctx + ": " + quote(path) + ": cos and sin differ in dtype");
  }
  t.dtype = table_dtype_of(t.cos.dtype, path, ctx);
  return t;
}

// A --layout pairs table (rows of d/2 values, one per pair) spread over d elements in q.layout, as
// rope::expand_row does: every entry of the file is compared with the oracle (twice, once per copy),
// so a wrong bit anywhere in it fails; the pair-copy law holds by construction.
template <class T>
void expand_pairs(const pv::rope_verify_request& q, std::size_t d, std::vector<T>& cos, std::vector<T>& sin) {
  const std::size_t rows = static_cast<std::size_t>(q.rows), half = d / 2;
  std::vector<T> c(rows * d), s(rows * d);
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < half; ++j)
      for (int t = 0; t < 2; ++t) {
        c[i * d + rope::pair_index(q.layout, j, t, d)] = cos[i * half + j];
        s[i * d + rope::pair_index(q.layout, j, t, d)] = sin[i * half + j];
      }
  cos = std::move(c);
  sin = std::move(s);
}

template <class T>
pv::verify_report verify_arrays(pv::rope_verify_request& q, std::vector<T> cos, std::vector<T> sin, std::size_t d,
                                bool pairs) {
  if (pairs) expand_pairs(q, d, cos, sin);
  const pv::table_input in[] = {pv::given_table<T>(cos, sin)};
  return pv::verify_rope(q, in);
}

template <class T>
pv::verify_report verify_given(pv::rope_verify_request& q, const std::string& path, std::size_t d, bool pairs,
                               const std::string& ctx) {
  loaded_table<T> t = load_bin_table<T>(read_file_bytes(path, ctx), q.rows, pairs ? d / 2 : d, path, ctx);
  return verify_arrays<T>(q, std::move(t.cos), std::move(t.sin), d, pairs);
}

// A tensor's values as T: the tensor's own element type, or for q15/q31 its raw integers.
template <class T>
std::vector<T> tensor_values_as(const io::tensor& t, const std::string& path, const std::string& ctx) {
  if constexpr (posenc::fixed_point_type<T>) {
    using R = typename posenc::fixed_format<T>::storage;
    const std::vector<R> raw = file_value(io::tensor_values<R>(t), path, ctx);
    std::vector<T> v(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) v[i] = T::from_bits(raw[i]);
    return v;
  } else {
    return file_value(io::tensor_values<T>(t), path, ctx);
  }
}

template <class T>
pv::verify_report verify_tensors(pv::rope_verify_request& q, const tensor_table& t, const std::string& path,
                                 std::size_t d, bool pairs, const std::string& ctx) {
  return verify_arrays<T>(q, tensor_values_as<T>(t.cos, path, ctx), tensor_values_as<T>(t.sin, path, ctx), d, pairs);
}

inline void run_rope(const parsed_args& a, const std::string& output, std::string& out) {
  const std::string ctx = "verify rope";
  for (const std::string_view f : a.names()) {
    bool known = false;
    for (const auto& s : all_flags.view()) known = known || s.name == f;
    if (!known) throw usage_error(ctx + ": flag --" + std::string(f) + " does not apply to '" + ctx + "'");
  }
  const auto hf = emit::hf_rope_settings(a, ctx);
  const rope::config hf_cfg = hf ? hf->config() : rope::config{};
  const rope::layout model_layout = hf ? hf->layout : rope::layout::half_split;
  const emit::parsed_config pc = emit::read_config(a, ctx, hf ? &hf_cfg : nullptr);
  const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(pc.cfg));

  pv::rope_verify_request q;
  q.config = pc.cfg;
  const long long max_pos = static_cast<long long>(rope::max_table_position);
  if (a.has("positions")) {
    q.rows = static_cast<std::uint64_t>(flag_integer(a, "positions", 1, max_pos + 1, 0, ctx));
  } else if (pc.cfg.max_position_embeddings > 0) {
    q.rows = static_cast<std::uint64_t>(pc.cfg.max_position_embeddings);
  } else {
    throw usage_error(ctx + ": --positions N is required (the config has no max_position_embeddings)");
  }
  q.start = static_cast<std::uint64_t>(flag_integer(a, "start", 0, max_pos, 0, ctx));
  if (q.start + q.rows - 1 > rope::max_table_position)
    throw usage_error(ctx + ": positions past 2^21: --start " + std::to_string(q.start) + " and " +
                      std::to_string(q.rows) + " rows end at position " + std::to_string(q.start + q.rows - 1));
  warn_past_max_position(pc.cfg.max_position_embeddings, q.start + q.rows - 1, ctx);
  // pairs: the file's rows hold one value per pair (no element order); they are checked spread over
  // the model's order (expand_pairs).
  const bool pairs = a.value("layout") && *a.value("layout") == "pairs";
  q.layout = pairs ? model_layout
                   : flag_choice(a, "layout",
                                 {{"half-split", rope::layout::half_split}, {"interleaved", rope::layout::interleaved}},
                                 model_layout, ctx);
  const std::size_t width = pairs ? d / 2 : d;  // the file's values a row
  q.fold_attention = a.has("fold-attention");
  q.max_ulp = static_cast<std::uint64_t>(flag_integer(a, "max-ulp", 0, 1LL << 40, 0, ctx));
  if (const auto v = a.value("shard")) q.shard = parse_shard(*v, ctx);
  q.threads = static_cast<unsigned>(flag_integer(a, "threads", 1, 1024, 0, ctx));
  const bool given = a.has("table");
  const std::string path = given ? std::string(*a.value("table")) : std::string();
  const table_file kind = table_file_of(path);
  std::vector<pv::table_dtype> dtypes =
      a.has("dtype")
          ? parse_dtypes(*a.value("dtype"), ctx, /*fixed_too=*/true)
          : (given ? std::vector{pv::table_dtype::f32} : std::vector{pv::table_dtype::f32, pv::table_dtype::bf16});
  if (given && dtypes.size() != 1) throw usage_error(ctx + ": --table FILE holds one dtype: give one --dtype");
  // A tensor file says its dtype: read it now (bad input is reported before any work), with the
  // --dtype given as the type it must hold.
  std::optional<tensor_table> tensors;
  if (given && kind != table_file::bin) {
    const std::optional<pv::table_dtype> want =
        a.has("dtype") ? std::optional<pv::table_dtype>(dtypes[0]) : std::nullopt;
    tensors = read_tensor_table(path, kind, want, q.rows, width, ctx, pairs);
    dtypes = {tensors->dtype};
  }
  q.description =
      describe(q.config, given ? "table " + path + (pairs ? " (one cos, sin per pair)" : "") : "posenc's own table",
               q.layout, q.fold_attention, d);
  const std::uint64_t total = (q.rows + pv::verify_block_rows - 1) / pv::verify_block_rows;
  if (q.shard.count > total)
    throw usage_error(ctx + ": --shard " + std::string(*a.value("shard")) + ": the table has only " +
                      std::to_string(total) + " blocks of " + std::to_string(pv::verify_block_rows) +
                      " rows; use at most " + std::to_string(total) + " shards");
  progress_meter meter(a.has("quiet"));
  q.progress = [&meter](std::uint64_t done, std::uint64_t n) { meter(done, n); };

  pv::verify_report r;
  try {
    if (!given) {
      std::vector<pv::table_input> in;
      for (const auto t : dtypes) in.push_back(pv::own_table(t));
      r = pv::verify_rope(q, in);
    } else if (tensors) {
      switch (dtypes[0]) {
        case pv::table_dtype::f64: r = verify_tensors<double>(q, *tensors, path, d, pairs, ctx); break;
        case pv::table_dtype::f32: r = verify_tensors<float>(q, *tensors, path, d, pairs, ctx); break;
        case pv::table_dtype::bf16: r = verify_tensors<posenc::bfloat16>(q, *tensors, path, d, pairs, ctx); break;
        case pv::table_dtype::f16: r = verify_tensors<posenc::float16>(q, *tensors, path, d, pairs, ctx); break;
        case pv::table_dtype::q15: r = verify_tensors<posenc::q15>(q, *tensors, path, d, pairs, ctx); break;
        case pv::table_dtype::q31: r = verify_tensors<posenc::q31>(q, *tensors, path, d, pairs, ctx); break;
      }
    } else {
      switch (dtypes[0]) {
        case pv::table_dtype::f64: r = verify_given<double>(q, path, d, pairs, ctx); break;
        case pv::table_dtype::f32: r = verify_given<float>(q, path, d, pairs, ctx); break;
        case pv::table_dtype::bf16: r = verify_given<posenc::bfloat16>(q, path, d, pairs, ctx); break;
        case pv::table_dtype::f16: r = verify_given<posenc::float16>(q, path, d, pairs, ctx); break;
        case pv::table_dtype::q15: r = verify_given<posenc::q15>(q, path, d, pairs, ctx); break;
        case pv::table_dtype::q31: r = verify_given<posenc::q31>(q, path, d, pairs, ctx); break;
      }
    }
  } catch (const std::invalid_argument& e) {
    throw usage_error(ctx + ": " + e.what());
  }
  finish(r, a.has("json"), output, out);
}

// ---- verify merge ----

inline void run_merge(const parsed_args& a, const std::vector<std::string_view>& files, const std::string& output,
                      std::string& out) {
  const std::string ctx = "verify merge";
  for (const std::string_view f : a.names())
    if (f != "json" && f != "output")
      throw usage_error(ctx + ": flag --" + std::string(f) + " does not apply to '" + ctx + "'");
  if (files.empty()) throw usage_error(ctx + ": missing REPORT.json (the reports of a table's shards)");
  std::vector<pv::verify_report> reports;
  for (const std::string_view f : files) {
    const std::string path(f);
    const std::string data = read_file_bytes(path, ctx);
    auto r = io::verify_report_from_json(data);
    if (!r) throw usage_error(ctx + ": " + quote(path) + ": " + r.error());
    reports.push_back(std::move(r).value());
  }
  std::stable_sort(reports.begin(), reports.end(),
                   [](const auto& x, const auto& y) { return x.first_block < y.first_block; });
  // Name a gap or an overlap between the shards before merging (merge() would only say that two
  // reports do not follow each other).
  const auto blocks = [](std::uint64_t lo, std::uint64_t hi) {
    return lo + 1 == hi ? "block " + std::to_string(lo)
                        : "blocks " + std::to_string(lo) + " .. " + std::to_string(hi - 1);
  };
  for (std::size_t i = 1; i < reports.size(); ++i) {
    const auto &p = reports[i - 1], &r = reports[i];
    if (r.first_block > p.end_block)
      throw usage_error(ctx + ": a shard's report is missing: no report covers " + blocks(p.end_block, r.first_block));
    if (r.first_block < p.end_block)
      throw usage_error(ctx + ": two reports cover " + blocks(r.first_block, std::min(p.end_block, r.end_block)) +
                        " (a shard given twice?)");
  }
  pv::verify_report m = reports[0];
  try {
    for (std::size_t i = 1; i < reports.size(); ++i) m.merge(reports[i]);
  } catch (const std::invalid_argument& e) {
    throw usage_error(ctx + ": " + e.what());
  }
  if (!m.complete())
    throw usage_error(ctx + ": a shard's report is missing: the reports cover " + blocks(m.first_block, m.end_block) +
                      " of the table's " + blocks(0, m.total_blocks()));
  finish(m, a.has("json"), output, out);
}

}  // namespace posenc::cli::verify_cmd
