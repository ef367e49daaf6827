// hf_fields.hpp: typed reads of a config.json's fields, each failure a one-line message that names
// the field by its path ("rope_scaling.factor"). Internal to the io/<scheme>_hf_config.hpp readers:
// the readers throw field_error, and the public functions there catch it (and nlohmann's
// exceptions) at the API.
//
// Numbers: nlohmann-json keeps an integer token as an integer (exact) and reads any other number
// with strtod, which glibc rounds correctly, so a real field is the JSON's decimal rounded once to
// double (tests/test_io_hf_config.cpp checks 1.02 and 500000 against hex literals). An integer
// token of more than 53 bits is rounded once by the conversion to double. A null field is absent
// (HF writes "rope_scaling": null, "head_dim": null).
#pragma once

#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "posenc/io/parse_result.hpp"

namespace posenc::io::detail {

using json = nlohmann::json;

struct field_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] inline void fail(const std::string& path, const std::string& what) {
  throw field_error(path + ": " + what);
}

inline std::string join(std::string_view parent, std::string_view key) {
  return parent.empty() ? std::string(key) : std::string(parent) + "." + std::string(key);
}

// An object and its path, for reading fields by name.
struct object {
  const json* j = nullptr;
  std::string path;  // "" at the top level

  // The field, or nullptr when absent or null.
  const json* find(std::string_view key) const {
    if (j == nullptr) return nullptr;
    const auto it = j->find(std::string(key));
    if (it == j->end() || it->is_null()) return nullptr;
    return &*it;
  }
  bool has(std::string_view key) const { return find(key) != nullptr; }
  std::string at(std::string_view key) const { return join(path, key); }
};

inline const char* kind(const json& v) {
  return v.is_object()    ? "an object"
         : v.is_array()   ? "an array"
         : v.is_string()  ? "a string"
         : v.is_boolean() ? "a boolean"
         : v.is_number()  ? "a number"
                          : "null";
}

inline double real_of(const json& v, const std::string& path) {
  if (!v.is_number()) fail(path, std::string("expected a number, got ") + kind(v));
  double x = 0;
  if (v.is_number_unsigned())
    x = static_cast<double>(v.get<std::uint64_t>());
  else if (v.is_number_integer())
    x = static_cast<double>(v.get<std::int64_t>());
  else
    x = v.get<double>();
  if (!std::isfinite(x)) fail(path, "number out of the range of double");
  return x;
}

inline std::optional<double> real(const object& o, std::string_view key) {
  const json* v = o.find(key);
  if (v == nullptr) return std::nullopt;
  return real_of(*v, o.at(key));
}

// An integer token in [lo, hi]; a real such as 4096.0 is refused (a config's counts are integers).
inline std::optional<std::int64_t> integer(const object& o, std::string_view key, std::int64_t lo, std::int64_t hi) {
  const json* v = o.find(key);
  if (v == nullptr) return std::nullopt;
  const std::string path = o.at(key);
  if (!v->is_number_integer()) fail(path, std::string("expected an integer, got ") + kind(*v));
  // nlohmann keeps a non-negative integer as unsigned: compare it with hi before converting.
  const bool above = v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(hi);
  const std::int64_t x = above                     ? hi
                         : v->is_number_unsigned() ? static_cast<std::int64_t>(v->get<std::uint64_t>())
                                                   : v->get<std::int64_t>();
  if (above || x < lo || x > hi)
    fail(path, "integer out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return x;
}

inline std::optional<bool> boolean(const object& o, std::string_view key) {
  const json* v = o.find(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_boolean()) fail(o.at(key), std::string("expected true or false, got ") + kind(*v));
  return v->get<bool>();
}

inline std::optional<std::string> string(const object& o, std::string_view key) {
  const json* v = o.find(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) fail(o.at(key), std::string("expected a string, got ") + kind(*v));
  return v->get<std::string>();
}

inline std::optional<std::vector<double>> reals(const object& o, std::string_view key) {
  const json* v = o.find(key);
  if (v == nullptr) return std::nullopt;
  const std::string path = o.at(key);
  if (!v->is_array()) fail(path, std::string("expected an array of numbers, got ") + kind(*v));
  std::vector<double> r;
  r.reserve(v->size());
  for (std::size_t i = 0; i < v->size(); ++i) r.push_back(real_of((*v)[i], path + "[" + std::to_string(i) + "]"));
  return r;
}

inline std::optional<object> sub_object(const object& o, std::string_view key) {
  const json* v = o.find(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_object()) fail(o.at(key), std::string("expected an object, got ") + kind(*v));
  return object{v, o.at(key)};
}

// The text without nlohmann's "[json.exception.parse_error.101] " tag (parse_result::failure makes
// it one line).
inline std::string without_tag(std::string_view what) {
  if (!what.empty() && what.front() == '[') {
    const std::size_t close = what.find("] ");
    if (close != std::string_view::npos) what.remove_prefix(close + 2);
  }
  return std::string(what);
}

// Parses a whole config.json; throws field_error with the position of malformed or incomplete JSON.
inline json parse(std::string_view text) {
  try {
    json j = json::parse(text.begin(), text.end());
    if (!j.is_object())
      throw field_error(std::string("config.json: expected an object at the top level, got ") + kind(j));
    return j;
  } catch (const json::parse_error& e) {
    throw field_error("malformed JSON: " + without_tag(e.what()));
  }
}

// Runs read(parse(text)), turning every exception into a failure (nothing escapes the API; only
// running out of memory while writing the message itself would end in std::terminate).
template <class T, class Read>
posenc::io::parse_result<T> guarded(std::string_view text, Read read) noexcept {
  try {
    return read(parse(text));
  } catch (const field_error& e) {
    return posenc::io::parse_result<T>::failure(e.what());
  } catch (const json::exception& e) {
    return posenc::io::parse_result<T>::failure("config.json: " + without_tag(e.what()));
  } catch (const std::bad_alloc&) {
    return posenc::io::parse_result<T>::failure("config.json: out of memory");
  } catch (const std::exception& e) {
    return posenc::io::parse_result<T>::failure(std::string("config.json: ") + e.what());
  }
}

}  // namespace posenc::io::detail
