// fixed_point_table.hpp: sinusoidal position encodings in CMSIS-DSP's q15 and q31
// (numeric/fixed_point.hpp, docs/fixed-point.md), each entry RN_even(x 2^F) of the exact sin or
// cos of the exact angle p omega_i, then saturated (cos 0 = 1 becomes 0x7FFF).
//
//   sinusoidal::fill_table<q15>(cfg, first, span)   -> posenc::fixed_fill_status (the saturations)
//   sinusoidal::make_table<q15, Positions, Dim>(cfg, first)
//
// The same rows and columns as table.hpp's fill_table; the entries come from the table engine in
// float (q15) or double (q31) and are narrowed to the grid exactly (math/detail/sincos_table_fixed.hpp:
// an engine value on a grid midpoint is decided from the 256-bit enclosure of
// mp::geometric_sincos_approx). A negative position's sin is -RN(sin|p| omega) before saturation
// (RN is symmetric, the clamp is not: sin near -1 stores -2^F, near +1 2^F - 1).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/math/detail/mp/sincos_product.hpp"
#include "posenc/math/detail/sincos_table_engine.hpp"
#include "posenc/math/detail/sincos_table_fixed.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/sinusoidal/config.hpp"
#include "posenc/sinusoidal/table.hpp"
#include "posenc/sinusoidal/validate.hpp"
#include "posenc/status.hpp"

namespace posenc::sinusoidal::detail {

// Engine row i goes to output row first_row + i, or first_row - i for the negative positions (the
// sin already negated by the fixed sink).
template <fixed_point_type Q>
struct fixed_dest {
  Q* out;
  std::size_t d;
  std::size_t sines;
  bool interleaved;
  std::size_t first_row;
  bool negative;
  constexpr void begin_chunk(std::size_t, std::size_t) noexcept {}
  constexpr void store(std::size_t i, std::size_t j0, std::size_t jj, const math::sincos_result<Q>& r) noexcept {
    const std::size_t f = j0 + jj;
    Q* row = out + (negative ? first_row - i : first_row + i) * d;
    row[interleaved ? 2 * f : f] = r.sin;
    if (f < d / 2) row[interleaved ? 2 * f + 1 : sines + f] = r.cos;
  }
};

// cos/sin(|p| omega_i) for engine row i (|p| = p0 + i) and column j: rounded into double, and
// its enclosure (sincos_table_fixed.hpp).
struct fixed_resolver {
  sinusoidal::detail::source src;
  std::uint64_t p0;
  constexpr posenc::result<math::sincos_result<double>> rounded_double(std::size_t i, std::size_t j) const noexcept {
    return src.entry<double>(src.frequency(static_cast<int>(j)), nullptr, p0 + i, static_cast<int>(j));
  }
  constexpr auto operator()(std::size_t i, std::size_t j) const noexcept {
    const std::uint64_t m = p0 + i;
    const auto num = static_cast<std::uint64_t>(src.num(static_cast<int>(j)));
    const auto den = static_cast<std::uint32_t>(src.den());
    const double base = src.base;
    return [m, num, den, base](auto lv) {
      constexpr int L = decltype(lv)::value;
      // omega_0 = base^0 = 1 exactly (as mp::sincos_geometric): the product path, not log(base) * 0.
      if (num == 0) return mp::sincos_product_approx<L>(m, math::double_double{1.0, 0.0});
      return mp::geometric_sincos_approx<L>(m, base, num, den);
    };
  }
};

template <fixed_point_type Q>
constexpr posenc::status fill_rows_fixed(const source& src, std::uint64_t p0, std::size_t rows, std::size_t sines,
                                         fixed_dest<Q> dest, std::uint64_t& saturated) noexcept {
  using S = posenc::detail::sincos_table::fixed_engine_type<Q>;
  posenc::detail::sincos_table::fixed_sink<Q, fixed_dest<Q>, fixed_resolver> sink{&dest, {src, p0}};
  sink.negate_sin = dest.negative;
  posenc::status st = posenc::detail::sincos_table::fill_rows<S>(src, p0, rows, sines, nullptr, nullptr, sink);
  saturated += sink.saturated;
  return st == posenc::status::ok ? sink.error : st;
}

}  // namespace posenc::sinusoidal::detail

namespace posenc::sinusoidal {

// Rows first, first + 1, ...: out[r * d + k] = PE[first + r][k] in Q; out.size() a multiple of d.
template <fixed_point_type Q>
constexpr fixed_fill_status fill_table(const checked_config& cc, std::int64_t first, std::span<Q> out) noexcept {
  if (!cc.ok()) return {posenc::status::domain_error, 0};
  const config& c = cc.get();
  const auto d = static_cast<std::size_t>(c.dim);
  if (out.size() % d != 0) return {posenc::status::domain_error, 0};
  const std::size_t rows = out.size() / d;
  if (rows == 0) return {};
  if (first == INT64_MIN || rows - 1 > static_cast<std::uint64_t>(INT64_MAX - (first < 0 ? 0 : first)))
    return {posenc::status::domain_error, 0};
  const bool fairseq = c.exponent == exponent::fairseq;
  const std::size_t sines = fairseq ? d / 2 : (d + 1) / 2;
  const bool interleaved = c.layout == layout::interleaved;
  const sinusoidal::detail::source src{c.base, fairseq, c.dim};
  if (fairseq && d % 2 != 0)  // the trailing zero column
    for (std::size_t r = 0; r < rows; ++r) out[r * d + d - 1] = Q{};
  fixed_fill_status st{};
  const std::size_t neg =
      first < 0 ? (static_cast<std::uint64_t>(-first) < rows ? static_cast<std::size_t>(-first) : rows) : 0;
  if (neg > 0) {
    const std::uint64_t q0 = static_cast<std::uint64_t>(-first) - (neg - 1);
    st.error = sinusoidal::detail::fill_rows_fixed<Q>(src, q0, neg, sines,
                                                      {out.data(), d, sines, interleaved, neg - 1, true}, st.saturated);
    if (!st.ok()) return st;
  }
  if (neg < rows) {
    const std::uint64_t p0 = first < 0 ? 0 : static_cast<std::uint64_t>(first);
    st.error = sinusoidal::detail::fill_rows_fixed<Q>(src, p0, rows - neg, sines,
                                                      {out.data(), d, sines, interleaved, neg, false}, st.saturated);
  }
  return st;
}

// The table as a std::array (the saturation count: fill_table's).
template <fixed_point_type Q, std::size_t Positions, std::size_t Dim>
constexpr posenc::result<std::array<Q, Positions * Dim>> make_table(const checked_config& cc,
                                                                    std::int64_t first = 0) noexcept {
  posenc::result<std::array<Q, Positions * Dim>> r{};
  if (cc.ok() && static_cast<std::size_t>(cc.get().dim) != Dim) {
    r.error = posenc::status::domain_error;
    return r;
  }
  r.error = fill_table<Q>(cc, first, std::span<Q>(r.value)).error;
  return r;
}

}  // namespace posenc::sinusoidal
