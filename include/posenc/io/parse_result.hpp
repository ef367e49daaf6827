// parse_result.hpp: the result of reading a user's file, a value or a one-line message.
//
//   posenc::io::parse_result<rope_settings> r = posenc::io::rope_from_hf_config(text);
//   if (!r) std::cerr << r.error() << '\n';   // e.g. "rope_scaling.factor: expected a number, got string"
//
// Not posenc::result (status.hpp): that carries a status code for the constexpr core, where a
// string cannot live; reading a file at run time can say which field is wrong, in words.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace posenc::io {

// text with each control character (below 0x20, and 0x7f) written as an escape: "\n", "\r", "\t",
// otherwise "\xHH". Other bytes (UTF-8 included) are kept.
inline std::string one_line(std::string text) {
  std::size_t controls = 0;
  for (const char c : text) controls += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? 1 : 0;
  if (controls == 0) return text;
  constexpr std::string_view hex = "0123456789abcdef";
  std::string out;
  out.reserve(text.size() + 3 * controls);
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += "\\x";
      out += hex[u >> 4];
      out += hex[u & 0xf];
    }
  }
  return out;
}

template <class T>
class parse_result {
 public:
  parse_result(T value) : value_(std::move(value)) {}  // NOLINT: implicit, so that `return v;` reads well

  // The message is made one line here, whatever the reader quoted from the user's bytes: a control
  // character becomes an escape (a newline "\n", a NUL "\x00"). Found by fuzzing the .npy reader,
  // which quoted an unknown header key holding a newline.
  static parse_result failure(std::string message) {
    parse_result r;
    r.error_ = one_line(std::move(message));
    return r;
  }

  bool ok() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return ok(); }
  // Precondition: ok().
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  // One line naming the problem (and the field); empty when ok().
  const std::string& error() const noexcept { return error_; }

 private:
  parse_result() = default;
  std::optional<T> value_;
  std::string error_;
};

}  // namespace posenc::io
