// scale.hpp: XPOS's scale zeta_j^(n / scale_base), exact then rounded once into T, at any position
// n (negative ones too: torchscale centres the positions), at compile time and at run time alike.
//
//   xpos::zeta(cfg, j)                        zeta_j = (10j + 2d) / (7d) as {num, den}
//   xpos::scale<T>(cfg, n, j)                 RN_T(zeta_j^(n / scale_base)): q's factor
//   xpos::inverse_scale<T>(cfg, n, j)         RN_T(zeta_j^(-n / scale_base)): k's factor
//   xpos::fill_scales<T>(cfg, first, pairs span) / make_scale_table<T, Positions>(cfg, first)
//
// zeta_j < 1, so the scale grows without bound at negative n (and the inverse at positive n):
// float16 overflows first (zeta_0 = 2/7, scale_base 512: n = -4532 fits, -4533 does not), then bfloat16 and
// float. A scale that does not fit T is status::overflow at run time; in a table built in constant
// evaluation it stops the compiler in posenc::xpos::failed::scale_overflows_the_table_type, which
// names the position.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "posenc/math/rational_power.hpp"
#include "posenc/status.hpp"
#include "posenc/xpos/config.hpp"
#include "posenc/xpos/rows.hpp"
#include "posenc/xpos/validate.hpp"

namespace posenc::xpos {}  // namespace posenc::xpos

namespace posenc::xpos::failed {

// Reached only in constant evaluation when a table entry overflows its type: it reads one past the
// end of a one-element array whose name says which, at an index that is the position's magnitude
// plus one (laws/require.hpp's technique), so the compilers print the position: Clang
// "in call to 'scale_overflows_the_table_type(-4533, 0)'" (position, pair), GCC "array subscript
// value '4534' is outside the bounds of array '...overflow_at_minus_position_plus_one'".
inline constexpr char overflow_at_position_plus_one[1] = {};
inline constexpr char overflow_at_minus_position_plus_one[1] = {};

constexpr bool scale_overflows_the_table_type(std::int64_t position, int pair) noexcept {
  if (position >= 0) return overflow_at_position_plus_one[position + 1] != 0 && pair >= 0;
  return overflow_at_minus_position_plus_one[1 - position] != 0 && pair >= 0;
}

}  // namespace posenc::xpos::failed

namespace posenc::xpos {

struct zeta_value {
  std::int64_t num = 0;
  std::int64_t den = 1;
};

constexpr posenc::result<zeta_value> zeta(const checked_config& cc, int j) noexcept {
  const int d = cc.get().head_dim;
  if (!cc.ok() || j < 0 || j >= d / 2) return {{}, posenc::status::domain_error};
  return {{10 * std::int64_t{j} + 2 * std::int64_t{d}, 7 * std::int64_t{d}}, posenc::status::ok};
}

template <class T = double>
constexpr posenc::result<T> scale(const checked_config& cc, std::int64_t n, int j) noexcept {
  const auto z = zeta(cc, j);
  if (!z.ok() || n <= -(std::int64_t{1} << 53) || n >= (std::int64_t{1} << 53))
    return {T{}, posenc::status::domain_error};
  return math::rational_power<T>(z.value.num, z.value.den, n, cc.get().scale_base);
}

template <class T = double>
constexpr posenc::result<T> inverse_scale(const checked_config& cc, std::int64_t n, int j) noexcept {
  return scale<T>(cc, n == INT64_MIN ? n : -n, j);
}

}  // namespace posenc::xpos

namespace posenc::xpos::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// fill_scales at run time (rows.hpp): pairs in groups of 16, each group's rows by products of
// anchors; an entry the rounding test leaves, or a group out of dd_exp's range, by scale<T>.
template <class T>
posenc::status fill_scales_rows(const xpos::checked_config& cc, std::int64_t first, std::span<T> out,
                                bool inverse) noexcept {
  const int d = cc.get().head_dim;
  const auto pairs = static_cast<std::size_t>(d / 2);
  const std::size_t rows = out.size() / pairs;
  auto scalar = [&cc, inverse](std::int64_t n, int j) {
    return inverse ? xpos::inverse_scale<T>(cc, n, j) : xpos::scale<T>(cc, n, j);
  };
  posenc::status st = posenc::status::ok;
  std::int64_t num[16] = {};
  for (std::size_t j0 = 0; j0 < pairs; j0 += 16) {
    const std::size_t w = std::min<std::size_t>(16, pairs - j0);
    for (std::size_t t = 0; t < w; ++t) num[t] = xpos::zeta(cc, static_cast<int>(j0 + t)).value.num;
    const posenc::status s = fill_rows<T>(first, rows, pairs, j0, w, num, 7 * std::int64_t{d}, cc.get().scale_base,
                                          inverse, out.data(), scalar);
    if (st == posenc::status::ok) st = s;
  }
  return st;
}

}  // namespace posenc::xpos::detail

namespace posenc::xpos {

// out[r * pairs + j] = scale (or inverse_scale) at position first + r; out.size() a multiple of d/2.
// At run time a table of 4 rows or more takes xpos::detail::fill_scales_rows (rows.hpp): the
// same bits, a product and a rounding test an entry.
template <class T = double>
constexpr posenc::status fill_scales(const checked_config& cc, std::int64_t first, std::span<T> out,
                                     bool inverse = false) noexcept {
  if (!cc.ok()) return posenc::status::domain_error;
  const auto pairs = static_cast<std::size_t>(cc.get().head_dim / 2);
  if (out.size() % pairs != 0) return posenc::status::domain_error;
  if (!std::is_constant_evaluated() && pairs <= (std::size_t{1} << 20) && out.size() / pairs >= 4 &&
      first > -(std::int64_t{1} << 52) &&
      first + static_cast<std::int64_t>(out.size() / pairs) < (std::int64_t{1} << 52))
    return xpos::detail::fill_scales_rows<T>(cc, first, out, inverse);
  posenc::status st = posenc::status::ok;
  for (std::size_t r = 0; r < out.size() / pairs; ++r)
    for (std::size_t j = 0; j < pairs; ++j) {
      const std::int64_t n = first + static_cast<std::int64_t>(r);
      const auto v = inverse ? inverse_scale<T>(cc, n, static_cast<int>(j)) : scale<T>(cc, n, static_cast<int>(j));
      if (v.error == posenc::status::overflow && std::is_constant_evaluated())
        static_cast<void>(failed::scale_overflows_the_table_type(n, static_cast<int>(j)));
      if (st == posenc::status::ok) st = v.error;
      out[r * pairs + j] = v.value;
    }
  return st;
}

template <class T, std::size_t Positions, std::size_t Pairs>
constexpr posenc::result<std::array<T, Positions * Pairs>> make_scale_table(const checked_config& cc,
                                                                            std::int64_t first = 0,
                                                                            bool inverse = false) noexcept {
  posenc::result<std::array<T, Positions * Pairs>> r{};
  if (cc.ok() && static_cast<std::size_t>(cc.get().head_dim / 2) != Pairs) {
    r.error = posenc::status::domain_error;
    return r;
  }
  r.error = fill_scales<T>(cc, first, std::span<T>(r.value), inverse);
  return r;
}

}  // namespace posenc::xpos
