// relative_dot.hpp: law "attention scores depend on relative position only" (RoFormer, Su et al.,
// arXiv:2104.09864, section 3.2, eq. 16: (R_m q)^T (R_n k) = q^T R_{n-m} k):
//  exact:  |<R_m q, R_n k> - <q, R_{n-m} k>| <= 2^-240 |q| |k|   (exact rotation in MPFR: each
//          entry is within 2^-250 of cos/sin(m theta_j), see detail/exact.hpp; 2^-240 leaves room
//          for a few hundred such errors; any real discrepancy of the formula is ~1, not 2^-240)
//  table:  |<R~_m q, R~_n k> - <q, R_{n-m} k>| <= (2 u_t + u_t^2) |q| |k|   (bounds.hpp table_dot)
// q and k are rotary_dim doubles (pairs (2j, 2j+1)); n >= m.
#pragma once

#include <cstdint>
#include <vector>

#include "posenc/rope/config.hpp"
#include "posenc/verify/law_measures/bounds.hpp"
#include "posenc/verify/law_measures/detail/exact.hpp"
#include "posenc/verify/law_measures/report.hpp"

namespace posenc::verify::law_measures {

inline constexpr double exact_law_tolerance = 0x1p-240;

// The law on given rows: |<R(tm) q, R(tn) k> - <q, R(rel) k>| <= bound |q| |k|. The checkers below
// call it with exact or rounded rows; tests call it with rows crafted just inside and past the bound.
inline law_report check_relative_dot_rows(const char* law, const char* rows, const std::vector<double>& q,
                                          const std::vector<double>& k, const cs_row& tm, const cs_row& tn,
                                          const cs_row& rel, double bound, std::uint64_t m, std::uint64_t n) {
  law_report r = make_report(law);
  const xvec Q = to_exact(q), K = to_exact(k);
  const exact_real scale = norm(Q) * norm(K);
  const double e = static_cast<double>(abs(dot(rotate(Q, tm), rotate(K, tn)) - dot(Q, rotate(K, rel))) / scale);
  r.add(e, bound, [&] {
    return describe("%s, m=%llu n=%llu: relative error %.3e", rows, static_cast<unsigned long long>(m),
                    static_cast<unsigned long long>(n), e);
  });
  return r;
}

// The exact rotation (ex = exact_rows(c), built once per config: it holds the 320-bit frequencies).
inline law_report check_relative_dot_exact(const exact_rows& ex, const std::vector<double>& q,
                                           const std::vector<double>& k, std::uint64_t m, std::uint64_t n) {
  return check_relative_dot_rows("relative position, exact rotation (MPFR)", "exact rotation", q, k, ex.at(m), ex.at(n),
                                 ex.at(n - m), exact_law_tolerance, m, n);
}

// 2 u_t + u_t^2 for a correctly rounded table of T against the exact R_{n-m}: the core's
// table_dot_bound (posenc/laws/bounds.hpp; the constexpr law laws::relative_dot compares two rounded
// blocks with each other, so it holds them to twice this).
template <class T>
constexpr double relative_dot_bound() noexcept {
  return ::posenc::laws::table_dot_bound<T>();
}

// The correctly rounded table of T against the exact R_{n-m} (from ex, the exact rows of c).
template <class T>
law_report check_relative_dot(const rope::config& c, const exact_rows& ex, const std::vector<double>& q,
                              const std::vector<double>& k, std::uint64_t m, std::uint64_t n) {
  bool ok = true;
  const cs_row tm = rounded_row<T>(c, m, ok), tn = rounded_row<T>(c, n, ok);
  law_report r = check_relative_dot_rows("relative position <R~_m q, R~_n k> vs <q, R_{n-m} k>, rounded table",
                                         "rounded table", q, k, tm, tn, ex.at(n - m), relative_dot_bound<T>(), m, n);
  r.require(ok, [&] {
    return describe("m=%llu n=%llu: the library reported an error", static_cast<unsigned long long>(m),
                    static_cast<unsigned long long>(n));
  });
  return r;
}

}  // namespace posenc::verify::law_measures
