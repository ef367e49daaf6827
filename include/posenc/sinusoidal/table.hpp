// table.hpp: sinusoidal position encodings, each entry RN_T of the exact sin or cos of the exact
// angle p omega_i, at compile time and at run time alike.
//
//   sinusoidal::frequency_exponent(cfg, i)       e_i as the exact fraction {num, den}
//   sinusoidal::element<T>(cfg, p, k)            PE[p][k], any integer position p (negative too)
//   sinusoidal::fill_table<T>(cfg, first, span)  rows first, first + 1, ... of d entries each
//   sinusoidal::make_table<T, Positions, Dim>(cfg, first)   std::array of Positions * Dim
//
// Element k of the row (config.hpp): interleaved: i = k / 2, sin for even k, cos for odd k;
// concat: the first ceil(d/2) (paper) or d/2 (fairseq) columns are sin of omega_0, omega_1, ...,
// the next d/2 are cos, and fairseq's odd d ends with a 0 (in either layout). The angle is math::sincos_geometric's
// m base^(-num/den) with the exponent taken exactly; a negative position uses sin(-x) = -sin(x),
// cos(-x) = cos(x), which round-to-nearest keeps exactly. Errors: domain_error for k outside
// [0, d) or |p| >= 2^63.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/math/round.hpp"
#include "posenc/math/sincos_geometric.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/sinusoidal/config.hpp"
#include "posenc/sinusoidal/validate.hpp"
#include "posenc/status.hpp"

namespace posenc::sinusoidal {

// omega_i = base^(-num/den).
struct frequency_exponent_value {
  std::int64_t num = 0;
  std::int64_t den = 1;
};

constexpr posenc::result<frequency_exponent_value> frequency_exponent(const checked_config& cc, int i) noexcept {
  const config& c = cc.get();
  const int pairs = c.exponent == exponent::fairseq ? c.dim / 2 : (c.dim + 1) / 2;
  if (!cc.ok() || i < 0 || i >= pairs) return {{}, posenc::status::domain_error};
  if (c.exponent == exponent::paper) return {{2 * std::int64_t{i}, c.dim}, posenc::status::ok};
  return {{i, c.dim / 2 - 1}, posenc::status::ok};
}

// Which function of which frequency element k of a row holds: {i, is_sin}, or i = -1 for fairseq's
// zero column.
struct element_source {
  int i = 0;
  bool is_sin = true;
};

constexpr element_source source_of(const config& c, int k) noexcept {
  if (c.layout == layout::interleaved) {
    if (c.exponent == exponent::fairseq && k / 2 >= c.dim / 2) return {-1, true};  // odd d: the zero column
    return {k / 2, k % 2 == 0};
  }
  const int sines = c.exponent == exponent::fairseq ? c.dim / 2 : (c.dim + 1) / 2;
  if (k < sines) return {k, true};
  if (k - sines < c.dim / 2) return {k - sines, false};
  return {-1, true};  // fairseq, odd d: the appended zero column
}

template <class T = double>
constexpr posenc::result<T> element(const checked_config& cc, std::int64_t position, int k) noexcept {
  const config& c = cc.get();
  if (!cc.ok() || k < 0 || k >= c.dim || position == INT64_MIN) return {T{}, posenc::status::domain_error};
  const element_source src = source_of(c, k);
  if (src.i < 0) return {detail::round_dd<T>(0.0, 0.0), posenc::status::ok};
  const auto e = frequency_exponent(cc, src.i);
  const std::uint64_t m = position < 0 ? static_cast<std::uint64_t>(-position) : static_cast<std::uint64_t>(position);
  const auto r = math::sincos_geometric<T>(m, c.base, e.value.num, e.value.den);
  if (!r.ok()) return {T{}, r.error};
  if (!src.is_sin) return {r.value.cos, posenc::status::ok};
  if (position >= 0) return {r.value.sin, posenc::status::ok};
  // sin(-x) = -sin(x): flip the sign bit (RN is symmetric, so RN(-y) = -RN(y) bit for bit).
  using F = detail::float_format<T>;
  using S = typename F::storage;
  return {F::from_bits(static_cast<S>(F::to_bits(r.value.sin) ^ (S{1} << (8 * sizeof(S) - 1)))), posenc::status::ok};
}

// Rows first, first + 1, ...: out[r * d + k] = PE[first + r][k]; out.size() a multiple of d.
template <class T = double>
constexpr posenc::status fill_table(const checked_config& cc, std::int64_t first, std::span<T> out) noexcept {
  if (!cc.ok()) return posenc::status::domain_error;
  const auto d = static_cast<std::size_t>(cc.get().dim);
  if (out.size() % d != 0) return posenc::status::domain_error;
  for (std::size_t r = 0; r < out.size() / d; ++r)
    for (std::size_t k = 0; k < d; ++k) {
      const auto v = element<T>(cc, first + static_cast<std::int64_t>(r), static_cast<int>(k));
      if (!v.ok()) return v.error;
      out[r * d + k] = v.value;
    }
  return posenc::status::ok;
}

template <class T, std::size_t Positions, std::size_t Dim>
constexpr posenc::result<std::array<T, Positions * Dim>> make_table(const checked_config& cc, std::int64_t first = 0) noexcept {
  posenc::result<std::array<T, Positions * Dim>> r{};
  if (cc.ok() && static_cast<std::size_t>(cc.get().dim) != Dim) {
    r.error = posenc::status::domain_error;
    return r;
  }
  r.error = fill_table<T>(cc, first, std::span<T>(r.value));
  return r;
}

}  // namespace posenc::sinusoidal
