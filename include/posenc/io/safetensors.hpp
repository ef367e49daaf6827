// safetensors.hpp: Hugging Face's .safetensors files, written and read.
//
//   std::string file = posenc::io::write_safetensors({{"cos", c}, {"sin", s}}, {{"layout", "half-split"}});
//   auto f = posenc::io::read_safetensors(bytes);            // parse_result<safetensors_file>
//   auto cos = posenc::io::find_tensor(f.value(), "cos");    // parse_result<tensor>: "missing tensor ..."
//
// The format (huggingface/safetensors, docs "Format"): an unsigned little-endian 64-bit N, then N
// bytes of a UTF-8 JSON object, then the data. The object maps each tensor's name to
// {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, offsets in bytes from the start
// of the data, and may hold "__metadata__", a map of strings to strings. The tensors' byte ranges
// cover the data exactly, without overlap or gap. Elements are little-endian, row-major.
// Types: F64 F32 F16 BF16 I64 I32 I16 I8 U64 U32 U16 U8 (posenc's f64 ... u8); the format's BOOL
// and 8-bit floats are refused by name.
//
// The writer puts "__metadata__" first and the tensors in the order given, data in that order,
// and pads the header with spaces to a multiple of 8 bytes (as the reference writer does). The
// reader refuses, each with one line: a file shorter than its header, a header that is not valid
// JSON or not an object, an entry without dtype, shape or data_offsets or with a value of the
// wrong type, an unknown dtype, offsets that do not match the shape, lie past the data, overlap or
// leave a gap, bytes after the last tensor, and metadata that is not strings. Needs nlohmann-json
// (target posenc::io); no exception escapes the readers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "posenc/io/parse_result.hpp"
#include "posenc/io/tensor.hpp"

namespace posenc::io {

struct safetensors_file {
  std::vector<named_tensor> tensors;            // in the order of their data
  std::map<std::string, std::string> metadata;  // "__metadata__" (empty when absent)
};

namespace detail {

// The safetensors name of a type ("BF16").
constexpr std::string_view safetensors_dtype_name(tensor_dtype t) noexcept {
  constexpr std::string_view n[] = {"F64", "F32", "F16", "BF16", "I64", "I32", "I16", "I8", "U64", "U32", "U16", "U8"};
  return n[static_cast<std::size_t>(t)];
}

struct safetensors_error {
  std::string message;
};

// The reference implementation refuses headers above 100 MB; so does this reader.
inline constexpr std::uint64_t max_safetensors_header = 100'000'000;

using sjson = nlohmann::json;

inline std::string json_kind(const sjson& v) {
  return v.is_object()            ? "an object"
         : v.is_array()           ? "an array"
         : v.is_string()          ? "a string"
         : v.is_boolean()         ? "a boolean"
         : v.is_number_unsigned() ? "a non-negative integer"
         : v.is_number()          ? "a number"
                                  : "null";
}

inline std::uint64_t json_u64(const sjson& v, const std::string& what) {
  if (!v.is_number_unsigned())
    throw safetensors_error{what + " must be a non-negative integer, got " + json_kind(v) +
                            (v.is_number() ? " (" + v.dump() + ")" : "")};
  return v.get<std::uint64_t>();
}

struct safetensors_entry {
  std::string name;
  tensor_dtype dtype;
  std::vector<std::uint64_t> shape;
  std::uint64_t begin, end;
};

inline safetensors_entry read_entry(const std::string& name, const sjson& v) {
  const std::string at = "tensor '" + name + "'";
  if (!v.is_object()) throw safetensors_error{at + ": expected an object, got " + json_kind(v)};
  for (const char* key : {"dtype", "shape", "data_offsets"})
    if (!v.contains(key)) throw safetensors_error{at + ": no \"" + key + "\""};
  safetensors_entry e{name, tensor_dtype::f64, {}, 0, 0};
  const sjson& d = v.at("dtype");
  if (!d.is_string()) throw safetensors_error{at + ": dtype must be a string, got " + json_kind(d)};
  const std::string dn = d.get<std::string>();
  std::optional<tensor_dtype> t;
  for (const tensor_dtype x : all_tensor_dtypes)
    if (safetensors_dtype_name(x) == dn) t = x;
  if (!t)
    throw safetensors_error{at + ": unknown dtype \"" + dn +
                            "\" (posenc reads F64, F32, F16, BF16, I64, I32, I16, I8, U64, U32, U16, U8)"};
  e.dtype = *t;
  const sjson& s = v.at("shape");
  if (!s.is_array()) throw safetensors_error{at + ": shape must be an array, got " + json_kind(s)};
  for (std::size_t i = 0; i < s.size(); ++i)
    e.shape.push_back(json_u64(s[i], at + ": shape[" + std::to_string(i) + "]"));
  const sjson& o = v.at("data_offsets");
  if (!o.is_array() || o.size() != 2)
    throw safetensors_error{at + ": data_offsets must be an array [begin, end], got " + o.dump()};
  e.begin = json_u64(o[0], at + ": data_offsets[0]");
  e.end = json_u64(o[1], at + ": data_offsets[1]");
  if (e.end < e.begin)
    throw safetensors_error{at + ": data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
                            "] end before they begin"};
  const auto n = checked_elements(e.shape, dtype_size(e.dtype));
  if (!n) throw safetensors_error{at + ": shape " + shape_text(e.shape) + " is too large for any file"};
  if (e.end - e.begin != *n * dtype_size(e.dtype))
    throw safetensors_error{at + ": shape " + shape_text(e.shape) + " of " + dn + " needs " +
                            std::to_string(*n * dtype_size(e.dtype)) + " bytes, data_offsets [" +
                            std::to_string(e.begin) + ", " + std::to_string(e.end) + "] hold " +
                            std::to_string(e.end - e.begin)};
  return e;
}

// Every byte of the data belongs to exactly one tensor.
inline void check_coverage(std::vector<safetensors_entry>& es, std::uint64_t data_size) {
  for (const auto& e : es)
    if (e.end > data_size)
      throw safetensors_error{"tensor '" + e.name + "': data_offsets [" + std::to_string(e.begin) + ", " +
                              std::to_string(e.end) + "] run past the end of the data (" + std::to_string(data_size) +
                              " bytes): the file is truncated or the offsets are out of range"};
  std::stable_sort(es.begin(), es.end(), [](const safetensors_entry& a, const safetensors_entry& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  std::uint64_t at = 0;
  for (std::size_t i = 0; i < es.size(); ++i) {
    if (es[i].begin < at)
      throw safetensors_error{"tensors '" + es[i - 1].name + "' and '" + es[i].name + "' overlap (data_offsets [" +
                              std::to_string(es[i - 1].begin) + ", " + std::to_string(es[i - 1].end) + "] and [" +
                              std::to_string(es[i].begin) + ", " + std::to_string(es[i].end) + "])"};
    if (es[i].begin > at)
      throw safetensors_error{"bytes [" + std::to_string(at) + ", " + std::to_string(es[i].begin) +
                              ") of the data belong to no tensor (a gap before '" + es[i].name + "')"};
    at = es[i].end;
  }
  if (at != data_size)
    throw safetensors_error{"trailing bytes: the tensors end at byte " + std::to_string(at) +
                            " of the data, the file has " + std::to_string(data_size) + " (" +
                            std::to_string(data_size - at) + " extra)"};
}

inline std::map<std::string, std::string> read_metadata(const sjson& m) {
  if (!m.is_object()) throw safetensors_error{"__metadata__ must be an object, got " + json_kind(m)};
  std::map<std::string, std::string> out;
  for (auto it = m.begin(); it != m.end(); ++it) {
    if (!it.value().is_string())
      throw safetensors_error{"__metadata__." + it.key() + " must be a string, got " + json_kind(it.value())};
    out.emplace(it.key(), it.value().get<std::string>());
  }
  return out;
}

inline safetensors_file read_safetensors_or_throw(std::string_view file) {
  if (file.size() < 8)
    throw safetensors_error{"truncated file: " + std::to_string(file.size()) +
                            " bytes, shorter than the 8-byte header size"};
  const std::uint64_t n = get_le<std::uint64_t>(file.data());
  if (n > file.size() - 8)
    throw safetensors_error{"truncated file: the header size is " + std::to_string(n) + " bytes, only " +
                            std::to_string(file.size() - 8) + " follow (or not a safetensors file)"};
  if (n > max_safetensors_header) throw safetensors_error{"the header size " + std::to_string(n) + " exceeds 100 MB"};
  const std::string_view header = file.substr(8, static_cast<std::size_t>(n));
  if (header.empty() || header[0] != '{')
    throw safetensors_error{"the header does not start with '{' (not a safetensors file)"};
  sjson j;
  try {
    j = sjson::parse(header.begin(), header.end());
  } catch (const sjson::parse_error& e) {
    std::string what = e.what();
    if (const std::size_t close = what.find("] "); !what.empty() && what[0] == '[' && close != std::string::npos)
      what.erase(0, close + 2);
    std::replace(what.begin(), what.end(), '\n', ' ');
    throw safetensors_error{"the header is not valid JSON: " + what};
  }
  if (!j.is_object()) throw safetensors_error{"the header must be a JSON object, got " + json_kind(j)};
  safetensors_file f;
  std::vector<safetensors_entry> es;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "__metadata__")
      f.metadata = read_metadata(it.value());
    else
      es.push_back(read_entry(it.key(), it.value()));
  }
  const std::string_view data = file.substr(8 + static_cast<std::size_t>(n));
  check_coverage(es, data.size());
  for (auto& e : es)
    f.tensors.push_back({e.name, tensor{e.dtype, std::move(e.shape),
                                        std::string(data.substr(static_cast<std::size_t>(e.begin),
                                                                static_cast<std::size_t>(e.end - e.begin)))}});
  return f;
}

}  // namespace detail

// The .safetensors file of the tensors (data in the order given) and the metadata. Throws
// std::invalid_argument on a repeated or reserved ("__metadata__") name, or a tensor whose data does
// not hold exactly its elements. Any other name is the format's, the empty one included: what
// read_safetensors accepts, this writes back (it refused "" until fuzz_safetensors found a file
// with such a tensor that could be read but not written).
inline std::string write_safetensors(const std::vector<named_tensor>& tensors,
                                     const std::map<std::string, std::string>& metadata = {}) {
  nlohmann::ordered_json h = nlohmann::ordered_json::object();
  if (!metadata.empty()) h["__metadata__"] = metadata;
  std::uint64_t at = 0;
  for (const auto& [name, t] : tensors) {
    const auto n = detail::checked_elements(t.shape, dtype_size(t.dtype));
    if (name == "__metadata__" || h.contains(name) || !n || t.data.size() != *n * dtype_size(t.dtype))
      throw std::invalid_argument("posenc::io::write_safetensors: tensor '" + name +
                                  "': repeated or reserved name, or data not matching its shape");
    h[name] = {{"dtype", std::string(detail::safetensors_dtype_name(t.dtype))},
               {"shape", t.shape},
               {"data_offsets", {at, at + t.data.size()}}};
    at += t.data.size();
  }
  std::string header = h.dump();
  header.append((8 - header.size() % 8) % 8, ' ');
  std::string out(8, '\0');
  detail::put_le(out.data(), static_cast<std::uint64_t>(header.size()));
  out += header;
  out.reserve(out.size() + at);
  for (const auto& nt : tensors) out += nt.value.data;
  return out;
}

// The tensors and metadata of a .safetensors file, or one line naming the problem.
inline parse_result<safetensors_file> read_safetensors(std::string_view file) {
  try {
    return detail::read_safetensors_or_throw(file);
  } catch (const detail::safetensors_error& e) {
    return parse_result<safetensors_file>::failure("safetensors: " + e.message);
  } catch (const nlohmann::json::exception& e) {
    return parse_result<safetensors_file>::failure(std::string("safetensors: ") + e.what());
  } catch (const std::bad_alloc&) {
    return parse_result<safetensors_file>::failure("safetensors: out of memory");
  }
}

// The same, from a file: "PATH: safetensors: ..." on failure.
inline parse_result<safetensors_file> read_safetensors_file(const std::string& path) {
  std::string bytes, error;
  if (!detail::read_binary_file(path, bytes, error)) return parse_result<safetensors_file>::failure(error);
  auto r = read_safetensors(bytes);
  if (!r) return parse_result<safetensors_file>::failure(path + ": " + r.error());
  return r;
}

// The tensor of that name; with expect, it must hold that type. "missing tensor 'cos' (the file
// has: inv_freq, attention_factor)" otherwise.
inline parse_result<tensor> find_tensor(const safetensors_file& f, std::string_view name,
                                        std::optional<tensor_dtype> expect = std::nullopt) {
  std::string names;
  for (const auto& nt : f.tensors) {
    if (nt.name == name) {
      if (expect && nt.value.dtype != *expect)
        return parse_result<tensor>::failure("safetensors: tensor '" + nt.name + "' is " +
                                             std::string(detail::safetensors_dtype_name(nt.value.dtype)) +
                                             ", expected " + std::string(detail::safetensors_dtype_name(*expect)));
      return nt.value;
    }
    names += (names.empty() ? "" : ", ") + nt.name;
  }
  return parse_result<tensor>::failure("safetensors: missing tensor '" + std::string(name) +
                                       "' (the file has: " + (names.empty() ? "no tensors" : names) + ")");
}

}  // namespace posenc::io
