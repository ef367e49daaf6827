// alibi_geometric_slopes.hpp: law "ALiBi's slopes are geometric within each power-of-two group"
// (Press et al., ICLR 2022, sec. 3; get_slopes of the reference code, BLOOM, MPT, ggml): with
// c = 2^floor(log2 heads) and r = 2^(-max_bias / c), the first c heads have m_h = r^(h + 1) and the
// heads past c m_h = r^(h - c + 1/2). So m_h = r m_{h-1} = m_0 m_{h-1} for 0 < h < c and for
// h > c, and m_c^2 = m_0 (the extra group starts halfway, in the exponent, before m_0).
// Measured, for each head h >= 1: q_h = m_h / (m_0 m_{h-1}) (h != c) or m_c^2 / m_0 (h = c), held to
// |q_h - 1| <= alibi_slope_ratio_bound<T>() = (3u + u^2) / (1 - u)^2 + 3 x 2^-53 (docs/laws.md
// section 7: three values each within u relative of the true slope, and the ratio's evaluation in
// double). Bound assumes normal slopes: a slope below T's smallest normal (float16 from 2^-14, a
// max_bias near 960 in the other types) is not checked.
// q15/q31 slopes (alibi/fixed_point_slopes.hpp; none saturates, slopes are in (0, 1)) err
// absolutely, by at most e = 2^-(F+1): a stored slope m~ stands for a true one within e, so its
// relative error is at most eps = e / (m~ - e), and |q_h - 1| <= N / D - 1 with N the product of
// (1 + eps) over the numerator's factors, D that of (1 - eps) over the denominator's, plus the same
// 3 x 2^-53 of evaluation, per head (alibi_slope_ratio_bound(m0, prev, mh, group_start),
// docs/fixed-point.md). A stored slope under 2 steps (relative error up to 1) is not checked.
//   constexpr auto m = posenc::alibi::make_slopes<float, 16>(cfg).value;
//   static_assert(laws::alibi_geometric_slopes(m, cfg).holds);
// Index: the head h (the pair field; position and element -1). Invalid config or a span of another
// length: head -1 (require names table_shape_or_description_invalid).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/alibi/config.hpp"
#include "posenc/alibi/slopes.hpp"
#include "posenc/laws/bounds.hpp"
#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"

namespace posenc::laws::failed {

// Where a failing alibi_geometric_slopes stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool alibi_geometric_slopes(std::int64_t head, std::int64_t position, std::int64_t element) noexcept {
  return at_head<alibi_geometric_slopes>(head) && position + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity alibi_geometric_slopes{failed::alibi_geometric_slopes, law_indices::head};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class T>
constexpr double alibi_slope_ratio_bound() noexcept {
  const double u = unit_roundoff<T>();
  return (3 * u + u * u) / ((1 - u) * (1 - u)) + 3 * 0x1p-53;
}

// The bound of head h's ratio from the stored values it reads (m0, prev = m_{h-1}, mh; group_start:
// h = c, the ratio m_c^2 / m_0): T's constant bound above for a floating T; for q15/q31 the
// absolute error 2^-(F+1) of each value taken relative to it (docs/fixed-point.md), times
// 1 + 2^-40 for the bound's own evaluation.
template <class T>
constexpr double alibi_slope_ratio_bound(double m0, double prev, double mh, bool group_start) noexcept {
  if constexpr (posenc::fixed_point_type<T>) {
    const double e = posenc::detail::pow2(-posenc::fixed_format<T>::fraction_bits - 1);
    const double e0 = e / (m0 - e), ep = e / (prev - e), eh = e / (mh - e);
    const double n = group_start ? (1 + eh) * (1 + eh) : 1 + eh;
    const double d = group_start ? 1 - e0 : (1 - e0) * (1 - ep);
    return (n / d - 1) * (1 + 0x1p-40) + 3 * 0x1p-53;
  } else {
    (void)m0, (void)prev, (void)mh, (void)group_start;
    return alibi_slope_ratio_bound<T>();
  }
}

namespace detail {

// Whether the slope laws read x: a normal value of a floating T; a q15/q31 value of 2 steps or more
// (a relative error below 1/3, docs/fixed-point.md).
template <class T>
constexpr bool normal_value(double x) noexcept {
  if constexpr (posenc::fixed_point_type<T>)
    return x >= posenc::detail::pow2(1 - posenc::fixed_format<T>::fraction_bits);
  else
    return x >= posenc::detail::pow2(posenc::detail::float_format<T>::min_exponent);
}

}  // namespace detail

template <class T>
constexpr law_result alibi_geometric_slopes(std::span<const T> m, const alibi::config& c) noexcept {
  law_result r = make_result("alibi geometric slopes: m_h = m_0 m_{h-1} within each power-of-two group, m_c^2 = m_0",
                             &kind::alibi_geometric_slopes);
  if (!alibi::validate(c).ok() || m.size() != static_cast<std::size_t>(c.heads)) {
    r.require(false, {-1, -1, -1});
    return r;
  }
  const int group = alibi::power_group(c.heads);
  const double m0 = detail::to_double(m[0]);
  for (int h = 1; h < c.heads; ++h) {
    const double mh = detail::to_double(m[static_cast<std::size_t>(h)]);
    const double prev = detail::to_double(m[static_cast<std::size_t>(h - 1)]);
    if (!detail::normal_value<T>(mh) || !detail::normal_value<T>(prev) || !detail::normal_value<T>(m0)) {
      if (mh != mh || prev != prev || m0 != m0 || mh < 0 || prev < 0 || m0 < 0)
        r.add(2.0, alibi_slope_ratio_bound<T>(1, 1, 1, false), {-1, h, -1});  // a NaN or a negative slope
      continue;
    }
    const double bound = alibi_slope_ratio_bound<T>(m0, prev, mh, h == group);
    const double q = h == group ? mh * mh / m0 : mh / (m0 * prev);
    const double dev = q > 1 ? q - 1 : 1 - q;
    r.add(dev, bound, {-1, h, -1});
  }
  return r;
}

// Arrays and std::array of slopes.
template <class T, std::size_t N>
constexpr law_result alibi_geometric_slopes(const T (&m)[N], const alibi::config& c) noexcept {
  return alibi_geometric_slopes(std::span<const T>(m), c);
}
template <class T, std::size_t N>
constexpr law_result alibi_geometric_slopes(const std::array<T, N>& m, const alibi::config& c) noexcept {
  return alibi_geometric_slopes(std::span<const T>(m), c);
}

}  // namespace posenc::laws
