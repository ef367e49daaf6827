// log_kernel.hpp: the fast-path kernels of log, shared by log, pow and rope_theta.
//
// Method (table-driven log, as in Tang's "Table-driven implementation of the logarithm function
// in IEEE floating-point arithmetic", ACM TOMS 16(4), 1990, and CORE-MATH's binary64 log):
// x = 2^e m, m in [1, 2); with R ~ 1/c from log_table.hpp (c the centre of m's cell),
// log x = E ln2 + L + log1p(z), z = m R - 1 computed exactly, |z| <= 2^-8, where E = e or e + 1
// and L = -log R or -log(2R) (see log_table.hpp). log1p(z) is its Taylor series
// sum (-1)^(n+1) z^n / n, coefficients rounded to nearest (double-double for the low orders).
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/detail/log_table.hpp"
#include "posenc/math/double_double.hpp"

namespace posenc::detail {

// The reduced argument of a positive finite x: log x = E ln2 + L + log1p(zh + zl) exactly.
struct log_reduced {
  int E;
  double Lh, Ll;  // table value L (double-double)
  double zh, zl;  // z = zh + zl exactly (two_sum), |z| <= 2^-8
};

// Precondition: x > 0 finite (subnormals allowed). Exact: m*R is split as mh*R + ml*R where mh
// keeps the top 26 bits of m and R has 14 bits, so both products and mh*R - 1 are exact doubles
// (multiples of 2^-39 below 2, resp. of 2^-66 below 2^-25).
constexpr log_reduced log_reduce(double x) noexcept {
  std::uint64_t u = std::bit_cast<std::uint64_t>(x);
  int e = -1023;
  if (u < (std::uint64_t{1} << 52)) {  // subnormal: scale by 2^54, exact
    u = std::bit_cast<std::uint64_t>(x * 0x1p54);
    e -= 54;
  }
  e += static_cast<int>(u >> 52);
  const std::uint64_t frac = u & 0x000FFFFFFFFFFFFFu;
  const unsigned i = static_cast<unsigned>(frac >> 44);
  const double m = std::bit_cast<double>(frac | 0x3FF0000000000000u);
  const double mh = std::bit_cast<double>((frac | 0x3FF0000000000000u) & ~std::uint64_t{0x7FFFFFF});
  const double R = log_table[3 * i];
  const math::double_double z = two_sum(mh * R - 1.0, (m - mh) * R);
  return {i >= 106 ? e + 1 : e, log_table[3 * i + 1], log_table[3 * i + 2], z.hi, z.lo};
}

// Bounds (derivations below).
inline constexpr double log_dd_rel_error = 0x1p-101;

// log x = E ln2 + Lm, Lm a normalised double-double with |Lm| < 0.36 and
// |Lm - (log x - E ln2)| <= 2^-102.3 |Lm| (derivation at log_dd_mant). Precondition x > 0 finite.
struct log_parts {
  int E;
  math::double_double Lm;
};

// One step A <- c + z A of a double-double Horner scheme with z a double, |z A| < |c|.
// Error below 2^-104.5 |c| + |z| err(A) (roundings of the three small terms, and A.lo*z).
constexpr math::double_double log_horner_step(double ch, double cl, double z, math::double_double A) noexcept {
  const math::double_double p = two_prod(A.hi, z);
  const math::double_double s = fast_two_sum(ch, p.hi);
  return fast_two_sum(s.hi, s.lo + (cl + (p.lo + A.lo * z)));
}

// Derivation of the 2^-102.3 bound (u = 2^-53, |zh| <= 2^-8, |zl| <= u|zh|):
//  log1p(zh + zl) = log1p(zh) + zl/(1+zh) + O(zl^2): the division and 1 + zh are rounded,
//    error < 2.1 u |zl| < 2^-104.9 |zh|, the O() term < 2^-115 |zh|.
//  log1p(zh) = zh + zh^2 Q, Q = sum_{n>=2} (-1)^(n+1) zh^(n-2)/n truncated at n = 13, its
//    coefficients rounded (double-double for n <= 7): with M = zh^2 Q evaluated exactly, the
//    approximation |zh + M - log1p(zh)| < 2^-107.7 |zh| (the remainder, about |zh|^13/14 times
//    |zh|, largest at |zh| = 2^-8). H (n = 8..13) in double: error < 2^-54, times zh^6 < 2^-102 in
//    Q; n = 7 as a double-double fast_two_sum (error 2^-63, times zh^5 < 2^-103); n = 6..2 by
//    log_horner_step (each < 2^-104.5 |c_n| + |zh| err, < 2^-105.4 in all): |Q err| < 2^-101.3.
//    zh^2 Q by two_prod and Mul22: error < zh^2 (2^-101.3 + 2^-102 |Q|) < 2^-100.9 zh^2
//    <= 2^-108.9 |zh|.
//  P = zh + M + corr: P0 is exact; M.lo + corr (< 1.01 u |zh|) and P0.lo plus that (< 2.01 u |zh|)
//    are rounded: < 3.02 u^2 |zh| < 2^-104.4 |zh|.
//  So |P - log1p z| < 2^-103.51 |zh| < 2^-103.5 |P| (|P| >= |z| (1 - 2^-9)). L is within 2^-106 |L|.
//  Lm = L + P by Add22 (2^-103 |Lm|). L = 0 (cells 0 and 255): Lm = P exactly. Otherwise m is in
//    a cell i, 1 <= i <= 254, of centre c, and Lm* = L + log1p z is log m (i < 106) or log(m/2):
//    R is 1/c to 2^-14 (14 bits), so |z| <= 2^-9/c + 2^-13.99, while |Lm*| >= log(1 + i/256),
//    resp. -log((1 + (i+1)/256)/2); so |P| <= 0.54 |Lm*| and |L| <= 1.54 |Lm*| (largest at i = 1
//    and 254). Total < (1.54 * 2^-106 + 0.54 * 2^-103.5 + 2^-103) |Lm| < 2^-102.3 |Lm|.
constexpr log_parts log_dd_mant(double x) noexcept {
  const log_reduced d = log_reduce(x);
  const double zh = d.zh;
  const double H =
      -0x1p-3 + zh * (0x1.c71c71c71c71cp-4 +
                      zh * (-0x1.999999999999ap-4 +
                            zh * (0x1.745d1745d1746p-4 + zh * (-0x1.5555555555555p-4 + zh * 0x1.3b13b13b13b14p-4))));
  math::double_double A = fast_two_sum(0x1.2492492492492p-3, 0x1.2492492492492p-57 + zh * H);
  A = log_horner_step(-0x1.5555555555555p-3, -0x1.5555555555555p-57, zh, A);  // -1/6
  A = log_horner_step(0x1.999999999999ap-3, -0x1.999999999999ap-57, zh, A);   // 1/5
  A = log_horner_step(-0x1p-2, 0.0, zh, A);                                   // -1/4
  A = log_horner_step(0x1.5555555555555p-2, 0x1.5555555555555p-56, zh, A);    // 1/3
  A = log_horner_step(-0x1p-1, 0.0, zh, A);                                   // -1/2
  const math::double_double M = dd_mul(two_prod(zh, zh), A);
  const double corr = d.zl / (1.0 + zh);
  const math::double_double P0 = fast_two_sum(zh, M.hi);
  const math::double_double P = fast_two_sum(P0.hi, P0.lo + (M.lo + corr));
  return {d.E, dd_add({d.Lh, d.Ll}, P)};
}

// log x as a normalised double-double, relative error below 2^-101 (log_dd_rel_error).
// Precondition: x > 0 finite. E ln2 = E G1 + E G2 exactly (G1, G2 have 42 bits, |E| < 2^11),
// plus E G3 (relative 2^-106). E = 0: el = 0, the final Add22 is exact and Lm = log x to
// 2^-102.3. E != 0: |Lm| <= -log(0.70703125) < 0.34667 (cells from 1.4140625 up give m/2), so
// |log x| >= ln2 - 0.34667 > 0.4998 |E ln2|: |E ln2| < 2.0007 |log x|, |Lm| < 1.0007 |log x|; the
// final Add22 loses at most 2^-103 of the result; with Lm's 2^-102.3 |Lm|: total < 2^-101.4.
constexpr math::double_double dd_log(double x) noexcept {
  constexpr double G1 = 0x1.62e42fefa38p-1, G2 = 0x1.ef35793c768p-45, G3 = -0x1.9ff0342542fc3p-90;
  const log_parts p = log_dd_mant(x);
  const double E = p.E;
  math::double_double el = fast_two_sum(E * G1, E * G2);
  el.lo += E * G3;
  return dd_add(el, p.Lm);
}

// log x = hi + lo (normalised) with |hi + lo - log x| <= err, in plain double arithmetic, for the
// narrow (float, bfloat16, float16) results. Precondition x > 0 finite.
struct log_small_result {
  double hi, lo, err;
};

// Derivation (u = 2^-53): p = zh^2 Q (Q to n = 8 in double) has relative error < 2^-51.3 (the
// roundings of zh^2, of Q (< 1.01 u relative) and of the product, and the approximation
// |p - (log1p(zh) - zh)| < 2^-58 |p|: the remainder, about 2z^7/9 (2^-58.17), and RN(1/3)'s
// error, 2^-62.6; in all < 2^-51.4); zl(1 - zh) for zl/(1+zh) errs by < zl zh^2 < 2^-60 |p|; the five
// roundings of the tail are each below u(|p| + 2^-42 |log x|) (|E G2| < 2^-42.4 |log x|, e1 < 2^-52
// |log x| as |s1| < 2|log x|); the final l + tail one below u(|p| + 2^-52 |log x|); the table below
// 2^-105 |log x|; the omitted third part of ln2, |E G3| < |E| 2^-89.3 < 2^-87.7 |log x| (|E| <= 2.94
// |log x| when E != 0). In all < 2^-49.5 |p| + 2^-87.6 |log x|; err = 0x1.8p-50 |p| + 2^-86 |hi|
// covers it.
constexpr log_small_result log_small_eval(double x) noexcept {
  constexpr double G1 = 0x1.62e42fefa38p-1, G2 = 0x1.ef35793c768p-45;
  const log_reduced d = log_reduce(x);
  const double zh = d.zh;
  const double p =
      zh * zh *
      (-0.5 + zh * (0x1.5555555555555p-2 +
                    zh * (-0.25 + zh * (0x1.999999999999ap-3 +
                                        zh * (-0x1.5555555555555p-3 + zh * (0x1.2492492492492p-3 - zh * 0.125))))));
  const double E = d.E;
  const math::double_double s1 = two_sum(E * G1, d.Lh);
  const math::double_double h = two_sum(s1.hi, zh);
  const double tail = s1.lo + (E * G2 + (d.Ll + ((d.zl - d.zl * zh) + p)));
  const math::double_double v = fast_two_sum(h.hi, h.lo + tail);
  const double ap = p < 0 ? -p : p, ah = v.hi < 0 ? -v.hi : v.hi;
  return {v.hi, v.lo, 0x1.8p-50 * ap + 0x1p-86 * ah};
}

}  // namespace posenc::detail
