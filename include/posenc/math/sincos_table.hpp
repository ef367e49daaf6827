// sincos_table.hpp: whole tables of correctly rounded cos/sin(p * theta_j), rows p = start + i,
// columns j, at a per-entry cost of a dozen operations in constant evaluation (the engine of
// detail/sincos_table_engine.hpp), bit for bit the scalar functions:
//
//   math::sincos_geometric_table<T>({base, num_step, den}, columns, out, {.start = p0})
//       out[i * columns + j] = sincos_geometric<T>(p0 + i, base, j * num_step, den).value: the
//       frequencies base^(-j num_step/den) of RoPE (num_step 2, den d), the sinusoidal encoding
//       (2, d) and fairseq's (1, d/2 - 1)
//   math::sincos_product_table<T>(theta, out, {.start = p0})
//       out[i * theta.size() + j] = sincos_product<T>(p0 + i, theta[j]).value: given frequencies
//
// out is the caller's memory, a std::span (rows = out.size() / columns; a std::array or a
// std::vector converts), at compile time or at run time. Returns ok, domain_error (arguments outside
// geometric_frequency_args_valid, out not a whole number of rows, positions past 2^53) or
// invalid_input (a non-finite theta). Never a NaN; on an error out's contents are unspecified.
// The encodings' own tables (rope/fill.hpp, sinusoidal/table.hpp) are built on the same engine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/math/detail/sincos_table_engine.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/geometric_frequency.hpp"
#include "posenc/math/sincos_geometric.hpp"
#include "posenc/math/sincos_product.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/sincos_source.hpp"
#include "posenc/status.hpp"

namespace posenc::math {

// The frequencies base^(-j num_step / den), j = 0, 1, ...: exponents exact rationals.
struct geometric_frequencies {
  double base = 10000.0;
  std::int64_t num_step = 2;
  std::int64_t den = 128;

  constexpr bool valid(std::size_t columns) const noexcept {
    return columns == 0 ||
           (num_step >= 0 &&
            static_cast<std::uint64_t>(columns - 1) <=
                static_cast<std::uint64_t>(INT64_MAX / (num_step == 0 ? 1 : num_step)) &&
            geometric_frequency_args_valid(base, static_cast<std::int64_t>(columns - 1) * num_step, den) &&
            geometric_frequency_args_valid(base, 0, den));
  }
  constexpr frequency_value frequency(int j) const noexcept {
    return {geometric_frequency(base, j * num_step, den), geometric_frequency_max_rel_error, posenc::status::ok};
  }
  template <class T>
  constexpr posenc::result<sincos_result<T>> entry(const frequency_value&, const amplitude*, std::uint64_t p,
                                                   int j) const noexcept {
    return sincos_geometric<T>(p, base, j * num_step, den);
  }
};

// Given frequencies, exact as written (theta[j].hi + theta[j].lo).
struct given_frequencies {
  const double_double* theta = nullptr;
  std::size_t count = 0;

  constexpr frequency_value frequency(int j) const noexcept {
    const double_double t = theta[j];
    if (detail::trig_special(t.hi) || detail::trig_special(t.lo)) return {{}, 0, posenc::status::invalid_input};
    return {t, 0.0, posenc::status::ok};
  }
  template <class T>
  constexpr posenc::result<sincos_result<T>> entry(const frequency_value& f, const amplitude*, std::uint64_t p,
                                                   int) const noexcept {
    return sincos_product<T>(p, f.value);
  }
};

struct table_rows {
  std::uint64_t start = 0;  // position of row 0
};

}  // namespace posenc::math

namespace posenc::detail::sincos_table {

// The sink of the math tables: out[i * columns + j].
template <class T>
struct row_major_sink {
  math::sincos_result<T>* out;
  std::size_t columns;
  constexpr void begin_chunk(std::size_t, std::size_t) noexcept {}
  constexpr void store(std::size_t i, std::size_t j0, std::size_t jj, const math::sincos_result<T>& r) noexcept {
    out[i * columns + j0 + jj] = r;
  }
  constexpr math::sincos_result<T>* row_pairs(std::size_t i, std::size_t j0, std::size_t) noexcept {
    return out + i * columns + j0;
  }
};

template <class T, class Source>
constexpr posenc::status fill_math_table(const Source& src, std::size_t columns, math::sincos_result<T>* out,
                                         std::size_t size, std::uint64_t start) noexcept {
  if (columns == 0) return size == 0 ? posenc::status::ok : posenc::status::domain_error;
  const std::size_t rows = size / columns;
  if (size % columns != 0 || start >= (std::uint64_t{1} << 53) || rows > (std::uint64_t{1} << 53) - start)
    return posenc::status::domain_error;
  row_major_sink<T> sink{out, columns};
  return fill_rows<T>(src, start, rows, columns, nullptr, nullptr, sink);
}

}  // namespace posenc::detail::sincos_table

namespace posenc::math {

template <class T = double>
constexpr posenc::status sincos_geometric_table(const geometric_frequencies& f, std::size_t columns,
                                                std::span<sincos_result<T>> out, table_rows rows = {}) noexcept {
  if (!f.valid(columns)) return posenc::status::domain_error;
  return detail::sincos_table::fill_math_table<T>(f, columns, out.data(), out.size(), rows.start);
}

template <class T = double>
constexpr posenc::status sincos_product_table(std::span<const double_double> theta, std::span<sincos_result<T>> out,
                                              table_rows rows = {}) noexcept {
  const given_frequencies f{theta.data(), theta.size()};
  return detail::sincos_table::fill_math_table<T>(f, theta.size(), out.data(), out.size(), rows.start);
}

}  // namespace posenc::math
