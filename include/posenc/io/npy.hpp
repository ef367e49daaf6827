// npy.hpp: numpy's .npy files (format version 1.0), written and read.
//
//   std::string file = posenc::io::write_npy(t);             // what numpy.load reads
//   auto r = posenc::io::read_npy(bytes);                    // parse_result<tensor>
//   auto b = posenc::io::read_npy(bytes, tensor_dtype::bf16);  // a bf16 table stored as '<u2'
//   if (!r) std::cerr << r.error() << '\n';                  // "NPY: fortran_order is True ..."
//
// The format (numpy's "NEP 1", numpy/lib/format.py): the magic "\x93NUMPY", the version as two
// bytes (1, 0), the header's length as a little-endian uint16 (uint32 from version 2.0), then the
// header: a Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and a final '\n' so that the data starts at a multiple of 64 bytes; then the
// elements, row-major for fortran_order False.
//
// Element types ('descr'): '<f8' f64, '<f4' f32, '<f2' f16, '<i8' '<i4' '<i2' '|i1', '<u8' '<u4'
// '<u2' '|u1'. numpy has no bfloat16: a bf16 tensor is written as '<u2', its bit patterns, and
// '<u2' is read back as bf16 only when the caller says it expects bf16 (otherwise it is u16).
//
// The writer writes version 1.0; the reader takes 1.0, 2.0 and 3.0 (which differ only in the size
// of the header length and the header's encoding). The reader refuses, each with one line: a bad
// magic, another version, a header that is not such a dict or lacks or repeats a key, an unknown
// or big-endian descr, fortran_order True, a shape whose size overflows, fewer bytes than the
// shape needs (truncated), more (trailing bytes), and a type other than the one expected.
// Standard library and posenc's core only (no nlohmann-json).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "posenc/io/parse_result.hpp"
#include "posenc/io/tensor.hpp"

namespace posenc::io {

namespace detail {

inline constexpr std::string_view npy_magic = "\x93NUMPY";

// The 'descr' of a type ('<u2' for bf16, numpy having no bfloat16).
constexpr std::string_view npy_descr(tensor_dtype t) noexcept {
  constexpr std::string_view d[] = {"<f8", "<f4", "<f2", "<u2", "<i8", "<i4", "<i2", "|i1", "<u8", "<u4", "<u2", "|u1"};
  return d[static_cast<std::size_t>(t)];
}

// The type of a descr (u16 for '<u2'), or nothing.
inline std::optional<tensor_dtype> npy_dtype(std::string_view descr) noexcept {
  for (const tensor_dtype t : all_tensor_dtypes)
    if (t != tensor_dtype::bf16 && npy_descr(t) == descr) return t;
  return std::nullopt;
}

struct npy_error {
  std::string message;
};

// The header dict, parsed by hand: string keys, and values that are strings, True/False or tuples
// of non-negative integers (the only forms numpy writes). Throws npy_error.
class npy_header_parser {
 public:
  explicit npy_header_parser(std::string_view text) : s_(text) {}

  std::optional<std::string> descr;
  std::optional<bool> fortran_order;
  std::optional<std::vector<std::uint64_t>> shape;

  void parse() {
    skip_space();
    expect('{');
    for (;;) {
      skip_space();
      if (peek() == '}') break;
      const std::string key = string_literal();
      skip_space();
      expect(':');
      skip_space();
      if (key == "descr") {
        if (descr) fail("the key 'descr' appears twice");
        if (peek() != '\'' && peek() != '"') fail("'descr' is not a string (structured dtypes are not supported)");
        descr = string_literal();
      } else if (key == "fortran_order") {
        if (fortran_order) fail("the key 'fortran_order' appears twice");
        fortran_order = boolean();
      } else if (key == "shape") {
        if (shape) fail("the key 'shape' appears twice");
        shape = tuple();
      } else {
        fail("unknown key '" + key + "' (an NPY header has 'descr', 'fortran_order' and 'shape')");
      }
      skip_space();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      if (peek() != '}') fail("expected ',' or '}' at byte " + std::to_string(i_) + " of the header");
    }
    ++i_;
    skip_space();
    if (i_ != s_.size()) fail("text after the header's closing '}'");
    if (!descr) fail("the header has no 'descr'");
    if (!fortran_order) fail("the header has no 'fortran_order'");
    if (!shape) fail("the header has no 'shape'");
  }

 private:
  std::string_view s_;
  std::size_t i_ = 0;

  [[noreturn]] static void fail(const std::string& m) { throw npy_error{"header: " + m}; }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  void expect(char c) {
    if (peek() != c)
      fail(std::string("expected '") + c + "' at byte " + std::to_string(i_) + " (not a Python dict literal)");
    ++i_;
  }
  std::string string_literal() {
    const char q = peek();
    if (q != '\'' && q != '"') fail("expected a quoted key or string at byte " + std::to_string(i_));
    const std::size_t end = s_.find(q, i_ + 1);
    if (end == std::string_view::npos) fail("unterminated string at byte " + std::to_string(i_));
    std::string v(s_.substr(i_ + 1, end - i_ - 1));
    if (v.find('\\') != std::string::npos) fail("escapes in strings are not supported");
    i_ = end + 1;
    return v;
  }
  bool boolean() {
    if (s_.substr(i_, 4) == "True") {
      i_ += 4;
      return true;
    }
    if (s_.substr(i_, 5) == "False") {
      i_ += 5;
      return false;
    }
    fail("'fortran_order' is not True or False");
  }
  std::uint64_t integer() {
    if (peek() < '0' || peek() > '9') fail("'shape' holds something other than non-negative integers");
    std::uint64_t v = 0;
    while (peek() >= '0' && peek() <= '9') {
      const auto digit = static_cast<std::uint64_t>(peek() - '0');
      if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
        fail("a dimension of 'shape' does not fit in 64 bits");
      v = v * 10 + digit;
      ++i_;
    }
    if (peek() == 'L') ++i_;  // Python 2's long suffix, as old numpy wrote it
    return v;
  }
  std::vector<std::uint64_t> tuple() {
    if (peek() != '(') fail("'shape' is not a tuple");
    ++i_;
    std::vector<std::uint64_t> v;
    bool comma = true;  // a separator before the next element (none needed before the first)
    for (;;) {
      skip_space();
      if (peek() == ')') break;
      if (!comma) fail("expected ',' or ')' in 'shape' at byte " + std::to_string(i_));
      v.push_back(integer());
      skip_space();
      comma = peek() == ',';
      if (comma) ++i_;
    }
    ++i_;
    if (v.size() == 1 && !comma) fail("'shape' is (" + std::to_string(v[0]) + "), not a tuple: write (n,)");
    return v;
  }
};

[[noreturn]] inline void npy_fail(const std::string& m) { throw npy_error{m}; }

// The preamble: magic, version, header length. Returns the header's text; body_at is where the data begins.
inline std::string_view npy_header_text(std::string_view file, std::size_t& body_at) {
  const std::size_t k = std::min(file.size(), npy_magic.size());
  if (file.substr(0, k) != npy_magic.substr(0, k))
    npy_fail("bad magic: the file does not start with \"\\x93NUMPY\" (not an NPY file)");
  if (file.size() < 10)
    npy_fail("truncated file: " + std::to_string(file.size()) + " bytes, shorter than the preamble");
  const auto major = static_cast<unsigned char>(file[6]), minor = static_cast<unsigned char>(file[7]);
  if (major < 1 || major > 3 || minor != 0)
    npy_fail("unsupported NPY version " + std::to_string(major) + "." + std::to_string(minor) +
             " (posenc reads 1.0, 2.0 and 3.0)");
  const std::size_t len_bytes = major == 1 ? 2 : 4;  // uint16 in 1.0, uint32 from 2.0
  if (file.size() < 8 + len_bytes) npy_fail("truncated file: it ends inside the header length");
  const std::uint64_t header_len =
      len_bytes == 2 ? get_le<std::uint16_t>(file.data() + 8) : get_le<std::uint32_t>(file.data() + 8);
  const std::size_t header_at = 8 + len_bytes;
  if (header_len > file.size() - header_at)
    npy_fail("truncated file: the header is " + std::to_string(header_len) + " bytes, only " +
             std::to_string(file.size() - header_at) + " follow");
  body_at = header_at + static_cast<std::size_t>(header_len);
  return file.substr(header_at, static_cast<std::size_t>(header_len));
}

// The element type of a header: known, little-endian, row-major, and the one expected if any.
inline tensor_dtype npy_element_type(const npy_header_parser& h, std::optional<tensor_dtype> expect) {
  const std::string& descr = *h.descr;
  std::optional<tensor_dtype> t = npy_dtype(descr);
  if (!t && !descr.empty() && descr[0] == '>' && npy_dtype("<" + descr.substr(1)))
    npy_fail("big-endian dtype '" + descr + "' is not supported (posenc reads little-endian data, '<')");
  if (!t)
    npy_fail("unknown dtype '" + descr + "' (posenc reads <f8, <f4, <f2, <i8, <i4, <i2, |i1, <u8, <u4, <u2, |u1)");
  if (*h.fortran_order) npy_fail("fortran_order is True: posenc reads row-major (C order) arrays only");
  if (!expect) return *t;
  if (*expect == tensor_dtype::bf16 && *t == tensor_dtype::u16)
    return tensor_dtype::bf16;  // numpy has no bfloat16: bf16 tables are '<u2' bit patterns
  if (*t != *expect)
    npy_fail("dtype '" + descr + "' (" + std::string(dtype_name(*t)) + "), expected " +
             std::string(dtype_name(*expect)) + " ('" + std::string(npy_descr(*expect)) + "')");
  return *t;
}

inline tensor read_npy_or_throw(std::string_view file, std::optional<tensor_dtype> expect) {
  std::size_t body_at = 0;
  npy_header_parser h(npy_header_text(file, body_at));
  h.parse();
  const tensor_dtype t = npy_element_type(h, expect);
  const std::vector<std::uint64_t>& shape = *h.shape;
  const auto n = checked_elements(shape, dtype_size(t));
  if (!n) npy_fail("shape " + shape_text(shape) + " is too large for any file");
  const std::uint64_t need = *n * dtype_size(t), have = file.size() - body_at;
  const std::string what = "shape " + shape_text(shape) + " of " + *h.descr + " needs " + std::to_string(need) +
                           " bytes of data, the file has " + std::to_string(have);
  if (have < need) npy_fail("truncated file: " + what);
  if (have > need) npy_fail("trailing bytes: " + what + " (" + std::to_string(have - need) + " extra)");
  return tensor{t, shape, std::string(file.substr(body_at))};
}

}  // namespace detail

// The .npy file of t (version 1.0, data at a multiple of 64 bytes). Throws std::invalid_argument
// when t.data does not hold exactly t's elements.
inline std::string write_npy(const tensor& t) {
  const auto n = detail::checked_elements(t.shape, dtype_size(t.dtype));
  if (!n || t.data.size() != *n * dtype_size(t.dtype))
    throw std::invalid_argument("posenc::io::write_npy: " + std::to_string(t.data.size()) +
                                " bytes of data for the shape " + detail::shape_text(t.shape) + " of " +
                                std::string(dtype_name(t.dtype)));
  std::string dict = "{'descr': '" + std::string(detail::npy_descr(t.dtype)) + "', 'fortran_order': False, 'shape': (";
  for (std::size_t i = 0; i < t.shape.size(); ++i) dict += (i ? ", " : "") + std::to_string(t.shape[i]);
  dict += t.shape.size() == 1 ? ",), }" : "), }";
  // Spaces, then '\n', up to the next multiple of 64 of the whole preamble (10 bytes + header).
  const std::size_t total = (10 + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - 10 - dict.size() - 1, ' ');
  dict += '\n';
  if (dict.size() > 0xFFFF) throw std::invalid_argument("posenc::io::write_npy: the shape is too long for NPY 1.0");
  std::string out(detail::npy_magic);
  out += '\x01';
  out += '\x00';
  char len[2];
  detail::put_le(len, static_cast<std::uint16_t>(dict.size()));
  out.append(len, 2);
  out += dict;
  out += t.data;
  return out;
}

// The tensor an .npy file holds. With expect, the file must hold that type ('<u2' counting as bf16
// when bf16 is expected); without, '<u2' is u16. One line naming the problem otherwise.
inline parse_result<tensor> read_npy(std::string_view file, std::optional<tensor_dtype> expect = std::nullopt) {
  try {
    return detail::read_npy_or_throw(file, expect);
  } catch (const detail::npy_error& e) {
    return parse_result<tensor>::failure("NPY: " + e.message);
  } catch (const std::bad_alloc&) {
    return parse_result<tensor>::failure("NPY: out of memory");
  }
}

// The same, from a file: "PATH: NPY: ..." on failure.
inline parse_result<tensor> read_npy_file(const std::string& path, std::optional<tensor_dtype> expect = std::nullopt) {
  std::string bytes, error;
  if (!detail::read_binary_file(path, bytes, error)) return parse_result<tensor>::failure(error);
  auto r = read_npy(bytes, expect);
  if (!r) return parse_result<tensor>::failure(path + ": " + r.error());
  return r;
}

}  // namespace posenc::io
