// double_double.hpp: error-free transforms and double-double arithmetic, FMA-free.
//
// Sources: T. J. Dekker, "A floating-point technique for extending the available precision" (1971);
// the Add12/Mul12/Add22/Mul22 operators of CRlibm (crlibm_private.h). FMA is avoided on purpose:
// std::fma is not constexpr in C++20 and Clang 16 rejects __builtin_fma in constant expressions, so
// products are split with Veltkamp's constant 2^27 + 1.
//
// Run-time builds must not contract a*b+c into an FMA (-ffp-contract=off, which the posenc::posenc
// CMake target sets), or the "error-free" transforms stop being error-free and run-time bits differ
// from compile-time bits.
#pragma once

namespace posenc::math {

// An unevaluated sum hi + lo with |lo| <= ulp(hi)/2 (normalised).
struct double_double {
  double hi = 0.0;
  double lo = 0.0;
};

}  // namespace posenc::math

namespace posenc::detail {

// s + e == a + b exactly, s = RN(a + b). Any magnitudes (Knuth's TwoSum).
constexpr math::double_double two_sum(double a, double b) noexcept {
  const double s = a + b;
  const double bb = s - a;
  const double e = (a - (s - bb)) + (b - bb);
  return {s, e};
}

// s + e == a + b exactly, s = RN(a + b). Requires |a| >= |b| or a == 0 (Dekker's Fast2Sum).
constexpr math::double_double fast_two_sum(double a, double b) noexcept {
  const double s = a + b;
  const double e = b - (s - a);
  return {s, e};
}

// Veltkamp split: a == hi + lo, each with at most 26 significant bits. Valid for |a| < 2^996.
constexpr math::double_double split(double a) noexcept {
  constexpr double veltkamp = 134217729.0;  // 2^27 + 1
  const double t = veltkamp * a;
  const double hi = t - (t - a);
  return {hi, a - hi};
}

// p + e == a * b exactly, p = RN(a * b) (Dekker's TwoProduct). Valid while |a|, |b| < 2^996 and
// the product neither overflows nor underflows (|a*b| >= 2^-969).
constexpr math::double_double two_prod(double a, double b) noexcept {
  const double p = a * b;
  const math::double_double as = split(a);
  const math::double_double bs = split(b);
  const double e = ((as.hi * bs.hi - p) + as.hi * bs.lo + as.lo * bs.hi) + as.lo * bs.lo;
  return {p, e};
}

// Double-double sum, relative error below 2^-103 (CRlibm Add22, with TwoSum on the high parts so
// that it is valid for operands of any sign and magnitude).
constexpr math::double_double dd_add(math::double_double a, math::double_double b) noexcept {
  const math::double_double s = two_sum(a.hi, b.hi);
  const math::double_double t = two_sum(a.lo, b.lo);
  const math::double_double u = fast_two_sum(s.hi, s.lo + t.hi);
  return fast_two_sum(u.hi, u.lo + t.lo);
}

// Double-double product, relative error below 2^-102 (CRlibm Mul22).
constexpr math::double_double dd_mul(math::double_double a, math::double_double b) noexcept {
  const math::double_double p = two_prod(a.hi, b.hi);
  const double cross = a.hi * b.lo + a.lo * b.hi;
  return fast_two_sum(p.hi, p.lo + cross);
}

// Double-double times double.
constexpr math::double_double dd_mul(math::double_double a, double b) noexcept {
  const math::double_double p = two_prod(a.hi, b);
  return fast_two_sum(p.hi, p.lo + a.lo * b);
}

// x / y for a double-double x and a double y != 0 (DWDivFP3 of Joldes et al. 2017, relative
// error below 3.5 u^2 < 2^-104.1).
constexpr math::double_double dd_div(math::double_double x, double y) noexcept {
  const double th = x.hi / y;
  const math::double_double p = two_prod(th, y);
  const double dl = ((x.hi - p.hi) - p.lo) + x.lo;  // x.hi - p.hi is exact (Sterbenz)
  return fast_two_sum(th, dl / y);
}

}  // namespace posenc::detail

namespace posenc::math {

// The exact products and sums, public: code outside the library (proofs, tools) that reasons
// about an exact m * theta or c^2 + s^2 needs the same error-free transforms, not a copy of them.
using detail::dd_add;
using detail::dd_mul;
using detail::two_prod;
using detail::two_sum;

}  // namespace posenc::math
