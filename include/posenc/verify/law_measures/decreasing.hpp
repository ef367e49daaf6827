// decreasing.hpp: law "inv_freq is strictly decreasing in j" for the scalings whose formula is
// monotone: b^(-2j/d) (RoFormer eq. 15) times a factor or a blend that keeps the order (linear,
// NTK, dynamic, YaRN, Llama-3: HF modeling_rope_utils.py). Not LongRoPE (per-pair factors) nor
// proportional (zero past the rotating pairs). Checked on the correctly rounded double values:
// for j >= 1, inv_freq[j] < inv_freq[j-1]; the measured value is inv_freq[j] / inv_freq[j-1],
// whose bound is 1 - 2^-53, the largest double below 1 (strict: equality fails); a zero frequency
// fails. Step and bound: posenc/laws/bounds.hpp (the constexpr law laws::monotone_frequencies).
#pragma once

#include "posenc/laws/bounds.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/verify/law_measures/report.hpp"

namespace posenc::verify::law_measures {

inline law_report check_inv_freq_decreasing(const rope::config& c) {
  law_report r = make_report("inv_freq strictly decreasing");
  const int half = rope::rotary_dim(c) / 2;
  for (int j = 1; j < half; ++j) {
    const auto a = rope::inv_freq<double>(c, j - 1), b = rope::inv_freq<double>(c, j);
    // The step and its bound are the constexpr law's (posenc/laws/bounds.hpp, used by
    // laws::monotone_frequencies): next / prev when both are positive, else 2; strict: ratio <=
    // 1 - 2^-53, the largest double below 1, so that equality fails. (The bound was once written
    // 1.0 - 0x1p-60, which rounds to 1.0 and let equality pass; tests/test_law_checkers.cpp feeds
    // two equal frequencies.)
    const double ratio = a.ok() && b.ok() ? ::posenc::laws::detail::decreasing_ratio(a.value, b.value) : 2.0;
    r.add(ratio, ::posenc::laws::decreasing_ratio_bound,
          [&] { return describe("j=%d: inv_freq %a, previous %a", j, b.value, a.value); });
  }
  return r;
}

}  // namespace posenc::verify::law_measures
