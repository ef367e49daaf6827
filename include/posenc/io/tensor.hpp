// tensor.hpp: a table as a tensor file holds it: an element type, a shape and the elements' bytes,
// little-endian, row-major (C order). What posenc::io's NPY and safetensors readers return and
// their writers take (io/npy.hpp, io/safetensors.hpp).
//
//   posenc::io::tensor t = posenc::io::make_tensor<float>({2, 3}, values);  // 6 floats
//   auto v = posenc::io::tensor_values<float>(t);                           // parse_result<vector<float>>
//
// Element types by posenc's names: f64, f32, f16 (IEEE binary16, posenc::float16), bf16
// (posenc::bfloat16), and the integers i64, i32, i16, i8, u64, u32, u16, u8.
//
// Byte order: the bytes are little-endian whatever the host; values are encoded and decoded by
// shifts, never by copying memory, so a big-endian host reads and writes the same files correctly.
// Standard library and posenc's core only.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <ios>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

#include "posenc/io/parse_result.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"

namespace posenc::io {

static_assert(std::numeric_limits<double>::is_iec559 && std::numeric_limits<float>::is_iec559,
              "tensor files hold IEEE 754 binary64/binary32 values; this host's double or float is not one");

enum class tensor_dtype : std::uint8_t { f64, f32, f16, bf16, i64, i32, i16, i8, u64, u32, u16, u8 };

inline constexpr tensor_dtype all_tensor_dtypes[] = {
    tensor_dtype::f64, tensor_dtype::f32, tensor_dtype::f16, tensor_dtype::bf16, tensor_dtype::i64, tensor_dtype::i32,
    tensor_dtype::i16, tensor_dtype::i8,  tensor_dtype::u64, tensor_dtype::u32,  tensor_dtype::u16, tensor_dtype::u8};

// posenc's name of the type: "f64", "bf16", "i32", ...
constexpr std::string_view dtype_name(tensor_dtype t) noexcept {
  constexpr std::string_view names[] = {"f64", "f32", "f16", "bf16", "i64", "i32",
                                        "i16", "i8",  "u64", "u32",  "u16", "u8"};
  return names[static_cast<std::size_t>(t)];
}

// Bytes per element.
constexpr std::size_t dtype_size(tensor_dtype t) noexcept {
  constexpr std::size_t sizes[] = {8, 4, 2, 2, 8, 4, 2, 1, 8, 4, 2, 1};
  return sizes[static_cast<std::size_t>(t)];
}

// The type of a name ("f32"), or nothing.
constexpr std::optional<tensor_dtype> dtype_from_name(std::string_view name) noexcept {
  for (const tensor_dtype t : all_tensor_dtypes)
    if (dtype_name(t) == name) return t;
  return std::nullopt;
}

// The element type of a C++ type: double, float, posenc::float16, posenc::bfloat16 and the
// fixed-width integers.
template <class T>
inline constexpr bool is_tensor_element =
    std::is_same_v<T, double> || std::is_same_v<T, float> || std::is_same_v<T, posenc::float16> ||
    std::is_same_v<T, posenc::bfloat16> || std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::int32_t> ||
    std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::uint64_t> ||
    std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint16_t> || std::is_same_v<T, std::uint8_t>;

template <class T>
  requires is_tensor_element<T>
constexpr tensor_dtype dtype_of() noexcept {
  if constexpr (std::is_same_v<T, double>) return tensor_dtype::f64;
  if constexpr (std::is_same_v<T, float>) return tensor_dtype::f32;
  if constexpr (std::is_same_v<T, posenc::float16>) return tensor_dtype::f16;
  if constexpr (std::is_same_v<T, posenc::bfloat16>) return tensor_dtype::bf16;
  if constexpr (std::is_integral_v<T>) {
    constexpr tensor_dtype s[] = {tensor_dtype::i8, tensor_dtype::i16, tensor_dtype::i32, tensor_dtype::i64};
    constexpr tensor_dtype u[] = {tensor_dtype::u8, tensor_dtype::u16, tensor_dtype::u32, tensor_dtype::u64};
    constexpr std::size_t k = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
    return std::is_signed_v<T> ? s[k] : u[k];
  }
}

// A tensor: row-major elements of one type, little-endian. An empty shape is a scalar (one
// element); a zero in the shape makes an empty tensor.
struct tensor {
  tensor_dtype dtype = tensor_dtype::f64;
  std::vector<std::uint64_t> shape;
  std::string data;  // elements() * dtype_size(dtype) bytes

  std::uint64_t elements() const noexcept {
    std::uint64_t n = 1;
    for (const std::uint64_t d : shape) n *= d;
    return n;
  }
};

// A tensor and its name, as a safetensors file holds several.
struct named_tensor {
  std::string name;
  tensor value;
};

namespace detail {

// The element count of a shape, or nothing when its bytes would not fit in 63 bits (a file cannot
// hold them; the check keeps every size computation below from overflowing).
inline std::optional<std::uint64_t> checked_elements(std::span<const std::uint64_t> shape, std::size_t size) noexcept {
  constexpr std::uint64_t limit = std::uint64_t{1} << 62;
  for (const std::uint64_t d : shape)
    if (d == 0) return 0;  // an empty tensor, whatever the other dimensions
  std::uint64_t n = 1;
  for (const std::uint64_t d : shape) {
    if (n > limit / d) return std::nullopt;
    n *= d;
  }
  if (n > limit / size) return std::nullopt;
  return n;
}

// "[2, 3]" ("[]" for a scalar), for messages.
inline std::string shape_text(std::span<const std::uint64_t> shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// The whole file into bytes (a regular file, or a pipe); false, with one line naming the path,
// when it cannot be opened or read.
inline bool read_binary_file(const std::string& path, std::string& bytes, std::string& error) {
  try {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      error = path + ": is a directory";
      return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      error = path + ": cannot open for reading";
      return false;
    }
    if (const std::uintmax_t size = std::filesystem::file_size(path, ec); !ec)
      bytes.reserve(static_cast<std::size_t>(size));
    std::vector<char> buf(std::size_t{1} << 20);
    while (in.read(buf.data(), static_cast<std::streamsize>(buf.size())), in.gcount() > 0)
      bytes.append(buf.data(), static_cast<std::size_t>(in.gcount()));
    if (in.bad()) {
      error = path + ": read error";
      return false;
    }
    return true;
  } catch (const std::exception& e) {
    error = path + ": " + e.what();
    return false;
  }
}

template <class U>
void put_le(char* out, U v) noexcept {
  for (std::size_t i = 0; i < sizeof(U); ++i) out[i] = static_cast<char>(static_cast<unsigned char>(v >> (8 * i)));
}

template <class U>
U get_le(const char* in) noexcept {
  U v = 0;
  for (std::size_t i = 0; i < sizeof(U); ++i)
    v = static_cast<U>(v | static_cast<U>(static_cast<U>(static_cast<unsigned char>(in[i])) << (8 * i)));
  return v;
}

// The unsigned integer holding T's bits.
template <class T>
using bits_of = std::conditional_t<
    sizeof(T) == 8, std::uint64_t,
    std::conditional_t<sizeof(T) == 4, std::uint32_t, std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint8_t>>>;

template <class T>
bits_of<T> element_bits(T v) noexcept {
  if constexpr (std::is_same_v<T, posenc::float16> || std::is_same_v<T, posenc::bfloat16>)
    return v.bits;
  else
    return std::bit_cast<bits_of<T>>(v);
}

template <class T>
T element_from_bits(bits_of<T> b) noexcept {
  if constexpr (std::is_same_v<T, posenc::float16> || std::is_same_v<T, posenc::bfloat16>)
    return T::from_bits(b);
  else
    return std::bit_cast<T>(b);
}

}  // namespace detail

// A tensor of the given shape holding values (little-endian). Throws std::invalid_argument when
// values does not have exactly as many elements as the shape.
template <class T>
  requires is_tensor_element<T>
tensor make_tensor(std::vector<std::uint64_t> shape, std::span<const T> values) {
  const auto n = detail::checked_elements(shape, sizeof(T));
  if (!n || *n != values.size())
    throw std::invalid_argument("posenc::io::make_tensor: " + std::to_string(values.size()) + " values for the shape " +
                                detail::shape_text(shape));
  tensor t{dtype_of<T>(), std::move(shape), std::string(values.size() * sizeof(T), '\0')};
  char* out = t.data.data();
  for (const T& v : values) {
    detail::put_le(out, detail::element_bits(v));
    out += sizeof(T);
  }
  return t;
}

// The elements as T, in row-major order; an error when T is not the tensor's type or the data does
// not hold exactly its elements.
template <class T>
  requires is_tensor_element<T>
parse_result<std::vector<T>> tensor_values(const tensor& t) {
  if (t.dtype != dtype_of<T>())
    return parse_result<std::vector<T>>::failure("the tensor holds " + std::string(dtype_name(t.dtype)) + ", not " +
                                                 std::string(dtype_name(dtype_of<T>())));
  const auto n = detail::checked_elements(t.shape, sizeof(T));
  if (!n || t.data.size() != *n * sizeof(T))
    return parse_result<std::vector<T>>::failure("the tensor's data is " + std::to_string(t.data.size()) +
                                                 " bytes, its shape " + detail::shape_text(t.shape) + " needs " +
                                                 (n ? std::to_string(*n * sizeof(T)) : std::string("more")));
  std::vector<T> v(static_cast<std::size_t>(*n));
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = detail::element_from_bits<T>(detail::get_le<detail::bits_of<T>>(t.data.data() + i * sizeof(T)));
  return v;
}

}  // namespace posenc::io
