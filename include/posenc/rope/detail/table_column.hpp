// table_column.hpp: the rows of a scaled RoPE cos/sin table at a per-entry cost of a dozen
// operations in constant evaluation (fill_rows, row by row, columns in chunks of at most
// fill_chunk_pairs); the engine of rope/fill.hpp (and through it of table.hpp).
//
// Method: math/detail/rope_table.hpp's rope_column, generalised to rows at positions start + i and
// to a folded attention factor. Positions p = p0 + b, p0 = start + a B (B a power of two near
// sqrt(rows)), anchors A = cis(p0 theta), E_b = cis(b theta) from the scalar fast path's reduction
// and fast kernel, each within 2^-54 + 2^-62; an entry is one complex product (angle addition,
// A&S 4.3.16/4.3.17) within e0 = 0x1.02p-51 of cis(p theta~) (rope_table.hpp's derivation), plus
// (start + rows) |theta| rel_err for the frequency's own error (|p (theta - theta~)|).
// Folded af = af.hi + af.lo (|af - (hi + lo)| <= af.err): c af ~ RN(c af.hi), whose error is
// <= e0 |af.hi| + |c| (|af.lo| + af.err) + 2^-53 |RN(c af.hi)|, with a 2^-50 relative margin.
// Entries the rounding test cannot decide, every entry of a double table, and every entry of a
// position list (no shared anchors) go to sincos_with (angle.hpp): same bits as rope::sincos.
// Every entry is correctly rounded whichever path produced it, so the chunking and the block size
// B change how much work an entry costs, never its bits.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/math/detail/rope_table.hpp"
#include "posenc/math/round.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/rope/angle.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/status.hpp"

namespace posenc::detail::ropet {

// Where the values go: pair j of row i at cos/sin[i * stride + pair_index(lay, j, t, stride)],
// t = 0, 1 (both elements of the pair, expanded tables), or at pairs[i * stride + j] (compact
// tables) when pairs != nullptr.
template <class T>
struct table_dest {
  T* cos;
  T* sin;
  math::sincos_result<T>* pairs;
  std::size_t stride;
  rope::layout lay;
};

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

// Per-column state of the row-major fill: the frequency, the anchors E_b and the current A.
struct column_state {
  rope::frequency_value f{};
  double e = 0;  // the entry's error radius (see the top)
  double ac = 0, as = 0;
  bool ok = false;
};

// Entry (row i, position p) of pair j from the anchors, or from sincos_with; returns its status.
template <class T>
constexpr posenc::status table_entry(const rope::config& c, column_state& s, const double* ec, const double* es,
                                     std::size_t b, std::uint64_t p, int j, const attention_value* af,
                                     math::sincos_result<T>& r) noexcept {
  if (s.ok && p != 0) {
    const double cc = s.ac * ec[b] - s.as * es[b];
    const double ss = s.as * ec[b] + s.ac * es[b];
    if constexpr (std::is_same_v<T, float>) {
      if (af == nullptr) {  // RN_float is monotone: equal roundings of both ends decide all between
        const double e = s.e + 0x1p-53;  // RN(c +- e) must enclose [c - e0, c + e0] (rope_table.hpp)
        r = {static_cast<float>(ss - e), static_cast<float>(cc - e)};
        if (r.cos == static_cast<float>(cc + e) && r.sin == static_cast<float>(ss + e)) return posenc::status::ok;
      }
    } else if constexpr (!std::is_same_v<T, double>) {
      if (af == nullptr) {  // the same two-ended test, with RN_T done on the doubles' bit patterns
        // Between 2^emin and 2^emax (T normal, no overflow) T's values are the doubles whose low
        // 53 - P fraction bits are 0, and the encoding is monotone and linear within a binade, so
        // RN_T (ties to even, IEEE 754-2008 4.3.1) of a magnitude's bits a is
        // (a + 2^(d-1) - 1 + bit d of a) >> d, d = 53 - P (a carry moves into the exponent field
        // by itself); T's field is then the double's rebiased by 1023 - emax. Ends outside that
        // range (0, subnormal T, a sign change), or that round apart, go to ziv_round below.
        using F = float_format<T>;
        constexpr int d = 53 - F::precision;
        constexpr std::uint64_t lo = static_cast<std::uint64_t>(1023 + F::min_exponent) << 52;
        constexpr std::uint64_t span = (static_cast<std::uint64_t>(1023 + F::max_exponent) << 52) - lo;
        constexpr std::uint64_t rebias = static_cast<std::uint64_t>(1023 - F::max_exponent) << (F::precision - 1);
        constexpr std::uint64_t mag = ~(std::uint64_t{1} << 63), half = (std::uint64_t{1} << (d - 1)) - 1;
        const double e = s.e + 0x1p-53;  // as for float: RN(c +- e) enclose [c - e0, c + e0]
        const std::uint64_t c0 = std::bit_cast<std::uint64_t>(cc - e), c1 = std::bit_cast<std::uint64_t>(cc + e);
        const std::uint64_t s0 = std::bit_cast<std::uint64_t>(ss - e), s1 = std::bit_cast<std::uint64_t>(ss + e);
        const std::uint64_t ac0 = c0 & mag, ac1 = c1 & mag, as0 = s0 & mag, as1 = s1 & mag;
        if (((c0 ^ c1) | (s0 ^ s1)) >> 63 == 0 && ac0 - lo < span && ac1 - lo < span && as0 - lo < span &&
            as1 - lo < span) {
          const std::uint64_t rc = (ac0 + half + ((ac0 >> d) & 1)) >> d;
          const std::uint64_t rs = (as0 + half + ((as0 >> d) & 1)) >> d;
          if (rc == (ac1 + half + ((ac1 >> d) & 1)) >> d && rs == (as1 + half + ((as1 >> d) & 1)) >> d) {
            using S = typename F::storage;  // bits written in place: calls dominate the cost
            constexpr int sh = static_cast<int>(8 * sizeof(S)) - 1;  // the double's sign bit to T's
            r.sin.bits = static_cast<S>(((s0 >> 63) << sh) | (rs - rebias));
            r.cos.bits = static_cast<S>(((c0 >> 63) << sh) | (rc - rebias));
            return posenc::status::ok;
          }
        }
      }
    }
    if (af == nullptr) {
      if (!std::is_same_v<T, float> && ziv_round<T>(ss, 0.0, s.e, r.sin) && ziv_round<T>(cc, 0.0, s.e, r.cos))
        return posenc::status::ok;
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
  const auto x = sincos_with<T>(c, s.f, af, p, j);
  r = x.value;
  return x.error;
}

// How many columns keep their state at once, and the budget of E_b anchors (doubles in each of
// ec, es) they share. 128 pairs cover every rotary dim up to 256 (Llama, Qwen, Gemma heads) in one
// chunk, so a whole table is written strictly row by row; the anchor budget is the one the
// Pairs-sized arrays of the former engine had (8192), so the block size B is unchanged too.
inline constexpr std::size_t fill_chunk_pairs = 128;
inline constexpr std::size_t fill_anchor_budget = 8192;

// Columns j0 <= j < j0 + n of rows i < rows at positions list ? list[i] : start + i, written row
// by row (GCC's constant evaluator inserts array elements stored out of order in linear time, so
// a column-major fill of a large table is quadratic). Returns the first non-ok status (ok
// otherwise); af != nullptr folds the attention factor. n <= fill_chunk_pairs.
template <class T>
constexpr posenc::status fill_chunk(const rope::config& c, std::uint64_t start, std::size_t rows, std::size_t j0,
                                    std::size_t n, const std::uint64_t* list, const attention_value* af,
                                    const table_dest<T>& d) noexcept {
  const std::size_t bmax = n * rope_block_max <= fill_anchor_budget ? rope_block_max : fill_anchor_budget / n;
  std::size_t bsize = 1;
  while (bsize < bmax && bsize * bsize < rows) bsize *= 2;
  column_state col[fill_chunk_pairs] = {};
  double ec[fill_anchor_budget] = {}, es[fill_anchor_budget] = {};
  std::size_t k0[fill_chunk_pairs] = {}, k1[fill_chunk_pairs] = {};  // element offsets of pair j0 + j in a row
  posenc::status st = posenc::status::ok;
  math::sincos_result<T> r{};  // every path of table_entry writes both values
  for (std::size_t j = 0; j < n; ++j) {
    column_state& s = col[j];
    s.f = rope::frequency_dd(c, static_cast<int>(j0 + j));
    if (!s.f.ok()) return s.f.error;
    s.ok = list == nullptr && !std::is_same_v<T, double> && s.f.value.hi != 0 && (af == nullptr || af->ok);
    for (std::size_t b = 0; s.ok && b < bsize && b < rows; ++b) s.ok = rope_anchor(b, s.f.value, ec[j * bmax + b], es[j * bmax + b]);
    s.e = 0x1.02p-51 + static_cast<double>(start + rows) * dabs(s.f.value.hi) * (s.f.rel_err * 1.0000001);
    if (d.pairs == nullptr) {
      k0[j] = rope::pair_index(d.lay, j0 + j, 0, d.stride);
      k1[j] = rope::pair_index(d.lay, j0 + j, 1, d.stride);
    }
  }
  for (std::size_t i0 = 0; i0 < rows; i0 += bsize) {
    for (std::size_t j = 0; j < n; ++j)
      if (col[j].ok) col[j].ok = rope_anchor(start + i0, col[j].f.value, col[j].ac, col[j].as);
    for (std::size_t i = i0; i < i0 + bsize && i < rows; ++i) {
      const std::uint64_t p = list != nullptr ? list[i] : start + i;
      for (std::size_t j = 0; j < n; ++j) {
        const posenc::status e =
            table_entry<T>(c, col[j], ec + j * bmax, es + j * bmax, i - i0, p, static_cast<int>(j0 + j), af, r);
        if (st == posenc::status::ok) st = e;
        if (d.pairs != nullptr) {
          d.pairs[i * d.stride + j0 + j] = r;
        } else if constexpr (requires { r.cos.bits; }) {  // a scalar store, not a class assignment
          d.cos[i * d.stride + k0[j]].bits = r.cos.bits;
          d.sin[i * d.stride + k0[j]].bits = r.sin.bits;
          d.cos[i * d.stride + k1[j]].bits = r.cos.bits;
          d.sin[i * d.stride + k1[j]].bits = r.sin.bits;
        } else {
          d.cos[i * d.stride + k0[j]] = r.cos;
          d.sin[i * d.stride + k0[j]] = r.sin;
          d.cos[i * d.stride + k1[j]] = r.cos;
          d.sin[i * d.stride + k1[j]] = r.sin;
        }
      }
    }
  }
  return st;
}

// All `pairs` columns of rows i < rows, chunk by chunk: the state of a column (its frequency, its
// anchors) lives only while its chunk is written, so the stack use is fixed whatever the number of
// pairs. Tables of at most fill_chunk_pairs pairs are one chunk, written row by row; wider ones are
// written chunk after chunk (at run time this costs nothing; in constant evaluation the later
// chunks' stores land out of order). Returns the first non-ok status (ok otherwise); a failing
// chunk ends the fill (the callers then leave the table's contents unspecified).
template <class T>
constexpr posenc::status fill_rows(const rope::config& c, std::uint64_t start, std::size_t rows, std::size_t pairs,
                                   const std::uint64_t* list, const attention_value* af, const table_dest<T>& d) noexcept {
  for (std::size_t j0 = 0; j0 < pairs; j0 += fill_chunk_pairs) {
    const std::size_t n = pairs - j0 < fill_chunk_pairs ? pairs - j0 : fill_chunk_pairs;
    if (const posenc::status e = fill_chunk<T>(c, start, rows, j0, n, list, af, d); e != posenc::status::ok) return e;
  }
  return posenc::status::ok;
}

}  // namespace posenc::detail::ropet
