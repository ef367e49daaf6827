// rope_table.hpp: whole tables of correctly rounded cos/sin(m * theta_j), rows m = 0..rows-1,
// columns j, at a per-entry cost of a dozen operations in constant evaluation.
//
// Method: every row shares the column's frequency theta, and m = a B + b (B a power of two near
// sqrt(rows)), so with anchors A_a = cis(a B theta) and E_b = cis(b theta), each accurate to
// delta <= 2^-54 + 2^-62, an entry is one complex product (angle addition, A&S 4.3.16/4.3.17):
//   cos(m theta) = Ac Ec - As Es,  sin(m theta) = As Ec + Ac Es.
// Error of an entry, all in double: |Ac Ec - Ac* Ec*| <= 2 delta + delta^2 per product (|cos|, |sin|
// <= 1), the two product roundings <= 2^-53 (|Ac Ec| + |As Es|) <= 2^-53 (1 + 4 delta) (Cauchy-
// Schwarz), the final rounding <= 2^-53: total <= 4 delta + 2^-52 + 2^-50 delta < 0x1.02p-51, plus
// the frequency's own error rows |theta| eps for rope_theta. The rounding test then decides each
// entry (inline for float, detail::ziv_round otherwise); an entry that fails, and every entry of a
// double table, comes from the scalar function (rope_sincos / sincos_product: fast path, then mp).
// The anchors use the scalar fast path's reduction and fast kernel, rounded to double.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/math/detail/trig_kernel.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/reduce.hpp"
#include "posenc/math/rope_angle.hpp"
#include "posenc/math/round.hpp"
#include "posenc/math/sincos_result.hpp"

namespace posenc::detail {

inline constexpr std::size_t rope_block_max = 128;

// cis(n theta) rounded to double, |error| <= 2^-54 + 2^-62 per component (fast kernel 2^-64, the
// reduction 2^-94 for |phi| < 0x1.8p30, the angle 2^-72, the final rounding half an ulp <= 2^-54).
// false when the angle is out of the fast path's range.
constexpr bool rope_anchor(std::uint64_t n, math::double_double theta, double& c, double& s) noexcept {
  if (n == 0) {
    c = 1.0;
    s = 0.0;
    return true;
  }
  rope_phase phi{};
  reduced rd{};
  if (!rope_angle(n, theta, phi) || !reduce_pio2(phi.hi, phi.lo, rd)) return false;
  const trig_kernel_out k = trig_kernel_fast(rd.hi, rd.lo, true, true);
  const double sr = k.sin_r.hi + k.sin_r.lo, cr = k.cos_r.hi + k.cos_r.lo;
  const int q = rd.quadrant;  // cis(r + q pi/2) = i^q cis(r)
  c = q == 0 ? cr : q == 1 ? -sr : q == 2 ? -cr : sr;
  s = q == 0 ? sr : q == 1 ? cr : q == 2 ? -sr : -cr;
  return true;
}

// One column: out[m * stride] = cos/sin of m theta for m < rows; rel_err = theta's relative error;
// scalar(m) is the full scalar function used when an entry fails its rounding test.
// valid = false sends every entry to scalar.
template <class T, class Scalar>
constexpr void rope_column(std::uint64_t rows, math::double_double theta, double rel_err, bool valid,
                           std::size_t stride, math::sincos_result<T>* out, Scalar scalar) noexcept {
  std::size_t bsize = 1;
  while (bsize < rope_block_max && std::uint64_t{bsize} * bsize < rows) bsize *= 2;
  double ec[rope_block_max] = {}, es[rope_block_max] = {};
  bool ok = valid && !std::is_same_v<T, double>;  // anchors at 2^-54 cannot round double results
  for (std::size_t b = 0; ok && b < bsize && b < rows; ++b) ok = rope_anchor(b, theta, ec[b], es[b]);
  const double at = theta.hi < 0 ? -theta.hi : theta.hi;
  // Test radius: 0x1.02p-51 (see the top), the frequency error, and for the inline float test 2^-53 so
  // that RN(c +- e) still encloses [c - e0, c + e0] (|c| <= 1 + 2^-50, half an ulp <= 2^-53).
  const double e0 = 0x1.02p-51 + static_cast<double>(rows) * at * (rel_err * 1.0000001);
  const double e = std::is_same_v<T, float> ? e0 + 0x1p-53 : e0;
  std::size_t idx = 0;
  for (std::uint64_t m0 = 0; m0 < rows; m0 += bsize) {
    double ac = 0.0, as = 0.0;
    if (ok) ok = rope_anchor(m0, theta, ac, as);
    for (std::size_t b = 0; b < bsize && m0 + b < rows; ++b, idx += stride) {
      if (!ok || m0 + b == 0) {
        out[idx] = scalar(m0 + b);
        continue;
      }
      const double c = ac * ec[b] - as * es[b];
      const double s = as * ec[b] + ac * es[b];
      if constexpr (std::is_same_v<T, float>) {
        // double -> float conversion rounds to nearest-even (IEEE default; GCC's and Clang's constant
        // evaluators, SSE2 at run time). RN_float is monotone, so equal roundings of both ends prove
        // that every real between them rounds alike.
        const float c0 = static_cast<float>(c - e), c1 = static_cast<float>(c + e);
        const float s0 = static_cast<float>(s - e), s1 = static_cast<float>(s + e);
        if (c0 == c1 && s0 == s1) {
          out[idx] = {s0, c0};
          continue;
        }
      } else {
        math::sincos_result<T> r{};
        if (ziv_round<T>(s, 0.0, e, r.sin) && ziv_round<T>(c, 0.0, e, r.cos)) {
          out[idx] = r;
          continue;
        }
      }
      out[idx] = scalar(m0 + b);
    }
  }
}

}  // namespace posenc::detail

namespace posenc::math {

// out[m * count + j] = sincos_product<T>(m, theta[j]) for m < rows, j < count (row-major, rows
// positions by count frequencies), bitwise. out must hold rows * count entries.
template <class T = double>
constexpr void sincos_product_table(std::uint64_t rows, const double_double* theta, std::size_t count,
                                    sincos_result<T>* out) noexcept {
  for (std::size_t j = 0; j < count; ++j) {
    const double_double t = theta[j];
    const auto scalar = [t](std::uint64_t m) { return sincos_product<T>(m, t); };
    detail::rope_column<T>(rows, t, 0.0, true, count, out + j, scalar);
  }
}

// out[m * (d/2) + j] = rope_sincos<T>(m, base, j, d) for m < rows, j < d/2, bitwise: the RoPE
// cos/sin table of one head, correctly rounded. out must hold rows * (d/2) entries.
template <class T = double>
constexpr void rope_sincos_table(std::uint64_t rows, double base, int d, sincos_result<T>* out) noexcept {
  const int pairs = d / 2;
  const bool valid = detail::rope_args_valid(base, 0, d);
  for (int j = 0; j < pairs; ++j) {
    const auto scalar = [base, j, d](std::uint64_t m) { return rope_sincos<T>(m, base, j, d); };
    const double_double theta = valid ? rope_theta(base, j, d) : double_double{};
    detail::rope_column<T>(rows, theta, rope_theta_max_rel_error, valid, static_cast<std::size_t>(pairs),
                           out + j, scalar);
  }
}

}  // namespace posenc::math
