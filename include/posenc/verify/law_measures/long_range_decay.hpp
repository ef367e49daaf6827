// long_range_decay.hpp: RoFormer's long-term decay (Su et al., "RoFormer", arXiv:2104.09864,
// section 3.4.3 and its Figure 2). With n = d/2 pairs, relative distance r = m - n_pos and
// S_j(r) = sum_{k=0}^{j-1} e^{i r theta_k} (S_0 = 0), Abel summation gives, with h_n = 0,
//   sum_{j=0}^{n-1} h_j e^{i r theta_j} = sum_{j=1}^{n} (h_{j-1} - h_j) S_j(r)
//   =>  |sum_j h_j e^{i r theta_j}| <= (max_j |h_{j+1} - h_j|) sum_{j=1}^{n} |S_j(r)|      (B)
// and the paper observes that A(r) = (1/n) sum_{j=1}^{n} |S_j(r)| decays as r grows. A(r) is not
// monotone (it oscillates), so what is checked is stated exactly:
//   (B)  for the caller's h (complex, as in the paper's q^T-k pair products) at every r checked,
//        within a relative rounding margin of 2^-40 (all sums in double, n <= 2^15 terms);
//   (D1) the octave means mean_k = avg_{2^k <= r < 2^{k+1}} A(r) (every integer r) strictly
//        decrease for k = 1 .. mean_octaves-1 (measured: ratio mean_k / mean_{k-1}, bound 1);
//   (D2) the octave maxima max_{2^k <= r < 2^{k+1}} A(r) do not increase for k < max_octaves;
//   (D3) A(r) < A(0) = (n+1)/2 for every checked r >= 1.
// For d = 128, base 1e4 (RoFormer's setting): D1 holds up to r < 2^13 (past r ~ base the means
// level off near 4.7), D2 up to r < 2^8 (the range of the paper's Figure 2). e^{i r theta_j} is
// cos/sin of the exact product r theta_j, theta_j the library's double-double frequency
// (rope::frequency_dd, relative error <= 2^-60), correctly rounded (math::sincos_product).
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <vector>

#include "posenc/math/sincos_product.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/verify/law_measures/report.hpp"

namespace posenc::verify::law_measures {

struct decay_figures {
  std::vector<double> octave_mean, octave_max;  // per octave k of r
  double a0 = 0;                                // A(0) = (n + 1) / 2
};

// A(r) and, for the caller's h, the two sides of (B).
inline double decay_average(const std::vector<math::double_double>& theta, std::uint64_t r,
                            const std::vector<std::complex<double>>& h, double& lhs, double& rhs) {
  std::complex<double> s = 0, sum_h = 0;
  double total = 0, dh = 0;
  const std::size_t n = theta.size();
  for (std::size_t j = 0; j < n; ++j) {
    const auto e = math::sincos_product<double>(r, theta[j]).value;  // finite theta: ok
    const std::complex<double> z(e.cos, e.sin);
    s += z;  // S_{j+1}
    total += std::abs(s);
    if (!h.empty()) {
      sum_h += h[j] * z;
      const std::complex<double> next = j + 1 < n ? h[j + 1] : std::complex<double>(0);
      dh = std::max(dh, std::abs(next - h[j]));
    }
  }
  lhs = std::abs(sum_h);
  rhs = dh * total;
  return total / static_cast<double>(n);
}

inline law_report check_long_range_decay(const rope::config& c, const std::vector<std::complex<double>>& h,
                                         int mean_octaves = 13, int max_octaves = 8, decay_figures* out = nullptr) {
  law_report r = make_report("RoFormer long-term decay (sec. 3.4.3)");
  const int n = rope::rotary_dim(c) / 2;
  std::vector<math::double_double> theta(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    const auto f = rope::frequency_dd(c, j);
    r.require(f.ok(), [&] { return describe("j=%d: frequency_dd failed", j); });
    theta[static_cast<std::size_t>(j)] = f.value;
  }
  decay_figures fig;
  fig.a0 = (n + 1) / 2.0;
  const int octaves = std::max(mean_octaves, max_octaves);
  for (int k = 0; k < octaves; ++k) {
    double sum = 0, mx = 0;
    const std::uint64_t lo = std::uint64_t{1} << k, hi = lo << 1;
    for (std::uint64_t d = lo; d < hi; ++d) {
      double lhs = 0, rhs = 0;
      const double a = decay_average(theta, d, h, lhs, rhs);
      sum += a;
      mx = std::max(mx, a);
      if (!h.empty())
        r.add(lhs, rhs * (1 + 0x1p-40) + 0x1p-900, [&] {
          return describe("(B) r=%llu: |sum h e| = %.17g > bound %.17g", static_cast<unsigned long long>(d), lhs, rhs);
        });
      r.add(a, fig.a0 * (1 - 0x1p-40), [&] {
        return describe("(D3) r=%llu: A(r) = %.17g >= A(0) = %.17g", static_cast<unsigned long long>(d), a, fig.a0);
      });
    }
    fig.octave_mean.push_back(sum / static_cast<double>(hi - lo));
    fig.octave_max.push_back(mx);
    const auto kk = static_cast<std::size_t>(k);
    if (k >= 1 && k < mean_octaves)
      r.add(fig.octave_mean[kk] / fig.octave_mean[kk - 1], 1.0 - 0x1p-40, [&] {
        return describe("(D1) octave %d mean %.6g >= octave %d mean %.6g", k, fig.octave_mean[kk], k - 1,
                        fig.octave_mean[kk - 1]);
      });
    if (k >= 1 && k < max_octaves)
      r.add(fig.octave_max[kk] / fig.octave_max[kk - 1], 1.0, [&] {
        return describe("(D2) octave %d max %.6g > octave %d max %.6g", k, fig.octave_max[kk], k - 1,
                        fig.octave_max[kk - 1]);
      });
  }
  if (out != nullptr) *out = fig;
  return r;
}

}  // namespace posenc::verify::law_measures
