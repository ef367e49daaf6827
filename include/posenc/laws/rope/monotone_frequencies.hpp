// monotone_frequencies.hpp: law "the frequencies strictly decrease with the pair": for j >= 1,
// f[j] < f[j-1], all positive. RoFormer's theta_j = b^(-2j/d) (Su et al., arXiv:2104.09864, eq. 15)
// is a decreasing geometric series, and so are the scalings that multiply it by one factor or blend
// two such series by a ramp that keeps the order (HF modeling_rope_utils.py): linear, NTK, dynamic
// NTK, YaRN, Llama-3. Not every scaling: LongRoPE divides each pair by its own factor (short_factor
// / long_factor, rotary_dim/2 values from a search), which can break the order (two equal
// frequencies fail it); HF v5's proportional scaling has zeros past the rotating pairs, which fail
// it. (posenc/verify/law_measures/decreasing.hpp, the MPFR layer's check over the registry's configs, uses
// this law's definition of a step.)
//
// Measured value of step j: f[j] / f[j-1] in double, held to decreasing_ratio_bound = 1 - 2^-53,
// the largest double below 1 (strict: equality fails); a zero, negative or NaN frequency measures 2
// (laws/bounds.hpp). Index: pair j (the later of the two), position and element -1.
//   static_assert(posenc::laws::monotone_frequencies(my_inv_freq).holds);         // span/array
//   static_assert(posenc::laws::monotone_frequencies(posenc::rope::config{...}).holds);
// The config overload evaluates rope::inv_freq<double>(c, j), correctly rounded; a config that fails
// rope::validate fails the law at "the table".
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/laws/bounds.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/frequencies.hpp"

namespace posenc::laws::failed {

// Where a failing monotone_frequencies stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool monotone_frequencies(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_pair<monotone_frequencies>(pair) && position + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity monotone_frequencies{failed::monotone_frequencies, law_indices::rotary};

}  // namespace posenc::laws::kind

namespace posenc::laws {

namespace detail {

constexpr law_result monotone_result() noexcept {
  return make_result("monotone frequencies: f[j] < f[j-1], all positive", &kind::monotone_frequencies);
}

constexpr void monotone_step(law_result& r, double prev, double next, std::size_t j) noexcept {
  r.add(decreasing_ratio(prev, next), decreasing_ratio_bound, {-1, static_cast<std::int64_t>(j), -1});
}

}  // namespace detail

constexpr law_result monotone_frequencies(std::span<const double> f) noexcept {
  law_result r = detail::monotone_result();
  if (!f.empty() && !(f[0] > 0)) r.add(2.0, decreasing_ratio_bound, {-1, 0, -1});  // f[0] must be positive too
  for (std::size_t j = 1; j < f.size(); ++j) detail::monotone_step(r, f[j - 1], f[j], j);
  return r;
}

constexpr law_result monotone_frequencies(std::span<const float> f) noexcept {
  law_result r = detail::monotone_result();
  if (!f.empty() && !(f[0] > 0)) r.add(2.0, decreasing_ratio_bound, {-1, 0, -1});
  for (std::size_t j = 1; j < f.size(); ++j) detail::monotone_step(r, f[j - 1], f[j], j);
  return r;
}

// The config's own inv_freq (every scaling), rope::inv_freq<double>.
constexpr law_result monotone_frequencies(const rope::config& c) noexcept {
  law_result r = detail::monotone_result();
  if (!rope::validate(c).ok()) {
    r.require(false, {});
    return r;
  }
  const int half = rope::rotary_dim(c) / 2;
  double prev = 0;
  for (int j = 0; j < half; ++j) {
    const auto f = rope::inv_freq<double>(c, j);
    if (!f.ok()) {
      r.require(false, {-1, j, -1});
      return r;
    }
    if (j == 0 && !(f.value > 0)) r.add(2.0, decreasing_ratio_bound, {-1, 0, -1});
    if (j > 0) detail::monotone_step(r, prev, f.value, static_cast<std::size_t>(j));
    prev = f.value;
  }
  return r;
}

}  // namespace posenc::laws
