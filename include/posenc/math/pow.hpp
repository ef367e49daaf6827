// pow.hpp: correctly rounded (to nearest, ties to even) x^y, constexpr.
//
// Special values: C17 Annex F.10.4.4. General case: |x|^y = e^(y log|x|), sign from the parity of
// an integer y. Fast path: log|x| as a double-double (log_kernel.hpp), the product y log|x| as a
// double-double, then exp of a double-double argument (exp_kernel.hpp); double results use the
// double-double kernels, float results the plain-double kernels. An absolute error d in the
// exponent Z = y log|x| is a relative error e^d - 1 of the result, so the Ziv bound is the
// exp kernel's plus |Z| times log's. Exact results pass the rounding test (the exact value is
// inside one rounding cell); exact midpoints fail it and go to the accurate path
// posenc::detail::mp::pow, which detects them.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

#include "posenc/math/detail/exp_kernel.hpp"
#include "posenc/math/detail/log_kernel.hpp"
#include "posenc/math/detail/mp/pow.hpp"
#include "posenc/math/round.hpp"

namespace posenc::detail {

// Annex F.10.4.4 for all the cases it lists. Returns true with out = the result when (x, y) is
// special; otherwise x and y are finite, x != 0, x != 1, y != 0, x < 0 only for an integer y, and
// neg tells whether the result is negative (x < 0 and y odd).
constexpr bool pow_special(double x, double y, double& out, bool& neg) noexcept {
  using L = std::numeric_limits<double>;
  const double inf = L::infinity();
  neg = false;
  if (y == 0 || x == 1.0) {
    out = 1.0;
    return true;
  }  // even for a NaN x or y
  if (x != x || y != y) {
    out = L::quiet_NaN();
    return true;
  }
  const double ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
  const bool xneg = (std::bit_cast<std::uint64_t>(x) >> 63) != 0;  // -0 included
  if (ay == inf) {
    if (ax == 1.0)
      out = 1.0;  // pow(-1, +-inf) = 1
    else
      out = (ax < 1.0) == (y < 0) ? inf : 0.0;
    return true;
  }
  // y finite, nonzero: integer and odd tests (|y| >= 2^53 is an even integer).
  bool yint = true, yodd = false;
  if (ay < 0x1p53) {
    const auto n = static_cast<std::uint64_t>(ay);
    yint = static_cast<double>(n) == ay;
    yodd = yint && (n & 1u) != 0;
  }
  if (x == 0 || ax == inf) {
    const bool big = (x == 0) == (y < 0);  // 0^-y and inf^+y are infinite
    out = big ? inf : 0.0;
    if (xneg && yodd) out = -out;
    return true;
  }
  if (x < 0 && !yint) {
    out = L::quiet_NaN();
    return true;
  }
  neg = x < 0 && yodd;
  if (ax == 1.0) {
    out = neg ? -1.0 : 1.0;
    return true;
  }  // (-1)^y for any integer y, however large
  return false;
}

// The fast path of |x|^y: value (hi + lo) 2^k with |hi + lo - |x|^y 2^-k| <= err, when
// range == 0; range > 0: the result overflows (infinity); range < 0: it underflows to zero;
// range == 2: outside the kernel's range, use the accurate path.
struct pow_eval {
  double hi, lo, err;
  int k, range;
};

// Double-double kernel, for double results. Preconditions as after pow_special, ax = |x|.
// Error: dd_log to 2^-101 relative, then y*l.lo and the sum rounded once each: the exponent Z
// is within |Z| (2^-101 + 2^-104) of y log ax, i.e. an absolute error below 709 * 2^-100.8 <
// 2^-91 in the fast range, a relative error of e^Z below that times (1 + 2^-90); plus the exp
// kernel's 2^-102: err = hi (2^-102 + |Z| 2^-100.8) with margins.
constexpr pow_eval pow_dd_eval(double ax, double y) noexcept {
  const double ay = y < 0 ? -y : y;
  // |y| > 2^64 and |log ax| >= 2^-54 (ax != 1): |Z| > 2^10, far past both thresholds.
  if (ay > 0x1p64) return {0, 0, 0, 0, (ax > 1.0) == (y > 0) ? 1 : -1};
  const math::double_double l = dd_log(ax);
  const math::double_double p = two_prod(y, l.hi);
  const math::double_double z = fast_two_sum(p.hi, p.lo + y * l.lo);
  if (z.hi > 709.8) return {0, 0, 0, 0, 1};    // e^Z > DBL_MAX + ulp/2 (threshold 709.7827)
  if (z.hi < -745.2) return {0, 0, 0, 0, -1};  // e^Z < 2^-1075
  if (z.hi < -707.0 || z.hi > 709.0) return {0, 0, 0, 0, 2};
  const exp_parts e = exp_dd_eval(z.hi, z.lo);
  const double az = z.hi < 0 ? -z.hi : z.hi;
  return {e.hi, e.lo, e.hi * (0x1.01p-102 + az * 0x1.2p-101), e.k, 0};
}

// Plain-double kernel, for narrow results (float range): log_small_eval's absolute error times
// |y|, plus two roundings of Z (< 2^-103 |Z|), is the exponent error zerr; the relative error of
// the result is below (2^-58 + zerr)(1 + 2^-8) whenever zerr < 2^-9 (else the test fails anyway).
constexpr pow_eval pow_small_eval(double ax, double y) noexcept {
  const log_small_result l = log_small_eval(ax);
  const math::double_double p = two_prod(y, l.hi);  // |y| < 2^128, |l.hi| < 745: exact
  const math::double_double z = fast_two_sum(p.hi, p.lo + y * l.lo);
  if (z.hi > 89.0) return {0, 0, 0, 0, 1};     // e^Z > 2^128
  if (z.hi < -104.0) return {0, 0, 0, 0, -1};  // e^Z < 2^-150
  const double ay = y < 0 ? -y : y, az = z.hi < 0 ? -z.hi : z.hi;
  const double zerr = ay * l.err + az * 0x1p-103;
  const exp_parts e = exp_small_eval(z.hi, z.lo);
  return {e.hi, e.lo, e.hi * 0x1.01p0 * (0x1p-58 + zerr), e.k, 0};
}

// RN_double(|x|^y) after pow_special.
constexpr double pow_pos_double(double ax, double y) noexcept {
  const pow_eval e = pow_dd_eval(ax, y);
  if (e.range == 1) return std::numeric_limits<double>::infinity();
  if (e.range == -1) return 0.0;
  double out = 0.0;
  // RN(v 2^k) = RN(v) 2^k: -1021 <= k <= 1022 and v in [0.9999, 2.0002], all normal.
  if (e.range == 0 && ziv_round<double>(e.hi, e.lo, e.err, out)) return out * exp2i(e.k);
  return mp::pow<double>(ax, y);
}

// RN_T(+-|x|^y) for a narrow T (float, bfloat16, float16) after pow_special, neg the sign.
template <class T>
constexpr T pow_pos_narrow(double ax, double y, bool neg) noexcept {
  using F = float_format<T>;
  const pow_eval e = pow_small_eval(ax, y);
  if (e.range == 1)
    return round_dd<T>(neg ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity(), -0.0);
  if (e.range == -1) return round_dd<T>(neg ? -0.0 : 0.0, -0.0);  // -0 + -0 keeps the sign
  const double s = (neg ? -1.0 : 1.0) * exp2i(e.k);               // -152 <= k <= 129: exact scaling
  T out{};
  if (ziv_round<T>(e.hi * s, e.lo * s, e.err * exp2i(e.k), out)) return out;
  const T m = mp::pow<T>(ax, y);
  if (!neg) return m;
  return F::from_bits(static_cast<typename F::storage>(F::to_bits(m) ^ round_consts<T>::sign_bit));
}

}  // namespace posenc::detail

namespace posenc::math {

// x^y rounded to nearest, with every special case of C17 F.10.4.4 (pow(x, +-0) = 1 and
// pow(1, y) = 1 even for NaN; a negative x with a non-integer finite y gives NaN; the sign of a
// negative x with an odd integer y is kept). Overflow gives +-inf, underflow subnormals or +-0.
constexpr double pow(double x, double y) noexcept {
  double out = 0.0;
  bool neg = false;
  if (detail::pow_special(x, y, out, neg)) return out;
  const double r = detail::pow_pos_double(x < 0 ? -x : x, y);
  return neg ? -r : r;
}

constexpr float pow(float x, float y) noexcept {
  double out = 0.0;
  bool neg = false;
  if (detail::pow_special(x, y, out, neg)) return detail::round_dd<float>(out, -0.0);  // exact, keeps -0
  return detail::pow_pos_narrow<float>(x < 0 ? -static_cast<double>(x) : static_cast<double>(x), y, neg);
}

}  // namespace posenc::math
