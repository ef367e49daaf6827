// sincos_source.hpp: what the cos/sin table engine (detail/sincos_table_engine.hpp) needs to know
// of an encoding: each column's frequency as a double-double with a relative error bound, and the
// encoding's own scalar function for the entries the engine's cheap test cannot decide.
//
//   struct my_source {
//     constexpr math::frequency_value frequency(int j) const;   // theta_j, within rel_err
//     template <class T>
//     constexpr posenc::result<math::sincos_result<T>>
//     entry(const math::frequency_value& f, const math::amplitude* af, std::uint64_t p, int j) const;
//   };
//
// A source may also have
//     constexpr math::frequency_value frequency_accurate(int j) const;  // the same, rel_err <= 2^-100
// which the double row kernel reads for a column whose frequency() bound is too loose to decide
// double entries (RoPE's Llama-3 band: 2^-60); without it such a column's entries more often take
// entry().
// A source may also place its rows off the progression, for double tables (the double row kernel,
// detail/sincos_table_rows_double.hpp; other kernels do not take such a source):
//     constexpr double row_offset(std::uint64_t p) const;   // o_p: row p sits at p + o_p steps
//     constexpr double row_offset_bound() const;            // >= every |row_offset(p)|
// so that entry (p, j) is cis((p + o_p) theta_j) and entry() returns that row's value, with
// row_offset(p) within 2^-51 |o| of the exact offset o_p; a column where |o_p theta_j| could exceed
// 2^-30 takes entry() (rope/nd.hpp: ND axes near a progression).
// entry() must return RN_T(sin(p theta_j)), RN_T(cos(p theta_j)) of the encoding's exact real
// frequency (times the exact amplitude when af != nullptr): the engine's own entries are the same
// correctly rounded values, so a table is bit for bit its scalar function whichever path an entry
// took. Sources in the library: sincos_table.hpp (a product with given frequencies, a geometric
// frequency base^(-j num/den)), rope/detail/table_column.hpp (every RoPE scaling),
// sinusoidal/table.hpp.
#pragma once

#include <concepts>
#include <cstdint>

#include "posenc/math/double_double.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/status.hpp"

namespace posenc::math {

// A frequency as a double-double with |value - theta| <= rel_err |theta|; error != ok when the
// encoding cannot form it (the engine then stops with that status).
struct frequency_value {
  double_double value{};
  double rel_err = 0;
  posenc::status error = posenc::status::ok;
  constexpr bool ok() const noexcept { return error == posenc::status::ok; }
};

// A factor every entry is multiplied by before its one rounding (RoPE's attention factor), as a
// double-double within err absolute. ok = false: no bound could be formed, so every entry takes
// the source's scalar path.
struct amplitude {
  double_double v{1.0, 0.0};
  double err = 0;
  bool ok = true;
};

template <class S, class T>
concept sincos_source = requires(const S& s, const frequency_value& f, const amplitude* af, std::uint64_t p, int j) {
  { s.frequency(j) } -> std::same_as<frequency_value>;
  { s.template entry<T>(f, af, p, j) } -> std::same_as<posenc::result<sincos_result<T>>>;
};

}  // namespace posenc::math
