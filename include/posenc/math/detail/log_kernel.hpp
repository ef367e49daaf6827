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
// |Lm - (log x - E ln2)| <= 2^-103.5 |Lm| (derivation at log_dd_mant). Precondition x > 0 finite.
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

// Derivation of the 2^-103.5 bound (u = 2^-53, |zh| <= 2^-8, |zl| <= u|zh|):
//  log1p(zh + zl) = log1p(zh) + zl/(1+zh) + O(zl^2): the division and 1 + zh are rounded,
//    error < 2.1 u |zl| < 2^-104.9 |zh|, the O() term < 2^-122.
//  log1p(zh) = zh + zh^2 Q, Q = sum_{n>=2} (-1)^(n+1) zh^(n-2)/n truncated at n = 13:
//    remainder < |zh|^14/14 < 2^-115.8 |zh|. H (n = 8..13) in double: error < 2^-54,
//    times zh^6 < 2^-102 absolute in Q; n = 7 as a double-double fast_two_sum (error 2^-63,
//    times zh^5); n = 6..2 by log_horner_step (each < 2^-104.5 |c_n| + |zh| err): |Q err| < 2^-103.
//    zh^2 Q by two_prod and Mul22: error < zh^2 (2^-103 + 2^-102 |Q|) < 2^-118 |zh|.
//  P = zh + M + corr: the sum of the small parts is rounded once, < u^2 |P|.
//  So |P - log1p z| < 2^-104.4 |P| (|P| >= |z| (1 - 2^-9)). L is within 2^-106 |L|.
//  Lm = L + P by Add22: no cancellation beyond a factor 2 (|P| <= 2^-8 and |L| >= 2^-7.4 when
//    L != 0), so the Add22 rounding is below 2^-104.5 |Lm|. Total < 2^-103.5 |Lm|.
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
// plus E G3 (relative 2^-106); the final Add22 has |E ln2 + Lm| >= |E ln2| / 2 for E != 0 (as
// |Lm| < 0.36), so it loses at most 2^-103 of the result; with Lm's 2^-103.5 |Lm| and
// |Lm| <= 2 |log x| when E = 0, or <= 1.1 |log x| otherwise: total < 2^-101.
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

// Derivation (u = 2^-53): p = zh^2 Q (Q to n = 8 in double) has relative error < 2^-51.3
// (three roundings, Q's < 2^-53 relative, remainder 2z^7/9 < 2^-58.2 of p); zl(1 - zh) for
// zl/(1+zh) errs by < zl zh^2 < 2^-60 |p|; the five roundings of the tail are each below
// u(|p| + 2^-42 |log x|) (|E G2| < 2^-42.4 |log x|, e1 < 2^-52 |log x| as |s1| < 2|log x|); the
// final l + tail one below u(|p| + 2^-52 |log x|); the table below 2^-105 |log x|; the omitted
// third part of ln2, |E G3| < |E| 2^-89.3 < 2^-87.7 |log x| (|E| <= 2.94 |log x| when E != 0).
// In all < 2^-49.5 |p| + 2^-87.6 |log x|; err = 0x1.8p-50 |p| + 2^-86 |hi| covers it.
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
