// table.hpp: sinusoidal position encodings, each entry RN_T of the exact sin or cos of the exact
// angle p omega_i, at compile time and at run time alike.
//
//   sinusoidal::frequency_exponent(cfg, i)       e_i as the exact fraction {num, den}
//   sinusoidal::element<T>(cfg, p, k)            PE[p][k], any integer position p (negative too)
//   sinusoidal::fill_table<T>(cfg, first, span)  rows first, first + 1, ... of d entries each (the
//                                                cos/sin table engine: a dozen operations an entry)
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

#include "posenc/math/detail/sincos_table_engine.hpp"
#include "posenc/math/geometric_frequency.hpp"
#include "posenc/math/round.hpp"
#include "posenc/math/sincos_geometric.hpp"
#include "posenc/math/sincos_source.hpp"
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
  if (src.i < 0) return {posenc::detail::round_dd<T>(0.0, 0.0), posenc::status::ok};
  const auto e = frequency_exponent(cc, src.i);
  const std::uint64_t m = position < 0 ? static_cast<std::uint64_t>(-position) : static_cast<std::uint64_t>(position);
  const auto r = math::sincos_geometric<T>(m, c.base, e.value.num, e.value.den);
  if (!r.ok()) return {T{}, r.error};
  if (!src.is_sin) return {r.value.cos, posenc::status::ok};
  if (position >= 0) return {r.value.sin, posenc::status::ok};
  // sin(-x) = -sin(x): flip the sign bit (RN is symmetric, so RN(-y) = -RN(y) bit for bit).
  using F = posenc::detail::float_format<T>;
  using S = typename F::storage;
  return {F::from_bits(static_cast<S>(F::to_bits(r.value.sin) ^ (S{1} << (8 * sizeof(S) - 1)))), posenc::status::ok};
}

}  // namespace posenc::sinusoidal

namespace posenc::sinusoidal::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// The frequency source of the table engine (math/sincos_source.hpp): column i is omega_i, its
// scalar entry math::sincos_geometric at the same exact exponent as element().
struct source {
  double base;
  bool fairseq;
  std::int64_t dim;
  constexpr std::int64_t num(int i) const noexcept { return fairseq ? i : 2 * std::int64_t{i}; }
  constexpr std::int64_t den() const noexcept { return fairseq ? dim / 2 - 1 : dim; }
  constexpr math::frequency_value frequency(int i) const noexcept {
    return {math::geometric_frequency(base, num(i), den()), math::geometric_frequency_max_rel_error,
            posenc::status::ok};
  }
  template <class T>
  constexpr posenc::result<math::sincos_result<T>> entry(const math::frequency_value&, const math::amplitude*,
                                                         std::uint64_t p, int i) const noexcept {
    return math::sincos_geometric<T>(p, base, num(i), den());
  }
};

template <class T>
constexpr T negated(T x) noexcept {  // -x bit for bit (RN is symmetric: RN(-y) = -RN(y))
  using F = posenc::detail::float_format<T>;
  using S = typename F::storage;
  return F::from_bits(static_cast<S>(F::to_bits(x) ^ (S{1} << (8 * sizeof(S) - 1))));
}

// Engine row i (position |p| = start + i) goes to output row first_row + i, or first_row - i for
// the negative positions (sin negated, cos kept: sin(-x) = -sin(x), cos(-x) = cos(x)).
template <class T>
struct sink {
  T* out;
  std::size_t d;
  std::size_t sines;  // sin columns; cos column i exists for i < d / 2
  bool interleaved;
  std::size_t first_row;
  bool negative;
  constexpr void begin_chunk(std::size_t, std::size_t) noexcept {}
  constexpr void store(std::size_t i, std::size_t j0, std::size_t jj, const math::sincos_result<T>& r) noexcept {
    const std::size_t f = j0 + jj;
    T* row = out + (negative ? first_row - i : first_row + i) * d;
    const std::size_t ks = interleaved ? 2 * f : f;
    row[ks] = negative ? negated(r.sin) : r.sin;
    if (f < d / 2) row[interleaved ? 2 * f + 1 : sines + f] = r.cos;
  }
  // Where columns [j0, j0 + n) of row i go: the engine's row paths then store them with no call an
  // entry (sincos_table_rows_constexpr.hpp; sincos_table_rows.hpp when the runs are contiguous, the
  // concat layout). Not for the negated rows.
  constexpr bool row_runs(std::size_t i, std::size_t j0, std::size_t n, sincos_table::row_runs<T>& r) noexcept {
    if (negative) return false;
    T* row = out + (first_row + i) * d;
    r.sin = row + (interleaved ? 2 * j0 : j0);
    r.cos = row + (interleaved ? 2 * j0 + 1 : sines + j0);
    r.sin_stride = r.cos_stride = interleaved ? 2 : 1;
    r.cos_count = j0 >= d / 2 ? 0 : (d / 2 - j0 < n ? d / 2 - j0 : n);
    return true;
  }
};

}  // namespace posenc::sinusoidal::detail

namespace posenc::sinusoidal {

// Rows first, first + 1, ...: out[r * d + k] = PE[first + r][k], bit for bit element(); out.size()
// a multiple of d, positions within (-2^63, 2^63). Built on the cos/sin table engine
// (math/detail/sincos_table_engine.hpp): a dozen operations an entry instead of element()'s scalar
// path; the rows at negative positions are the engine's rows at |p|, sin negated.
template <class T = double>
constexpr posenc::status fill_table(const checked_config& cc, std::int64_t first, std::span<T> out) noexcept {
  if (!cc.ok()) return posenc::status::domain_error;
  const config& c = cc.get();
  const auto d = static_cast<std::size_t>(c.dim);
  if (out.size() % d != 0) return posenc::status::domain_error;
  const std::size_t rows = out.size() / d;
  if (rows == 0) return posenc::status::ok;
  if (first == INT64_MIN || rows - 1 > static_cast<std::uint64_t>(INT64_MAX - (first < 0 ? 0 : first)))
    return posenc::status::domain_error;
  const bool fairseq = c.exponent == exponent::fairseq;
  const std::size_t sines = fairseq ? d / 2 : (d + 1) / 2;
  const bool interleaved = c.layout == layout::interleaved;
  const sinusoidal::detail::source src{c.base, fairseq, c.dim};
  if (fairseq && d % 2 != 0)  // the trailing zero column (interleaved: element d - 1 too)
    for (std::size_t r = 0; r < rows; ++r) out[r * d + d - 1] = posenc::detail::round_dd<T>(0.0, 0.0);
  // Negative positions first..-1 (rows 0 .. neg - 1), as |p| = 1 .. -first.
  const std::size_t neg =
      first < 0 ? (static_cast<std::uint64_t>(-first) < rows ? static_cast<std::size_t>(-first) : rows) : 0;
  if (neg > 0) {
    // Engine row i is |p| = q0 + i, output row neg - 1 - i.
    sinusoidal::detail::sink<T> k{out.data(), d, sines, interleaved, neg - 1, true};
    const std::uint64_t q0 = static_cast<std::uint64_t>(-first) - (neg - 1);  // smallest |p| written
    if (const auto e = posenc::detail::sincos_table::fill_rows<T>(src, q0, neg, sines, nullptr, nullptr, k);
        e != posenc::status::ok)
      return e;
  }
  if (neg < rows) {
    sinusoidal::detail::sink<T> k{out.data(), d, sines, interleaved, neg, false};
    const std::uint64_t p0 = first < 0 ? 0 : static_cast<std::uint64_t>(first);
    if (const auto e = posenc::detail::sincos_table::fill_rows<T>(src, p0, rows - neg, sines, nullptr, nullptr, k);
        e != posenc::status::ok)
      return e;
  }
  return posenc::status::ok;
}

template <class T, std::size_t Positions, std::size_t Dim>
constexpr posenc::result<std::array<T, Positions * Dim>> make_table(const checked_config& cc,
                                                                    std::int64_t first = 0) noexcept {
  posenc::result<std::array<T, Positions * Dim>> r{};
  if (cc.ok() && static_cast<std::size_t>(cc.get().dim) != Dim) {
    r.error = posenc::status::domain_error;
    return r;
  }
  r.error = fill_table<T>(cc, first, std::span<T>(r.value));
  return r;
}

}  // namespace posenc::sinusoidal
