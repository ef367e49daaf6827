// sinusoid_shift.hpp: law "a shift is a rotation that depends on the shift alone":
// P(p + k) = M_k P(p), M_k block diagonal with the 2x2 rotation by k omega_i on pair i
// (Vaswani et al. 2017, sec. 3.5: "PE_{pos+k} can be represented as a linear function of PE_pos").
// M_k's entries are cos(k omega_i), sin(k omega_i): the table's own row at position k. So for every
// shift k of the grid whose row is in the table, every row p with a row at p + k, and every pair i:
//   sin((p + k) w) = sin(p w) cos(k w) + cos(p w) sin(k w),  cos((p + k) w) = cos(p w) cos(k w) - sin(p w) sin(k w)
// which is RoPE's composition law R_p R_k = R_{p+k} on the blocks [[cos, -sin], [sin, cos]]: the
// 2-norm of the difference is held to composition_bound<T>() = (3u + u^2)(1 + 2^-40) (+ 2^-52 below
// double), u = table_block_error<T>() (docs/laws.md section 6 derives it).
//   static_assert(laws::sinusoid_shift(laws::sinusoid_table<float>{t, cfg}).holds);
//   laws::sinusoid_shift(t, {.shifts = {1, 7, laws::sinusoid_middle, 0}});
// Index: position p + k (the row checked), pair i, element of its sin, partner k. A shift whose row
// is absent is not checked (a table from position 1 with the default grid: checked == 0). A table
// the law cannot read fails at laws::invalid_position.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/bounds.hpp"
#include "posenc/laws/detail/blocks.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/sinusoid/table.hpp"
#include "posenc/math/sqrt.hpp"

namespace posenc::laws::failed {

// Where a failing sinusoid_shift stops the compiler (laws/law_kind.hpp, laws/require.hpp).
constexpr bool sinusoid_shift(std::int64_t position, std::int64_t pair, std::int64_t element) noexcept {
  return at_signed<sinusoid_shift>(position) && pair + element > 0;
}

}  // namespace posenc::laws::failed

namespace posenc::laws::kind {

inline constexpr law_identity sinusoid_shift{failed::sinusoid_shift, law_indices::signed_position};

}  // namespace posenc::laws::kind

namespace posenc::laws {

template <class T>
constexpr law_result sinusoid_shift(const sinusoid_table<T>& t, const sinusoid_grid& g = {}) noexcept {
  law_result r =
      make_result("sinusoid shift: P(p + k) = M_k P(p), M_k the rotation by k omega (row k)", &kind::sinusoid_shift);
  if (!t.valid()) {
    r.require(false, {invalid_position, -1, -1});
    return r;
  }
  const double bound = composition_bound<T>(), bound2 = bound * bound;
  const std::size_t n = t.rows(), pairs = t.pairs();
  for (const std::int64_t k0 : g.shifts) {
    if (k0 == 0) break;
    const std::int64_t k = k0 == sinusoid_middle ? detail::sinusoid_span(t) / 2 : k0;
    const std::size_t rk = t.row_of(k);
    if (k == 0 || rk == n) continue;
    const T* mk = t.row(rk);
    for (std::size_t rp = 0; rp < n; ++rp) {
      const std::int64_t p = t.position(rp);
      if ((k > 0 && p > INT64_MAX - k) || (k < 0 && p < INT64_MIN - k)) continue;
      const std::size_t rq = t.row_of(p + k);
      if (rq == n) continue;
      const T *x = t.row(rp), *y = t.row(rq);
      for (std::size_t i = 0; i < pairs; ++i) {
        const std::size_t ks = t.sin_element(i), kc = t.cos_element(i);
        // R~_p R~_k: a = cos p cos k - sin p sin k, b = sin p cos k + cos p sin k.
        const detail::block b = detail::block_product<T, false>(x + kc, x + ks, mk + kc, mk + ks, 0);
        const double da = (b.a - detail::to_double(y[kc])) + b.a_lo, db = (b.b - detail::to_double(y[ks])) + b.b_lo;
        const double e2 = da * da + db * db;
        const entry_index at{p + k, static_cast<std::int64_t>(i), static_cast<std::int64_t>(ks), k};
        if (e2 <= bound2 * (1 - 0x1p-40) && r.checked > 0 && e2 <= r.deviation * r.deviation) {
          r.pass(1);
          continue;
        }
        r.add(math::sqrt(e2), bound, at);
      }
    }
  }
  return r;
}

}  // namespace posenc::laws
