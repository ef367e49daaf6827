// real_position.hpp: RoPE cos/sin at a real position: a fractional or negative position, as the
// vision encoders use (EVA-02's interpolated positions i * pt / ft, normalised coordinates).
//
//   rope::sincos_at<T>(cfg, p, j)   {RN_T(sin(p theta_j)), RN_T(cos(p theta_j))}, p a double
//
// p is taken as the exact binary value it holds (a decimal the user wrote is rounded once to double,
// as every parameter), and the angle p theta_j is exact before the one rounding. Method: a finite
// double is p = (-1)^s m 2^e with m an integer below 2^53, so p theta_j = (m theta_j 2^e) and the
// integer-position engine (angle.hpp) runs on m with its frequency scaled by 2^e: a scaling by a
// power of two, exact in the double-double fast path and in the multiprecision fallback. A negative
// position negates sin (RN_T is symmetric: RN(-y) = -RN(y)); cos is even.
// Errors: domain_error for a non-finite p, |p| > rope::max_real_position, or what sincos reports.
#pragma once

#include <bit>
#include <cstdint>

#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/rope/angle.hpp"
#include "posenc/rope/checked_config.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/status.hpp"

namespace posenc::rope {

// The largest |position| of a real position: the tables' range (fill.hpp's max_table_position).
inline constexpr double max_real_position = 2097152.0;  // 2^21

// A position m 2^scale_exp, negated when negative: what the engine multiplies the frequency by.
struct real_position {
  std::uint64_t m = 0;
  int scale_exp = 0;
  bool negative = false;
  posenc::status error = posenc::status::ok;
  constexpr bool ok() const noexcept { return error == posenc::status::ok; }
};

// p split into an odd integer (or 0) and a power of two; integers come back with scale_exp 0.
constexpr real_position split_position(double p) noexcept {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(p);
  const int field = static_cast<int>((bits >> 52) & 0x7FF);
  if (field == 0x7FF || !(p <= max_real_position && p >= -max_real_position))
    return {0, 0, false, posenc::status::domain_error};
  std::uint64_t m = bits & 0xFFFFFFFFFFFFFu;
  int e = field == 0 ? -1074 : field - 1075;
  if (field != 0) m |= std::uint64_t{1} << 52;
  if (m == 0) return {};  // +0 and -0: the angle is 0
  const int tz = std::countr_zero(m);
  m >>= tz;
  e += tz;
  if (e > 0) {  // an integer (|p| <= 2^21, so no bit is lost)
    m <<= e;
    e = 0;
  }
  return {m, e, (bits >> 63) != 0, posenc::status::ok};
}

}  // namespace posenc::rope

namespace posenc::rope::detail {

// -x for a storage type: its sign bit flipped (bfloat16 and float16 are bit containers).
template <class T>
constexpr T negated(T x) noexcept {
  if constexpr (requires { x.bits; }) {
    x.bits = static_cast<decltype(x.bits)>(x.bits ^ (1u << (8 * sizeof(x.bits) - 1)));
    return x;
  } else {
    return -x;
  }
}

// The entry of pair j at a split position, frequency f = frequency_dd(c, j) evaluated by the caller.
template <class T>
constexpr posenc::result<math::sincos_result<T>> sincos_at_split(const rope::config& c, const rope::frequency_value& f,
                                                                 const attention_value* af, const real_position& p,
                                                                 int j) noexcept {
  auto r = sincos_with<T>(c, f, af, p.m, j, p.scale_exp);
  if (p.negative && p.m != 0) r.value.sin = negated(r.value.sin);
  return r;
}

}  // namespace posenc::rope::detail

namespace posenc::rope {

// {RN_T(sin(p theta_j)), RN_T(cos(p theta_j))} at the real position p.
template <class T = double>
constexpr posenc::result<math::sincos_result<T>> sincos_at(const checked_config& c, double p, int j) noexcept {
  if (!rope::detail::pair_ok(c, j)) return {{}, posenc::status::domain_error};
  const real_position rp = split_position(p);
  if (!rp.ok()) return {{}, rp.error};
  const frequency_value f = frequency_dd(c, j);
  if (!f.ok()) return {{}, f.error};
  return rope::detail::sincos_at_split<T>(c.get(), f, nullptr, rp, j);
}

}  // namespace posenc::rope
