// alibi_bias_table.hpp: what the ALiBi bias laws (alibi_relative_bias.hpp, alibi_monotone_bias.hpp)
// read: a dense table of attention biases B[h][i][j], head h, query i, key j, at element
// (h queries + i) keys + j, posenc's (alibi::make_symmetric_bias_table) or anyone's (a kernel's
// materialised mask, a framework's alibi tensor).
//
//   constexpr auto b = posenc::alibi::make_symmetric_bias_table<float, 16, 24, 24>(cfg).value;
//   static_assert(laws::alibi_relative_bias(laws::alibi_bias_table<float>{b, 16, 24, 24}).holds);
//
// Queries sit at positions first_query + i, keys at first_key + j. causal: only the entries with
// key <= query are read (the others are masked: -inf, or anything).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace posenc::laws {

template <class T>
struct alibi_bias_table {
  using value_type = T;
  std::span<const T> data;
  std::size_t heads = 0, queries = 0, keys = 0;
  std::int64_t first_query = 0, first_key = 0;
  bool causal = false;

  constexpr bool valid() const noexcept { return heads > 0 && data.size() == heads * queries * keys; }
  constexpr T at(std::size_t h, std::size_t i, std::size_t j) const noexcept {
    return data[(h * queries + i) * keys + j];
  }
  constexpr std::int64_t query(std::size_t i) const noexcept { return first_query + static_cast<std::int64_t>(i); }
  constexpr std::int64_t key(std::size_t j) const noexcept { return first_key + static_cast<std::int64_t>(j); }
  constexpr bool read(std::size_t i, std::size_t j) const noexcept { return !causal || key(j) <= query(i); }
};

}  // namespace posenc::laws
