// sincos_table_rows.hpp: the run-time path of the cos/sin table engine for float, bfloat16 and
// float16 tables of consecutive positions, with or without a folded amplitude (sinusoidal tables,
// RoPE's tables of every scaling with the attention factor folded or not, the math tables). Each
// entry is the same RN_T(cos), RN_T(sin) (or RN_T(af cos), RN_T(af sin)) as in constant evaluation
// (an entry the test below decides is correctly rounded, and one it cannot decide comes from the
// source's scalar function); only the cost differs.
//
// Why a path of its own: at run time the engine's cost was the accurate anchors (about 42 ns each
// on x86-64, rows / B + B of them a column) and a scalar entry loop with a branch per value. Here:
//  * Anchors. A column gets E_1 = cis(theta) and, every B rows, A = cis(p0 theta) from cis_anchor
//    (|error| <= delta = 2^-54 + 2^-62 a component); E_b = cis(b theta), b < B, comes from the
//    recurrence E_{b+1} = fl(E_b E_1). A column costs rows / B + 1 accurate anchors, not rows / B + B.
//  * Their error, as a modulus. With a = sqrt2 delta and R = sqrt2 u (2 + u), u = 2^-53:
//      eta_0 = 0, eta_1 <= a, eta_{b+1} <= eta_b (1 + a) + a + R (1 + eta_b)(1 + a),
//    because |Z*W* - ZW| <= |Z* - Z||W*| + |Z||W* - W| (|Z| = |W| = 1), and a complex product
//    rounded component by component, re = fl(fl(xc) - fl(ys)), errs by at most
//    u (2 + u)(|xc| + |ys|) <= u (2 + u)|Z*||W*| a component (Cauchy-Schwarz), so by R |Z*||W*|
//    in modulus (an FMA, where a user's flags allow one, only lowers the error).
//  * An entry fl(A* E_b*) is then within a (1 + eta_b) + eta_b + R (1 + a)(1 + eta_b) of
//    cis((p0 + b) theta*), plus end |theta| rel_err for the frequency's own error (end = the last
//    position); eta_b grows by about 3.6 u a step, so at B = 256 an entry is within 2^-43. The
//    float test (24 bits) still decides all but about 2^-18 of the entries (the rest: the scalar
//    path, as always).
//  * Rows, slice by slice of up to 32 columns: four columns at a time with GCC/Clang vector
//    extensions (two SSE2 instructions each on x86-64, scalar code on targets without a vector
//    unit), the two-ended test of every value of the row folded into one mask, and the scalar
//    redo only for a row whose mask is set.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "posenc/math/detail/sincos_table_entry.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/sincos_source.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/status.hpp"

namespace posenc::detail::sincos_table {

// Columns of one slice (a row's slice is 8 vectors of 4), and E_b anchors a column at most
// (2 x 256 x 32 doubles = 128 KiB of stack, the budget of the constant-evaluation path).
inline constexpr std::size_t slice_columns = 32;
inline constexpr std::size_t slice_block_max = 256;

namespace rows_vec {
typedef double d4 __attribute__((vector_size(32)));
typedef float f4 __attribute__((vector_size(16)));
typedef int i4 __attribute__((vector_size(16)));
typedef unsigned u4 __attribute__((vector_size(16)));
typedef unsigned short h4 __attribute__((vector_size(8)));
inline constexpr std::size_t lanes = 4, vectors = slice_columns / lanes;
}  // namespace rows_vec

// Whether the row kernel takes a table with this folded amplitude (nullptr: none): a usable bound,
// a non-zero factor, and |af| < 2^(emax - 1), so no folded value comes near T's overflow (the
// general path names an overflowing entry).
constexpr bool runtime_rows_take(const math::amplitude* af, int emax) noexcept {
  if (af == nullptr) return true;
  double lim = 1;
  for (int k = 0; k < emax - 1; ++k) lim *= 2;
  const double a = dabs(af->v.hi);
  return af->ok && a > 0 && a < lim;
}

// Row i's slice [s0, s0 + w) of chunk j0 goes straight to the sink's memory when the sink's
// row_runs puts the slice in two contiguous runs (every column with its cos), else through a
// buffer and store() entry by entry.
template <class T, class Sink>
inline bool slice_dest(Sink& sink, std::size_t i, std::size_t j0, std::size_t s0, std::size_t w, T*& sn,
                       T*& cs) noexcept {
  if constexpr (requires(row_runs<T>& r) { sink.row_runs(i, j0, w, r); }) {
    row_runs<T> r{};
    if (!sink.row_runs(i, j0 + s0, w, r) || r.sin_stride != 1 || r.cos_stride != 1 || r.cos_count != w) return false;
    sn = r.sin;
    cs = r.cos;
    return true;
  } else {
    return false;
  }
}

// RN_T, T = bfloat16 or float16, of the reals four floats stand for, as T's bits (low 16 bits of
// each lane), setting `unsure` where the float does not determine it. A float x = RN_float(y) is on
// the same side of every T midpoint as y unless x is that midpoint (T midpoints are floats:
// precision 9 or 12 <= 24, float16's subnormal grid 2^-25 too), so RN_T(x) = RN_T(y) unless x is a
// midpoint; those lanes, and float16's below its normal range (its subnormals), are unsure. Between
// 2^emin and 2 both encodings are monotone and linear in a binade, so RN_T (ties to even) of a
// float's bits a is (a + 2^(d-1) - 1 + bit d of a) >> d, d = 24 - P_T, rebiased for float16.
template <class T>
[[gnu::always_inline]] inline rows_vec::u4 round_lanes(rows_vec::f4 x, rows_vec::i4& unsure) noexcept {
  using namespace rows_vec;
  u4 u;
  std::memcpy(&u, &x, sizeof u);
  if constexpr (std::is_same_v<T, bfloat16>) {
    unsure |= (u & 0xFFFFu) == 0x8000u;
    return (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
  } else {
    static_assert(std::is_same_v<T, float16>);
    const u4 mag = u & 0x7FFFFFFFu;
    unsure |= ((mag & 0x1FFFu) == 0x1000u) | (mag < (113u << 23));  // 2^-14: float16's least normal
    return ((u >> 16) & 0x8000u) | (((mag + 0xFFFu + ((mag >> 13) & 1u)) >> 13) - 0x1C000u);
  }
}

// One row's slice: w entries at position p != 0, columns j0s + j, written to sn[j], cs[j] (w
// values of T each; the lanes past w go to the buffers below). e: the test's bound for this row.
template <class T, bool Folded, class Source>
[[gnu::always_inline]] inline void row_values(const Source& src, const math::frequency_value* f, const rows_vec::d4* ac,
                                              const rows_vec::d4* as, const rows_vec::d4* ec, const rows_vec::d4* es,
                                              double e, const math::amplitude* af, const bool* slow, bool block_slow,
                                              std::uint64_t p, std::size_t j0s, std::size_t w, T* sn, T* cs,
                                              posenc::status& st) noexcept {
  using namespace rows_vec;
  static_assert(sizeof(T) == 4 || sizeof(T) == 2);
  alignas(16) T sb[slice_columns], cb[slice_columns];
  const std::size_t full = w / lanes;  // whole vectors stored in place; the rest through sb, cb
  const double afh = Folded ? af->v.hi : 1.0;
  i4 tail = {0, 0, 0, 0};  // the lanes of the last vector that are columns (the rest: never undecided)
  for (std::size_t l = 0; l < lanes; ++l) tail[l] = full * lanes + l < w ? -1 : 0;
  i4 bad = {0, 0, 0, 0};
  for (std::size_t k = 0; k * lanes < w; ++k) {
    d4 c = ac[k] * ec[k] - as[k] * es[k];
    d4 s = as[k] * ec[k] + ac[k] * es[k];
    if constexpr (Folded) c *= afh, s *= afh;  // RN(c af_hi): e covers it (fill_slice)
    i4 lane_bad = {0, 0, 0, 0};
    const f4 clo = __builtin_convertvector(c - e, f4), chi = __builtin_convertvector(c + e, f4);
    const f4 slo = __builtin_convertvector(s - e, f4), shi = __builtin_convertvector(s + e, f4);
    T* const cd = k < full ? cs + k * lanes : cb + k * lanes;
    T* const sd = k < full ? sn + k * lanes : sb + k * lanes;
    if constexpr (std::is_same_v<T, float>) {
      // The ends' bits, not their values: -0.0f == +0.0f, and an interval straddling 0 whose ends are
      // both below 2^-150 (a folded amplitude below about 2^-107) does not decide the zero's sign
      // (found by the Gappa certificate's review, proofs/gappa/README.md).
      u4 bcl, bch, bsl, bsh;
      std::memcpy(&bcl, &clo, sizeof bcl);
      std::memcpy(&bch, &chi, sizeof bch);
      std::memcpy(&bsl, &slo, sizeof bsl);
      std::memcpy(&bsh, &shi, sizeof bsh);
      lane_bad = (bcl != bch) | (bsl != bsh);
      std::memcpy(cd, &clo, sizeof clo);
      std::memcpy(sd, &slo, sizeof slo);
    } else {
      const u4 rc = round_lanes<T>(clo, lane_bad), rs = round_lanes<T>(slo, lane_bad);
      lane_bad |= (rc != round_lanes<T>(chi, lane_bad)) | (rs != round_lanes<T>(shi, lane_bad));
      const h4 hc = __builtin_convertvector(rc, h4), hs = __builtin_convertvector(rs, h4);
      std::memcpy(static_cast<void*>(cd), &hc, sizeof hc);  // T: one std::uint16_t, trivially copyable
      std::memcpy(static_cast<void*>(sd), &hs, sizeof hs);
    }
    bad |= k < full ? lane_bad : lane_bad & tail;
  }
  for (std::size_t j = full * lanes; j < w; ++j) sn[j] = sb[j], cs[j] = cb[j];
  if ((bad[0] | bad[1] | bad[2] | bad[3]) == 0 && !block_slow) return;
  for (std::size_t j = 0; j < w; ++j) {  // the same arithmetic lane by lane; undecided ones: scalar
    const std::size_t k = j / lanes, l = j % lanes;
    const double c = ac[k][l] * ec[k][l] - as[k][l] * es[k][l];
    const double s = as[k][l] * ec[k][l] + ac[k][l] * es[k][l];
    math::sincos_result<T> r{};
    if (slow[j] || !round_two_ended<T>(Folded ? c * afh : c, Folded ? s * afh : s, e, r)) {
      const auto x = src.template entry<T>(f[j], Folded ? af : nullptr, p, static_cast<int>(j0s + j));
      if (st == posenc::status::ok) st = x.error;
      r = x.value;
    }
    sn[j] = r.sin;
    cs[j] = r.cos;
  }
}

// Columns [s0, s0 + w) of chunk j0 (w <= slice_columns), rows i < rows at positions start + i.
template <class T, class Source, class Sink>
[[gnu::always_inline]] inline posenc::status fill_slice(const Source& src, std::uint64_t start, std::size_t rows,
                                                        std::size_t j0, std::size_t s0, std::size_t w,
                                                        const double* e_base, std::size_t bsize,
                                                        const math::amplitude* af, Sink& sink) noexcept {
  using namespace rows_vec;
  math::frequency_value f[slice_columns];
  d4 c1[vectors], s1[vectors], ac[vectors], as[vectors];
  d4 ec[slice_block_max][vectors], es[slice_block_max][vectors];
  bool slow[slice_columns] = {};
  const double end = static_cast<double>(start + rows);
  double ferr = 0;
  for (std::size_t j = 0; j < slice_columns; ++j) {
    double c = 1, s = 0;  // lanes past w: E_1 = 1 (E_b stays exactly 1) and A = 0.5 + 0.5i below, never undecided
    if (j < w) {
      f[j] = src.frequency(static_cast<int>(j0 + s0 + j));
      if (!f[j].ok()) return f[j].error;
      slow[j] = f[j].value.hi == 0 || !cis_anchor(1, f[j].value, c, s);
      const double fe = end * dabs(f[j].value.hi) * (f[j].rel_err * 1.0000001);
      ferr = fe > ferr ? fe : ferr;
    }
    c1[j / lanes][j % lanes] = c;
    s1[j / lanes][j % lanes] = s;
  }
  const std::size_t nb = bsize < rows ? bsize : rows;
  for (std::size_t k = 0; k < vectors; ++k) {
    ec[0][k] = d4{1, 1, 1, 1};
    es[0][k] = d4{0, 0, 0, 0};
    if (nb > 1) ec[1][k] = c1[k], es[1][k] = s1[k];
  }
  for (std::size_t b = 1; b + 1 < nb; ++b)
    for (std::size_t k = 0; k < vectors; ++k) {
      ec[b + 1][k] = ec[b][k] * c1[k] - es[b][k] * s1[k];
      es[b + 1][k] = es[b][k] * c1[k] + ec[b][k] * s1[k];
    }
  posenc::status st = posenc::status::ok;
  alignas(16) T sbuf[slice_columns], cbuf[slice_columns];
  const T zero = round_dd<T>(0.0, 0.0), one = round_dd<T>(1.0, 0.0);
  for (std::size_t i0 = 0; i0 < rows; i0 += nb) {
    bool block_slow = false;
    for (std::size_t j = 0; j < slice_columns; ++j) {
      // A column without anchors (its angle past cis_anchor's range) gets the scalar path from here
      // on; its lanes, like those past w, hold A = 0.5 + 0.5i, which the test always decides.
      double c = 0.5, s = 0.5;
      if (j < w && !slow[j] && !cis_anchor(start + i0, f[j].value, c, s)) slow[j] = true, c = s = 0.5;
      block_slow = block_slow || (j < w && slow[j]);
      ac[j / lanes][j % lanes] = c;
      as[j / lanes][j % lanes] = s;
    }
    for (std::size_t i = i0; i < i0 + nb && i < rows; ++i) {
      const std::size_t b = i - i0;
      const std::uint64_t p = start + i;
      T *sn = sbuf, *cs = cbuf;
      const bool direct = slice_dest(sink, i, j0, s0, w, sn, cs);
      const double e = (e_base[b] + ferr) * (1 + 0x1p-50);
      if (p == 0 && af == nullptr) {  // cis(0) = 1 exactly
        for (std::size_t j = 0; j < w; ++j) sn[j] = zero, cs[j] = one;
      } else if (p == 0) {  // RN(af), RN(0) in every column: the source's scalar entry, once
        const auto x = src.template entry<T>(f[0], af, 0, static_cast<int>(j0 + s0));
        if (st == posenc::status::ok) st = x.error;
        for (std::size_t j = 0; j < w; ++j) sn[j] = x.value.sin, cs[j] = x.value.cos;
      } else if (af == nullptr) {
        row_values<T, false>(src, f, ac, as, ec[b], es[b], e, af, slow, block_slow, p, j0 + s0, w, sn, cs, st);
      } else {
        // v = RN(c af_hi) is within |v| 2^-53 + e |af_hi| + |cos| (|af_lo| + af_err) of af cos, |cos| <= 1 and
        // |v| <= |af_hi| (1 + 2^-40); and fl(v +- E) encloses that interval when E adds half an ulp of
        // |v| + E, so 1.5 x 2^-52 |af_hi| covers both roundings (docs/rope.md 9.3.1, 9.4).
        const double afa = dabs(af->v.hi), afe = (dabs(af->v.lo) + af->err) * (1 + 0x1p-40);
        const double ef = ((e * afa + afe) * (1 + 0x1p-50) + afa * 0x1.8p-52 * (1 + 0x1p-40)) * (1 + 0x1p-50);
        row_values<T, true>(src, f, ac, as, ec[b], es[b], ef, af, slow, block_slow, p, j0 + s0, w, sn, cs, st);
      }
      if (!direct) {
        // A sink that places a row's slice as a whole (rope/detail/token_rows.hpp) takes it in one call.
        if constexpr (requires { sink.store_slice(i, j0, s0, w, sn, cs); })
          sink.store_slice(i, j0, s0, w, sn, cs);
        else
          for (std::size_t j = 0; j < w; ++j) sink.store(i, j0, s0 + j, math::sincos_result<T>{sn[j], cs[j]});
      }
    }
  }
  return st;
}

// fill_rows (sincos_table_engine.hpp) at run time for T = float, bfloat16, float16, consecutive positions, a folded
// amplitude or none (runtime_rows_take): chunk by chunk as there (the sinks' begin_chunk), slice by slice within a
// chunk.
// Inlined into the two entry points below, one per instruction set.
template <class T, class Source, class Sink>
[[gnu::always_inline]] inline posenc::status fill_rows_runtime_body(const Source& src, std::uint64_t start,
                                                                    std::size_t rows, std::size_t columns,
                                                                    const math::amplitude* af, Sink& sink) noexcept {
  // B: a power of two near sqrt(32 rows), which balances rows / B accurate anchors (~40 ns) against
  // B recurrence steps (~1 ns) a column; at most slice_block_max.
  std::size_t bsize = 1;
  while (bsize < slice_block_max && bsize * bsize < slice_columns * rows) bsize *= 2;
  double e_base[slice_block_max];
  entry_bounds(e_base, bsize);
  for (std::size_t j0 = 0; j0 < columns; j0 += chunk_columns) {
    const std::size_t n = columns - j0 < chunk_columns ? columns - j0 : chunk_columns;
    sink.begin_chunk(j0, n);
    for (std::size_t s0 = 0; s0 < n; s0 += slice_columns) {
      const std::size_t w = n - s0 < slice_columns ? n - s0 : slice_columns;
      // A failing slice ends the fill, as a failing chunk does in fill_rows.
      if (const posenc::status e = fill_slice<T>(src, start, rows, j0, s0, w, e_base, bsize, af, sink);
          e != posenc::status::ok)
        return e;
    }
  }
  return posenc::status::ok;
}

template <class T, class Source, class Sink>
[[gnu::noinline]] inline posenc::status fill_rows_runtime_baseline(const Source& src, std::uint64_t start,
                                                                   std::size_t rows, std::size_t columns,
                                                                   const math::amplitude* af, Sink& sink) noexcept {
  return fill_rows_runtime_body<T>(src, start, rows, columns, af, sink);
}

#if defined(__x86_64__) && !defined(__AVX__) && (defined(__GNUC__) || defined(__clang__))
// The same code compiled for AVX (256-bit double vectors: each d4 operation one instruction, not
// two; about half the instructions of an entry), taken when the processor has it. The same IEEE
// operations in the same order (AVX has no FMA), so the same bits; the tests compare the tables
// with constant evaluation's on whichever path the test machine takes.
#define POSENC_DETAIL_ROWS_AVX 1
template <class T, class Source, class Sink>
[[gnu::noinline, gnu::target("avx")]] inline posenc::status fill_rows_runtime_avx(const Source& src,
                                                                                  std::uint64_t start, std::size_t rows,
                                                                                  std::size_t columns,
                                                                                  const math::amplitude* af,
                                                                                  Sink& sink) noexcept {
  return fill_rows_runtime_body<T>(src, start, rows, columns, af, sink);
}

inline bool cpu_has_avx() noexcept {
  static const bool avx = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx") != 0;
  }();
  return avx;
}
#endif

template <class T, class Source, class Sink>
inline posenc::status fill_rows_runtime(const Source& src, std::uint64_t start, std::size_t rows, std::size_t columns,
                                        const math::amplitude* af, Sink& sink) noexcept {
#ifdef POSENC_DETAIL_ROWS_AVX
  if (cpu_has_avx()) return fill_rows_runtime_avx<T>(src, start, rows, columns, af, sink);
#endif
  return fill_rows_runtime_baseline<T>(src, start, rows, columns, af, sink);
}

}  // namespace posenc::detail::sincos_table
