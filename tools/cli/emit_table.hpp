// emit_table.hpp: the output of `posenc emit <scheme>` for every scheme but RoPE (issue 9): a table
// of rows, each a few integer key columns (position, head, ...) and one value column, integer
// (buckets, indices) or real (in the --dtype), written as CSV, a C/C++ header or raw binary.
//
//   csv: one header line "<key>,...,<value>", then one row per entry; integers in decimal, reals as
//        exact hex floats or, with --decimal, the shortest decimal that reads back to the same value.
//   c:   the value column as one array <name>_<value>[d0][d1]... in row order (its shape is the
//        table's), int32_t or the dtype's C type (bf16/f16: uint16_t bit patterns), with
//        <name>_entries, <name>_checksum (FNV-1a 64 of the bin bytes) and a comment stating the
//        posenc version, the command line, every parameter and what each index means.
//   bin: the value column alone, in row order, little-endian: int32 or the dtype (no header).
//   npy, safetensors: the value column as one tensor of the C array's shape, named after the
//        column in safetensors, with the parameters as metadata (emit_tensors.hpp).
//
// The values come from the scheme's own run-time generator (schemes/<scheme>.hpp); this header only
// lays them out. Docs: docs/cli.md, section `posenc emit` for the other schemes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <posenc/version.hpp>

#include "args.hpp"
#include "emit_tensors.hpp"
#include "emit_values.hpp"

namespace posenc::cli::emit {

// The largest table one run writes: 2^24 rows (a CSV of about 0.5 to 1 GB), whatever the scheme.
inline constexpr std::uint64_t max_table_rows = std::uint64_t{1} << 24;

enum class table_format { csv, c, bin, npy, safetensors };

// How a table is written: the parts of the command line that are not the scheme's parameters.
struct table_options {
  std::string ctx;      // "emit alibi", for messages
  std::string command;  // the command line, for the C header's comment
  table_format fmt = table_format::csv;
  bool decimal = false;
  std::string name;         // C identifier prefix
  dtype type = dtype::f64;  // the values' type (real-valued tables)
};

// One table. V is std::int32_t (an integer-valued scheme) or the dtype.
template <class V>
struct table {
  std::string scheme;             // "posenc emit <scheme>"
  std::vector<std::string> keys;  // the key columns' names
  std::string value;              // the value column's name
  std::vector<V> values;          // one per row
  // An optional second value column of the same rows (a cos/sin table's sin): CSV's last column,
  // a second C array and safetensors tensor, npy's second slice, bin's bytes after the first's.
  std::string value2;
  std::vector<V> values2;
  std::function<void(std::size_t row, std::int64_t* keys)> key_of;  // the key columns of a row
  std::vector<std::size_t> shape;                           // the C array's dimensions (their product is the rows)
  std::vector<std::string> index_notes;                     // the C comment: what each index means
  std::vector<std::pair<std::string, std::string>> params;  // every parameter, for the C comment
  std::uint64_t saturated = 0;                              // q15/q31: the values saturated
};

template <class V>
constexpr bool integer_valued() {
  return std::is_same_v<V, std::int32_t>;
}

template <class V>
std::string value_text(V v, bool decimal) {
  if constexpr (integer_valued<V>())
    return std::to_string(v);
  else
    return format_value(v, decimal);
}

template <class V>
std::string table_csv(const table<V>& t, const table_options& o) {
  std::string s;
  for (const auto& k : t.keys) s += k + ",";
  s += t.value + (t.value2.empty() ? "" : "," + t.value2) + "\n";
  std::vector<std::int64_t> keys(t.keys.size());
  for (std::size_t r = 0; r < t.values.size(); ++r) {
    t.key_of(r, keys.data());
    for (const std::int64_t k : keys) s += std::to_string(k) + ",";
    s += value_text(t.values[r], o.decimal);
    if (!t.value2.empty()) s += "," + value_text(t.values2[r], o.decimal);
    s += "\n";
  }
  return s;
}

template <class V>
std::string table_bin(const table<V>& t) {
  std::string s((t.values.size() + t.values2.size()) * sizeof(V), '\0');
  char* out = s.data();
  for (const std::vector<V>* column : {&t.values, &t.values2})  // the first column, then the second
    for (const V v : *column) {
      if constexpr (integer_valued<V>()) {
        auto b = static_cast<std::uint32_t>(v);
        for (int i = 0; i < 4; ++i, b >>= 8) *out++ = static_cast<char>(static_cast<unsigned char>(b & 0xFFu));
      } else {
        out = put_le(out, v);
      }
    }
  return s;
}

// The command line on one comment line: control characters escaped, as in error messages.
inline std::string comment_safe(std::string_view text) {
  const std::string q = quote(text);
  return q.substr(1, q.size() - 2);
}

template <class V>
std::string table_header(const table<V>& t, const table_options& o) {
  const std::string hash = checksum_hex(table_bin(t));
  const std::string& n = o.name;
  std::string dims;
  for (const std::size_t d : t.shape) dims += "[" + std::to_string(d) + "]";
  std::string s =
      "// Generated by posenc " POSENC_VERSION_STRING " (posenc emit " + t.scheme + " --format c). Do not edit.\n";
  s += "// command: posenc" + o.command + "\n";
  s += "// " + n + "_" + t.value + dims + ": the '" + t.value + "' column of the CSV, in its row order;\n";
  if (!t.value2.empty())
    s += "// " + n + "_" + t.value2 + dims + ": the '" + t.value2 + "' column, in the same order;\n";
  for (const auto& note : t.index_notes) s += "//   " + note + "\n";
  if constexpr (integer_valued<V>())
    s += "// Values are exact integers.\n";
  else if constexpr (is_half<V>())
    s += std::string("// Values are ") +
         (std::is_same_v<V, posenc::bfloat16> ? "bfloat16" : "IEEE binary16 (float16)") +
         " bit patterns (sign, exponent, fraction) stored in uint16_t, each the exact value rounded once.\n";
  else if constexpr (is_fixed<V>())
    s += "// Values are CMSIS-DSP " + std::string(dtype_name<V>()) + "_t: k = RN_even(x * 2^" +
         std::to_string(posenc::fixed_format<V>::fraction_bits) + ") of the exact value x, saturated (x = k * 2^-" +
         std::to_string(posenc::fixed_format<V>::fraction_bits) +
         "). Saturated values: " + std::to_string(t.saturated) + ".\n";
  else
    s +=
        "// Values are " + std::string(dtype_name<V>()) + ", each the exact value rounded once (hex-float literals).\n";
  s += t.value2.empty()
           ? "// checksum: FNV-1a 64 of the little-endian bytes of the values in this order (exactly the bytes\n"
           : "// checksum: FNV-1a 64 of the little-endian bytes of both arrays, one after the other (exactly the "
             "bytes\n";
  s += "// `posenc emit " + t.scheme + " --format bin` writes): " + hash + "\n";
  std::string ctype;
  if constexpr (integer_valued<V>())
    ctype = "int32_t";
  else
    ctype = std::string(c_type<V>());
  s += "// " + array_bytes_text(t.value2.empty() ? 1 : 2, t.shape, ctype, sizeof(V)) + "\n";
  s += "// parameters:\n";
  for (const auto& p : t.params) s += "//   " + p.first + " = " + p.second + "\n";
  s += c_header_prologue(n);
  s += n + "_CONST uint64_t " + n + "_entries = " + std::to_string(t.values.size() + t.values2.size()) + "u;\n";
  s += n + "_CONST uint64_t " + n + "_checksum = " + hash + "u;\n\n";
  const std::string& type = ctype;
  for (int column = 0; column < (t.value2.empty() ? 1 : 2); ++column) {
    const std::vector<V>& values = column == 0 ? t.values : t.values2;
    s += (column == 0 ? "" : "\n") + n + "_CONST " + type + " " + n + "_" + (column == 0 ? t.value : t.value2) + dims +
         " = {\n";
    // The innermost dimension on one line, in braces (a 1-D array: 8 values a line, no braces).
    const bool flat = t.shape.size() <= 1;
    const std::size_t inner = flat ? 8 : t.shape.back();
    std::vector<std::size_t> stride(t.shape.size(), 1);
    for (std::size_t d = t.shape.size(); d-- > 1;) stride[d - 1] = stride[d] * t.shape[d];
    for (std::size_t r = 0; r < values.size(); r += inner) {
      std::string line = "  ";
      for (std::size_t d = 0; d + 2 < t.shape.size(); ++d)  // the blocks that begin here
        if (r % stride[d] == 0) line += "{";
      if (!flat) line += "{";
      const std::size_t end = r + inner < values.size() ? r + inner : values.size();
      for (std::size_t k = r; k < end; ++k) {
        if (k > r) line += ", ";
        if constexpr (integer_valued<V>())
          line += std::to_string(values[k]);
        else
          line += c_literal(values[k]);
      }
      if (!flat) line += "}";
      for (std::size_t d = t.shape.size() - 2; !flat && d-- > 0;)  // the blocks that end here
        if (end % stride[d] == 0) line += "}";
      s += line + (end < values.size() ? ",\n" : "\n");
    }
    s += "};\n";
  }
  s += "\n#undef " + n + "_CONST\n";
  return s;
}

// The value column as one tensor of the table's shape (the bin bytes with a header); in
// safetensors named after the column ("slope", "bucket", ...), the parameters as metadata.
template <class V>
std::string table_tensor_file(const table<V>& t, const table_options& o, tensor_format f) {
  tensor_output out;
  std::vector<std::uint64_t> shape(t.shape.begin(), t.shape.end());
  using E = tensor_element<V>;  // q15/q31: their raw int16_t/int32_t
  const auto elements = [](const std::vector<V>& v) {
    std::vector<E> e(v.size());
    std::transform(v.begin(), v.end(), e.begin(), to_tensor_element<V>);
    return e;
  };
  io::tensor x = io::make_tensor<E>(shape, elements(t.values));
  if (f == tensor_format::npy) {
    if (t.value2.empty()) {
      out.npy = std::move(x);
    } else {  // [2, shape...]: the first column, then the second
      std::vector<E> both = elements(t.values);
      const std::vector<E> second = elements(t.values2);
      both.insert(both.end(), second.begin(), second.end());
      shape.insert(shape.begin(), 2);
      out.npy = io::make_tensor<E>(shape, both);
    }
  } else {
    out.tensors.push_back({t.value, std::move(x)});
    if (!t.value2.empty()) out.tensors.push_back({t.value2, io::make_tensor<E>(shape, elements(t.values2))});
    out.metadata = base_metadata(t.scheme, o.command, integer_valued<V>() ? "i32" : dtype_name<V>());
    for (const auto& [key, value] : t.params) out.metadata.emplace(key, value);
    std::string index;
    for (const auto& note : t.index_notes) index += (index.empty() ? "" : " ") + note;
    out.metadata.emplace("index", index);
  }
  return write_tensor_file(f, out, o.ctx);
}

template <class V>
std::string write_table(const table<V>& t, const table_options& o) {
  switch (o.fmt) {
    case table_format::csv: return table_csv(t, o);
    case table_format::bin: return table_bin(t);
    case table_format::npy: return table_tensor_file(t, o, tensor_format::npy);
    case table_format::safetensors: return table_tensor_file(t, o, tensor_format::safetensors);
    case table_format::c: break;
  }
  return table_header(t, o);
}

}  // namespace posenc::cli::emit
