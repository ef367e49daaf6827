// round_test_cheap.hpp: two-ended rounding tests made of a few double operations, for the scalar
// functions' fast paths in constant evaluation.
//
// ziv_round (round.hpp) decides the rounding cell with integer arithmetic on bit patterns; in GCC's
// constant evaluator an integer operation costs about three double operations (each new value is
// a new INTEGER_CST) and a call about ten, which made the test a large share of a scalar call.
// These tests ask the same question, "does every real in [v - e, v + e] round to the same value?",
// with double additions and conversions only. They are sound (a true answer is always right) and
// may answer false a little more often than ziv_round (the margin below), which only sends the
// caller to its accurate path: the bits returned never differ.
#pragma once

namespace posenc::detail {

// Float results. y: a double approximation of the exact value v with |y - v| <= e.
// True iff every real in [y - e, y + e] rounds (to nearest, ties to even) to the same float; then
// out is that float.
// Proof. Let m = RN(e + |y| 2^-50) and F = float(RN(y + m)) = float(RN(y - m)) (the test). Require
// e <= |y| 2^-30 and |y| >= 2^-900 (so |y| 2^-50 is exact and m >= e + |y| (2^-50 - 2^-83)).
// Suppose y + e >= M, M the midpoint above F (a double: 25 significant bits, or a multiple of
// 2^-150 below float's normal range). F is within a float ulp of y + m, so |M| <= |y| (1 + 2^-22)
// and ulp_double(M) <= 2^-52 |M| < |y| (2^-50 - 2^-83) <= m - e: y + m >= M + ulp(M), hence RN(y + m) >= M + ulp(M) > M (RN is
// monotone and fixes doubles) and float(RN(y + m)) is at least the float above M, not F. So
// y + e < M; likewise y - e > the midpoint below F: [y - e, y + e], and v, lie strictly inside F's
// rounding cell (no tie is possible). Callers keep |y + m| below FLT_MAX (a conversion that
// overflows is not a constant expression).
constexpr bool round_test_float(double y, double e, float& out) noexcept {
  const double ay = y < 0 ? -y : y;
  if (!(e <= ay * 0x1p-30 && ay >= 0x1p-900)) return false;  // also rejects NaN
  const double m = e + ay * 0x1p-50;
  const float below = static_cast<float>(y - m);
  out = static_cast<float>(y + m);
  return below == out;
}

// Double results. h + l: a double-double approximation of v with |l| <= |h| (not necessarily
// normalised), |h + l - v| <= e. True iff every real in [h + l - e, h + l + e] rounds to the same
// double; then out is it.
// Proof. First (s, t) = Fast2Sum(h, l): s + t = h + l exactly, |t| <= ulp(s)/2 <= 2^-53 |s|.
// Require 2^-900 <= |s| <= 2^1020 and e <= |s| 2^-60. Let d = |s| 2^-102 (exact, normal) and
// R = RN(s + RN(RN(t + e) + d)), L = RN(s + RN(RN(t - e) - d)); the test is L == R =: F.
// The two inner roundings err by at most 2^-53 (|t| + e) + 2^-53 (|t| + e + d) < 2^-104.8 |s|,
// so RN(RN(t + e) + d) >= t + e + 2^-103 |s|. Suppose s + t + e >= M, M the midpoint above F.
// F is within 2 ulp(s) of s, so mu = M - s is a multiple of ulp(s)/4 of magnitude < 4 ulp(s): a
// double with ulp(mu) <= 2^-51 ulp(s) <= 2^-103 |s|. Then t + e >= mu gives
// RN(RN(t + e) + d) >= mu + 2^-103 |s| >= mu + ulp(mu) > mu, the sum with s exceeds M strictly,
// and R is at least the double above M, not F. So h + l + e < M; likewise below: the interval lies
// strictly inside F's cell.
constexpr bool round_test_double(double h, double l, double e, double& out) noexcept {
  const double s = h + l;
  const double t = l - (s - h);
  const double as = s < 0 ? -s : s;
  if (!(e <= as * 0x1p-60 && as >= 0x1p-900 && as <= 0x1p1020)) return false;  // also rejects NaN
  const double d = as * 0x1p-102;
  const double below = s + ((t - e) - d);
  out = s + ((t + e) + d);
  return below == out;
}

}  // namespace posenc::detail
