// orthogonality.hpp: law "every 2x2 block of a correctly rounded table is orthogonal up to its
// rounding": |c~^2 + s~^2 - 1| <= 2 u + u^2 (+ 2^-26 for float16), u = 2^-p of T.
// Bound and derivation: proofs/rope_table.cpp law 3 (also tests/test_rope_apply.cpp's header);
// R~^T R~ = (c~^2 + s~^2) I, so this is exactly the deviation of R~ from orthogonality.
// c~^2 + s~^2 - 1 is evaluated exactly (about 333-bit exact_real; the squares of T values need at
// most 2 x 53 bits). Plain tables (no folded attention factor).
#pragma once

#include <cstddef>

#include "posenc/rope/table.hpp"
#include "posenc/verify/exact_real.hpp"
#include "posenc/verify/law_measures/bounds.hpp"
#include "posenc/verify/law_measures/report.hpp"
#include "posenc/verify/mpfr.hpp"

namespace posenc::verify::law_measures {

template <class T, std::size_t N, std::size_t D, rope::layout L>
law_report check_orthogonality(const rope::table<T, N, D, L>& t) {
  law_report r = make_report("orthogonality |c^2+s^2-1| of table blocks");
  const double bound = orthogonality_bound<T>();
  for (std::size_t row = 0; row < N; ++row)
    for (std::size_t j = 0; j < D / 2; ++j) {
      const auto e = t.pair(row, j);
      const exact_real c = verify::detail::to_double(e.cos), s = verify::detail::to_double(e.sin);
      const double dev = static_cast<double>(abs(c * c + s * s - 1));
      r.add(dev, bound, [&] {
        return describe("position %u pair %zu: cos %a sin %a, |c^2+s^2-1| = %.3e", t.position[row], j,
                        verify::detail::to_double(e.cos), verify::detail::to_double(e.sin), dev);
      });
    }
  return r;
}

}  // namespace posenc::verify::law_measures
