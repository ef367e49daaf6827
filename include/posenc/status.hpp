// status.hpp: how the core reports an error without exceptions.
//
// The core never throws and never returns a silent NaN, infinity or truncated value for a
// precondition it can check. Functions that can fail return posenc::result<T>: a value plus a
// status the caller must look at. In constant evaluation, callers typically static_assert(r.ok()).
#pragma once

namespace posenc {

enum class status : unsigned char {
  ok = 0,
  overflow,       // the exact value is finite but does not fit the target type
  domain_error,   // an argument is outside the documented domain (e.g. log of a negative)
  invalid_input,  // an argument is NaN or infinite where a finite value is required
};

// A short, stable English description, for diagnostics and the command-line tool.
constexpr const char* to_string(status s) noexcept {
  switch (s) {
    case status::ok: return "ok";
    case status::overflow: return "value overflows the target type";
    case status::domain_error: return "argument outside the domain";
    case status::invalid_input: return "argument is NaN or infinite";
  }
  return "unknown status";
}

template <class T>
struct result {
  T value{};
  posenc::status error = posenc::status::ok;

  constexpr bool ok() const noexcept { return error == posenc::status::ok; }
  constexpr explicit operator bool() const noexcept { return ok(); }
};

}  // namespace posenc
