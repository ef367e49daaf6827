// yarn_ramp.hpp: law "YaRN blends interpolation and extrapolation by a linear ramp" (Peng et al.,
// "YaRN", arXiv:2309.00071, eq. 18-20; HF _compute_yarn_parameters: inv_freq =
// interp (1 - mask) + extrap mask, mask = 1 - clamp((j - low) / (high - low), 0, 1)):
//   j <= low:        inv_freq[j] == the default (extrapolated) frequency, bit for bit;
//   j >= high:       inv_freq[j] == the linear (interpolated, / factor) frequency, bit for bit;
//   low < j < high:  strictly between the two.
// Both ends are exact equalities because the library rounds each exact real once: the same real
// gives the same bits. low/high from yarn_correction_range (truncated or not). The report also
// counts the pairs in each region (a ramp with an empty region is reported as a failure only if
// require_all_regions).
#pragma once

#include "posenc/rope/config.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/verify/law_measures/report.hpp"

namespace posenc::verify::law_measures {

struct yarn_regions {
  int below = 0, inside = 0, above = 0;
};

inline law_report check_yarn_ramp(const rope::config& c, bool require_all_regions = true, yarn_regions* out = nullptr) {
  law_report r = make_report("YaRN ramp: extrapolated / between / interpolated");
  rope::config ext = c;
  ext.rope_type = rope::scaling::default_;
  rope::config itp = c;
  itp.rope_type = rope::scaling::linear;
  const auto range = rope::yarn_correction_range(c);
  r.require(range.ok() && c.factor > 0, [] { return describe("%s", "yarn_correction_range failed or factor unset"); });
  if (!range.ok()) return r;
  yarn_regions g{};
  for (int j = 0; j < rope::rotary_dim(c) / 2; ++j) {
    const double f = rope::inv_freq(c, j).value, e = rope::inv_freq(ext, j).value, i = rope::inv_freq(itp, j).value;
    const double dj = j;
    const bool ok = dj <= range.low ? f == e : dj >= range.high ? f == i : (i < f && f < e);
    (dj <= range.low ? g.below : dj >= range.high ? g.above : g.inside) += 1;
    r.require(ok, [&] {
      return describe("j=%d (range %.6g..%.6g): inv_freq %a, extrapolated %a, interpolated %a", j, range.low,
                      range.high, f, e, i);
    });
  }
  if (require_all_regions)
    r.require(g.below > 0 && g.inside > 0 && g.above > 0,
              [&] { return describe("empty region: below %d inside %d above %d", g.below, g.inside, g.above); });
  if (out != nullptr) *out = g;
  return r;
}

}  // namespace posenc::verify::law_measures
