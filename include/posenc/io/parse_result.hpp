// parse_result.hpp: the result of reading a user's file, a value or a one-line message.
//
//   posenc::io::parse_result<rope_settings> r = posenc::io::rope_from_hf_config(text);
//   if (!r) std::cerr << r.error() << '\n';   // e.g. "rope_scaling.factor: expected a number, got string"
//
// Not posenc::result (status.hpp): that carries a status code for the constexpr core, where a
// string cannot live; reading a file at run time can say which field is wrong, in words.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace posenc::io {

template <class T>
class parse_result {
 public:
  parse_result(T value) : value_(std::move(value)) {}  // NOLINT: implicit, so that `return v;` reads well

  static parse_result failure(std::string message) {
    parse_result r;
    r.error_ = std::move(message);
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
