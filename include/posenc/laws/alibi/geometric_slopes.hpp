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

namespace detail {

template <class T>
constexpr bool normal_value(double x) noexcept {
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
  const double bound = alibi_slope_ratio_bound<T>();
  const int group = alibi::power_group(c.heads);
  const double m0 = detail::to_double(m[0]);
  for (int h = 1; h < c.heads; ++h) {
    const double mh = detail::to_double(m[static_cast<std::size_t>(h)]);
    const double prev = detail::to_double(m[static_cast<std::size_t>(h - 1)]);
    if (!detail::normal_value<T>(mh) || !detail::normal_value<T>(prev) || !detail::normal_value<T>(m0)) {
      if (mh != mh || prev != prev || m0 != m0 || mh < 0 || prev < 0 || m0 < 0)
        r.add(2.0, bound, {-1, h, -1});  // a NaN or a negative slope
      continue;
    }
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
