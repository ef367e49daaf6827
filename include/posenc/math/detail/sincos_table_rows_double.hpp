// sincos_table_rows_double.hpp: the run-time path of the cos/sin table engine for double tables of
// consecutive positions, with or without a folded amplitude. Each entry is the same RN(cos),
// RN(sin) (or RN(af cos), RN(af sin)) as in constant evaluation: an entry the test below decides is
// correctly rounded, and one it cannot decide comes from the source's scalar function.
//
// Why a path of its own: the float row kernel's anchors (2^-54) cannot decide a double, so every
// double entry took the scalar path (product angle, double-double kernel, Ziv's test: 19-80 ns a
// pair, docs/performance.md section 6). Here the same scheme runs with double-double anchors:
//  * Anchors. A column gets E_1 = cis(theta) and, every B rows, A = cis(p0 theta), each component a
//    double-double from the double-double kernel (cis_anchor_dd, within its own stated error; a
//    block anchor is used only when that is <= delta = 2^-80, else the column takes the scalar
//    path). E_b, b < B, comes from the recurrence E_{b+1} = norm(E_b E_1) in double-double.
//  * The recurrence's product Z W ("dd-lite"): each real product Zh Wh exact (Dekker's TwoProduct
//    on split operands), the cross terms Zh Wl + Zl Wh in double, Zl Wl dropped, the two exact
//    products' difference by TwoSum, then renormalised. With |Zh|, |Wh| <= 1 + 2^-40 and
//    |Zl|, |Wl| <= 2^-53, every gathered term is <= 2^-52, the low part < 2^-49.9, and its error
//    per component (two dropped Zl Wl, four rounded cross products, each <= 2^-106, seven roundings
//    of sums below 2^-49, each <= 2^-102) < 2^-99; Gappa proves 2^-101.245 per component
//    (proofs/gappa/rows_double_step.g), so R = 2^-100 as a modulus (sqrt2 x that: 2^-100.745).
//  * Errors as moduli, with a = sqrt2 delta_1 (E_1's own error) and alpha = sqrt2 delta:
//      eta_0 = 0, eta_1 <= a,  eta_{b+1} <= eta_b (1 + a) + a + R (1 + eta_b)(1 + a)
//    (the float kernel's recurrence, sincos_table_rows.hpp, with this R), and the exact product of
//    A and E_b is within alpha (1 + eta_b) + eta_b of cis((p0 + b) theta*); plus end |theta| rel_err
//    for the frequency's own error (end = the last position).
//  * An entry A E_b, cheaper than a dd-lite product: A and E_b are stored as h + l with h the
//    26-bit Veltkamp half of the high part and l = RN((hi - h) + lo) (|l| <= 2^-25.99, so l errs
//    by <= 2^-79), so that Ah Eh is exact in double (26 + 26 bits) and needs no TwoProduct:
//      c = Ach Ech - Ash Esh (TwoSum) + (Ach Ecl + Acl Ech + Acl Ecl) - (Ash Esl + Asl Esh + Asl Esl).
//    Per component: the representations 2 x 2^-78.4, four cross products each rounded by <= 2^-79,
//    six sums below 2^-23.9 each rounded by <= 2^-77: < 2^-74; Gappa proves 2^-75.30
//    (proofs/gappa/rows_double_entry.g), so R_e = 2^-75. At B = 256 an entry is known to about
//    2^-73, and the test leaves about one entry in 2^15 to the scalar path.
//  * The test on an unnormalised s + l within e: fl(s + fl(l - e')) == fl(s + fl(l + e')), with
//    e' = e + 2^-77 so that fl(l -+ e') lie outside [l - e, l + e] (|l| + e' < 2^-23.9: each
//    rounding moves by at most 2^-77, so fl(l - e') <= l - e and fl(l + e') >= l + e; Gappa proves
//    the least margin that works: 2^-78). RN is monotone: equal roundings of both ends decide RN of
//    everything between.
//  * Folded amplitude af = hi + lo (within err): v = s af.hi exactly (TwoProduct) plus
//    l af.hi + s af.lo, within e |af| + |c| err + 2^-76 |af.hi| (the dropped l af.lo and the
//    roundings of the low part, below 2^-23.9 |af.hi|; Gappa proves both margins at 2^-76.19,
//    proofs/gappa/rows_double_folded.g); s is at least 2^-60 (else the lane goes to
//    the scalar path) and 2^-500 <= |af.hi| <= 2^500 (runtime_rows_double_take), so no product
//    underflows; the test's margin is then 2^-76 |af.hi|.
//  * Rows off the progression (a source with row offsets, sincos_source.hpp: ND axes near a
//    progression, rope/nd.hpp): row p is at p + o_p steps, so its entry is A E_b cis(t), t = o_p theta,
//    |t| <= 2^-30 (a column whose t could be larger takes the scalar path). The product's
//    unnormalised (c + cl, s + sl) times 1 - t^2/2 + i t (cos t, sin t to within 2^-92):
//      cl' = cl - ((s + sl) t + c t^2/2),  sl' = sl + ((c + cl) t - s t^2/2),
//    each component within R_o = 2^-76 of the exact rotation of the product: t is within 2^-49.7 |t|
//    of o_p theta (o_p within 2^-51, theta's high part within rel_err <= 2^-52 plus 2^-52, the
//    product rounded once), and Gappa proves 2^-77.75 (proofs/gappa/rows_double_offset.g). The
//    turn also grows the entry bound e_base (at most 2^-71.4) by |t| e_base; R_o pays that and the
//    rounding of e_base + R_o. |cl'| stays below 2^-24.9, so the test below keeps its margin.
//  * Vectors of 4 doubles (GCC/Clang vector extensions; an AVX copy taken where the processor has
//    it, like the float kernel) over slices of 8 columns; the E_b of a slice fill 64 KiB of stack.
// Every value is an IEEE operation in a fixed order (no FMA: the splits and the TwoProduct need
// each product rounded on its own), and the entries are correctly rounded whichever path decided
// them, so the table equals constant evaluation's bit for bit (tests/test_table_rows.cpp).
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "posenc/math/detail/product_angle.hpp"
#include "posenc/math/detail/sincos_table_entry.hpp"
#include "posenc/math/detail/sincos_table_rows.hpp"
#include "posenc/math/detail/trig_kernel.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/reduce.hpp"
#include "posenc/math/round.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/math/sincos_source.hpp"
#include "posenc/status.hpp"

namespace posenc::detail::sincos_table {

// cis(n theta) as double-doubles, each component within err (absolute); false when the angle is
// past the fast reduction's range. err: the kernel's bound, the reduction's and the product
// angle's (sin and cos are 1-Lipschitz, so an error in the angle moves each by at most as much).
constexpr bool cis_anchor_dd(std::uint64_t n, math::double_double theta, math::double_double& c, math::double_double& s,
                             double& err) noexcept {
  if (n == 0) {
    c = {1.0, 0.0};
    s = {0.0, 0.0};
    err = 0;
    return true;
  }
  product_phase phi{};
  reduced rd{};
  if (!product_angle(n, theta, phi) || !reduce_pio2(phi.hi, phi.lo, rd)) return false;
  const trig_kernel_out k = trig_kernel_dd(rd.hi, rd.lo, true, true);
  const math::double_double sr{k.sin_r.hi, k.sin_r.lo}, cr{k.cos_r.hi, k.cos_r.lo};
  const math::double_double nsr{-sr.hi, -sr.lo}, ncr{-cr.hi, -cr.lo};
  const int q = rd.quadrant;  // cis(r + q pi/2) = i^q cis(r)
  c = q == 0 ? cr : q == 1 ? nsr : q == 2 ? ncr : sr;
  s = q == 0 ? sr : q == 1 ? cr : q == 2 ? nsr : ncr;
  const double ke = dabs(k.sin_r.err) > dabs(k.cos_r.err) ? dabs(k.sin_r.err) : dabs(k.cos_r.err);
  err = ((ke + rd.err) + phi.err) * (1 + 0x1p-50);
  return true;
}

// The error terms of the derivation above.
struct anchor_error_dd {
  static constexpr double delta = 0x1p-80;  // a block anchor's component error, at most
  static constexpr double alpha = anchor_error::sqrt2 * delta * (1 + 0x1p-50);
  static constexpr double R = 0x1p-100;   // a recurrence step's rounding, as a modulus
  static constexpr double R_e = 0x1p-75;  // an entry's rounding, per component
  static constexpr double R_o = 0x1p-76;  // a row offset's rotation, per component
  static constexpr double up = 1 + 0x1p-40;
};

// Bounds of the entries A E_b, b < nb, before the frequency's term, when E_1 errs by delta_1 per
// component.
constexpr void entry_bounds_dd(double* e, std::size_t nb, double delta_1) noexcept {
  using k = anchor_error_dd;
  const double a = anchor_error::sqrt2 * delta_1 * k::up;
  double eta = 0;
  for (std::size_t b = 0; b < nb; ++b) {
    e[b] = (k::alpha * (1 + eta) + eta + k::R_e) * k::up;
    eta = b == 0 ? a : (eta * (1 + a) + a + k::R * (1 + eta) * (1 + a)) * k::up;
  }
}

// Whether the double kernel takes a table with this folded amplitude (nullptr: none).
constexpr bool runtime_rows_double_take(const math::amplitude* af) noexcept {
  if (af == nullptr) return true;
  const double a = dabs(af->v.hi);
  return af->ok && a >= 0x1p-500 && a <= 0x1p500;
}

namespace rows_dd {

using rows_vec::d4;
typedef long long l4 __attribute__((vector_size(32)));
inline constexpr std::size_t lanes = 4, width = 8, vectors = width / lanes;
inline constexpr std::size_t dd_block_max = 256;

// Vectors pass by reference: a 32-byte vector by value changes the ABI between SSE and AVX builds
// (GCC's -Wpsabi); every helper is inlined anyway.

// The high half of Veltkamp's split (the low half is x - hi, exact); |x| < 2^996.
[[gnu::always_inline]] inline void split_hi(const d4& x, d4& hi) noexcept {
  const d4 t = x * 134217729.0;  // 2^27 + 1
  hi = t - (t - x);
}

// A double-double complex value in vectors: re = ch + cl, im = sh + sl, with the high parts'
// Veltkamp halves (chh, shh; the low halves are ch - chh, sh - shh).
struct cdd {
  d4 ch, cl, sh, sl, chh, shh;
};

// The error of p = fl(x y) for split x = xh + xl, y = yh + yl: x y - p (Dekker).
[[gnu::always_inline]] inline void prod_err(const d4& xh, const d4& xl, const d4& yh, const d4& yl, const d4& p,
                                            d4& e) noexcept {
  e = ((xh * yh - p) + xh * yl + xl * yh) + xl * yl;
}

// z w as unnormalised (c + cl, s + sl): the dd-lite product of the header.
[[gnu::always_inline]] inline void cmul(const cdd& z, const cdd& w, d4& c, d4& cl, d4& s, d4& sl) noexcept {
  const d4 zcl_s = z.ch - z.chh, zsl_s = z.sh - z.shh, wcl_s = w.ch - w.chh, wsl_s = w.sh - w.shh;
  const d4 p1 = z.ch * w.ch, p2 = z.sh * w.sh, p3 = z.sh * w.ch, p4 = z.ch * w.sh;
  d4 e1, e2, e3, e4;
  prod_err(z.chh, zcl_s, w.chh, wcl_s, p1, e1);
  prod_err(z.shh, zsl_s, w.shh, wsl_s, p2, e2);
  prod_err(z.shh, zsl_s, w.chh, wcl_s, p3, e3);
  prod_err(z.chh, zcl_s, w.shh, wsl_s, p4, e4);
  c = p1 - p2;  // TwoSum(p1, -p2)
  const d4 cb = c - p1;
  const d4 ct = (p1 - (c - cb)) + (-p2 - cb);
  s = p3 + p4;  // TwoSum(p3, p4)
  const d4 sb = s - p3;
  const d4 st = (p3 - (s - sb)) + (p4 - sb);
  cl = ((ct + (e1 - e2)) + (z.ch * w.cl - z.sh * w.sl)) + (z.cl * w.ch - z.sl * w.sh);
  sl = ((st + (e3 + e4)) + (z.sh * w.cl + z.ch * w.sl)) + (z.sl * w.ch + z.cl * w.sh);
}

// TwoSum(h, l) and the split of its high part: a normalised cdd component.
[[gnu::always_inline]] inline void normalise(const d4& h, const d4& l, d4& hi, d4& lo, d4& hh) noexcept {
  hi = h + l;
  const d4 bb = hi - h;
  lo = (h - (hi - bb)) + (l - bb);
  split_hi(hi, hh);
}

// A complex value as h + l per component, h a 26-bit Veltkamp half (so h h' is exact), for the
// entries' products (the header).
struct cshort {
  d4 ch, cl, sh, sl;
};

[[gnu::always_inline]] inline void to_short(const cdd& z, cshort& r) noexcept {
  r.ch = z.chh;
  r.cl = (z.ch - z.chh) + z.cl;
  r.sh = z.shh;
  r.sl = (z.sh - z.shh) + z.sl;
}

// a e as unnormalised (c + cl, s + sl): the entry product of the header.
[[gnu::always_inline]] inline void cmul_short(const cshort& a, const cshort& e, d4& c, d4& cl, d4& s, d4& sl) noexcept {
  const d4 p1 = a.ch * e.ch, p2 = a.sh * e.sh, p3 = a.sh * e.ch, p4 = a.ch * e.sh;  // exact
  c = p1 - p2;                                                                      // TwoSum(p1, -p2)
  const d4 cb = c - p1;
  const d4 ct = (p1 - (c - cb)) + (-p2 - cb);
  s = p3 + p4;  // TwoSum(p3, p4)
  const d4 sb = s - p3;
  const d4 st = (p3 - (s - sb)) + (p4 - sb);
  const d4 x = (a.ch * e.cl + a.cl * e.ch) + a.cl * e.cl, y = (a.sh * e.sl + a.sl * e.sh) + a.sl * e.sl;
  const d4 u = (a.sh * e.cl + a.sl * e.ch) + a.sl * e.cl, v = (a.ch * e.sl + a.cl * e.sh) + a.cl * e.sl;
  cl = ct + (x - y);
  sl = st + (u + v);
}

// RN of the reals within e of s + l, lane by lane, where the test decides (bad lanes: -1).
[[gnu::always_inline]] inline void decide(const d4& s, const d4& l, const d4& e, d4& r, l4& bad) noexcept {
  const d4 lo = s + (l - e), hi = s + (l + e);
  bad |= lo != hi;
  r = lo;
}

// (c + cl) + i (s + sl) times cis(t), |t| <= 2^-30, as 1 - t^2/2 + i t: the header's row offsets.
[[gnu::always_inline]] inline void rotate_small(const d4& t, d4& c, d4& cl, d4& s, d4& sl) noexcept {
  const d4 q = (t * t) * 0.5;
  const d4 kc = (s + sl) * t + c * q, ks = (c + cl) * t - s * q;
  cl = cl - kc;
  sl = sl + ks;
}

}  // namespace rows_dd

// Whether a source places its rows off the progression (sincos_source.hpp: row_offset).
template <class Source>
concept has_row_offsets = requires(const Source& src, std::uint64_t p) {
  { src.row_offset(p) } -> std::same_as<double>;
  { src.row_offset_bound() } -> std::same_as<double>;
};

// The entries A E_b of one vector of columns, rounded where the test decides (bad: -1 elsewhere).
// e: the bounds of A E_b, column by column, with the test's margin (Folded: of the folded values).
// t: the row's offset angles (nullptr: a row on the progression).
template <bool Folded>
[[gnu::always_inline]] inline void entry_vector(const rows_dd::cshort& a, const rows_dd::cshort& eb,
                                                const rows_dd::d4& e, const math::amplitude* af, const rows_dd::d4* t,
                                                rows_dd::d4& rc, rows_dd::d4& rs, rows_dd::l4& bad) noexcept {
  using namespace rows_dd;
  d4 c, cl, s, sl;
  cmul_short(a, eb, c, cl, s, sl);
  if (t != nullptr) rotate_small(*t, c, cl, s, sl);
  if constexpr (Folded) {
    const double ah = af->v.hi, al = af->v.lo;
    const d4 ahv = {ah, ah, ah, ah};
    d4 ahh, ch, sh, ec, es;
    split_hi(ahv, ahh);
    split_hi(c, ch);
    split_hi(s, sh);
    const d4 ahl = ahv - ahh, vc = c * ah, vs = s * ah;
    prod_err(ch, c - ch, ahh, ahl, vc, ec);
    prod_err(sh, s - sh, ahh, ahl, vs, es);
    const d4 vcl = ec + (cl * ah + c * al), vsl = es + (sl * ah + s * al);
    const d4 ac = c < 0 ? -c : c, as = s < 0 ? -s : s;
    bad |= (ac < 0x1p-60) | (as < 0x1p-60);
    decide(vc, vcl, e, rc, bad);
    decide(vs, vsl, e, rs, bad);
  } else {
    decide(c, cl, e, rc, bad);
    decide(s, sl, e, rs, bad);
  }
}

// One row's slice of w <= 8 entries at position p != 0, written to sn[j], cs[j]; the undecided
// lanes and the slow columns from the source's scalar function. e_row: the row's bound before the
// frequencies' terms; ferr: those, column by column; t: the row's offset angles, vector by vector
// (nullptr: none).
template <bool Folded, class Source>
[[gnu::always_inline]] inline void row_values_dd(const Source& src, const math::frequency_value* f,
                                                 const rows_dd::cshort* a, const rows_dd::cshort* eb, double e_row,
                                                 const rows_dd::d4* ferr, const rows_dd::d4* t,
                                                 const math::amplitude* af, const bool* slow, bool block_slow,
                                                 std::uint64_t p, std::size_t j0s, std::size_t w, double* sn,
                                                 double* cs, posenc::status& st) noexcept {
  using namespace rows_dd;
  l4 bad[vectors] = {}, any_bad = {0, 0, 0, 0};
  // Only the vectors that hold columns: a slice of w <= 4 (the last of an axis of 28 or 20 pairs:
  // FLUX's, Qwen2-VL ViT's) costs one vector's products, not two. The lanes past w are never read.
  for (std::size_t k = 0; k < vectors && k * lanes < w; ++k) {
    d4 rc, rs, e = (e_row + ferr[k]) * (1 + 0x1p-50);
    if constexpr (Folded) {
      const double ah = dabs(af->v.hi);
      e = ((e * (ah * (1 + 0x1p-52)) + (1 + 0x1p-40) * af->err) + ah * 0x1p-76) * (1 + 0x1p-50) + 0x1p-76 * ah;
    } else {
      e += 0x1p-77;
    }
    entry_vector<Folded>(a[k], eb[k], e, af, t != nullptr ? t + k : nullptr, rc, rs, bad[k]);
    if (w == width) {  // whole vectors in place
      std::memcpy(cs + k * lanes, &rc, sizeof rc);
      std::memcpy(sn + k * lanes, &rs, sizeof rs);
      any_bad |= bad[k];
    } else {
      for (std::size_t l = 0; l < lanes && k * lanes + l < w; ++l) {
        cs[k * lanes + l] = rc[l];
        sn[k * lanes + l] = rs[l];
        any_bad[l] |= bad[k][l];
      }
    }
  }
  const bool any = block_slow || (any_bad[0] | any_bad[1] | any_bad[2] | any_bad[3]) != 0;
  if (!any) return;
  for (std::size_t j = 0; j < w; ++j)
    if (slow[j] || bad[j / lanes][j % lanes] != 0) {
      const auto x = src.template entry<double>(f[j], Folded ? af : nullptr, p, static_cast<int>(j0s + j));
      if (st == posenc::status::ok) st = x.error;
      sn[j] = x.value.sin;
      cs[j] = x.value.cos;
    }
}

// A cdd lane from double-doubles (the high parts' splits filled in by finish()).
inline void set_lane(rows_dd::cdd* v, std::size_t j, math::double_double c, math::double_double s) noexcept {
  v[j / rows_dd::lanes].ch[j % rows_dd::lanes] = c.hi;
  v[j / rows_dd::lanes].cl[j % rows_dd::lanes] = c.lo;
  v[j / rows_dd::lanes].sh[j % rows_dd::lanes] = s.hi;
  v[j / rows_dd::lanes].sl[j % rows_dd::lanes] = s.lo;
}
inline void finish(rows_dd::cdd* v) noexcept {
  for (std::size_t k = 0; k < rows_dd::vectors; ++k)
    rows_dd::split_hi(v[k].ch, v[k].chh), rows_dd::split_hi(v[k].sh, v[k].shh);
}

// Columns [s0, s0 + w) of chunk j0 (w <= 8), rows i < rows at positions start + i.
template <class Source, class Sink>
[[gnu::always_inline]] inline posenc::status fill_slice_dd(const Source& src, std::uint64_t start, std::size_t rows,
                                                           std::size_t j0, std::size_t s0, std::size_t w,
                                                           std::size_t bsize, const math::amplitude* af,
                                                           Sink& sink) noexcept {
  using namespace rows_dd;
  math::frequency_value f[width];
  cdd e1[vectors], eb_full[vectors], a_full[vectors];
  cshort a[vectors], eb[dd_block_max][vectors];
  bool slow[width] = {};
  const double end = static_cast<double>(start + rows);
  d4 ferr[vectors] = {};
  double delta_1 = 0;
  // Row offsets (sincos_source.hpp): t = o_p theta lane by lane, from the frequencies' high parts
  // (fhi; 0 in the lanes past w and the slow ones).
  [[maybe_unused]] d4 fhi[vectors] = {};
  [[maybe_unused]] double o_bound = 0;
  if constexpr (has_row_offsets<Source>) o_bound = src.row_offset_bound();
  for (std::size_t j = 0; j < width; ++j) {
    // Lanes past w: E_1 = 1 (E_b stays exactly 1) and A = 0.5 + 0.5i below, never undecided.
    math::double_double c{1.0, 0.0}, s{0.0, 0.0};
    if (j < w) {
      f[j] = src.frequency(static_cast<int>(j0 + s0 + j));
      if (!f[j].ok()) return f[j].error;
      // A frequency known to only 2^-60 (Llama-3's smoothed band) would leave its entries within
      // 2^-62 or so: from the source's 2^-104 one where it has it, when its term would outgrow the
      // anchors' (about 2^-73). Not below: the 256-bit frequency costs 4-80 us a column.
      if constexpr (requires { src.frequency_accurate(0); })
        if (f[j].rel_err * end * dabs(f[j].value.hi) > 0x1p-74) {
          f[j] = src.frequency_accurate(static_cast<int>(j0 + s0 + j));
          if (!f[j].ok()) return f[j].error;
        }
      const double at = dabs(f[j].value.hi);
      double err = 0;
      // |theta| >= 2^-400 keeps every product of two components far above underflow (Dekker).
      slow[j] = !(at >= 0x1p-400) || !cis_anchor_dd(1, f[j].value, c, s, err) || !(err <= anchor_error_dd::delta);
      if constexpr (has_row_offsets<Source>) {
        // |t| <= |o_p| |theta_hi| (1 + 2^-53) <= 2^-30, and t within 2^-49.7 |t| of o_p theta when
        // theta's rel_err is at most 2^-52 (the header).
        slow[j] = slow[j] || !(o_bound * at <= 0x1p-31) || !(f[j].rel_err <= 0x1p-52);
        fhi[j / lanes][j % lanes] = slow[j] ? 0.0 : f[j].value.hi;
      }
      if (slow[j]) c = {1.0, 0.0}, s = {0.0, 0.0}, err = 0;
      delta_1 = err > delta_1 ? err : delta_1;
      ferr[j / lanes][j % lanes] = end * at * (f[j].rel_err * 1.0000001);
    }
    set_lane(e1, j, c, s);
  }
  finish(e1);
  const std::size_t nb = bsize < rows ? bsize : rows;
  double e_base[dd_block_max];
  entry_bounds_dd(e_base, nb, delta_1);
  for (std::size_t k = 0; k < vectors; ++k) {
    const d4 one = {1, 1, 1, 1}, zero = {0, 0, 0, 0};
    eb_full[k] = cdd{one, zero, zero, zero, one, zero};
  }
  for (std::size_t b = 0; b < nb; ++b)
    for (std::size_t k = 0; k < vectors; ++k) {
      to_short(eb_full[k], eb[b][k]);
      d4 c, cl, s, sl;
      cmul(eb_full[k], e1[k], c, cl, s, sl);
      normalise(c, cl, eb_full[k].ch, eb_full[k].cl, eb_full[k].chh);
      normalise(s, sl, eb_full[k].sh, eb_full[k].sl, eb_full[k].shh);
    }
  posenc::status st = posenc::status::ok;
  alignas(32) double sbuf[width], cbuf[width];
  for (std::size_t i0 = 0; i0 < rows; i0 += nb) {
    bool block_slow = false;
    for (std::size_t j = 0; j < width; ++j) {
      // A column whose anchor is out of range (or less accurate than delta) takes the scalar path
      // from here on; its lanes, like those past w, hold A = 0.5 + 0.5i, which the test decides.
      math::double_double c{0.5, 0.0}, s{0.5, 0.0};
      if (j < w && !slow[j]) {
        double err = 0;
        if (!cis_anchor_dd(start + i0, f[j].value, c, s, err) || !(err <= anchor_error_dd::delta))
          slow[j] = true, c = {0.5, 0.0}, s = {0.5, 0.0};
      }
      block_slow = block_slow || (j < w && slow[j]);
      set_lane(a_full, j, c, s);
    }
    finish(a_full);
    for (std::size_t k = 0; k < vectors; ++k) to_short(a_full[k], a[k]);
    for (std::size_t i = i0; i < i0 + nb && i < rows; ++i) {
      const std::size_t b = i - i0;
      const std::uint64_t p = start + i;
      double *sn = sbuf, *cs = cbuf;
      const bool direct = slice_dest(sink, i, j0, s0, w, sn, cs);
      d4 t[vectors] = {};
      const d4* row_t = nullptr;  // the row's offset angles, when it has an offset
      double e_row = e_base[b];
      if constexpr (has_row_offsets<Source>)
        if (const double o = src.row_offset(p); o != 0) {
          for (std::size_t k = 0; k < vectors; ++k) t[k] = fhi[k] * o;
          row_t = t;
          e_row += anchor_error_dd::R_o;  // R_o also pays this sum's rounding (rows_double_offset.g)
        }
      if (p == 0 && row_t == nullptr && af == nullptr) {  // cis(0) = 1 exactly
        for (std::size_t j = 0; j < w; ++j) sn[j] = 0.0, cs[j] = 1.0;
      } else if (p == 0 && row_t == nullptr) {  // RN(af), RN(0) in every column: the source's scalar entry, once
        const auto x = src.template entry<double>(f[0], af, 0, static_cast<int>(j0 + s0));
        if (st == posenc::status::ok) st = x.error;
        for (std::size_t j = 0; j < w; ++j) sn[j] = x.value.sin, cs[j] = x.value.cos;
      } else if (af == nullptr) {
        row_values_dd<false>(src, f, a, eb[b], e_row, ferr, row_t, af, slow, block_slow, p, j0 + s0, w, sn, cs, st);
      } else {
        row_values_dd<true>(src, f, a, eb[b], e_row, ferr, row_t, af, slow, block_slow, p, j0 + s0, w, sn, cs, st);
      }
      if (!direct) {
        // A sink that places a row's slice as a whole (rope/detail/token_rows.hpp) takes it in one call.
        if constexpr (requires { sink.store_slice(i, j0, s0, w, sn, cs); })
          sink.store_slice(i, j0, s0, w, sn, cs);
        else
          for (std::size_t j = 0; j < w; ++j) sink.store(i, j0, s0 + j, math::sincos_result<double>{sn[j], cs[j]});
      }
    }
  }
  return st;
}

// fill_rows (sincos_table_engine.hpp) at run time for double tables of consecutive positions:
// chunk by chunk as there, slice by slice within a chunk.
template <class Source, class Sink>
[[gnu::always_inline]] inline posenc::status fill_rows_runtime_double_body(const Source& src, std::uint64_t start,
                                                                           std::size_t rows, std::size_t columns,
                                                                           const math::amplitude* af,
                                                                           Sink& sink) noexcept {
  // B: a power of two near sqrt(16 rows), which balances rows / B double-double anchors (about
  // 60 ns) against B recurrence steps (about 4 ns) a column; at most 256.
  std::size_t bsize = 1;
  while (bsize < rows_dd::dd_block_max && bsize * bsize < 16 * rows) bsize *= 2;
  for (std::size_t j0 = 0; j0 < columns; j0 += chunk_columns) {
    const std::size_t n = columns - j0 < chunk_columns ? columns - j0 : chunk_columns;
    sink.begin_chunk(j0, n);
    for (std::size_t s0 = 0; s0 < n; s0 += rows_dd::width) {
      const std::size_t w = n - s0 < rows_dd::width ? n - s0 : rows_dd::width;
      if (const posenc::status e = fill_slice_dd(src, start, rows, j0, s0, w, bsize, af, sink); e != posenc::status::ok)
        return e;
    }
  }
  return posenc::status::ok;
}

template <class Source, class Sink>
[[gnu::noinline]] inline posenc::status fill_rows_runtime_double_baseline(const Source& src, std::uint64_t start,
                                                                          std::size_t rows, std::size_t columns,
                                                                          const math::amplitude* af,
                                                                          Sink& sink) noexcept {
  return fill_rows_runtime_double_body(src, start, rows, columns, af, sink);
}

#ifdef POSENC_DETAIL_ROWS_AVX
// The same code for AVX (no FMA in that instruction set: the same operations, the same bits).
template <class Source, class Sink>
[[gnu::noinline, gnu::target("avx")]] inline posenc::status fill_rows_runtime_double_avx(
    const Source& src, std::uint64_t start, std::size_t rows, std::size_t columns, const math::amplitude* af,
    Sink& sink) noexcept {
  return fill_rows_runtime_double_body(src, start, rows, columns, af, sink);
}
#endif

template <class Source, class Sink>
inline posenc::status fill_rows_runtime_double(const Source& src, std::uint64_t start, std::size_t rows,
                                               std::size_t columns, const math::amplitude* af, Sink& sink) noexcept {
#ifdef POSENC_DETAIL_ROWS_AVX
  if (cpu_has_avx()) return fill_rows_runtime_double_avx(src, start, rows, columns, af, sink);
#endif
  return fill_rows_runtime_double_baseline(src, start, rows, columns, af, sink);
}

}  // namespace posenc::detail::sincos_table
