// sincos_table_engine.hpp: the one cos/sin table engine of the library. Rows at positions
// p = start + i (or a listed position), columns j of any frequency source (math/sincos_source.hpp:
// a geometric frequency base^(-e_j), every RoPE scaling, the sinusoidal encodings), each entry
// RN_T(sin(p theta_j)), RN_T(cos(p theta_j)) (times an exact amplitude when one is folded in), at a
// per-entry cost of a dozen operations in constant evaluation.
//
// Method: every row shares the column's frequency theta, and p = p0 + b, p0 = start + a B (B a
// power of two near sqrt(rows)), so with anchors A = cis(p0 theta) and E_b = cis(b theta), each
// accurate to delta <= 2^-54 + 2^-62, an entry is one complex product (angle addition,
// A&S 4.3.16/4.3.17):  cos(p theta) = Ac Ec - As Es,  sin(p theta) = As Ec + Ac Es.
// Error of an entry, all in double: |Ac Ec - Ac* Ec*| <= 2 delta + delta^2 per product (|cos|,
// |sin| <= 1), the two product roundings <= 2^-53 (|Ac Ec| + |As Es|) <= 2^-53 (1 + 4 delta)
// (Cauchy-Schwarz), the final rounding <= 2^-53: total <= 4 delta + 2^-52 + 2^-50 delta <
// e0 = 0x1.02p-51, plus (start + rows) |theta| rel_err for the frequency's own error.
// Folded amplitude af = af.hi + af.lo (|af - (hi + lo)| <= af.err): c af ~ RN(c af.hi), whose
// error is <= e0 |af.hi| + |c| (|af.lo| + af.err) + 2^-53 |RN(c af.hi)|, with a 2^-50 margin.
// A two-ended rounding test then decides each entry (below); the entries it cannot decide, every
// entry of a double table (anchors at 2^-54 cannot round a double), and every entry of a position
// list (no shared anchors) come from the source's scalar function, so the table is bit for bit
// that function whichever path an entry took, and the chunking and the block size B change how
// much an entry costs, never its bits.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/detail/mp/ziv.hpp"
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

// Columns j0 <= j < j0 + n of rows i < rows at positions list ? list[i] : start + i, written row
// by row in constant evaluation (GCC's constant evaluator inserts array elements stored out of
// order in linear time, so a column-major fill of a large table is quadratic), column by column at
// run time through sink.store(i, j0, jj, r), jj = j - j0,
// after sink.begin_chunk(j0, n). Returns ok, or the first non-ok status in the order the entries
// were written; af != nullptr folds the amplitude. n <= chunk_columns.
template <class T, class Source, class Sink>
constexpr posenc::status fill_chunk(const Source& src, std::uint64_t start, std::size_t rows, std::size_t j0,
                                    std::size_t n, const std::uint64_t* list, const math::amplitude* af,
                                    Sink& sink) noexcept {
  const std::size_t bmax = n * block_max <= anchor_budget ? block_max : anchor_budget / n;
  std::size_t bsize = 1;
  while (bsize < bmax && bsize * bsize < rows) bsize *= 2;
  column_state col[chunk_columns] = {};
  double ec[anchor_budget] = {}, es[anchor_budget] = {};
  posenc::status st = posenc::status::ok;
  math::sincos_result<T> r{};  // every path of entry() writes both values
  for (std::size_t j = 0; j < n; ++j) {
    column_state& s = col[j];
    s.f = src.frequency(static_cast<int>(j0 + j));
    if (!s.f.ok()) return s.f.error;
    s.ok = list == nullptr && !std::is_same_v<T, double> && s.f.value.hi != 0 && (af == nullptr || af->ok);
    for (std::size_t b = 0; s.ok && b < bsize && b < rows; ++b)
      s.ok = cis_anchor(b, s.f.value, ec[j * bmax + b], es[j * bmax + b]);
    s.e = 0x1.02p-51 + static_cast<double>(start + rows) * dabs(s.f.value.hi) * (s.f.rel_err * 1.0000001);
  }
  sink.begin_chunk(j0, n);
  if (!std::is_constant_evaluated()) {
    // At run time column by column: a column's frequency, anchors and block anchor stay in
    // registers over all of its rows, where the row-major order below reloads them for every entry
    // (with entry() inlined, a 4096 x 64-pair float table: 6.9 -> 5.0 ns per pair from
    // math::sincos_geometric_table, 5.5 from rope::fill_pair_table; docs/performance.md). Every
    // entry comes from the same anchors as below, so the bits are the same (test_ct_rt compares
    // them with constant evaluation's); only the order of the stores differs.
    for (std::size_t j = 0; j < n; ++j) {
      column_state& s = col[j];
      for (std::size_t i0 = 0; i0 < rows; i0 += bsize) {
        if (s.ok) s.ok = cis_anchor(start + i0, s.f.value, s.ac, s.as);
        for (std::size_t i = i0; i < i0 + bsize && i < rows; ++i) {
          const std::uint64_t p = list != nullptr ? list[i] : start + i;
          const posenc::status e =
              entry<T>(src, s, ec + j * bmax, es + j * bmax, i - i0, p, static_cast<int>(j0 + j), af, r);
          if (st == posenc::status::ok) st = e;
          sink.store(i, j0, j, r);
        }
      }
    }
    return st;
  }
  for (std::size_t i0 = 0; i0 < rows; i0 += bsize) {
    for (std::size_t j = 0; j < n; ++j)
      if (col[j].ok) col[j].ok = cis_anchor(start + i0, col[j].f.value, col[j].ac, col[j].as);
    for (std::size_t i = i0; i < i0 + bsize && i < rows; ++i) {
      const std::uint64_t p = list != nullptr ? list[i] : start + i;
      for (std::size_t j = 0; j < n; ++j) {
        const posenc::status e =
            entry<T>(src, col[j], ec + j * bmax, es + j * bmax, i - i0, p, static_cast<int>(j0 + j), af, r);
        if (st == posenc::status::ok) st = e;
        sink.store(i, j0, j, r);
      }
    }
  }
  return st;
}

// All `columns` columns of rows i < rows, chunk by chunk: the state of a column (its frequency, its
// anchors) lives only while its chunk is written, so the stack use is fixed whatever the number of
// columns (about 140 KiB: the state of 128 columns and 2 x 8192 double anchors). Tables of at most
// chunk_columns columns are one chunk, written row by row; wider ones chunk after chunk (at run
// time this costs nothing; in constant evaluation the later chunks' stores land out of order).
// Returns the first non-ok status (ok otherwise); a failing chunk ends the fill (the callers then
// leave the table's contents unspecified).
template <class T, class Source, class Sink>
  requires math::sincos_source<Source, T>
constexpr posenc::status fill_rows(const Source& src, std::uint64_t start, std::size_t rows, std::size_t columns,
                                   const std::uint64_t* list, const math::amplitude* af, Sink& sink) noexcept {
  for (std::size_t j0 = 0; j0 < columns; j0 += chunk_columns) {
    const std::size_t n = columns - j0 < chunk_columns ? columns - j0 : chunk_columns;
    if (const posenc::status e = fill_chunk<T>(src, start, rows, j0, n, list, af, sink); e != posenc::status::ok)
      return e;
  }
  return posenc::status::ok;
}

}  // namespace posenc::detail::sincos_table
