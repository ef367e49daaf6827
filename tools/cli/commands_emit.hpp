// commands_emit.hpp: `posenc emit rope-freq` and `posenc emit rope` (issue 3, "Command line").
//
//   posenc emit rope-freq [config flags] [--dtype T] [--policy P] [--format csv|c|bin] [--name ID]
//                         [--decimal] [-o FILE]
//       CSV "pair,inv_freq", one row per pair j < rotary_dim/2, then "attention_factor,<value>".
//   posenc emit rope --positions N [--start P] [config flags] [--dtype T] [--policy P]
//                    [--fold-attention] [--format csv|c|bin] [--layout L] [--name ID] [-o FILE]
//       csv: "position,pair,cos,sin" per (position, pair j) (layout-independent);
//       c:   a C/C++ header with cos[N][rotary_dim] and sin[N][rotary_dim] in the chosen layout;
//       bin: little-endian dtype values, per position, per element k < rotary_dim: cos then sin.
//       --layout pairs: rows of rotary_dim/2 (one cos and one sin per pair j, the compact table
//       rope::make_pair_table holds) in every format but CSV, which is per pair already.
//       Every header's comment states its arrays' bytes.
//
// Values: --policy exact (default) is rope::inv_freq / rope::attention_factor and, for the table,
// rope::fill_pair_table (exact, rounded once into the dtype; the bits of rope::sincos /
// rope::attention_sincos); --policy hf-float32 is rope::hf_float32 (HF's float32 pipeline, every
// rope type) and --policy ggml-float32 rope::ggml_float32 (ggml's float32 recurrence, default and
// linear only), each converted to the dtype.
// Each table takes its own flags: rope_freq_flags and rope_table_flags here, RoPE's config flags
// (emit_config.hpp), the other schemes' (schemes/<scheme>.hpp) and the output flags
// (emit_output_flags.hpp); the parser reads the union, each table's check refuses the rest.
// Docs: docs/cli.md, section `posenc emit`.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <posenc/io/tensor.hpp>
#include <posenc/math/round.hpp>
#include <posenc/math/sincos_result.hpp>
#include <posenc/math/trig.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/fixed_point.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/rope/checked_config.hpp>
#include <posenc/rope/config.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/fixed_point_table.hpp>
#include <posenc/rope/frequencies.hpp>
#include <posenc/rope/layout.hpp>
#include <posenc/rope/policy.hpp>
#include <posenc/rope/seq_len.hpp>
#include <posenc/version.hpp>

#include "args.hpp"
#include "emit_config.hpp"
#include "emit_output.hpp"
#include "emit_output_flags.hpp"
#include "emit_table.hpp"
#include "emit_tensors.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"
#include "policy_scope.hpp"
#include "schemes.hpp"
#include "warning.hpp"

namespace posenc::cli::emit {

// Limits of `emit rope`: positions up to rope::max_table_position (2^21) as the library's tables,
// at most 2^21 rows, and at most 2^24 (position, pair) entries so that the output stays below a
// few GB in memory (a 4096 x 64-pair CSV is 262144 entries).
inline constexpr std::uint64_t max_position = rope::max_table_position;
inline constexpr std::uint64_t max_rows = std::uint64_t{1} << 21;
inline constexpr std::uint64_t max_entries = std::uint64_t{1} << 24;

// rope-freq's flags besides rope::config's (emit_config.hpp) and the output flags
// (emit_output_flags.hpp); rope takes them too, and its table's rows and layout.
inline constexpr flag_spec rope_freq_flags[] = {
    {"policy", flag_kind::value, "exact|hf-float32|ggml-float32",
     "exact values (default), HF's float32 pipeline or ggml's float32 recurrence (also hf_float32, ggml_float32)"},
    {"hf-config", flag_kind::value, "FILE", "values from a HuggingFace config.json (flags override them)"},
};
inline constexpr flag_spec rope_table_flags[] = {
    {"positions", flag_kind::value, "N", "number of positions (N <= 2^21)"},
    {"start", flag_kind::value, "P", "first position (default 0; the last must be <= 2^21)"},
    {"layout", flag_kind::value, "half-split|interleaved|pairs",
     "c, bin, npy, safetensors: element order (default: the --hf-config model's, else half-split), or pairs: "
     "one cos and one sin per pair (half the bytes; rope::rotate applies it in either order)"},
    {"fold-attention", flag_kind::boolean, "", "cos and sin times the attention factor, rounded once"},
};

enum class policy { exact, hf_float32, ggml_float32 };
using format = table_format;  // rope's formats are every table's

inline std::string_view policy_name(policy p) {
  return p == policy::exact ? "exact" : p == policy::hf_float32 ? "hf-float32" : "ggml-float32";
}

struct options {
  std::string ctx;  // "emit rope" / "emit rope-freq", for messages
  bool rope = false;
  policy pol = policy::exact;
  bool decimal = false;
  std::uint64_t start = 0, rows = 0;
  rope::layout lay = rope::layout::half_split;
  bool pairs = false;  // --layout pairs: rows of rotary_dim/2 values (one per pair), not rotary_dim
  format fmt = format::csv;
  bool fold = false;
  std::string name = "posenc_rope";
  dtype type = dtype::f64;
  std::string output;           // empty: stdout
  std::string command;          // the command line (without -o), for safetensors' metadata
  std::uint64_t saturated = 0;  // q15/q31: values the table saturated (set by emit_rope)
};

inline tensor_format tensor_format_of(format f) {
  return f == format::npy ? tensor_format::npy : tensor_format::safetensors;
}

// The safetensors metadata of a RoPE table: the common keys, the policy and every config field
// ("config.rope_theta" -> "0x1.e848p+18 (500000)", as the C header's comment states them).
inline std::map<std::string, std::string> rope_metadata(const rope::config& c, const options& o,
                                                        std::string_view dtype);

// Converts a float32 policy value to T as HF's .to(dtype) does (exact for f64/f32).
template <class T>
T from_float(float v) {
  if constexpr (is_half<T>())
    return math::round_to<T>(static_cast<double>(v)).value;
  else
    return static_cast<T>(v);
}

[[noreturn]] inline void unsupported_policy(const options& o) {
  throw usage_error(o.ctx + ": --policy hf-float32 cannot reproduce HF's pipeline for this configuration");
}

// ggml_float32's scope is the library's (rope::applies, through policy_scope.hpp).
inline void check_ggml_supported(const rope::config& c, const options& o) {
  if (const std::string why = ggml_refusal(c); !why.empty())
    throw usage_error(o.ctx + ": --policy ggml-float32: " + why);
}

// ---- rope-freq -----------------------------------------------------------------------------

// inv_freq[j], j < rotary_dim/2, and the attention factor, in T (exact, or HF's float32 pipeline
// converted as .to(dtype) does).
template <class T>
struct freq_values {
  std::vector<T> inv;
  T attention{};
};

template <class T>
freq_values<T> rope_freq_values(const rope::config& c, const options& o) {
  freq_values<T> v;
  const int pairs = rope::rotary_dim(c) / 2;
  if (o.pol == policy::ggml_float32) {  // ggml's angle at position 1 (rope::inv_freq_row's definition)
    check_ggml_supported(c, o);
    const rope::checked_config cc{c};
    std::vector<float> row(static_cast<std::size_t>(pairs));
    const posenc::status st = rope::inv_freq_row(rope::ggml_float32, cc, row);
    if (st != posenc::status::ok) throw std::runtime_error("ggml inv_freq: " + std::string(posenc::to_string(st)));
    for (const float x : row) v.inv.push_back(from_float<T>(x));
    const auto att = rope::attention_scaling(rope::ggml_float32, cc);
    if (!att.ok()) throw std::runtime_error("ggml attention factor: " + std::string(posenc::to_string(att.error)));
    v.attention = from_float<T>(static_cast<float>(att.value));
    return v;
  }
  for (int j = 0; j < pairs; ++j) {
    if (o.pol == policy::hf_float32) {
      const auto r = rope::inv_freq(rope::hf_float32, c, j);
      if (!r.ok()) unsupported_policy(o);
      v.inv.push_back(from_float<T>(r.value));
    } else {
      const auto r = rope::inv_freq<T>(c, j);
      if (!r.ok())
        throw std::runtime_error("inv_freq of pair " + std::to_string(j) + ": " + posenc::to_string(r.error));
      v.inv.push_back(r.value);
    }
  }
  if (o.pol == policy::hf_float32) {  // HF's attention_scaling: a Python float, multiplied in float32
    const auto att = rope::attention_scaling(rope::hf_float32, c);
    if (!att.ok()) unsupported_policy(o);
    v.attention = from_float<T>(static_cast<float>(att.value));
    return v;
  }
  const auto af = rope::attention_factor<T>(c);
  if (af.error == posenc::status::overflow)
    throw usage_error(o.ctx + ": the attention factor overflows " + std::string(dtype_name<T>()));
  if (!af.ok()) throw std::runtime_error(std::string("attention_factor: ") + posenc::to_string(af.error));
  v.attention = af.value;
  return v;
}

template <class T>
std::string freq_csv(const freq_values<T>& v, const options& o) {
  std::string s = "pair,inv_freq\n";
  for (std::size_t j = 0; j < v.inv.size(); ++j)
    s += std::to_string(j) + "," + format_value(v.inv[j], o.decimal) + "\n";
  return s + "attention_factor," + format_value(v.attention, o.decimal) + "\n";
}

// The --format bin bytes: inv_freq[0 .. pairs) then the attention factor, little-endian dtype values.
template <class T>
std::string freq_bin(const freq_values<T>& v) {
  std::string s((v.inv.size() + 1) * sizeof(T), '\0');
  char* out = s.data();
  for (const T& x : v.inv) out = put_le(out, x);
  put_le(out, v.attention);
  return s;
}

template <class T>
std::string freq_header(const freq_values<T>& v, const rope::config& c, const options& o) {
  const std::string hash = checksum_hex(freq_bin(v));
  const std::string n = o.name, P = std::to_string(v.inv.size());
  std::string s;
  s += "// Generated by posenc " POSENC_VERSION_STRING " (posenc emit rope-freq --format c). Do not edit.\n";
  s += "// RoPE inverse frequencies: " + n + "_inv_freq[j] = theta_j of pair j < rotary_dim/2 (" + P +
       " pairs), dtype " + std::string(dtype_name<T>()) + ", policy " + std::string(policy_name(o.pol)) + "; " + n +
       "_attention_factor multiplies cos and sin (HF's attention_scaling).\n";
  if constexpr (is_half<T>())
    s += std::string("// Values are ") +
         (std::is_same_v<T, posenc::bfloat16> ? "bfloat16" : "IEEE binary16 (float16)") +
         " bit patterns (sign, exponent, fraction) stored in uint16_t.\n";
  s += "// " + array_bytes_text(1, {v.inv.size()}, c_type<T>(), sizeof(T)) + " (and the attention factor, " +
       std::to_string(sizeof(T)) + " bytes)\n";
  s += "// checksum: FNV-1a 64 of the little-endian bytes of inv_freq[0 .. pairs) then attention_factor\n";
  s += "// (exactly the bytes `posenc emit rope-freq --format bin` writes): " + hash + "\n";
  s += "// config:\n" + describe_config(c, "//   ");
  s += c_header_prologue(n);
  s += n + "_CONST uint64_t " + n + "_pairs = " + P + "u;\n";
  s += n + "_CONST uint64_t " + n + "_checksum = " + hash + "u;\n";
  s += n + "_CONST " + std::string(c_type<T>()) + " " + n + "_attention_factor = " + c_literal(v.attention) + ";\n";
  s += "\n" + n + "_CONST " + std::string(c_type<T>()) + " " + n + "_inv_freq[" + P + "] = {\n";
  for (std::size_t j = 0; j < v.inv.size(); ++j)
    s += "  " + c_literal(v.inv[j]) + ",  // pair " + std::to_string(j) + "\n";
  s += "};\n\n#undef " + n + "_CONST\n";
  return s;
}

// --format npy: one array [pairs + 1], inv_freq then the attention factor (the bin values);
// --format safetensors: inv_freq [pairs] and attention_factor [] (a scalar).
template <class T>
std::string freq_tensors(const freq_values<T>& v, const rope::config& c, const options& o) {
  const tensor_format f = tensor_format_of(o.fmt);
  tensor_output out;
  if (f == tensor_format::npy) {
    std::vector<T> all = v.inv;
    all.push_back(v.attention);
    out.npy = io::make_tensor<T>({all.size()}, all);
  } else {
    out.tensors.push_back({"inv_freq", io::make_tensor<T>({v.inv.size()}, v.inv)});
    out.tensors.push_back({"attention_factor", io::make_tensor<T>({}, std::span<const T>(&v.attention, 1))});
    out.metadata = rope_metadata(c, o, dtype_name<T>());
    out.metadata.emplace("pairs", std::to_string(v.inv.size()));
  }
  return write_tensor_file(f, out, o.ctx);
}

template <class T>
std::string emit_rope_freq(const rope::config& c, const options& o) {
  const freq_values<T> v = rope_freq_values<T>(c, o);
  if (o.fmt == format::csv) return freq_csv(v, o);
  if (o.fmt == format::bin) return freq_bin(v);
  if (o.fmt == format::npy || o.fmt == format::safetensors) return freq_tensors(v, c, o);
  return freq_header(v, c, o);
}

// ---- rope: the compact table, vals[i * pairs + j] = {sin, cos} of pair j at position start + i ----

// q15/q31 (CMSIS-DSP): RN_even(x 2^F) of the exact value, saturated; the saturations are noted on
// stderr (not an error: CMSIS's own tables store 1.0 as 0x7FFF), with the count in the header.
template <class T>
  requires posenc::fixed_point_type<T>
std::vector<math::sincos_result<T>> fixed_rope_values(const rope::config& c, const options& o,
                                                      std::uint64_t& saturated) {
  if (o.pol != policy::exact)
    throw usage_error(o.ctx + ": --dtype " + std::string(dtype_name<T>()) +
                      " takes --policy exact only (the policies reproduce float32 pipelines)");
  const std::size_t pairs = static_cast<std::size_t>(rope::rotary_dim(c) / 2);
  std::vector<math::sincos_result<T>> vals(static_cast<std::size_t>(o.rows) * pairs);
  const posenc::fixed_fill_status st = rope::fill_pair_table<T>(c, vals, {.start = o.start, .fold_attention = o.fold});
  if (!st.ok()) throw std::runtime_error(std::string("RoPE table: ") + posenc::to_string(st.error));
  saturated = st.saturated;
  if (st.saturated != 0)
    note(o.ctx + ": " + std::to_string(st.saturated) + " of " + std::to_string(2 * vals.size()) + " " +
         std::string(dtype_name<T>()) + " values saturated (x >= 1 - 2^-" +
         std::to_string(posenc::fixed_format<T>::fraction_bits + 1) + ", e.g. cos 0 = 1 stored as " +
         (std::is_same_v<T, posenc::q15> ? "0x7FFF" : "0x7FFFFFFF") + ", CMSIS-DSP's convention)");
  return vals;
}

template <class T>
std::vector<math::sincos_result<T>> rope_values(const rope::config& c, const options& o) {
  const std::size_t pairs = static_cast<std::size_t>(rope::rotary_dim(c) / 2);
  std::vector<math::sincos_result<T>> vals(static_cast<std::size_t>(o.rows) * pairs);
  if (o.pol == policy::hf_float32) {  // rope::sincos(hf_float32, ...), with inv_freq computed once
    std::vector<float> inv(pairs);
    if (rope::inv_freq_row(rope::hf_float32, c, inv) != posenc::status::ok) unsupported_policy(o);
    const auto att = rope::attention_scaling(rope::hf_float32, c);
    if (!att.ok()) unsupported_policy(o);
    // HF multiplies cos and sin by attention_scaling in float32 (emb.cos() * attention_scaling);
    // --fold-attention asks for that product, as it does for the exact policy.
    const float scale = o.fold ? static_cast<float>(att.value) : 1.0f;
    for (std::size_t i = 0; i < o.rows; ++i)
      for (std::size_t j = 0; j < pairs; ++j) {
        const math::sincos_result<float> r = math::sincos(inv[j] * static_cast<float>(o.start + i));
        vals[i * pairs + j] = {from_float<T>(r.sin * scale), from_float<T>(r.cos * scale)};
      }
    return vals;
  }
  if (o.pol == policy::ggml_float32) {  // rope::sincos(ggml_float32, ...), with each row's angles computed once
    check_ggml_supported(c, o);
    const rope::checked_config cc{c};
    std::vector<float> angles(pairs);
    for (std::size_t i = 0; i < o.rows; ++i) {
      const posenc::status st = rope::angle_row(rope::ggml_float32, cc, o.start + i, angles);
      if (st != posenc::status::ok) throw std::runtime_error("ggml angles: " + std::string(posenc::to_string(st)));
      for (std::size_t j = 0; j < pairs; ++j) {  // no attention factor: --fold-attention multiplies by 1
        const math::sincos_result<float> r = math::sincos(angles[j]);
        vals[i * pairs + j] = {from_float<T>(r.sin), from_float<T>(r.cos)};
      }
    }
    return vals;
  }
  // Exact: rope::fill_pair_table, the library's table engine on this buffer (the same bits as
  // rope::sincos / rope::attention_sincos, entry by entry; one complex product and a rounding test
  // per entry instead of a scalar evaluation).
  const posenc::status st = rope::fill_pair_table<T>(c, vals, {.start = o.start, .fold_attention = o.fold});
  if (st == posenc::status::overflow) {  // name the first entry that overflowed (row-major order)
    std::size_t k = 0;
    while (k + 1 < vals.size() && !is_infinite(vals[k].cos) && !is_infinite(vals[k].sin)) ++k;
    throw usage_error(o.ctx + ": cos/sin times the attention factor overflows " + std::string(dtype_name<T>()) +
                      " at position " + std::to_string(o.start + k / pairs) + ", pair " + std::to_string(k % pairs) +
                      " (--fold-attention)");
  }
  if (st != posenc::status::ok) throw std::runtime_error(std::string("RoPE table: ") + posenc::to_string(st));
  return vals;
}

template <class T>
std::string rope_csv(const std::vector<math::sincos_result<T>>& vals, std::size_t pairs, const options& o) {
  std::string s = "position,pair,cos,sin\n";
  for (std::size_t i = 0; i < o.rows; ++i) {
    const std::string pos = std::to_string(o.start + i) + ",";
    for (std::size_t j = 0; j < pairs; ++j) {
      const auto& v = vals[i * pairs + j];
      s += pos + std::to_string(j) + "," + format_value(v.cos, o.decimal) + "," + format_value(v.sin, o.decimal) + "\n";
    }
  }
  return s;
}

// Row i expanded over the rotary_dim elements in the chosen layout (rope::expand_row).
template <class T>
void expand(const std::vector<math::sincos_result<T>>& vals, std::size_t i, std::size_t dim, rope::layout lay,
            std::vector<T>& cos, std::vector<T>& sin) {
  cos.assign(dim, T{});
  sin.assign(dim, T{});
  rope::expand_row(lay, vals.data() + i * (dim / 2), dim, cos.data(), sin.data());
}

// The values a row holds as written: rotary_dim in the --layout order, or rotary_dim/2 with
// --layout pairs (pair j's cos and sin once: the compact table itself, half the bytes).
inline std::size_t row_width(const options& o, std::size_t dim) { return o.pairs ? dim / 2 : dim; }

template <class T>
void row_values(const std::vector<math::sincos_result<T>>& vals, std::size_t i, std::size_t dim, const options& o,
                std::vector<T>& cos, std::vector<T>& sin) {
  if (!o.pairs) return expand(vals, i, dim, o.lay, cos, sin);
  cos.resize(dim / 2);
  sin.resize(dim / 2);
  for (std::size_t j = 0; j < dim / 2; ++j) {
    cos[j] = vals[i * (dim / 2) + j].cos;
    sin[j] = vals[i * (dim / 2) + j].sin;
  }
}

// The --format bin bytes: per position, per element k (per pair j with --layout pairs): cos, then
// sin, little-endian.
template <class T>
std::string rope_bin(const std::vector<math::sincos_result<T>>& vals, std::size_t dim, const options& o) {
  const std::size_t w = row_width(o, dim);
  std::string s(static_cast<std::size_t>(o.rows) * w * 2 * sizeof(T), '\0');
  char* out = s.data();
  std::vector<T> cos, sin;
  for (std::size_t i = 0; i < o.rows; ++i) {
    row_values(vals, i, dim, o, cos, sin);
    for (std::size_t k = 0; k < w; ++k) {
      out = put_le(out, cos[k]);
      out = put_le(out, sin[k]);
    }
  }
  return s;
}

inline std::string_view layout_name(rope::layout l) {
  return l == rope::layout::interleaved ? "interleaved" : "half-split";
}
inline std::string_view layout_name(const options& o) { return o.pairs ? "pairs" : layout_name(o.lay); }

inline std::map<std::string, std::string> rope_metadata(const rope::config& c, const options& o,
                                                        std::string_view dtype) {
  auto m = base_metadata(o.rope ? "rope" : "rope-freq", o.command, dtype);
  m.emplace("policy", std::string(policy_name(o.pol)));
  const std::string text = describe_config(c, "");  // "name = value" lines
  for (std::size_t at = 0, end = 0; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    const std::size_t eq = line.find(" = ");
    if (eq != std::string::npos) m.emplace("config." + line.substr(0, eq), line.substr(eq + 3));
  }
  return m;
}

// --format safetensors: cos and sin, each [N][rotary_dim] in the --layout order (the C header's
// arrays); --format npy: one array [2][N][rotary_dim], [0] cos and [1] sin. --layout pairs:
// rotary_dim/2 in place of rotary_dim.
template <class T>
std::string rope_tensors(const std::vector<math::sincos_result<T>>& vals, const rope::config& c, std::size_t dim_in,
                         const options& o) {
  const tensor_format f = tensor_format_of(o.fmt);
  const std::size_t dim = row_width(o, dim_in);
  const std::size_t rows = static_cast<std::size_t>(o.rows), n = rows * dim;
  using E = tensor_element<T>;  // q15/q31: their raw int16_t/int32_t
  std::vector<E> both(2 * n);   // the cos rows, then the sin rows
  std::vector<T> cos, sin;
  for (std::size_t i = 0; i < rows; ++i) {
    row_values(vals, i, dim_in, o, cos, sin);
    std::transform(cos.begin(), cos.end(), both.begin() + static_cast<std::ptrdiff_t>(i * dim), to_tensor_element<T>);
    std::transform(sin.begin(), sin.end(), both.begin() + static_cast<std::ptrdiff_t>(n + i * dim),
                   to_tensor_element<T>);
  }
  tensor_output out;
  if (f == tensor_format::npy) {
    out.npy = io::make_tensor<E>({2, rows, dim}, both);
  } else {
    const std::span<const E> all(both);
    out.tensors.push_back({"cos", io::make_tensor<E>({rows, dim}, all.first(n))});
    out.tensors.push_back({"sin", io::make_tensor<E>({rows, dim}, all.subspan(n))});
    out.metadata = rope_metadata(c, o, dtype_name<T>());
    out.metadata.emplace("layout", std::string(layout_name(o)));
    out.metadata.emplace("start", std::to_string(o.start));
    out.metadata.emplace("positions", std::to_string(o.rows));
    out.metadata.emplace("rotary_dim", std::to_string(dim_in));
    if (o.pairs) out.metadata.emplace("pairs", std::to_string(dim));
    out.metadata.emplace("fold_attention", o.fold ? "true" : "false");
  }
  return write_tensor_file(f, out, o.ctx);
}

// What the rows of a --format c header hold, for its comment.
inline std::string rope_row_note(const rope::config& c, std::size_t dim, const options& o) {
  const std::string n = o.name;
  std::string s;
  if (!o.pairs) {
    s += "// " + n + "_cos[i][k], " + n + "_sin[i][k]: position " + n + "_start + i, element k of the rotary block;\n";
    return s + (o.lay == rope::layout::interleaved
                    ? "// pair j (frequency index j) is at elements k = 2j and 2j + 1 (GPT-J / Meta).\n"
                    : "// pair j (frequency index j) is at elements k = j and j + rotary_dim/2 (GPT-NeoX / HF).\n");
  }
  s += "// " + n + "_cos[i][j], " + n + "_sin[i][j]: position " + n +
       "_start + i, pair j (frequency index j), once: half the bytes of an expanded table.\n";
  s += "// Pair j rotates elements (j, j + rotary_dim/2) of a half-split (GPT-NeoX / HF) head or (2j, 2j + 1)\n";
  s += "// of an interleaved (GPT-J / Meta) one: rope::rotate takes a row as it is, with apply_shape::lay.\n";
  if (static_cast<std::int64_t>(dim) < c.head_dim)
    s += "// The pairs cover the first rotary_dim = " + std::to_string(dim) +
         " of head_dim = " + std::to_string(c.head_dim) + " elements; the other " +
         std::to_string(c.head_dim - static_cast<std::int64_t>(dim)) + " pass through (no entry).\n";
  return s;
}

template <class T>
std::string rope_header(const std::vector<math::sincos_result<T>>& vals, const rope::config& c, std::size_t dim,
                        const options& o) {
  const std::string hash = checksum_hex(rope_bin(vals, dim, o));
  const std::size_t w = row_width(o, dim);
  const std::string n = o.name, N = std::to_string(o.rows), D = std::to_string(dim), W = std::to_string(w);
  std::string s;
  s += "// Generated by posenc " POSENC_VERSION_STRING " (posenc emit rope --format c). Do not edit.\n";
  s += "// RoPE cos/sin table: positions [" + std::to_string(o.start) + ", " + std::to_string(o.start + o.rows) +
       "), rotary_dim " + D + ", layout " + std::string(layout_name(o)) + ", dtype " + std::string(dtype_name<T>()) +
       ", policy " + std::string(policy_name(o.pol)) + ", attention factor " + (o.fold ? "folded in" : "not folded") +
       ".\n";
  s += rope_row_note(c, dim, o);
  s += "// " + array_bytes_text(2, {static_cast<std::size_t>(o.rows), w}, c_type<T>(), sizeof(T)) + "\n";
  if constexpr (is_half<T>())
    s += std::string("// Values are ") +
         (std::is_same_v<T, posenc::bfloat16> ? "bfloat16" : "IEEE binary16 (float16)") +
         " bit patterns (sign, exponent, fraction) stored in uint16_t.\n";
  if constexpr (is_fixed<T>()) {
    const std::string F = std::to_string(posenc::fixed_format<T>::fraction_bits);
    s += "// Values are CMSIS-DSP " + std::string(dtype_name<T>()) + "_t: k = RN_even(x * 2^" + F +
         ") of the exact value x, saturated to [-2^" + F + ", 2^" + F + " - 1]; x = k * 2^-" + F + ".\n";
    s += "// Saturated values (1.0 and above 1 - 2^-" + std::to_string(posenc::fixed_format<T>::fraction_bits + 1) +
         " stored as 2^" + F + " - 1): " + std::to_string(o.saturated) + ".\n";
  }
  const std::string idx = o.pairs ? "j" : "k";
  s += "// checksum: FNV-1a 64 of the little-endian bytes of cos[i][" + idx + "] then sin[i][" + idx +
       "] for each i, " + idx + " in\n";
  s += "// row-major order (exactly the bytes `posenc emit rope --format bin" +
       (o.pairs ? std::string(" --layout pairs") : "") + "` writes): " + hash + "\n";
  s += "// config:\n" + describe_config(c, "//   ");
  s += c_header_prologue(n);
  s += n + "_CONST uint64_t " + n + "_start = " + std::to_string(o.start) + "u;\n";
  s += n + "_CONST uint64_t " + n + "_positions = " + N + "u;\n";
  s += n + "_CONST uint64_t " + n + "_rotary_dim = " + D + "u;\n";
  if (o.pairs) s += n + "_CONST uint64_t " + n + "_pairs = " + W + "u;\n";
  s += n + "_CONST uint64_t " + n + "_checksum = " + hash + "u;\n";
  std::vector<T> cos, sin;
  for (int part = 0; part < 2; ++part) {
    s += "\n" + n + "_CONST " + std::string(c_type<T>()) + " " + n + (part == 0 ? "_cos[" : "_sin[") + N + "][" + W +
         "] = {\n";
    for (std::size_t i = 0; i < o.rows; ++i) {
      row_values(vals, i, dim, o, cos, sin);
      const std::vector<T>& row = part == 0 ? cos : sin;
      s += "  {";
      for (std::size_t k = 0; k < w; ++k) s += (k ? ", " : "") + c_literal(row[k]);
      s += "},  // position " + std::to_string(o.start + i) + "\n";
    }
    s += "};\n";
  }
  s += "\n#undef " + n + "_CONST\n";
  return s;
}

template <class T>
std::string emit_rope(const rope::config& c, const options& given) {
  const std::size_t dim = static_cast<std::size_t>(rope::rotary_dim(c));
  options o = given;
  std::vector<math::sincos_result<T>> vals;
  if constexpr (is_fixed<T>())
    vals = fixed_rope_values<T>(c, o, o.saturated);
  else
    vals = rope_values<T>(c, o);
  if (o.fmt == format::csv) return rope_csv(vals, dim / 2, o);
  if (o.fmt == format::bin) return rope_bin(vals, dim, o);
  if (o.fmt == format::npy || o.fmt == format::safetensors) return rope_tensors(vals, c, dim, o);
  return rope_header(vals, c, dim, o);
}

// Every table emit writes: RoPE's two, then the list of schemes.hpp.
inline std::string table_list() {
  std::string s = "rope-freq, rope";
  for (const auto& sc : schemes) s += ", " + std::string(sc.name);
  return s;
}

inline bool rope_table_flag(std::string_view name) {
  for (const auto& f : rope_table_flags)
    if (f.name == name) return true;
  return false;
}

// True iff `name` is in one of the lists.
inline bool listed(std::string_view name, std::initializer_list<std::span<const flag_spec>> lists) {
  for (const auto& list : lists)
    for (const auto& f : list)
      if (f.name == name) return true;
  return false;
}

// Every flag given must be one of the table's (rope-freq's: not rope's table flags).
inline void check_rope_flags(const parsed_args& a, const options& o) {
  for (const std::string_view f : a.names()) {
    if (!o.rope && rope_table_flag(f))
      throw usage_error(o.ctx + ": flag --" + std::string(f) + " applies to 'emit rope' only");
    if (!listed(f, {config_flags, rope_freq_flags, hf_layer_flags, rope_table_flags, output_flags}))
      throw usage_error(o.ctx + ": flag --" + std::string(f) + " does not apply to '" + o.ctx + "'");
  }
}

// An integer table also refuses --dtype and --decimal, saying why.
inline void check_scheme_flags(const parsed_args& a, const scheme_command& s, const std::string& ctx) {
  for (const std::string_view f : a.names()) {
    if (listed(f, {s.flags, output_flags_of(s.real)})) continue;
    if (listed(f, {output_flags}))  // --dtype or --decimal on an integer table
      throw usage_error(ctx + ": flag --" + std::string(f) + " applies to real-valued tables only ('emit " +
                        std::string(s.name) + "' writes exact integers)");
    throw usage_error(ctx + ": flag --" + std::string(f) + " does not apply to 'emit " + std::string(s.name) + "'");
  }
}

// The command line of a table, for the C header's comment and safetensors' metadata (flags in the
// order given, names in their canonical spelling).
inline std::string command_text(const parsed_args& a, std::string_view what) {
  std::string s = " emit " + std::string(what);
  for (const std::string_view f : a.names()) {
    if (f == "output") continue;
    s += " --" + std::string(f);
    if (const auto v = a.value(f); v && !v->empty()) s += " " + comment_safe(*v);
  }
  return s;
}

inline std::string run_scheme(const parsed_args& a, const command_target& t, const scheme_command& s) {
  table_options o;
  o.ctx = "emit " + std::string(t.what[0]);
  if (t.what.size() > 1) throw usage_error(o.ctx + ": unexpected argument " + quote(t.what[1]));
  check_scheme_flags(a, s, o.ctx);
  o.command = command_text(a, t.what[0]);
  const output_options out = read_output_options(a, o.ctx, s.name);
  o.fmt = out.fmt;
  o.decimal = out.decimal;
  o.name = out.name;
  o.type = out.type;
  return s.run(a, o);
}

inline options read_options(const parsed_args& a, const command_target& t) {
  options o;
  o.output = t.output;
  o.rope = t.what[0] == "rope";
  o.ctx = "emit " + std::string(t.what[0]);
  if (t.what.size() > 1) throw usage_error(o.ctx + ": unexpected argument " + quote(t.what[1]));
  check_rope_flags(a, o);
  o.command = command_text(a, t.what[0]);
  o.pol = flag_choice(
      a, "policy",
      {{"exact", policy::exact}, {"hf-float32", policy::hf_float32}, {"ggml-float32", policy::ggml_float32}},
      policy::exact, o.ctx);
  const output_options out = read_output_options(a, o.ctx, t.what[0]);
  o.fmt = out.fmt;
  o.decimal = out.decimal;
  o.name = out.name;
  o.type = out.type;
  if (!o.rope) return o;
  if (!a.has("positions")) throw usage_error(o.ctx + ": --positions N is required");
  o.rows = static_cast<std::uint64_t>(flag_integer(a, "positions", 1, static_cast<long long>(max_rows), 0, o.ctx));
  o.start = static_cast<std::uint64_t>(flag_integer(a, "start", 0, static_cast<long long>(max_position), 0, o.ctx));
  if (o.start + o.rows - 1 > max_position)
    throw usage_error(o.ctx + ": positions past 2^21: --start " + std::to_string(o.start) + " --positions " +
                      std::to_string(o.rows) + " ends at position " + std::to_string(o.start + o.rows - 1) +
                      " (the last position must be <= 2097152)");
  // --layout pairs writes the compact rows (one value per pair), which have no element order; the
  // order stays the default (or the --hf-config model's) for what the header says.
  enum class table_layout { half_split, interleaved, pairs };
  const table_layout lay = flag_choice(a, "layout",
                                       {{"half-split", table_layout::half_split},
                                        {"interleaved", table_layout::interleaved},
                                        {"pairs", table_layout::pairs}},
                                       table_layout::half_split, o.ctx);
  o.pairs = lay == table_layout::pairs;
  o.lay = lay == table_layout::interleaved ? rope::layout::interleaved : rope::layout::half_split;
  o.fold = a.has("fold-attention");
  return o;
}

template <class T>
std::string emit_any(const parsed_config& pc, const options& o) {
  if constexpr (!is_fixed<T>())  // q15/q31: rope only (read_output_options)
    if (!o.rope) return emit_rope_freq<T>(pc.cfg, o);
  const std::uint64_t pairs = static_cast<std::uint64_t>(rope::rotary_dim(pc.cfg) / 2);
  if (o.rows * pairs > max_entries)
    throw usage_error(o.ctx + ": table too large: --positions " + std::to_string(o.rows) + " x " +
                      std::to_string(pairs) + " pairs = " + std::to_string(o.rows * pairs) +
                      " entries (at most 2^24 = 16777216 per run)");
  return emit_rope<T>(pc.cfg, o);
}

inline std::string run_rope(const parsed_args& a, const command_target& t) {
  if (t.what[0] != "rope" && t.what[0] != "rope-freq")
    throw usage_error("emit: unknown table " + quote(t.what[0]) + " (expected one of: " + table_list() + ")");
#if defined(POSENC_CLI_HAVE_IO)
  if (t.what[0] == "rope" && a.has("layer-map")) return hf_layer_map(a, "emit rope");
#endif
  options o = read_options(a, t);
  const auto hf = hf_rope_settings(a, o.ctx);                   // --hf-config: the file's values, under the flags
  if (hf && (!a.has("layout") || o.pairs)) o.lay = hf->layout;  // the model's own element order by default
  const rope::config hf_cfg = hf ? hf->config() : rope::config{};
  parsed_config pc = read_config(a, o.ctx, hf ? &hf_cfg : nullptr);
  if (o.rope) {
    const std::uint64_t last = o.start + (o.rows - 1);
    warn_past_max_position(pc.cfg.max_position_embeddings, last, o.ctx);
    pc.cfg = rope::with_seq_len_of_positions(pc.cfg, last);  // dynamic, LongRoPE: HF's seq_len
  }
  switch (o.type) {
    case dtype::f32: return emit_any<float>(pc, o);
    case dtype::bf16: return emit_any<posenc::bfloat16>(pc, o);
    case dtype::f16: return emit_any<posenc::float16>(pc, o);
    case dtype::q15: return emit_any<posenc::q15>(pc, o);
    case dtype::q31: return emit_any<posenc::q31>(pc, o);
    case dtype::f64: break;
  }
  return emit_any<double>(pc, o);
}

inline void run(const parsed_args& a, std::string& out) {
  const command_target t = read_command_target(a, "emit");
  if (t.what.empty()) throw usage_error("emit: missing <what> (one of: " + table_list() + ")");
  const scheme_command* s = find_scheme(t.what[0]);
  const std::string data = s != nullptr ? run_scheme(a, t, *s) : run_rope(a, t);
  if (t.output.empty()) {
    out += data;
  } else {
    write_file_atomically(t.output, data);
  }
}

// ---- help ----

// What rope and rope-freq share: the config, the policies, the values, the output.
inline constexpr std::string_view rope_common_help =
    "Config flags use HuggingFace's config.json names; --hf-config FILE reads them from a\n"
    "config.json and the flags given override the file's values. Values are exact, rounded once into\n"
    "--dtype (policy exact), HF's float32 pipeline (policy hf-float32, every rope type), or ggml's\n"
    "float32 recurrence (policy ggml-float32, rope_type default and linear only).\n"
    "Reals print as exact hex floats (bf16/f16: their exact float), or shortest decimals with\n"
    "--decimal. bf16 is safetensors' BF16 and NPY '<u2' bit patterns (numpy has no bfloat16).\n"
    "-o FILE (or --output FILE) writes FILE atomically (temporary file + rename).\n";

inline constexpr std::string_view rope_freq_usage =
    "usage: posenc emit rope-freq (--head-dim D | --hf-config FILE) [config flags] [--dtype T] [--policy P]\n"
    "                             [--format csv|c|bin|npy|safetensors] [--name ID] [--decimal] [-o FILE]\n"
    "\n"
    "rope-freq writes CSV 'pair,inv_freq' (pairs j < rotary_dim/2) and a last row\n"
    "'attention_factor,<value>'; --format c a header with <name>_inv_freq[pairs] and\n"
    "<name>_attention_factor (default name posenc_rope_freq); --format bin the pairs' values then\n"
    "the attention factor, little-endian dtype values; --format npy one array [pairs + 1] (inv_freq\n"
    "then the attention factor); --format safetensors 'inv_freq' [pairs] and 'attention_factor' [],\n"
    "the config in __metadata__. ggml-float32's inv_freq is ggml's angle at position 1.\n";

inline constexpr std::string_view rope_usage =
    "usage: posenc emit rope (--head-dim D | --hf-config FILE) --positions N [--start P] [config flags] [--dtype T]\n"
    "                        [--policy P] [--fold-attention] [--format csv|c|bin|npy|safetensors] [--layout L]\n"
    "                        [--name ID] [--decimal] [-o FILE]\n"
    "\n"
    "rope writes cos/sin of positions [P, P + N): CSV 'position,pair,cos,sin' (pair = frequency\n"
    "index j, layout-independent); --format c a C/C++ header with <name>_cos[N][rotary_dim] and\n"
    "<name>_sin[N][rotary_dim] in --layout order, with the config, the posenc version, its arrays'\n"
    "bytes and an FNV-1a 64 checksum of the bin bytes; --format bin little-endian dtype values, per\n"
    "position and element k < rotary_dim: cos then sin; --format npy one array [2][N][rotary_dim]\n"
    "([0] cos, [1] sin, --layout order); --format safetensors tensors 'cos' and 'sin' [N][rotary_dim],\n"
    "the config in __metadata__. --layout pairs: rotary_dim/2 values a row (one per pair j, half the\n"
    "bytes), which rope::rotate applies to half-split and interleaved heads alike.\n"
    "Limits: last position <= 2^21, N <= 2^21, N x rotary_dim/2 <= 2^24.\n";

inline constexpr std::string_view usage =
    "usage: posenc emit <table> [the table's flags] [--format csv|c|bin|npy|safetensors] [--name ID] [-o FILE]\n"
    "\n"
    "Writes a table of one scheme as CSV (default), a C/C++ header, raw little-endian binary, npy or\n"
    "safetensors; real-valued tables also take [--dtype T] [--decimal]. Each table takes its own\n"
    "flags only: 'posenc emit <table> --help' lists them. npy and safetensors hold the value column\n"
    "as one tensor of the C array's shape, named after the column. Docs: docs/cli.md.\n"
    "\n"
    "tables:\n"
    "       posenc emit rope-freq (--head-dim D | --hf-config FILE) [config flags] [--policy P]\n"
    "       posenc emit rope (--head-dim D | --hf-config FILE) --positions N [--start P] [config flags]\n"
    "                        [--policy P] [--fold-attention] [--layout L]\n";

// The table named among the positionals (skipping -o FILE), or "".
inline std::string_view help_table(const parsed_args& a) {
  for (std::size_t i = 0; i < a.positionals.size(); ++i) {
    if (a.positionals[i] == "-o") {
      ++i;
      continue;
    }
    return a.positionals[i];
  }
  return {};
}

// `posenc emit [<table>] --help`: one table's usage and its flags only, or the list of tables.
inline std::string help(const parsed_args& a) {
  const std::string_view what = help_table(a);
  std::vector<flag_spec> specs;
  const auto add = [&specs](std::span<const flag_spec> list) { specs.insert(specs.end(), list.begin(), list.end()); };
  if (what == "rope" || what == "rope-freq") {
    add(config_flags);
    add(rope_freq_flags);
    add(hf_layer_flags);
    if (what == "rope") add(rope_table_flags);
    add(output_flags);
    return std::string(what == "rope" ? rope_usage : rope_freq_usage) + "\n" + std::string(rope_common_help) +
           "\nflags:\n" + describe_flags(specs);
  }
  if (const scheme_command* s = find_scheme(what)) {
    add(s->flags);
    add(output_flags_of(s->real));
    return "usage: posenc emit " + std::string(s->synopsis) +
           "\n         [--format csv|c|bin|npy|safetensors] [--name ID]" +
           (s->real ? (fixed_point_table(what) ? " [--dtype f64|f32|bf16|f16|q15|q31] [--decimal]"
                                               : " [--dtype f64|f32|bf16|f16] [--decimal]")
                    : "") +
           " [-o FILE]\n\nnpy and safetensors hold the value column as one tensor of the C array's shape, named\n"
           "after the column (safetensors, with the parameters in __metadata__). The table and its\n"
           "formats are described in docs/cli.md.\n\nflags:\n" +
           describe_flags(specs);
  }
  std::string h(usage);
  for (const auto& sc : schemes) h += "       posenc emit " + std::string(sc.synopsis) + "\n";
  return h + "\nflags of every table (--dtype and --decimal: the real-valued ones only):\n" +
         describe_flags(output_flags);
}

// Every flag of every table, each name once: what the command line may hold before the table's
// own check (check_rope_flags, check_scheme_flags) says which apply.
inline constexpr auto all_flags = [] {
  flag_union<96> u;
  u.add(config_flags).add(rope_freq_flags).add(hf_layer_flags).add(rope_table_flags).add(output_flags);
  for (const auto& s : schemes) u.add(s.flags);
  return u;
}();

}  // namespace posenc::cli::emit

namespace posenc::cli {

inline constexpr command emit_command{
    "emit",      "write the tables of every scheme (CSV, C header, binary, npy, safetensors)",
    emit::usage, emit::all_flags.view(),
    emit::run,   emit::help};

}  // namespace posenc::cli
