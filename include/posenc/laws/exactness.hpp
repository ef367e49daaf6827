// exactness.hpp: law "every entry is within max_ulp units in the last place of the exact value of
// the described table" (max_ulp = 0: correctly rounded, posenc's contract). The table is described
// by a RoPE config (any scaling), its dtype and layout (the view's), its rows' positions, and
// whether the attention factor is folded in; the exact entries are RN_T(cos(p theta_j)) and
// RN_T(sin(p theta_j)) of the exact scaled frequency (rope/angle.hpp), or RN_T(af cos), RN_T(af sin)
// folded. Every element of every row is compared, not a sample.
//
//   constexpr float vendor_cos[2048][128] = {...}, vendor_sin[2048][128] = {...};
//   static_assert(posenc::laws::exactness(posenc::laws::view(vendor_cos, vendor_sin,
//                     posenc::rope::layout::half_split), llama31, {.max_ulp = 1}).holds);
//
// Cost: views with sizes known at compile time and consecutive positions build the reference
// with the table engine (rope::make_table) in blocks of 64 rows; others (position lists, run-time
// sizes) evaluate each pair with rope::sincos. A config that fails validate(), a rotary dim that is
// not rotary_dim(cfg), or a position past rope::max_table_position fails the law at "the table".
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/laws/detail/values.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/laws/table_view.hpp"
#include "posenc/rope/angle.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/table.hpp"

namespace posenc::laws {

struct exactness_options {
  std::uint64_t max_ulp = 0;    // the largest distance allowed, in ulp of the table's type
  bool fold_attention = false;  // the table holds af cos, af sin (HF's attention_scaling folded in)
};

namespace detail {

// Compare row `row` of v with the exact pair values ref(j) = {sin, cos}.
template <rotary_table V, class Ref>
constexpr void compare_row(law_result& r, const V& v, std::size_t row, double max_ulp, Ref ref) noexcept {
  const std::size_t d = v.rotary_dim();
  for (std::size_t k = 0; k < d; ++k) {
    const std::size_t j = v.layout() == rope::layout::interleaved ? k / 2 : k % (d / 2);
    const auto e = ref(j);
    const auto dc = ulp_distance(v.cos_at(row, k), e.cos), ds = ulp_distance(v.sin_at(row, k), e.sin);
    const double worst = static_cast<double>(dc > ds ? dc : ds);
    r.add(worst, max_ulp, {static_cast<std::int64_t>(v.position(row)), static_cast<std::int64_t>(j), static_cast<std::int64_t>(k)});
  }
}

template <rotary_table V>
constexpr bool consecutive(const V& v) noexcept {
  for (std::size_t row = 1; row < v.rows(); ++row)
    if (v.position(row) != v.position(0) + row) return false;
  return true;
}

}  // namespace detail

template <rotary_table V>
constexpr law_result exactness(const V& v, const rope::config& c, exactness_options o = {}) noexcept {
  using T = typename V::value_type;
  law_result r = make_result("exactness: every entry within max_ulp of the exact described table");
  const double max_ulp = static_cast<double>(o.max_ulp);
  if (!well_shaped(v) || !rope::validate(c).ok() || v.rotary_dim() != static_cast<std::size_t>(rope::rotary_dim(c))) {
    r.require(false, {});
    return r;
  }
  if constexpr (requires { V::static_rows; V::static_rotary_dim; }) {
    constexpr std::size_t N = V::static_rows, D = V::static_rotary_dim, K = N < 64 ? N : 64;
    if (detail::consecutive(v)) {
      for (std::size_t base = 0; base < N; base += K) {
        const std::size_t first = base + K <= N ? base : N - K;  // the last block overlaps the one before
        const auto ref = rope::make_table<T, K, D, rope::layout::half_split>(
            c, {.start = v.position(0) + first, .fold_attention = o.fold_attention});
        if (!ref.ok()) {
          r.require(false, {});
          return r;
        }
        for (std::size_t row = base; row < base + K && row < N; ++row)
          detail::compare_row(r, v, row, max_ulp, [&](std::size_t j) { return ref.value.pair(row - first, j); });
      }
      return r;
    }
  }
  for (std::size_t row = 0; row < v.rows(); ++row) {
    bool ok = true;
    detail::compare_row(r, v, row, max_ulp, [&](std::size_t j) {
      const auto e = o.fold_attention ? rope::attention_sincos<T>(c, v.position(row), static_cast<int>(j))
                                      : rope::sincos<T>(c, v.position(row), static_cast<int>(j));
      ok = ok && e.ok();
      return e.value;
    });
    if (!ok) {
      r.require(false, {static_cast<std::int64_t>(v.position(row)), -1, -1});
      return r;
    }
  }
  return r;
}

}  // namespace posenc::laws
