// detail/exact.hpp: MPFR helpers of the rotation laws: exact (320-bit) cos/sin rows of a config,
// rows of a correctly rounded table loaded exactly, and 2x2 block rotations, dot products and
// norms of vectors of exact_real (about 333 bits, posenc/verify/mpfr.hpp).
//
// A vector holds rotary_dim elements as pairs (2j, 2j+1) (the math does not depend on the layout;
// layout.hpp's permutation is checked separately by laws/layout.hpp). Exact rows come from
// rope_table_oracle (rope_table_oracle.hpp): absolute error of each cos/sin below 2^-250.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "posenc/rope/angle.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/fixed_point_table.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/verify/exact_real.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/rope_table_oracle.hpp"

namespace posenc::verify::law_measures {

using xvec = std::vector<exact_real>;
struct cs_row {
  std::vector<exact_real> c, s;
};

// The exact rotation's entries of one config, cos/sin(m theta_j) at 320 bits.
class exact_rows {
 public:
  explicit exact_rows(const rope::config& c) : oracle_(c), pairs_(rope::rotary_dim(c) / 2) {}
  cs_row at(std::uint64_t m) const {
    cs_row r;
    rope_table_oracle::value v;
    for (int j = 0; j < pairs_; ++j) {
      oracle_.eval(m, j, false, v);
      r.c.emplace_back(exact_real(v.cos.get()) + (j == 0 ? perturb_cos0 : exact_real(0)));
      r.s.emplace_back(exact_real(v.sin.get()));
    }
    return r;
  }
  int pairs() const noexcept { return pairs_; }
  // Added to cos of pair 0 of every row: 0, except in tests that prove a checker can fail.
  exact_real perturb_cos0 = 0;

 private:
  rope_table_oracle oracle_;
  int pairs_;
};

// The correctly rounded entries rope::sincos<T>(c, m, j) (those of rope::table), exactly; for
// q15/q31 the row of rope::fill_pair_table<Q> at position m (fixed_point_table.hpp). ok = false
// when the library reports an error.
template <class T>
cs_row rounded_row(const rope::config& c, std::uint64_t m, bool& ok) {
  cs_row r;
  if constexpr (fixed_point_type<T>) {
    std::vector<math::sincos_result<T>> e(static_cast<std::size_t>(rope::rotary_dim(c) / 2));
    const std::uint64_t at[1] = {m};
    ok = ok &&
         rope::fill_pair_table<T>(c, std::span<const std::uint64_t>(at), std::span<math::sincos_result<T>>(e), false)
             .ok();
    for (const auto& x : e) {
      r.c.emplace_back(verify::detail::to_double(x.cos));
      r.s.emplace_back(verify::detail::to_double(x.sin));
    }
  } else {
    for (int j = 0; j < rope::rotary_dim(c) / 2; ++j) {
      const auto e = rope::sincos<T>(c, m, j);
      ok = ok && e.ok();
      r.c.emplace_back(verify::detail::to_double(e.value.cos));
      r.s.emplace_back(verify::detail::to_double(e.value.sin));
    }
  }
  return r;
}

// y = R x by the 2x2 blocks of r (inverse: R^T).
inline xvec rotate(const xvec& x, const cs_row& r, bool inverse = false) {
  xvec y(x.size());
  for (std::size_t j = 0; j < r.c.size(); ++j) {
    const exact_real s = inverse ? exact_real(-r.s[j]) : r.s[j];
    y[2 * j] = x[2 * j] * r.c[j] - x[2 * j + 1] * s;
    y[2 * j + 1] = x[2 * j] * s + x[2 * j + 1] * r.c[j];
  }
  return y;
}
inline exact_real dot(const xvec& a, const xvec& b) {
  exact_real t = 0;
  for (std::size_t i = 0; i < a.size(); ++i) t += a[i] * b[i];
  return t;
}
inline exact_real norm(const xvec& a) { return sqrt(dot(a, a)); }
inline exact_real distance(const xvec& a, const xvec& b) {
  exact_real t = 0;
  for (std::size_t i = 0; i < a.size(); ++i) t += (a[i] - b[i]) * (a[i] - b[i]);
  return sqrt(t);
}
template <class V>
xvec to_exact(const V& v) {
  xvec t;
  for (const auto& e : v) t.emplace_back(verify::detail::to_double(e));
  return t;
}

}  // namespace posenc::verify::law_measures
