// llama3_bands.hpp: law "Llama-3 scaling has three bands" (HF _compute_llama3_parameters; Meta
// llama-models apply_scaling): with wavelen_j = 2 pi / theta_j (theta_j = b^(-2j/d) exact),
//   wavelen < L0 / high_freq_factor:  keep     (inv_freq == the default frequency, bits)
//   wavelen > L0 / low_freq_factor:   divided  (inv_freq == the linear frequency / factor, bits)
//   otherwise:                        smoothed (strictly between the two)
// The band of each pair is decided here independently in MPFR (the wavelength against both
// thresholds at about 333 bits) and must equal rope::llama3_band_of; the bands come in order
// keep, smoothed, divided as j grows; every band is non-empty when require_all_bands.
#pragma once

#include <mpfr.h>

#include "posenc/rope/config.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/verify/exact_real.hpp"
#include "posenc/verify/law_measures/report.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/rope_oracle.hpp"

namespace posenc::verify::law_measures {

inline law_report check_llama3_bands(const rope::config& c, bool require_all_bands = true) {
  law_report r = make_report("Llama-3 bands: keep / smoothed / divided");
  rope::config ext = c;
  ext.rope_type = rope::scaling::default_;
  rope::config itp = c;
  itp.rope_type = rope::scaling::linear;
  const int d = rope::rotary_dim(c);
  const exact_real L0 = static_cast<double>(c.original_max_position_embeddings);
  const exact_real hi_wl = L0 / c.high_freq_factor, lo_wl = L0 / c.low_freq_factor;
  exact_real two_pi;
  mpfr_const_pi(two_pi.backend().data(), MPFR_RNDN);
  two_pi *= 2;
  int count[3] = {0, 0, 0}, last = 0;
  for (int j = 0; j < d / 2; ++j) {
    const exact_real wl = two_pi / exact_rope_theta(c.rope_theta, j, d);
    const int want = wl < hi_wl ? 0 : wl > lo_wl ? 2 : 1;
    const auto b = rope::llama3_band_of(c, j);
    const double f = rope::inv_freq(c, j).value, e = rope::inv_freq(ext, j).value, i = rope::inv_freq(itp, j).value;
    const bool value_ok = want == 0 ? f == e : want == 2 ? f == i : (i < f && f < e);
    const bool ok = b.ok() && static_cast<int>(b.value) == want && value_ok && want >= last;
    r.require(ok, [&] {
      return describe("j=%d: MPFR band %d, library band %d, inv_freq %a, default %a, divided %a", j, want,
                      static_cast<int>(b.value), f, e, i);
    });
    ++count[want];
    last = want;
  }
  if (require_all_bands)
    r.require(count[0] > 0 && count[1] > 0 && count[2] > 0,
              [&] { return describe("empty band: keep %d smoothed %d divided %d", count[0], count[1], count[2]); });
  return r;
}

}  // namespace posenc::verify::law_measures
