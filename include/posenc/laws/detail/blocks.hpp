// detail/blocks.hpp: the 2x2 blocks of a table as the laws over two rows (relative_dot,
// composition) compute them. A block of pair j at position m is R~_m = [[c, -s], [s, c]]; the
// product of two such blocks has the same form [[a, -b], [b, a]], and the 2-norm of the difference
// of two matrices of that form is sqrt(da^2 + db^2) (a I + b J with J^2 = -I: its singular values
// are both |a + i b|). So every two-row law reduces to two numbers per pair, and one distance.
//
// Evaluation: for tables narrower than double the entries have at most 24 significant bits, their
// products are exact in double and a sum of two products is one rounding; double tables use
// double-double (two_prod, dd_add: error near 2^-104). laws/bounds.hpp's relative_dot_bound and
// composition_bound add what these roundings can contribute.
#pragma once

#include <cstddef>
#include <type_traits>

#include "posenc/laws/detail/values.hpp"
#include "posenc/math/double_double.hpp"

namespace posenc::laws::detail {

// a + i b of a block product; a_lo, b_lo carry the low parts of double-double sums (0 otherwise).
struct block {
  double a = 0, b = 0, a_lo = 0, b_lo = 0;
};

// The block of element k of two rows (cos, sin):
// Transpose = true:  R~_1^T R~_2, a = c1 c2 + s1 s2, b = c1 s2 - s1 c2 (the block of the dot
//                    product <R~_1 q, R~_2 k> = q^T R~_1^T R~_2 k: relative_dot);
// Transpose = false: R~_1 R~_2,   a = c1 c2 - s1 s2, b = s1 c2 + c1 s2 (composition).
// Row pointers and an index (not four scalars): one call per pair, and in constant evaluation
// every call and every stored intermediate costs (measured: docs/performance.md 2.1).
template <class T, bool Transpose>
constexpr block block_product(const T* c1, const T* s1, const T* c2, const T* s2, std::size_t k) noexcept {
  if constexpr (std::is_same_v<T, double>) {
    using posenc::detail::dd_add;
    using posenc::detail::two_prod;
    const auto a = Transpose ? dd_add(two_prod(c1[k], c2[k]), two_prod(s1[k], s2[k]))
                             : dd_add(two_prod(c1[k], c2[k]), two_prod(-s1[k], s2[k]));
    const auto b = Transpose ? dd_add(two_prod(c1[k], s2[k]), two_prod(-s1[k], c2[k]))
                             : dd_add(two_prod(s1[k], c2[k]), two_prod(c1[k], s2[k]));
    return {a.hi, b.hi, a.lo, b.lo};
  } else {
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;  // c1, s1, c2, s2 in double, exactly
    if constexpr (std::is_same_v<T, float>)
      x1 = c1[k], y1 = s1[k], x2 = c2[k], y2 = s2[k];
    else
      x1 = to_double(c1[k]), y1 = to_double(s1[k]), x2 = to_double(c2[k]), y2 = to_double(s2[k]);
    if constexpr (Transpose)
      return {x1 * x2 + y1 * y2, x1 * y2 - y1 * x2};
    else
      return {x1 * x2 - y1 * y2, y1 * x2 + x1 * y2};
  }
}

// ||X - Y||_2^2 of two blocks of the form [[a, -b], [b, a]] is da^2 + db^2 (the laws compare it with
// the squared bound and take a square root only for the worst case and failures). The laws' hot
// loops write the narrower types' products out (a call per pair costs about a third more in
// constant evaluation, docs/performance.md 2.1) and call block_product for double tables and for
// relative_dot's reference blocks: the same operations, so the same bits.

}  // namespace posenc::laws::detail
