// composition.hpp: law "rotations compose": R_m R_n = R_{m+n} (the group property behind RoFormer
// eq. 16; R_m = diag of 2x2 rotations by m theta_j, Su et al. arXiv:2104.09864 eq. 15), on a vector q:
//  exact:  ||R_m R_n q - R_{m+n} q|| <= 2^-240 ||q||            (MPFR rotation, detail/exact.hpp)
//  table:  ||R~_m R~_n q - R~_{m+n} q|| <= (3 u_t + u_t^2) ||q||  (bounds.hpp table_law: R~ = R + E,
//          ||E|| <= u_t, so R~_m R~_n - R~_{m+n} = E_m R_n + R_m E_n + E_m E_n - E_{m+n})
#pragma once

#include <cstdint>
#include <vector>

#include "posenc/rope/config.hpp"
#include "posenc/verify/laws/bounds.hpp"
#include "posenc/verify/laws/detail/exact.hpp"
#include "posenc/verify/laws/relative_dot.hpp"
#include "posenc/verify/laws/report.hpp"

namespace posenc::verify::laws {

inline law_report check_composition_exact(const exact_rows& ex, const std::vector<double>& q, std::uint64_t m,
                                          std::uint64_t n) {
  law_report r = make_report("composition R_m R_n = R_{m+n}, exact rotation (MPFR)");
  const xvec Q = to_exact(q);
  const double e = static_cast<double>(distance(rotate(rotate(Q, ex.at(n)), ex.at(m)), rotate(Q, ex.at(m + n))) / norm(Q));
  r.add(e, exact_law_tolerance, [&] {
    return describe("exact rotation, m=%llu n=%llu: relative error %.3e", static_cast<unsigned long long>(m),
                    static_cast<unsigned long long>(n), e);
  });
  return r;
}

template <class T>
law_report check_composition(const rope::config& c, const std::vector<double>& q, std::uint64_t m, std::uint64_t n) {
  law_report r = make_report("composition R~_m R~_n = R~_{m+n}, rounded table");
  const xvec Q = to_exact(q);
  bool ok = true;
  const cs_row tm = rounded_row<T>(c, m, ok), tn = rounded_row<T>(c, n, ok), tmn = rounded_row<T>(c, m + n, ok);
  r.require(ok, [&] { return describe("m=%llu n=%llu: the library reported an error", static_cast<unsigned long long>(m), static_cast<unsigned long long>(n)); });
  const double u = table_block_error<T>();
  const double e = static_cast<double>(distance(rotate(rotate(Q, tn), tm), rotate(Q, tmn)) / norm(Q));
  r.add(e, 3 * u + u * u, [&] {
    return describe("rounded table, m=%llu n=%llu: relative error %.3e", static_cast<unsigned long long>(m),
                    static_cast<unsigned long long>(n), e);
  });
  return r;
}

}  // namespace posenc::verify::laws
