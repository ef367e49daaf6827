// composition.hpp: law "rotations compose": R_m R_n = R_{m+n} (the group property behind RoFormer
// eq. 16; R_m = diag of 2x2 rotations by m theta_j, Su et al. arXiv:2104.09864 eq. 15), on a vector q:
//  exact:  ||R_m R_n q - R_{m+n} q|| <= 2^-240 ||q||            (MPFR rotation, detail/exact.hpp)
//  table:  ||R~_m R~_n q - R~_{m+n} q|| <= (3 u_t + u_t^2) ||q||  (bounds.hpp table_law: R~ = R + E,
//          ||E|| <= u_t, so R~_m R~_n - R~_{m+n} = E_m R_n + R_m E_n + E_m E_n - E_{m+n})
#pragma once

#include <cstdint>
#include <vector>

#include "posenc/rope/config.hpp"
#include "posenc/verify/law_measures/bounds.hpp"
#include "posenc/verify/law_measures/detail/exact.hpp"
#include "posenc/verify/law_measures/relative_dot.hpp"
#include "posenc/verify/law_measures/report.hpp"

namespace posenc::verify::law_measures {

// The law on given rows: ||R(tm) R(tn) q - R(tmn) q|| <= bound ||q||. The checkers below call it
// with exact or rounded rows; tests call it with rows crafted just inside and just past the bound.
inline law_report check_composition_rows(const char* law, const char* rows, const std::vector<double>& q,
                                         const cs_row& tm, const cs_row& tn, const cs_row& tmn, double bound,
                                         std::uint64_t m, std::uint64_t n) {
  law_report r = make_report(law);
  const xvec Q = to_exact(q);
  const double e = static_cast<double>(distance(rotate(rotate(Q, tn), tm), rotate(Q, tmn)) / norm(Q));
  r.add(e, bound, [&] {
    return describe("%s, m=%llu n=%llu: relative error %.3e", rows, static_cast<unsigned long long>(m),
                    static_cast<unsigned long long>(n), e);
  });
  return r;
}

inline law_report check_composition_exact(const exact_rows& ex, const std::vector<double>& q, std::uint64_t m,
                                          std::uint64_t n) {
  return check_composition_rows("composition R_m R_n = R_{m+n}, exact rotation (MPFR)", "exact rotation", q, ex.at(m),
                                ex.at(n), ex.at(m + n), exact_law_tolerance, m, n);
}

// 3 u_t + u_t^2 for a correctly rounded table of T: the core's table_law_bound (posenc/laws/bounds.hpp;
// the constexpr law laws::composition adds only its own evaluation's slack to it).
template <class T>
constexpr double composition_bound() noexcept {
  return ::posenc::laws::table_law_bound<T>();
}

template <class T>
law_report check_composition(const rope::config& c, const std::vector<double>& q, std::uint64_t m, std::uint64_t n) {
  bool ok = true;
  const cs_row tm = rounded_row<T>(c, m, ok), tn = rounded_row<T>(c, n, ok), tmn = rounded_row<T>(c, m + n, ok);
  law_report r = check_composition_rows("composition R~_m R~_n = R~_{m+n}, rounded table", "rounded table", q, tm, tn,
                                        tmn, composition_bound<T>(), m, n);
  r.require(ok, [&] {
    return describe("m=%llu n=%llu: the library reported an error", static_cast<unsigned long long>(m),
                    static_cast<unsigned long long>(n));
  });
  return r;
}

}  // namespace posenc::verify::law_measures
