// sincos_table_entry.hpp: one entry of the cos/sin table engine (sincos_table_engine.hpp): the
// accurate anchors cis(n theta) an entry is built from, the two-ended rounding test that decides
// RN_T of an entry known to within e, and the entry itself (one complex product, or the source's
// scalar function when the test cannot decide). The error analysis is at the top of
// sincos_table_engine.hpp; the run-time row kernel (sincos_table_rows.hpp) uses the same pieces.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/math/detail/mp/ziv.hpp"
#include "posenc/math/detail/product_angle.hpp"
#include "posenc/math/detail/trig_kernel.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/reduce.hpp"
#include "posenc/math/round.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/sincos_source.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/status.hpp"

namespace posenc::detail::sincos_table {

// Anchors E_b per column at most; columns whose state is kept at once; the E_b anchors (doubles in
// each of ec, es) they share. 128 columns cover every rotary dim up to 256 (Llama, Qwen, Gemma
// heads) in one chunk, so such a table is written strictly row by row.
inline constexpr std::size_t block_max = 128;
inline constexpr std::size_t chunk_columns = 128;
inline constexpr std::size_t anchor_budget = 8192;

constexpr double dabs(double x) noexcept { return x < 0 ? -x : x; }

// cis(n theta) rounded to double, |error| <= 2^-54 + 2^-62 per component (fast kernel 2^-64, the
// reduction 2^-94 for |phi| < 0x1.8p30, the angle 2^-72, the final rounding half an ulp <= 2^-54).
// false when the angle is out of the fast path's range.
constexpr bool cis_anchor(std::uint64_t n, math::double_double theta, double& c, double& s) noexcept {
  if (n == 0) {
    c = 1.0;
    s = 0.0;
    return true;
  }
  product_phase phi{};
  reduced rd{};
  if (!product_angle(n, theta, phi) || !reduce_pio2(phi.hi, phi.lo, rd)) return false;
  const trig_kernel_out k = trig_kernel_fast(rd.hi, rd.lo, true, true);
  const double sr = k.sin_r.hi + k.sin_r.lo, cr = k.cos_r.hi + k.cos_r.lo;
  const int q = rd.quadrant;  // cis(r + q pi/2) = i^q cis(r)
  c = q == 0 ? cr : q == 1 ? -sr : q == 2 ? -cr : sr;
  s = q == 0 ? sr : q == 1 ? cr : q == 2 ? -sr : -cr;
  return true;
}

// Magnitude bits of T's +infinity, and whether x is an infinity (sign bit masked off).
template <class T>
constexpr auto inf_bits() noexcept {
  return float_format<T>::to_bits(mp::special_value<T>(false, false));
}
template <class T>
constexpr bool is_inf(T x, decltype(inf_bits<T>()) inf) noexcept {
  using S = decltype(inf);
  return static_cast<S>(float_format<T>::to_bits(x) & static_cast<S>(~(S{1} << (sizeof(S) * 8 - 1)))) == inf;
}

// Per-column state of the row-major fill: the frequency, the anchors' error radius, the current A.
struct column_state {
  math::frequency_value f{};
  double e = 0;  // the entry's error radius (see the top)
  double ac = 0, as = 0;
  bool ok = false;
};

// RN_T of both values of an unfolded entry (cc, ss) within e of the true ones, by the two-ended
// test: true when decided.
template <class T>
constexpr bool round_two_ended(double cc, double ss, double e0, math::sincos_result<T>& r) noexcept {
  if constexpr (std::is_same_v<T, float>) {
    // double -> float conversion rounds to nearest-even (IEEE default; GCC's and Clang's constant
    // evaluators, SSE2 at run time). RN_float is monotone, so equal roundings of both ends prove
    // that every real between them rounds alike.
    const double e = e0 + 0x1p-53;  // RN(c +- e) must enclose [c - e0, c + e0] (|c| <= 1 + 2^-50)
    r = {static_cast<float>(ss - e), static_cast<float>(cc - e)};
    return r.cos == static_cast<float>(cc + e) && r.sin == static_cast<float>(ss + e);
  } else if constexpr (!std::is_same_v<T, double>) {
    // The same two-ended test, with RN_T done on the doubles' bit patterns. Between 2^emin and
    // 2^emax (T normal, no overflow) T's values are the doubles whose low 53 - P fraction bits are
    // 0, and the encoding is monotone and linear within a binade, so RN_T (ties to even, IEEE
    // 754-2008 4.3.1) of a magnitude's bits a is (a + 2^(d-1) - 1 + bit d of a) >> d, d = 53 - P
    // (a carry moves into the exponent field by itself); T's field is then the double's rebiased
    // by 1023 - emax. Ends outside that range (0, subnormal T, a sign change), or that round
    // apart, go to ziv_round.
    using F = float_format<T>;
    constexpr int d = 53 - F::precision;
    constexpr std::uint64_t lo = static_cast<std::uint64_t>(1023 + F::min_exponent) << 52;
    constexpr std::uint64_t span = (static_cast<std::uint64_t>(1023 + F::max_exponent) << 52) - lo;
    constexpr std::uint64_t rebias = static_cast<std::uint64_t>(1023 - F::max_exponent) << (F::precision - 1);
    constexpr std::uint64_t mag = ~(std::uint64_t{1} << 63), half = (std::uint64_t{1} << (d - 1)) - 1;
    const double e = e0 + 0x1p-53;  // as for float: RN(c +- e) enclose [c - e0, c + e0]
    const std::uint64_t c0 = std::bit_cast<std::uint64_t>(cc - e), c1 = std::bit_cast<std::uint64_t>(cc + e);
    const std::uint64_t s0 = std::bit_cast<std::uint64_t>(ss - e), s1 = std::bit_cast<std::uint64_t>(ss + e);
    const std::uint64_t ac0 = c0 & mag, ac1 = c1 & mag, as0 = s0 & mag, as1 = s1 & mag;
    if (((c0 ^ c1) | (s0 ^ s1)) >> 63 == 0 && ac0 - lo < span && ac1 - lo < span && as0 - lo < span &&
        as1 - lo < span) {
      const std::uint64_t rc = (ac0 + half + ((ac0 >> d) & 1)) >> d;
      const std::uint64_t rs = (as0 + half + ((as0 >> d) & 1)) >> d;
      if (rc == (ac1 + half + ((ac1 >> d) & 1)) >> d && rs == (as1 + half + ((as1 >> d) & 1)) >> d) {
        using S = typename F::storage;                           // bits written in place: calls dominate the cost
        constexpr int sh = static_cast<int>(8 * sizeof(S)) - 1;  // the double's sign bit to T's
        r.sin.bits = static_cast<S>(((s0 >> 63) << sh) | (rs - rebias));
        r.cos.bits = static_cast<S>(((c0 >> 63) << sh) | (rc - rebias));
        return true;
      }
    }
    return ziv_round<T>(ss, 0.0, e0, r.sin) && ziv_round<T>(cc, 0.0, e0, r.cos);
  } else {
    return false;
  }
}

// Entry (row i, position p) of column j from the anchors, or from the source; returns its status.
// Always inlined: as a call (GCC 12 outlines it for the RoPE source) it was half of a run-time fill.
template <class T, class Source>
[[gnu::always_inline]] constexpr posenc::status entry(const Source& src, column_state& s, const double* ec,
                                                      const double* es, std::size_t b, std::uint64_t p, int j,
                                                      const math::amplitude* af, math::sincos_result<T>& r) noexcept {
  if (s.ok && p != 0) {
    const double cc = s.ac * ec[b] - s.as * es[b];
    const double ss = s.as * ec[b] + s.ac * es[b];
    if (af == nullptr) {
      if (round_two_ended<T>(cc, ss, s.e, r)) return posenc::status::ok;
    } else {
      const double afh = af->v.hi, afe = dabs(af->v.lo) + af->err;
      const double vc = cc * afh, vs = ss * afh;
      const double erc = (s.e * dabs(afh) + dabs(cc) * afe) * (1 + 0x1p-50) + dabs(vc) * 0x1p-53;
      const double ers = (s.e * dabs(afh) + dabs(ss) * afe) * (1 + 0x1p-50) + dabs(vs) * 0x1p-53;
      if (ziv_round<T>(vs, 0.0, ers, r.sin) && ziv_round<T>(vc, 0.0, erc, r.cos)) {
        const auto inf = inf_bits<T>();
        return is_inf(r.sin, inf) || is_inf(r.cos, inf) ? posenc::status::overflow : posenc::status::ok;
      }
    }
  }
  const auto x = src.template entry<T>(s.f, af, p, j);
  r = x.value;
  return x.error;
}

// Where the columns [j0, j0 + n) of a row go (a sink's row_runs, read by both row paths): sin of column j0 + j at sin[j * sin_stride], its cos
// at cos[j * cos_stride] for j < cos_count (an encoding may have a sin without its cos: the
// paper's odd d).
template <class T>
struct row_runs {
  T* sin = nullptr;
  std::size_t sin_stride = 1;
  T* cos = nullptr;
  std::size_t cos_stride = 1;
  std::size_t cos_count = 0;
};

// The error analysis of the row paths (derived at the top of sincos_table_rows.hpp): a = sqrt2 delta
// bounds an accurate anchor's error as a modulus, R = sqrt2 u (2 + u) a complex product's rounding,
// and `up` covers the roundings of these few sums and products.
struct anchor_error {
  static constexpr double sqrt2 = 0x1.6a09e667f3bcdp0 * (1 + 0x1p-50);  // rounded up
  static constexpr double a = sqrt2 * (0x1p-54 + 0x1p-62) * (1 + 0x1p-50);
  static constexpr double R = sqrt2 * 0x1p-53 * (2 + 0x1p-53) * (1 + 0x1p-50);
  static constexpr double up = 1 + 0x1p-40;
  // eta_{b+1} from eta_b: |Z*W* - ZW| <= eta_b (1 + a) + a + R (1 + eta_b)(1 + a).
  static constexpr double step(double eta) noexcept { return (eta * (1 + a) + a + R * (1 + eta) * (1 + a)) * up; }
};

// Bounds of the entries fl(A E_b) of a block row b < nb when E_b comes from the recurrence
// E_{b+1} = fl(E_b E_1), plus 2^-53 so that the doubles fl(c -+ e) enclose [c - e0, c + e0]
// (|c| < 2): the test's e, before the frequency's term.
constexpr void entry_bounds(double* e, std::size_t nb) noexcept {
  using k = anchor_error;
  double eta = 0;
  for (std::size_t b = 0; b < nb; ++b) {
    e[b] = (k::a * (1 + eta) + eta + k::R * (1 + k::a) * (1 + eta) + 0x1p-53) * k::up;
    eta = b == 0 ? k::a : k::step(eta);
  }
}

// Bounds of V_b, b < nb, where V_0 = A = cis_anchor(p0) and V_{b+1} = fl(V_b E_1): the walk of a
// row-major table from one anchor (sincos_table_rows_constexpr.hpp), with the same margins as
// entry_bounds: eta_0 = a, then the same step.
constexpr void walk_bounds(double* e, std::size_t nb) noexcept {
  double eta = anchor_error::a;
  for (std::size_t b = 0; b < nb; ++b) {
    e[b] = (eta + 0x1p-53) * anchor_error::up;
    eta = anchor_error::step(eta);
  }
}

}  // namespace posenc::detail::sincos_table
