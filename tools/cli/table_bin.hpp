// table_bin.hpp: someone else's table in the layout `posenc emit --format bin` writes (little-endian
// values in row order, no header), as `posenc verify <scheme> --table FILE` reads it. On its own,
// with nothing but the value types, so that tests/fuzz/fuzz_table_bin.cpp reaches the same code as
// the CLI. The .npy and .safetensors files go through posenc/io (verify_table_input.hpp).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/bits.hpp>
#include <posenc/numeric/fixed_point.hpp>
#include <posenc/numeric/float16.hpp>

#include "args.hpp"
#include "emit_values.hpp"

namespace posenc::cli::verify_cmd {

inline std::string read_file_bytes(const std::string& path, const std::string& ctx) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw usage_error(ctx + ": cannot open " + quote(path) + " for reading");
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw usage_error(ctx + ": cannot read " + quote(path));
  return data;
}

template <class T>
T get_le_float(const unsigned char* p) {
  using S = decltype(posenc::to_bits(T{}));
  S bits = 0;
  for (std::size_t b = 0; b < sizeof(S); ++b) bits = static_cast<S>(bits | (static_cast<S>(p[b]) << (8 * b)));
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>)
    return std::bit_cast<T>(bits);
  else
    return T::from_bits(bits);
}

template <class T>
T get_le(const unsigned char* p) {
  if constexpr (posenc::fixed_point_type<T>) {  // the raw two's complement integer, little-endian
    using R = typename posenc::fixed_format<T>::storage;
    using U = std::make_unsigned_t<R>;
    U bits = 0;
    for (std::size_t b = 0; b < sizeof(U); ++b) bits = static_cast<U>(bits | (static_cast<U>(p[b]) << (8 * b)));
    return T::from_bits(static_cast<R>(bits));
  } else {
    return get_le_float<T>(p);
  }
}

// A RoPE table as `posenc emit rope --format bin` writes it: per row, per element k: cos then sin,
// little-endian values of T. Split into the cos and sin arrays the verifier reads.
template <class T>
struct loaded_table {
  std::vector<T> cos, sin;
};

template <class T>
loaded_table<T> load_bin_table(std::string_view data, std::uint64_t rows, std::size_t d, const std::string& path,
                               const std::string& ctx) {
  const std::uint64_t want = rows * d * 2 * sizeof(T);
  if (data.size() != want)
    throw usage_error(ctx + ": " + quote(path) + " has " + std::to_string(data.size()) + " bytes; a " +
                      std::string(emit::dtype_name<T>()) + " table of " + std::to_string(rows) + " rows x " +
                      std::to_string(d) + " elements (cos and sin) has " + std::to_string(want));
  loaded_table<T> t;
  t.cos.resize(rows * d);
  t.sin.resize(rows * d);
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  for (std::size_t i = 0; i < rows * d; ++i) {
    t.cos[i] = get_le<T>(p + (2 * i) * sizeof(T));
    t.sin[i] = get_le<T>(p + (2 * i + 1) * sizeof(T));
  }
  return t;
}

// The n values of T of any other scheme's table (row order, as emit writes it).
template <class T>
std::vector<T> load_bin_values(std::string_view data, std::uint64_t n, const std::string& path,
                               const std::string& ctx) {
  if (data.size() != n * sizeof(T))
    throw usage_error(ctx + ": " + quote(path) + " has " + std::to_string(data.size()) + " bytes; a " +
                      std::string(emit::dtype_name<T>()) + " table of " + std::to_string(n) + " entries has " +
                      std::to_string(n * sizeof(T)));
  std::vector<T> v(n);
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  for (std::size_t i = 0; i < n; ++i) v[i] = get_le<T>(p + i * sizeof(T));
  return v;
}

// The n int32 values of an integer table (buckets, indices).
inline std::vector<std::int32_t> load_bin_integers(std::string_view data, std::uint64_t n, const std::string& path,
                                                   const std::string& ctx) {
  if (data.size() != n * 4)
    throw usage_error(ctx + ": " + quote(path) + " has " + std::to_string(data.size()) + " bytes; an int32 table of " +
                      std::to_string(n) + " entries has " + std::to_string(n * 4));
  std::vector<std::int32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t b = 0;
    for (std::size_t k = 0; k < 4; ++k)
      b |= static_cast<std::uint32_t>(static_cast<unsigned char>(data[4 * i + k])) << (8 * k);
    v[i] = static_cast<std::int32_t>(b);
  }
  return v;
}

}  // namespace posenc::cli::verify_cmd
