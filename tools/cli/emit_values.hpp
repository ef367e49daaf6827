// emit_values.hpp: the output dtypes of `posenc emit` (f64, f32, bf16, f16, and the fixed-point
// q15, q31 of CMSIS-DSP): names, text formatting (exact hex floats or shortest round-trip decimals;
// a q15/q31 value as its raw integer k, the value being k 2^-15 or k 2^-31), little-endian bytes,
// C literals, and the FNV-1a 64 checksum of the binary table.
//
// bf16/f16 values are printed as the float they are exactly (bfloat16/float16::to_float), so a
// hex float is exact; --decimal prints the shortest %.{p}g decimal (p = 1, 2, ...) that lies
// strictly inside the value's rounding interval (between the midpoints to its neighbours, which
// are doubles), so any correctly rounding parser reads it back to the same bf16/f16 bits.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/bits.hpp>
#include <posenc/numeric/fixed_point.hpp>
#include <posenc/numeric/float16.hpp>

#include "hexfloat.hpp"

namespace posenc::cli::emit {

enum class dtype { f64, f32, bf16, f16, q15, q31 };

template <class T>
constexpr std::string_view dtype_name() {
  if constexpr (std::is_same_v<T, double>)
    return "f64";
  else if constexpr (std::is_same_v<T, float>)
    return "f32";
  else if constexpr (std::is_same_v<T, posenc::bfloat16>)
    return "bf16";
  else if constexpr (std::is_same_v<T, posenc::q15>)
    return "q15";
  else if constexpr (std::is_same_v<T, posenc::q31>)
    return "q31";
  else
    return "f16";
}

// q15/q31's raw integer type; T itself for the floating types (only named where T is fixed).
template <class T>
struct raw_storage_of {
  using type = T;
};
template <posenc::fixed_point_type T>
struct raw_storage_of<T> {
  using type = typename posenc::fixed_format<T>::storage;
};
template <class T>
using raw_storage = typename raw_storage_of<T>::type;

template <class T>
constexpr bool is_fixed() {
  return posenc::fixed_point_type<T>;
}

template <class T>
constexpr bool is_half() {
  return std::is_same_v<T, posenc::bfloat16> || std::is_same_v<T, posenc::float16>;
}

// The exact value as a double (every value of the four types is a double).
template <class T>
double to_double(T v) {
  if constexpr (is_fixed<T>())
    return v.to_double();
  else if constexpr (is_half<T>())
    return static_cast<double>(v.to_float());
  else
    return static_cast<double>(v);
}

// Shortest decimal of a bf16/f16 value that reads back to the same bits (see the top).
template <class T>
std::string half_decimal(T v) {
  const std::uint16_t mag = v.bits & 0x7FFFu;
  const double x = static_cast<double>(T::from_bits(mag).to_float());
  if (mag == 0) return (v.bits & 0x8000u) != 0 ? "-0" : "0";
  const double below = static_cast<double>(T::from_bits(static_cast<std::uint16_t>(mag - 1)).to_float());
  // The value above the largest finite one is the infinity: the midpoint is then x + (x - below) / 2
  // (round-to-nearest overflows from there), the same formula as inside a binade.
  const T up = T::from_bits(static_cast<std::uint16_t>(mag + 1));
  const double above = up.is_inf() ? x + (x - below) : static_cast<double>(up.to_float());
  const double lo = (x + below) / 2, hi = (x + above) / 2;  // exact: 9 or 12 significant bits
  for (int p = 1; p <= 17; ++p) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*g", p, x);
    const double d = std::strtod(buf, nullptr);
    // RN_double is monotone and lo, hi are doubles: lo < RN(D) < hi implies lo < D < hi.
    if (d == x || (lo < d && d < hi)) return ((v.bits & 0x8000u) != 0 ? "-" : "") + std::string(buf);
  }
  return format_hex(x);  // unreachable: %.17g is exact for these values
}

template <class T>
std::string format_value(T v, bool decimal) {
  if constexpr (is_fixed<T>())
    return std::to_string(v.bits);  // the raw integer (--decimal is refused for q15/q31)
  else if constexpr (is_half<T>())
    return decimal ? half_decimal(v) : format_hex(static_cast<double>(v.to_float()));
  else
    return format_real<T>(v, decimal);
}

// Whether v is an infinity: where an exact value overflowed T.
template <class T>
bool is_infinite(T v) {
  if constexpr (is_fixed<T>())
    return false;  // saturates instead
  else if constexpr (is_half<T>())
    return v.is_inf();
  else
    return std::isinf(v);
}

// The storage bits of v as an unsigned integer of its size (two's complement for q15/q31).
template <class T>
auto raw_bits(T v) {
  if constexpr (is_fixed<T>())
    return static_cast<std::make_unsigned_t<typename posenc::fixed_format<T>::storage>>(v.bits);
  else
    return posenc::to_bits(v);
}

// Writes v's bytes at out, little-endian (the --format bin encoding, whatever the host's order);
// returns the position after them. Into a pre-sized buffer: a table is millions of values.
template <class T>
char* put_le(char* out, T v) {
  auto b = raw_bits(v);
  for (std::size_t i = 0; i < sizeof b; ++i) {
    *out++ = static_cast<char>(static_cast<unsigned char>(b & 0xFFu));
    b = static_cast<decltype(b)>(b >> 8);
  }
  return out;
}

// FNV-1a 64 (Fowler, Noll, Vo; offset basis 14695981039346656037, prime 1099511628211), incremental.
struct fnv1a64 {
  std::uint64_t h = 0xcbf29ce484222325u;
  void add(std::string_view bytes) {
    for (const char c : bytes) {
      h ^= static_cast<unsigned char>(c);
      h *= 0x100000001b3u;
    }
  }
};

// The checksum of a --format c header: FNV-1a 64 of the --format bin bytes, as "0x" and 16 hex digits.
inline std::string checksum_hex(std::string_view bin_bytes) {
  fnv1a64 h;
  h.add(bin_bytes);
  char hash[32];
  std::snprintf(hash, sizeof hash, "0x%016llx", static_cast<unsigned long long>(h.h));
  return hash;
}

// What every --format c header says after its comment: the guard, <stdint.h>, and <name>_CONST
// (inline constexpr in C++, static const in C).
inline std::string c_header_prologue(const std::string& name) {
  return "#pragma once\n#include <stdint.h>\n\n#ifdef __cplusplus\n#define " + name +
         "_CONST inline constexpr\n#else\n#define " + name + "_CONST static const\n#endif\n\n";
}

// What a header's arrays occupy, for its comment (a firmware image's flash budget): "2 arrays x 8192
// x 64 float: 4,194,304 bytes". dims are one array's; element_bytes is sizeof of the C type.
inline std::string array_bytes_text(std::size_t arrays, const std::vector<std::size_t>& dims, std::string_view ctype,
                                    std::size_t element_bytes) {
  std::size_t total = arrays * element_bytes;
  std::string s = std::to_string(arrays) + (arrays == 1 ? " array" : " arrays");
  for (const std::size_t d : dims) {
    s += " x " + std::to_string(d);
    total *= d;
  }
  std::string digits = std::to_string(total), grouped;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return s + " " + std::string(ctype) + ": " + grouped + " bytes";
}

// A C/C++ literal of v: a hex float (suffix f for f32), the hex bit pattern for bf16/f16, the
// integer for q15/q31.
template <class T>
std::string c_literal(T v) {
  char buf[64];
  if constexpr (is_fixed<T>()) {
    // INT32_MIN has no literal of its own type in C: write it as an expression.
    return v.bits == -2147483647 - 1 ? "(-2147483647 - 1)" : std::to_string(v.bits);
  } else if constexpr (is_half<T>()) {
    std::snprintf(buf, sizeof buf, "0x%04x", static_cast<unsigned>(v.bits));
    return buf;
  } else {
    return format_hex(v) + (std::is_same_v<T, float> ? "f" : "");
  }
}

template <class T>
constexpr std::string_view c_type() {
  if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, posenc::q15>)
    return "int16_t";  // CMSIS's q15_t
  else if constexpr (std::is_same_v<T, posenc::q31>)
    return "int32_t";  // CMSIS's q31_t
  else
    return "uint16_t";
}

// The element a tensor file stores for T: T itself, or q15/q31's raw int16_t/int32_t (numpy's
// '<i2'/'<i4', safetensors' I16/I32), and the conversion.
template <class T>
using tensor_element = std::conditional_t<posenc::fixed_point_type<T>, raw_storage<T>, T>;

template <class T>
tensor_element<T> to_tensor_element(T v) {
  if constexpr (is_fixed<T>())
    return v.bits;
  else
    return v;
}

}  // namespace posenc::cli::emit
