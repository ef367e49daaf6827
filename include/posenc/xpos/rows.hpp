// rows.hpp: the run-time path of xpos::fill_scales (scale.hpp) for a table of consecutive
// positions: the same RN_T(zeta_j^(n / scale_base)) as the scalar path, at the cost of one product
// and a rounding test an entry instead of a pow (two logs and an exp) each.
//
// Method, per pair j: l = log(zeta_j) / scale_base as a double-double (dd_log of the numerator and
// the denominator, dd_div), so that zeta_j^(n / s) = e^(n l) up to the error of l times |n|. With
// consecutive positions n = first + a B + b (0 <= b < B, B a power of two):
//   e^(n l) = A_a S_b,   A_a = e^(first l) G^a,   G = e^(B l),   S_b = e^(b l) = S_{b-1} S_1,
// each factor a double-double built by Mul22 recurrences from three dd_exp (exp_kernel.hpp): their
// relative errors are carried as bounds, each product adding its 2^-102 (CRlibm Mul22) and each
// dd_exp its 2^-102, so after B + rows / B products a factor is within about (B + rows / B) 2^-101.
// An entry, four lanes a vector (row_fast): double: the Mul22 product and a two-ended test on
// hi + lo; float: the double product A_hi S_hi (within 3 u + the factors' bounds) and both ends
// converted to float; bfloat16, float16: the same ends through float, a float that is a midpoint
// of T refused. A row the short test leaves is tried again with T's overflow, zeros and float16's
// subnormals decided in the lanes, then lane by lane; an entry still undecided (about 2^-25 of
// float entries; exact values that are midpoints always), and every pair whose exponent |n l|
// could reach 600 (where dd_exp's range ends), takes the scalar scale<T> (scale.hpp). Both paths
// give RN_T of the same real, so the bits are those of the constant-evaluation path, which keeps
// the scalar loop. The row body is compiled for the x86-64 baseline and for AVX (chosen at run
// time), as the cos/sin row kernel is.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "posenc/math/detail/exp_kernel.hpp"
#include "posenc/math/detail/log_kernel.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/status.hpp"

namespace posenc::xpos::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

constexpr double rabs(double x) noexcept { return x < 0 ? -x : x; }

// A double-double factor with a bound on its relative error.
struct factor {
  math::double_double v{1.0, 0.0};
  double err = 0;
};

// (x y, bound): Mul22's 2^-102 on top of both bounds, and a margin for the bound's own rounding.
constexpr factor times(const factor& x, const factor& y) noexcept {
  return {dd_mul(x.v, y.v), (x.err + y.err + x.err * y.err + 0x1p-102) * (1 + 0x1p-50)};
}

// e^x for a double-double x with |x.hi| < 600, within 2^-102 relative plus |x| 2^-102 for an x
// that was rounded (Mul22 by a double: its relative 2^-104 or so, with margin).
constexpr factor exp_factor(math::double_double x, bool x_rounded) noexcept {
  return {dd_exp(x), (0x1p-102 + (x_rounded ? rabs(x.hi) * 0x1p-102 : 0.0)) * (1 + 0x1p-50)};
}

// A row of up to 16 pairs, four lanes a vector (GCC/Clang vector extensions: two SSE2
// instructions an operation on x86-64, scalar code elsewhere): each value from its factors, the
// two-ended test of every lane folded into one mask. Lanes past w hold 1 x 1 with a tiny bound,
// which every test decides. Returns false (nothing trusted) when any lane is undecided.
namespace rows_vec {
typedef double d4 __attribute__((vector_size(32)));
typedef float f4 __attribute__((vector_size(16)));
typedef int i4 __attribute__((vector_size(16)));
typedef long long l4 __attribute__((vector_size(32)));
typedef unsigned u4 __attribute__((vector_size(16)));
inline constexpr std::size_t lanes = 4, width = 16;

// Loads through an out-parameter: a function returning a 32-byte vector changes the ABI without
// AVX (GCC's -Wpsabi).
[[gnu::always_inline]] inline void load(d4& v, const double* p) noexcept { std::memcpy(&v, p, sizeof v); }

// Mul22 (double_double.hpp dd_mul: TwoProduct by Veltkamp's split, the cross terms, Fast2Sum),
// lane by lane, the same operations in the same order: the same 2^-102 bound.
[[gnu::always_inline]] inline void mul22(const d4& ah, const d4& al, const d4& bh, const d4& bl, d4& hi,
                                         d4& lo) noexcept {
  const d4 k = {134217729.0, 134217729.0, 134217729.0, 134217729.0};
  const d4 p = ah * bh;
  const d4 ta = k * ah, tb = k * bh;
  const d4 ahh = ta - (ta - ah), bhh = tb - (tb - bh);
  const d4 ahl = ah - ahh, bhl = bh - bhh;
  const d4 e = ((ahh * bhh - p) + ahh * bhl + ahl * bhh) + ahl * bhl;
  const d4 cross = ah * bl + al * bh;
  const d4 t = e + cross;
  hi = p + t;
  lo = t - (hi - p);
}
}  // namespace rows_vec

// RN_T of every value of the row within rel (relative) of its factors' product, into row[0 .. w).
template <class T, bool Wide = false>
[[gnu::always_inline]] inline bool row_fast(bool& overflow, const double* ah, const double* al, const double* sh,
                                            const double* sl, const double* rel, T* row, std::size_t w) noexcept {
  using namespace rows_vec;
  if constexpr (std::is_same_v<T, double>) {
    // fl(lo -+ e') lies outside [lo - e, lo + e] for e' = e (1 + 2^-8) + |hi| 2^-96: forming
    // lo -+ e' errs by at most 2^-53 (|lo| + e') < 2^-105 |hi| (|lo| <= 2^-53 |hi|, e' < 2^-60
    // |hi|), below e' - e. hi + that sum then rounds once: monotone, so equal ends prove RN(every
    // real between).
    l4 bad = {0, 0, 0, 0};
    double out[width];
    for (std::size_t q = 0; q < width; q += lanes) {
      d4 xh, xl, yh, yl, r, hi, lo;
      load(xh, ah + q), load(xl, al + q), load(yh, sh + q), load(yl, sl + q), load(r, rel + q);
      mul22(xh, xl, yh, yl, hi, lo);
      const d4 e = hi * r * (1 + 0x1p-8) + hi * 0x1p-96;  // hi > 0: the scales are positive
      const d4 a = hi + (lo - e), b = hi + (lo + e);
      bad |= a != b;
      std::memcpy(out + q, &a, sizeof a);
    }
    if ((bad[0] | bad[1] | bad[2] | bad[3]) != 0) return false;
    std::memcpy(row, out, w * sizeof(double));
    return true;
  } else if constexpr (std::is_same_v<T, float>) {
    // The hardware conversion rounds to nearest even (to infinity, to subnormals and 0 too); equal
    // ends prove RN_float of every real between. An infinite one is the overflow it reports.
    i4 bad = {0, 0, 0, 0}, inf = {0, 0, 0, 0};
    float out[width];
    const f4 fmax = {3.40282347e38f, 3.40282347e38f, 3.40282347e38f, 3.40282347e38f};
    for (std::size_t q = 0; q < width; q += lanes) {
      d4 x, y, r;
      load(x, ah + q), load(y, sh + q), load(r, rel + q);
      const d4 v = x * y;
      const d4 e = v * r;
      const f4 a = __builtin_convertvector(v - e, f4), b = __builtin_convertvector(v + e, f4);
      bad |= a != b;
      inf |= a > fmax;
      std::memcpy(out + q, &a, sizeof a);
    }
    if ((bad[0] | bad[1] | bad[2] | bad[3]) != 0) return false;
    std::memcpy(row, out, w * sizeof(float));
    overflow = overflow || (inf[0] | inf[1] | inf[2] | inf[3]) != 0;
    return true;
  } else {
    // bfloat16, float16 through float, in 32-bit lanes: if both ends round to the same float f
    // and f is not a midpoint of T, every real z between them rounds to T as f does. (A midpoint
    // M of T is a float; M strictly between z and f would be nearer z than f, which is z's nearest
    // float; z == M would make f == M. So z and f share the interval between T's midpoints.) Then
    // RN_T(f) is the bits' rounding (x + 2^(d-1) - 1 + bit d) >> d, d = 24 - P. Ends that round
    // apart, a midpoint f, and values outside T's normal range (float16: below 2^-14, from 65504;
    // bfloat16: 0 or from 2^127 (1 - 2^-9)) fail the test, except two decided on the doubles:
    // a lower end from T's overflow threshold (float16 65520, bfloat16 2^128 (1 - 2^-9): RN_T is
    // infinity, status overflow) and an upper end below half T's least subnormal (RN_T is +0).
    static_assert(std::is_same_v<T, bfloat16> || std::is_same_v<T, float16>);
    constexpr bool bf = std::is_same_v<T, bfloat16>;
    constexpr unsigned d = bf ? 16 : 13, half = (1u << (d - 1)) - 1, low_mask = (1u << d) - 1;
    constexpr unsigned lo_b = bf ? 1u : 0x38800000u, hi_b = bf ? 0x7F7F0000u : 0x477FE000u;  // [lo_b, hi_b)
    constexpr unsigned rebias = bf ? 0u : 0x1C000u, inf_bits = bf ? 0x7F80u : 0x7C00u;
    constexpr double over = bf ? 0x1.ffp127 : 65520.0, under = bf ? 0x1p-134 : 0x1p-25;
    u4 bad = {0, 0, 0, 0}, inf = {0, 0, 0, 0};
    unsigned out[width];
    for (std::size_t q = 0; q < width; q += lanes) {
      d4 x, y, r;
      load(x, ah + q), load(y, sh + q), load(r, rel + q);
      const d4 v = x * y;
      const d4 e = v * r;
      const f4 fa = __builtin_convertvector(v - e, f4), fb = __builtin_convertvector(v + e, f4);
      u4 ua, ub;
      std::memcpy(&ua, &fa, sizeof fa), std::memcpy(&ub, &fb, sizeof fb);
      const u4 mid = (ua & low_mask) == (1u << (d - 1));
      const u4 out_of_range = (ua - lo_b) >= (hi_b - lo_b);
      u4 bits = ((ua + half + ((ua >> d) & 1u)) >> d) - rebias;
      if constexpr (!Wide) {  // the common row: every value in T's normal range
        bad |= (ua != ub) | mid | out_of_range;
        std::memcpy(out + q, &bits, sizeof bits);
        continue;
      }
      const u4 big = __builtin_convertvector((v - e) >= over, u4), zero = __builtin_convertvector((v + e) < under, u4);
      bits &= ~(big | zero);
      u4 ok = ~(mid | out_of_range);
      if constexpr (!bf) {
        // float16's subnormals, f in [2^-25, 2^-14): RN_T(f) = RN(f 2^24) 2^-24, and that integer is
        // T's bits (1024 at 2^-14, the least normal). f 2^24 < 1024 is exact; adding and removing
        // 2^23 in float rounds it to an integer, ties to even; a fraction of exactly 1/2 is a midpoint.
        // Other lanes are zeroed first, so that the conversion to int stays in range.
        const u4 sub = (ua >= 0x33000000u) & (ua < lo_b);
        const u4 fsub = ua & sub;
        f4 fs;
        std::memcpy(&fs, &fsub, sizeof fs);
        const f4 s24 = fs * 0x1p24f, big23 = {0x1p23f, 0x1p23f, 0x1p23f, 0x1p23f};
        const f4 rint = (s24 + big23) - big23, frac = s24 - rint;
        const u4 sub_ok = sub & ~((frac == 0.5f) | (frac == -0.5f));
        u4 rbits;
        const auto ri = __builtin_convertvector(rint, i4);
        std::memcpy(&rbits, &ri, sizeof rbits);
        bits = (bits & ~sub) | (rbits & sub);
        ok = (ok & ~sub) | sub_ok;
      }
      bad |= ((ua != ub) | ~ok) & ~(big | zero);
      inf |= big;
      bits |= big & inf_bits;
      std::memcpy(out + q, &bits, sizeof bits);
    }
    if ((bad[0] | bad[1] | bad[2] | bad[3]) != 0) return false;
    for (std::size_t t = 0; t < w; ++t) row[t] = T::from_bits(static_cast<std::uint16_t>(out[t]));
    overflow = overflow || (inf[0] | inf[1] | inf[2] | inf[3]) != 0;
    return true;
  }
}

// One lane of row_fast, scalar, for the redo of a row with an undecided lane.
template <class T>
[[gnu::always_inline]] inline bool lane_fast(bool& overflow, double ah, double al, double sh, double sl, double rel,
                                             T& out) noexcept {
  double hv[rows_vec::width] = {}, lv[rows_vec::width] = {}, sv[rows_vec::width] = {}, slv[rows_vec::width] = {},
         rv[rows_vec::width] = {};
  for (std::size_t t = 0; t < rows_vec::width; ++t) hv[t] = 1, sv[t] = 1, rv[t] = 0x1p-60;
  hv[0] = ah, lv[0] = al, sv[0] = sh, slv[0] = sl, rv[0] = rel;
  return row_fast<T, true>(overflow, hv, lv, sv, slv, rv, &out, 1);
}

// The pairs [j0, j0 + w) of rows 0 .. rows - 1 (positions first + r), into out[r * pairs + j];
// zeta_j = num[j] / den as integers, l_j's sign flipped for the inverse scale. `scalar(n, j)` is the
// scalar path (posenc::result<T>) for the entries the fast test leaves.
// Inlined into both clones below (always_inline: GCC otherwise calls one baseline copy from both).
template <class T, class Scalar>
[[gnu::always_inline]] inline posenc::status fill_rows_body(std::int64_t first, std::size_t rows, std::size_t pairs,
                                                            std::size_t j0, std::size_t w, const std::int64_t* num,
                                                            std::int64_t den, int scale_base, bool inverse, T* out,
                                                            Scalar&& scalar) noexcept {
  constexpr std::size_t wmax = 16, bmax = 128;
  constexpr bool dbl = std::is_same_v<T, double>;
  std::size_t B = 8;  // about sqrt(rows): B + rows / B products a pair
  while (B < bmax && B * B < rows) B *= 2;
  // S_b as hi/lo planes, b-major, so that a row reads w consecutive doubles of each.
  double sh[bmax][wmax] = {}, sl[bmax][wmax] = {};
  factor g[wmax], a[wmax];
  double lerr[wmax] = {}, serr[wmax] = {};
  bool all_fast = w <= wmax;
  const std::int64_t last = first + static_cast<std::int64_t>(rows) - 1;
  const double nmax = static_cast<double>(std::max(first < 0 ? -first : first, last < 0 ? -last : last));
  const math::double_double lb = dd_log(static_cast<double>(den));
  for (std::size_t t = 0; t < w && all_fast; ++t) {
    const math::double_double la = dd_log(static_cast<double>(num[t]));
    const math::double_double dl = dd_add(la, {-lb.hi, -lb.lo});
    math::double_double l = dd_div(dl, static_cast<double>(scale_base));
    if (inverse) l = {-l.hi, -l.lo};
    // |l - log(zeta) / s| <= ((|la| + |lb|) 2^-101 (dd_log) + |dl| 2^-103 (Add22)) / s + |l| 2^-104
    // (the division), doubled for margin.
    lerr[t] = ((rabs(la.hi) + rabs(lb.hi)) * 0x1p-100 + rabs(dl.hi) * 0x1p-102) / scale_base + rabs(l.hi) * 0x1p-103;
    all_fast = nmax * rabs(l.hi) < 600 && nmax * lerr[t] < 0x1p-60;
    factor sb{};
    const factor s1 = exp_factor(l, false);
    for (std::size_t b = 0; b < B; ++b) {
      sh[b][t] = sb.v.hi, sl[b][t] = sb.v.lo;
      serr[t] = sb.err;  // the bounds grow with b: the last is the largest
      sb = times(sb, s1);
    }
    g[t] = exp_factor({l.hi * static_cast<double>(B), l.lo * static_cast<double>(B)}, false);  // B l exact
    a[t] = exp_factor(dd_mul(l, static_cast<double>(first)), first != 0);
  }
  posenc::status st = posenc::status::ok;
  auto slow = [&](T& slot, std::int64_t n, std::size_t t) {
    const posenc::result<T> v = scalar(n, static_cast<int>(j0 + t));
    slot = v.value;
    if (st == posenc::status::ok) st = v.error;
  };
  if (!all_fast) {  // some |n l| could leave dd_exp's range: the scalar path for the whole group
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t t = 0; t < w; ++t) slow(out[r * pairs + j0 + t], first + static_cast<std::int64_t>(r), t);
    return st;
  }
  // Lanes past w: 1 x 1 with a tiny bound (decided, never stored).
  double ah[wmax], al[wmax] = {}, rel[wmax];
  bool overflow = false;  // a decided entry rounded to infinity
  for (std::size_t t = 0; t < wmax; ++t) ah[t] = 1, rel[t] = 0x1p-60;
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = w; t < wmax; ++t) sh[b][t] = 1;
  for (std::size_t r0 = 0; r0 < rows; r0 += B) {
    // One bound for the block's entries: A's and the largest S's, the product's rounding (double:
    // Mul22's 2^-102; else A_hi S_hi: 3.01 u), |n| |l error| (e^(n dl) - 1 < 1.01 |n dl|), and
    // for the narrow types the |v| 2^-52 of forming v -+ e.
    const std::int64_t n0 = first + static_cast<std::int64_t>(r0);
    const std::int64_t n1 = n0 + static_cast<std::int64_t>(B) - 1;
    const double nb = static_cast<double>(std::max(n0 < 0 ? -n0 : n0, n1 < 0 ? -n1 : n1));
    for (std::size_t t = 0; t < w; ++t) {
      if (r0 != 0) a[t] = times(a[t], g[t]);
      ah[t] = a[t].v.hi, al[t] = a[t].v.lo;
      rel[t] = (a[t].err + serr[t] + a[t].err * serr[t] + (dbl ? 0x1p-102 : 0x1.9p-52) + 1.01 * nb * lerr[t]) *
                   (1 + 0x1p-50) +
               (dbl ? 0.0 : 0x1p-52);
    }
    const std::size_t bend = std::min(B, rows - r0);
    for (std::size_t b = 0; b < bend; ++b) {
      T* row = out + (r0 + b) * pairs + j0;
      // Then the row again with T's overflow, zeros and float16's subnormals decided in the lanes.
      if (row_fast<T>(overflow, ah, al, sh[b], sl[b], rel, row, w) ||
          row_fast<T, true>(overflow, ah, al, sh[b], sl[b], rel, row, w))
        continue;
      const std::int64_t n = first + static_cast<std::int64_t>(r0 + b);
      for (std::size_t t = 0; t < w; ++t)  // the row again, lane by lane; undecided ones: scalar
        if (!lane_fast<T>(overflow, ah[t], al[t], sh[b][t], sl[b][t], rel[t], row[t])) slow(row[t], n, t);
    }
  }
  if (st == posenc::status::ok && overflow) return posenc::status::overflow;
  return st;
}

template <class T, class Scalar>
[[gnu::noinline]] inline posenc::status fill_rows_baseline(std::int64_t first, std::size_t rows, std::size_t pairs,
                                                           std::size_t j0, std::size_t w, const std::int64_t* num,
                                                           std::int64_t den, int scale_base, bool inverse, T* out,
                                                           Scalar& scalar) noexcept {
  return fill_rows_body<T>(first, rows, pairs, j0, w, num, den, scale_base, inverse, out, scalar);
}

#if defined(__x86_64__) && !defined(__AVX__) && (defined(__GNUC__) || defined(__clang__))
// The same code compiled for AVX (each 4-lane double operation one instruction, not two), taken
// when the processor has it, as the cos/sin row kernel does (sincos_table_rows.hpp). AVX has no
// FMA, so the operations are the same; either way an entry is RN_T of its real or the scalar's.
#define POSENC_DETAIL_XPOS_ROWS_AVX 1
template <class T, class Scalar>
[[gnu::noinline, gnu::target("avx")]] inline posenc::status fill_rows_avx(
    std::int64_t first, std::size_t rows, std::size_t pairs, std::size_t j0, std::size_t w, const std::int64_t* num,
    std::int64_t den, int scale_base, bool inverse, T* out, Scalar& scalar) noexcept {
  return fill_rows_body<T>(first, rows, pairs, j0, w, num, den, scale_base, inverse, out, scalar);
}

inline bool cpu_has_avx() noexcept {
  static const bool avx = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx") != 0;
  }();
  return avx;
}
#endif

template <class T, class Scalar>
inline posenc::status fill_rows(std::int64_t first, std::size_t rows, std::size_t pairs, std::size_t j0, std::size_t w,
                                const std::int64_t* num, std::int64_t den, int scale_base, bool inverse, T* out,
                                Scalar& scalar) noexcept {
#ifdef POSENC_DETAIL_XPOS_ROWS_AVX
  if (cpu_has_avx()) return fill_rows_avx<T>(first, rows, pairs, j0, w, num, den, scale_base, inverse, out, scalar);
#endif
  return fill_rows_baseline<T>(first, rows, pairs, j0, w, num, den, scale_base, inverse, out, scalar);
}

}  // namespace posenc::xpos::detail
