// sinusoid_table.hpp: what the sinusoid laws (sinusoid_shift.hpp, sinusoid_relative_dot.hpp) read:
// rows of a sinusoidal position encoding (Vaswani et al. 2017, sec. 3.5) of any origin, posenc's
// (sinusoidal::make_table, transformer_xl::fill_table) or anyone's.
//
//   constexpr auto t = posenc::sinusoidal::make_table<float, 64, 32>(cfg).value;
//   static_assert(laws::sinusoid_shift(laws::sinusoid_table<float>{t, cfg}).holds);
//   // rows at listed positions (Transformer-XL's klen - 1 .. 0, XLNet's two halves):
//   laws::sinusoid_table<float>{data, {.dim = 512, .layout = sinusoidal::layout::concat}, 0, positions};
//
// Row r holds d = config.dim elements at position first + r, or positions[r] when a list is given.
// Frequency i (i < d/2) is a pair: sin(p omega_i) at element 2i (interleaved) or i (concat), cos at
// 2i + 1 or sines + i, sines = ceil(d/2) (paper exponent) or d/2 (fairseq). An odd d's extra column
// (the paper's lone sin, fairseq's zero) is no pair: the laws do not read it. The base and exponent
// are not read either: the laws hold for every frequency (what the frequencies are is exactness's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/sinusoidal/config.hpp"

namespace posenc::laws {

template <class T>
struct sinusoid_table {
  using value_type = T;
  std::span<const T> data;                    // rows x config.dim
  sinusoidal::config config{};                // dim, exponent and layout say where each pair's sin and cos are
  std::int64_t first = 0;                     // the position of row 0 (positions empty)
  std::span<const std::int64_t> positions{};  // or each row's position

  constexpr std::size_t dim() const noexcept { return config.dim > 0 ? static_cast<std::size_t>(config.dim) : 0; }
  constexpr std::size_t rows() const noexcept { return dim() == 0 ? 0 : data.size() / dim(); }
  constexpr std::size_t pairs() const noexcept { return dim() / 2; }
  constexpr bool valid() const noexcept {
    return dim() >= 2 && data.size() % dim() == 0 && (positions.empty() || positions.size() == rows());
  }
  constexpr std::int64_t position(std::size_t r) const noexcept {
    return positions.empty() ? first + static_cast<std::int64_t>(r) : positions[r];
  }
  constexpr std::size_t sin_element(std::size_t i) const noexcept {
    return config.layout == sinusoidal::layout::interleaved ? 2 * i : i;
  }
  constexpr std::size_t cos_element(std::size_t i) const noexcept {
    if (config.layout == sinusoidal::layout::interleaved) return 2 * i + 1;
    const std::size_t sines = config.exponent == sinusoidal::exponent::fairseq ? dim() / 2 : (dim() + 1) / 2;
    return sines + i;
  }
  constexpr const T* row(std::size_t r) const noexcept { return data.data() + r * dim(); }
  // The first row at position p, or rows() when there is none.
  constexpr std::size_t row_of(std::int64_t p) const noexcept {
    const std::size_t n = rows();
    if (positions.empty()) {
      if (p < first) return n;
      const auto r = static_cast<std::uint64_t>(p) - static_cast<std::uint64_t>(first);
      return r < n ? static_cast<std::size_t>(r) : n;
    }
    for (std::size_t r = 0; r < n; ++r)
      if (positions[r] == p) return r;
    return n;
  }
};

// Shifts (sinusoid_shift) and differences (sinusoid_relative_dot) to check, up to four; 0 ends the
// list, and sinusoid_middle stands for half the table's span of positions.
inline constexpr std::int64_t sinusoid_middle = -1;
struct sinusoid_grid {
  std::int64_t shifts[4] = {1, 0, 0, 0};
};

namespace detail {

// The span of positions of a sinusoid table: max - min.
template <class T>
constexpr std::int64_t sinusoid_span(const sinusoid_table<T>& t) noexcept {
  std::int64_t lo = INT64_MAX, hi = INT64_MIN;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    const std::int64_t p = t.position(r);
    lo = p < lo ? p : lo;
    hi = p > hi ? p : hi;
  }
  return t.rows() == 0 ? 0 : hi - lo;
}

}  // namespace detail

}  // namespace posenc::laws
