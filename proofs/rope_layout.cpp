// proofs/rope_layout.cpp: compiling this file (GCC 12 or Clang 16, default constexpr limits) proves,
// on a small RoPE table (head dim d = 16, positions 0..7, base 1e4, float, correctly rounded by
// math::rope_sincos_table), the layout facts of posenc/rope/layout.hpp and apply.hpp:
//  1. the half-split expanded table is the interleaved one permuted by half_split_source, bit for bit;
//  2. rotating in either layout then permuting gives identical bits (float and bfloat16 storage);
//  3. the two permutations are inverse to each other (as arrays, and as in-place row moves);
//  4. partial rotary leaves the pass-through elements untouched bit for bit (-0.0 and NaN included);
//  5. every entry has |c^2 + s^2 - 1| within the bound derived below.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <posenc/math/round.hpp>
#include <posenc/math/sincos_table.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/bits.hpp>
#include <posenc/rope/apply.hpp>
#include <posenc/rope/layout.hpp>

namespace pm = posenc::math;
namespace pr = posenc::rope;

namespace {

constexpr std::size_t d = 16, positions = 8, pairs = d / 2;
using row_t = std::array<pm::sincos_result<float>, pairs>;

constexpr std::array<row_t, positions> table = [] {
  std::array<pm::sincos_result<float>, positions * pairs> flat{};
  pm::sincos_geometric_table<float>({1e4, 2, d}, pairs, std::span(flat));
  std::array<row_t, positions> t{};
  for (std::size_t m = 0; m < positions; ++m)
    for (std::size_t j = 0; j < pairs; ++j) t[m][j] = flat[m * pairs + j];
  return t;
}();

using posenc::same_bits;  // bit for bit: -0 != +0

// A fixed test vector with distinct, sign-mixed, non-dyadic-looking values (i/7 - 1.1).
template <class S>
constexpr std::array<S, d> vec(std::size_t seed) noexcept {
  std::array<S, d> v{};
  for (std::size_t i = 0; i < d; ++i) {
    const float f = static_cast<float>((i * 5 + seed * 3) % 17) / 7.0f - 1.1f;
    if constexpr (std::is_same_v<S, float>)
      v[i] = f;
    else
      v[i] = posenc::math::round_to<S>(static_cast<double>(f)).value;  // f != 0: no signed zero to keep
  }
  return v;
}

// 1. expanded tables.
constexpr bool tables_permuted() {
  for (std::size_t m = 0; m < positions; ++m) {
    std::array<float, d> ci{}, si{}, ch{}, sh{};
    pr::expand_row(pr::layout::interleaved, table[m].data(), d, ci.data(), si.data());
    pr::expand_row(pr::layout::half_split, table[m].data(), d, ch.data(), sh.data());
    for (std::size_t k = 0; k < d; ++k) {
      const std::size_t src = pr::half_split_source(k, d);
      if (!same_bits(ch[k], ci[src]) || !same_bits(sh[k], si[src])) return false;
    }
  }
  return true;
}
static_assert(tables_permuted(), "half-split table == interleaved table permuted, bit for bit");

// 2. rotate in either layout, then permute: same bits. Forward and inverse.
template <class S>
constexpr bool rotations_commute(pr::direction dir) {
  for (std::size_t m = 0; m < positions; ++m) {
    const std::array<S, d> vi = vec<S>(m);
    std::array<S, d> vh{}, ri{}, rh{};
    for (std::size_t k = 0; k < d; ++k) vh[k] = vi[pr::half_split_source(k, d)];
    pr::rotate_copy(vi.data(), ri.data(), {.heads = 1, .head_dim = d, .rotary_dim = d, .lay = pr::layout::interleaved},
                    table[m].data(), dir);
    pr::rotate_copy(vh.data(), rh.data(), {.heads = 1, .head_dim = d, .rotary_dim = d, .lay = pr::layout::half_split},
                    table[m].data(), dir);
    for (std::size_t k = 0; k < d; ++k)
      if (!same_bits(rh[k], ri[pr::half_split_source(k, d)])) return false;
  }
  return true;
}
static_assert(rotations_commute<float>(pr::direction::forward), "float: rotate then permute == permute then rotate");
static_assert(rotations_commute<float>(pr::direction::inverse), "float: same for the inverse rotation");
static_assert(rotations_commute<posenc::bfloat16>(pr::direction::forward), "bfloat16: same, bit for bit");

// 3. the permutations are mutually inverse (Llama-like shape scaled down: 4 heads of 16, and a
// partial one), and the in-place version agrees with the gather.
template <std::size_t H, std::size_t D, std::size_t R>
constexpr bool inverse_perm() {
  constexpr auto p = pr::layout_permutation<H, D, R>(true), q = pr::layout_permutation<H, D, R>(false);
  std::array<int, H * D> w{}, g{};
  for (std::size_t k = 0; k < w.size(); ++k) w[k] = static_cast<int>(k * 3 + 1);
  pr::permute_rows_in_place(w.data(), H, D, R, 1, true);
  for (std::size_t k = 0; k < p.size(); ++k) {
    if (p[q[k]] != k || q[p[k]] != k) return false;
    if (w[k] != static_cast<int>(p[k] * 3 + 1)) return false;
  }
  pr::permute_rows(w.data(), g.data(), H, D, R, 1, false);
  for (std::size_t k = 0; k < g.size(); ++k)
    if (g[k] != static_cast<int>(k * 3 + 1)) return false;
  return true;
}
static_assert(inverse_perm<4, 16, 16>(), "Meta->HF then HF->Meta is the identity; in place == gather");
static_assert(inverse_perm<2, 16, 4>(), "the same with rotary_dim 4 of 16");
static_assert(pr::half_split_source(1, 16) == 2 && pr::half_split_source(8, 16) == 1 &&
                  pr::half_split_source(17, 16) == 18,
              "HF permute: half-split row t*hd/2 + i takes Meta row 2i + t (within each head)");

// 4. partial rotary: rotary_dim 4 of 16 (Pythia's 0.25), in place and out of place.
constexpr bool pass_through() {
  std::array<float, 2 * d> v{};
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(k) * 0.25f - 2.0f;
  v[d - 1] = -0.0f;
  v[2 * d - 2] = std::numeric_limits<float>::quiet_NaN();
  std::array<float, 2 * d> a = v, b{};
  const pr::apply_shape sh{.heads = 2, .head_dim = d, .rotary_dim = 4, .lay = pr::layout::half_split};
  if (pr::rotate(a.data(), sh, table[5].data()) != posenc::status::ok) return false;
  if (pr::rotate_copy(v.data(), b.data(), sh, table[5].data()) != posenc::status::ok) return false;
  for (std::size_t h = 0; h < 2; ++h)
    for (std::size_t k = 4; k < d; ++k)
      if (!same_bits(a[h * d + k], v[h * d + k]) || !same_bits(b[h * d + k], v[h * d + k])) return false;
  return !same_bits(a[0], v[0]);  // and the rotary part did move
}
static_assert(pass_through(), "partial rotary: dims rotary_dim..head_dim untouched bit for bit");

// 5. c = RN(cos a), s = RN(sin a) in float, u = 2^-24: c = cos a (1 + e1), s = sin a (1 + e2),
// |e1|, |e2| <= u (results are normal here: |sin a| >= 2^-30 for these angles, or exactly 0 at m = 0).
// Then c^2 + s^2 - 1 = 2(e1 cos^2 + e2 sin^2) + e1^2 cos^2 + e2^2 sin^2, so |c^2 + s^2 - 1| <= 2u + u^2.
// In double, c*c and s*s are exact (24 + 24 <= 53 bits); their sum rounds once, by at most
// 2^-53 (1 + 2u + u^2) < 2^-52; subtracting 1 is exact (Sterbenz). Bound: 2^-23 + 2^-48 + 2^-52.
// In float (fl(fl(c*c) + fl(s*s))): two more roundings of relative u each on a value <= 1 + 3u:
// |err| <= 2u + u(1+3u) + u(1+3u)^2 < 4u + 8u^2, and a float within that of 1 is within 4u of it.
constexpr bool pythagoras() {
  for (std::size_t m = 0; m < positions; ++m)
    for (std::size_t j = 0; j < pairs; ++j) {
      const double c = table[m][j].cos, s = table[m][j].sin;
      const double e = c * c + s * s - 1.0;
      if (!(e <= 0x1p-23 + 0x1p-48 + 0x1p-52 && -e <= 0x1p-23 + 0x1p-48 + 0x1p-52)) return false;
      const float cf = table[m][j].cos, sf = table[m][j].sin;
      const float ef = (cf * cf + sf * sf) - 1.0f;
      if (!(ef <= 0x1p-22f && -ef <= 0x1p-22f)) return false;
    }
  return true;
}
static_assert(pythagoras(), "|c^2 + s^2 - 1| <= 2^-23 + 2^-48 + 2^-52 (double), <= 4 * 2^-24 (float)");

}  // namespace
