// exp_scalar_fast.hpp: the first fast path of the scalar double exp, written for constant
// evaluation: one function, no calls but exp2i and the cheap rounding test.
//
// exp_dd_eval (exp_kernel.hpp) carries double-double values through five double-double products
// and five sums (about fifty calls): in GCC's constant evaluator each call costs about ten double
// operations' worth of time and keeps memory until the whole constant is done
// (docs/performance.md 1.1). A double result needs a relative error near 2^-67 for the rounding
// test to fail rarely (about once in 2^13 here), which Tang's two-table method reaches with one
// exact product and plain doubles elsewhere. Arguments this path does not decide go to the general
// path (exp_log.hpp), which returns the same correctly rounded double.
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/detail/exp_kernel.hpp"
#include "posenc/math/detail/exp_table.hpp"
#include "posenc/math/detail/round_test_cheap.hpp"

namespace posenc::detail {

// ln2/4096 = C1 + C2 + C3 + e, |e| < 2^-132.5: C1 and C2 have 30 significant bits (k C1, k C2 exact
// for |k| < 2^23), C3 = RN(ln2/4096 - C1 - C2) (mpmath at 400 bits).
inline constexpr double exp_fast_c1 = 0x1.62e42ffp-13;
inline constexpr double exp_fast_c2 = -0x1.718432ap-47;
inline constexpr double exp_fast_c3 = -0x1.b0e2633fe0685p-79;

// RN(e^x) when this path decides it; 2^-60 <= |x| and -707 <= x <= 709 (so that e^x is a normal
// double and no product underflows). Returns false (out unspecified) to send x elsewhere.
// Derivation (u = 2^-53), x = k ln2/4096 + r*, e^x = 2^(k >> 12) 2^(i/64) (1 + D) e^(r*), i and j
// the next six bits of k, D = 2^(j/4096) - 1:
//  r: |x 4096/ln2| < 2^22 and k is the integer nearest RN(x RN(4096/ln2)), within 1/2 + 2^-30.8
//     of it: |k| < 2^22 and |r*| <= ln2/8192 + 2^-43.3 < 2^-13.5. t = x - k C1 is exact (x and k C1
//     are multiples of 2^-66 when k != 0, |t| < 2^-13); k C2 exact; (sh, sl) = TwoSum(t, -k C2);
//     RN(k C3) (< 2^-56.2) and lo = RN(sl - RN(k C3)) err by 2^-109 each, e by |k| 2^-132.5:
//     (rh, rl) = TwoSum(sh, lo), |rh + rl - r*| <= 2^-107, |rl| <= 2^-66.5, |rh| <= ln2/8192 + 2^-43.
//  P = e^r - 1 = rh + pl, pl = RN(rl + q), q = rh^2 (1/2 + rh/6 + rh^2/24 + rh^3/120): approximation
//     |rh + q - (e^rh - 1)| < 2^-90.5 (the Taylor remainder, below rh^6/720 (1 + rh) < 2^-90.6, and
//     the coefficients' rounding, < 2^-97), q's roundings <= 4u |q| <= 2^-79.9 (|q| < 2^-27.9), the
//     dropped rh rl < 2^-80, pl's rounding 2^-80.8, r's error 2^-107: |P - (e^r* - 1)| <= 2^-78.4.
//  W = D + P + D P = a1 + g: (a1, a2) = TwoSum(Dh, rh) exact; cross = RN(Dh rh) (< 2^-20) errs by
//     2^-73; dp = RN(Dh pl + Dl rh) by 2^-87; Dl pl (< 2^-88) dropped; g summed smallest first
//     (partial sums < 2^-58, 2^-34, 2^-27.7, 2^-19.9) errs by <= 2^-72.8; with P's error times
//     1 + D and D's table error 2^-112: |W - W*| <= 2^-71.85, |a1| <= 2^-6.4, |g| <= 2^-19.8.
//  V = T (1 + W): (p, pe) = TwoProduct(Th, a1), (vh, v1) = FastTwoSum(Th, p) (Th >= 1 > |p|),
//     exact; l = v1 + (pe + (Tl + (Th g + Tl a1))) with four roundings of sums below 2^-18.5
//     (<= 2^-69.65 together), Tl g dropped (2^-72.8), W's error times Th < 2 (2^-70.85), T's
//     table error 2^-106: |vh + l - V*| <= 2^-68.9 <= 2^-68.9 vh / 0.9999.
// The test is given 2^-67 vh: more than 3x in hand. Then RN(V 2^(k >> 12)) = RN(V) 2^(k >> 12)
// (the result is a normal double, -1021 <= k >> 12 <= 1022).
constexpr bool exp_double_fast(double x, double& out) noexcept {
  constexpr double shifter = 0x1.8p52;
  constexpr double veltkamp = 134217729.0;                            // 2^27 + 1: Dekker's TwoProduct without FMA
  const double kd = (x * 0x1.71547652b82fep+12 + shifter) - shifter;  // RN(4096/ln2)
  const int k = static_cast<int>(kd);
  const double t = x - kd * exp_fast_c1;
  const double p2 = kd * exp_fast_c2;
  const double sh = t - p2;  // TwoSum(t, -p2)
  const double sb = sh - t;
  const double sl = (t - (sh - sb)) + (-p2 - sb);
  const double lo0 = sl - kd * exp_fast_c3;
  const double rh = sh + lo0;  // TwoSum(sh, lo0)
  const double rb = rh - sh;
  const double rl = (sh - (rh - rb)) + (lo0 - rb);
  const double q =
      (rh * rh) * (0.5 + rh * (0x1.5555555555555p-3 + rh * (0x1.5555555555555p-5 + rh * 0x1.1111111111111p-7)));
  const double pl = rl + q;
  const unsigned i = static_cast<unsigned>(k >> 6) & 63u, j = static_cast<unsigned>(k) & 63u;
  const double dh = exp2_lo[2 * j], dl = exp2_lo[2 * j + 1];
  const double a1 = dh + rh;  // TwoSum(dh, rh)
  const double ab = a1 - dh;
  const double a2 = (dh - (a1 - ab)) + (rh - ab);
  const double g = (((dl + a2) + (dh * pl + dl * rh)) + pl) + dh * rh;
  const double th = exp2_hi[2 * i], tl = exp2_hi[2 * i + 1];
  const double p = th * a1;  // TwoProduct(th, a1)
  const double ta = veltkamp * th;
  const double t1 = ta - (ta - th), t2 = th - t1;
  const double aa = veltkamp * a1;
  const double b1 = aa - (aa - a1), b2 = a1 - b1;
  const double pe = ((t1 * b1 - p) + t1 * b2 + t2 * b1) + t2 * b2;
  const double vh = th + p;  // FastTwoSum(th, p)
  const double v1 = p - (vh - th);
  const double l = v1 + (pe + (tl + (th * g + tl * a1)));
  double v = 0.0;
  if (!round_test_double(vh, l, vh * 0x1p-67, v)) return false;
  out = v * exp2i(k >> 12);
  return true;
}

// RN_float(e^x) when this path decides it; it takes -87 <= x <= 88.5 (a normal float result, and
// the test's conversions cannot overflow: e^88.5 < FLT_MAX / 1.2). The operations of
// exp_small_eval (exp_kernel.hpp, relative error below 2^-58 of (hi + lo), |lo| <= 2^-53 hi)
// written out, then y = hi 2^k, exact (-126 <= k <= 128): |y - e^x| <= (|lo| + 2^-58 (hi + lo))
// 2^k <= 2^-52 y, the bound handed to round_test_float (round_test_cheap.hpp).
constexpr bool exp_float_fast(double x, float& out) noexcept {
  if (!(x >= -87.0 && x <= 88.5)) return false;  // also NaN
  constexpr double shifter = 0x1.8p52;
  const double kd = (x * 0x1.71547652b82fep+6 + shifter) - shifter;  // RN(64/ln2)
  const int k = static_cast<int>(kd);
  const double r = (x - kd * 0x1.62e42fefap-7) - kd * 0x1.cf79abc9e3b3ap-46;
  const double q = r * r *
                   (0.5 + r * (0x1.5555555555555p-3 +
                               r * (0x1.5555555555555p-5 + r * (0x1.1111111111111p-7 + r * 0x1.6c16c16c16c17p-10))));
  const unsigned i = static_cast<unsigned>(k) & 63u;
  const double th = exp2_hi[2 * i];
  const double hi = th + (exp2_hi[2 * i + 1] + th * (r + q));  // FastTwoSum's sum: lo is not needed
  const double y = hi * std::bit_cast<double>(static_cast<std::uint64_t>((k >> 6) + 1023) << 52);
  return round_test_float(y, y * 0x1p-52, out);
}

}  // namespace posenc::detail
