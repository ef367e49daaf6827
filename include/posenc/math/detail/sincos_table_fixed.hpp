// sincos_table_fixed.hpp: q15/q31 cos/sin tables from the cos/sin table engine
// (sincos_table_engine.hpp). The engine rounds each entry once into S (float for q15, double for
// q31: every grid midpoint of Q is an S value, math/round_fixed.hpp); this sink takes y = RN_S(x)
// and stores RN_grid(x), which y gives unless y is exactly a grid midpoint. Only then is the exact
// value consulted: the scheme's accurate enclosure (mp, Ziv's loop at 256, 512, 1024 bits) decides
// on which side of the midpoint x lies. Then CMSIS's saturation, counted.
//
// How often the enclosure is needed: a float y in [1/2, 1) is a q15 midpoint with probability
// 2^-8 (its 24 bits against the midpoints' 17), a double y a q31 midpoint with probability about
// 2^-20 (53 bits against 33); smaller |y| less often. The tests force the case (test_fixed_point).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/math/detail/mp/ziv_fixed.hpp"
#include "posenc/math/round_fixed.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/status.hpp"

namespace posenc::detail::sincos_table {

// The type the engine rounds into before the grid.
template <fixed_point_type Q>
using fixed_engine_type = std::conditional_t<std::is_same_v<Q, q15>, float, double>;

// The grid integer of one value from its S rounding y, or false when y is a grid midpoint.
template <class S>
constexpr bool grid_from_rounded(S y, int fraction_bits, std::int64_t& k) noexcept {
  const grid_position g = grid_side(static_cast<double>(y), fraction_bits);
  k = g.floor + static_cast<std::int64_t>(g.side > 0);  // no branch: the side is data-dependent
  return g.side != 0;
}

// Both grid integers of an entry from the scheme's enclosures: approx(level<L>{}) returns an
// mp::sincos_approx<L>. false when 1024 bits do not decide (an exact midpoint: the callers
// report status::domain_error, as the schemes' own Ziv loops do).
template <class Approx>
constexpr bool grid_from_enclosure(Approx approx, int fraction_bits, std::int64_t& ks, std::int64_t& kc) noexcept {
  bool ok_s = false, ok_c = false;
  const auto step = [&](const auto& a) {
    if (!ok_s) ok_s = mp::grid_round_checked(a.sin.v, a.sin.err, fraction_bits, ks);
    if (!ok_c) ok_c = mp::grid_round_checked(a.cos.v, a.cos.err, fraction_bits, kc);
    return ok_s && ok_c;
  };
  return step(approx(mp::level<4>{})) || step(approx(mp::level<8>{})) || step(approx(mp::level<16>{}));
}

// A sink of the engine at type S that stores Q values into Inner (a sink at type Q).
// Resolve, for the entries whose S value is a grid midpoint (row i, column j):
//   resolve.rounded_double(i, j)  the entry rounded into double by the scheme's scalar function (a
//                                 posenc::result<math::sincos_result<double>>): for q15 (S = float)
//                                 it decides all but about 2^-29 of those entries, at a fraction
//                                 of the enclosure's cost (in constant evaluation ~100x less);
//   resolve(i, j)                 an enclosure function, as grid_from_enclosure takes, for the rest.
template <fixed_point_type Q, class Inner, class Resolve>
struct fixed_sink {
  using engine_type = fixed_engine_type<Q>;
  Inner* inner;
  Resolve resolve;
  bool negate_sin = false;  // store RN(-sin) (sinusoidal rows at negative positions): before saturating
  std::uint64_t saturated = 0;
  posenc::status error = posenc::status::ok;  // the first entry the enclosures could not decide

  constexpr void begin_chunk(std::size_t j0, std::size_t n) noexcept { inner->begin_chunk(j0, n); }

  // The Q pair of grid integers, saturated and counted.
  constexpr math::sincos_result<Q> finish(std::int64_t ks, std::int64_t kc) noexcept {
    const saturated_value<Q> s = saturate<Q>(ks), c = saturate<Q>(kc);
    saturated += static_cast<std::uint64_t>(s.saturated) + static_cast<std::uint64_t>(c.saturated);
    return {s.value, c.value};
  }

  constexpr math::sincos_result<Q> convert(std::size_t i, std::size_t j,
                                           const math::sincos_result<engine_type>& r) noexcept {
    constexpr int F = fixed_format<Q>::fraction_bits;
    std::int64_t ks = 0, kc = 0;
    bool ds = grid_from_rounded(r.sin, F, ks), dc = grid_from_rounded(r.cos, F, kc);
    if constexpr (!std::is_same_v<engine_type, double>) {
      if (!ds || !dc) {
        const auto d = resolve.rounded_double(i, j);
        if (d.ok()) {
          std::int64_t ds2 = 0, dc2 = 0;
          const bool s_ok = grid_from_rounded(d.value.sin, F, ds2), c_ok = grid_from_rounded(d.value.cos, F, dc2);
          if (s_ok && c_ok) ks = ds2, kc = dc2, ds = dc = true;
        }
      }
    }
    if (!ds || !dc) {
      std::int64_t es = 0, ec = 0;
      if (grid_from_enclosure(resolve(i, j), F, es, ec)) {
        ks = es, kc = ec;
      } else if (error == posenc::status::ok) {
        error = posenc::status::domain_error;
      }
    }
    return finish(negate_sin ? -ks : ks, kc);  // RN is symmetric: RN(-x) = -RN(x); the clamp is not
  }

  constexpr void store(std::size_t i, std::size_t j0, std::size_t jj,
                       const math::sincos_result<engine_type>& r) noexcept {
    inner->store(i, j0, jj, convert(i, j0 + jj, r));
  }
};

}  // namespace posenc::detail::sincos_table
