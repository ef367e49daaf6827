// test_laws_rotation.cpp: the constexpr rotation laws of posenc/laws/ (relative_dot, composition,
// norm_preservation, pass_through, monotone_frequencies, parity) on posenc's tables in every dtype
// and both layouts, in constant evaluation and at run time; and each law shown able to fail: one
// seeded defect per case (a row at the wrong position, a whole table shifted by one position, an
// entry off the unit circle, a kernel that writes the pass-through part, a repeated frequency, a
// flipped sign, one ulp on a mirrored row), after which exactly the expected laws fail, at the
// expected index.
#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "posenc/laws.hpp"
#include "posenc/laws/print.hpp"
#include "posenc/math/round.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/apply.hpp"
#include "posenc/rope/table.hpp"

namespace {

namespace rope = posenc::rope;
namespace laws = posenc::laws;
using posenc::bfloat16;
using posenc::float16;
using rope::layout;

constexpr std::size_t N = 24, D = 16, H = 12, head_dim = 24;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};

template <class T, layout L>
constexpr rope::table<T, N, D, L> table(std::uint64_t start = 0) {
  return rope::make_table<T, N, D, L>(cfg, {.start = start}).value;
}

template <class T>
constexpr T negate(T x) {
  using F = posenc::detail::float_format<T>;
  return F::from_bits(static_cast<typename F::storage>(
      F::to_bits(x) ^ (typename F::storage{1} << (8 * sizeof(typename F::storage) - 1))));
}
template <class T>
constexpr T next_up(T x) {  // the next value away from zero, for x > 0
  using F = posenc::detail::float_format<T>;
  return F::from_bits(static_cast<typename F::storage>(F::to_bits(x) + 1u));
}

// A vendor table covering [-H, H): rows at -H .. H - 1, as C arrays, mirrored from posenc's rows at
// 0 .. H (cos copied, sin negated by its sign bit).
template <class T>
struct signed_arrays {
  T cos[2 * H][D];
  T sin[2 * H][D];
};
template <class T, layout L>
constexpr signed_arrays<T> mirrored() {
  const auto t = rope::make_table<T, H + 1, D, L>(cfg).value;
  signed_arrays<T> a{};
  for (std::size_t r = 0; r < 2 * H; ++r) {
    const std::size_t src = r < H ? H - r : r - H;
    for (std::size_t k = 0; k < D; ++k) {
      a.cos[r][k] = t.cos[src * D + k];
      a.sin[r][k] = r < H ? negate(t.sin[src * D + k]) : t.sin[src * D + k];
    }
  }
  return a;
}

// The four table laws of this file on one view (parity and the frequencies separately).
struct verdict {
  laws::law_result rel, comp, norm, pass;
  constexpr bool only(bool r, bool c, bool n, bool p) const {  // which fail
    return rel.holds != r && comp.holds != c && norm.holds != n && pass.holds != p;
  }
};
template <class V>
constexpr verdict judge(const V& v) {
  return {laws::relative_dot(v), laws::composition(v), laws::norm_preservation(v), laws::pass_through(v, head_dim)};
}

constexpr bool at(const laws::law_result& r, std::int64_t pos, std::int64_t pair, std::int64_t elem = -2,
                  std::int64_t partner = laws::no_partner) {
  return !r.holds && r.first_failure.position == pos && r.first_failure.pair == pair &&
         (elem == -2 || r.first_failure.element == elem) && r.first_failure.partner == partner;
}

// ---- the unmodified tables: every law holds, in every dtype and both layouts ----
template <class T, layout L>
constexpr bool all_hold() {
  const auto t = table<T, L>();
  const auto v = laws::view(t);
  const verdict r = judge(v);
  const auto rel_wide = laws::relative_dot(v, {.differences = {1, 2, laws::middle_row, 0}});
  const auto comp_wide = laws::composition(v, {.factors = {1, 3, laws::middle_row, 0}});
  const auto m = mirrored<T, L>();
  const auto sv = laws::signed_view(m.cos, m.sin, L, -static_cast<std::int64_t>(H));
  const auto par = laws::parity(sv);
  return r.rel.holds && r.comp.holds && r.norm.holds && r.pass.holds && rel_wide.holds && comp_wide.holds &&
         par.holds &&
         // every case counted: N - 2 row pairs (the reference pair is not compared with itself)
         r.rel.checked == (N - 2) * D / 2 && r.comp.checked == (N - 1) * D / 2 && r.norm.checked == N &&
         r.pass.checked == N * (head_dim - D) &&
         // differences 1, 2, 12: 22 + 21 + 11 row pairs; factors 1, 3, 12: 23 + 21 + 12
         rel_wide.checked == (22 + 21 + 11) * D / 2 && comp_wide.checked == (23 + 21 + 12) * D / 2 &&
         par.checked == (H - 1) * D && laws::relative_dot(sv).holds && laws::composition(sv).holds &&
         laws::norm_preservation(sv).holds;
}
static_assert(all_hold<double, layout::half_split>(),
              "double, half-split: relative dot, composition, norm, pass-through, parity");
static_assert(all_hold<double, layout::interleaved>(), "double, interleaved: every rotation law holds");
static_assert(all_hold<float, layout::half_split>(), "float, half-split: every rotation law holds");
static_assert(all_hold<float, layout::interleaved>(), "float, interleaved: every rotation law holds");
static_assert(all_hold<bfloat16, layout::half_split>(), "bfloat16, half-split: every rotation law holds");
static_assert(all_hold<bfloat16, layout::interleaved>(), "bfloat16, interleaved: every rotation law holds");
static_assert(all_hold<float16, layout::half_split>(), "float16, half-split: every rotation law holds");
static_assert(all_hold<float16, layout::interleaved>(), "float16, interleaved: every rotation law holds");

// A scaled config from position 1000: composition needs rows at n and m + n (none here: vacuous),
// relative dot does not care where the table starts.
constexpr rope::config yarn{.head_dim = 16,
                            .rope_theta = 10000.0,
                            .rope_type = rope::scaling::yarn,
                            .factor = 4.0,
                            .original_max_position_embeddings = 64};
constexpr auto yarn_table = rope::make_table<float, N, D, layout::interleaved>(yarn, {.start = 1000});
static_assert(laws::relative_dot(laws::view(yarn_table.value)).holds, "YaRN from 1000: relative dot");
static_assert(laws::composition(laws::view(yarn_table.value)).checked == 0, "no row at n = 1: composition vacuous");
static_assert(laws::norm_preservation(laws::view(yarn_table.value)).holds, "YaRN: norm preservation");
static_assert(laws::parity(laws::view(yarn_table.value)).checked == 0, "no negative rows: parity vacuous");

// The frequencies: every monotone scaling holds, from the config and from arrays.
constexpr rope::config llama3{.head_dim = 128,
                              .rope_theta = 500000.0,
                              .rope_type = rope::scaling::llama3,
                              .factor = 8.0,
                              .original_max_position_embeddings = 8192};
static_assert(laws::monotone_frequencies(cfg).holds && laws::monotone_frequencies(cfg).checked == 7,
              "default: 7 steps");
static_assert(laws::monotone_frequencies(yarn).holds, "YaRN: decreasing");
static_assert(laws::monotone_frequencies(llama3).holds, "Llama-3: decreasing");
constexpr double freq_ok[4] = {1.0, 0.1, 0.01, 0.001};
constexpr float freq_ok_f[3] = {1.0f, 0.5f, 0.25f};
static_assert(laws::monotone_frequencies(freq_ok).holds && laws::monotone_frequencies(freq_ok_f).holds);

// ---- compact tables (one cos, sin per pair: the firmware layout), read through their expansion ----

constexpr auto pair_tab = rope::make_pair_table<float, N, D / 2>(cfg);

// An emitted header's arrays <name>_cos[N][P], <name>_sin[N][P] (posenc emit rope --layout pairs).
struct pair_arrays {
  float cos[N][D / 2];
  float sin[N][D / 2];
};
constexpr pair_arrays header_arrays() {
  pair_arrays a{};
  for (std::size_t r = 0; r < N; ++r)
    for (std::size_t j = 0; j < D / 2; ++j) {
      a.cos[r][j] = pair_tab.value.data[r * (D / 2) + j].cos;
      a.sin[r][j] = pair_tab.value.data[r * (D / 2) + j].sin;
    }
  return a;
}
constexpr pair_arrays hdr = header_arrays();

// The expansion in layout L is make_table's table bit for bit, and every law that reads a table
// holds on it: from rope::pair_table and from the header's arrays alike.
template <class V, layout L>
constexpr bool pair_laws_hold(const V& pv) {
  const auto e = laws::expanded(pv, L);
  const auto full = table<float, L>();
  for (std::size_t k = 0; k < N * D; ++k)
    if (std::bit_cast<std::uint32_t>(e.cos[k]) != std::bit_cast<std::uint32_t>(full.cos[k]) ||
        std::bit_cast<std::uint32_t>(e.sin[k]) != std::bit_cast<std::uint32_t>(full.sin[k]))
      return false;
  const verdict r = judge(e);
  return r.rel.holds && r.comp.holds && r.norm.holds && r.pass.holds && laws::unit_norm(e).holds &&
         laws::exactness(e, cfg).holds && laws::identity_at_zero(e).holds && laws::pair_copies(e).holds;
}
static_assert(
    pair_laws_hold<decltype(laws::pair_view(pair_tab.value)), layout::half_split>(laws::pair_view(pair_tab.value)),
    "pair table read half-split: make_table's bits; every law holds");
static_assert(
    pair_laws_hold<decltype(laws::pair_view(pair_tab.value)), layout::interleaved>(laws::pair_view(pair_tab.value)),
    "pair table read interleaved: make_table's bits; every law holds");
static_assert(pair_laws_hold<decltype(laws::pair_view(hdr.cos, hdr.sin)), layout::half_split>(laws::pair_view(hdr.cos,
                                                                                                              hdr.sin)),
              "a header's pair arrays: every law holds");
static_assert(laws::layout_equivalence(laws::expanded(laws::pair_view(pair_tab.value), layout::interleaved),
                                       laws::expanded(laws::pair_view(pair_tab.value), layout::half_split))
                  .holds,
              "the two expansions of one compact table are layout equivalent");

// One value of the compact table one step up (position 5, pair 3, sin): exactness fails there, in
// either element order (the first element of pair 3 is element 3 half-split, 6 interleaved).
template <layout L>
constexpr laws::law_result corrupted_pair_exactness() {
  auto t = pair_tab.value;
  t.data[5 * (D / 2) + 3].sin = next_up(t.data[5 * (D / 2) + 3].sin);
  return laws::exactness(laws::expanded(laws::pair_view(t), L), cfg);
}
static_assert(at(corrupted_pair_exactness<layout::half_split>(), 5, 3, 3),
              "a corrupted pair table fails exactness at position 5, pair 3 (element 3, half-split)");
static_assert(at(corrupted_pair_exactness<layout::interleaved>(), 5, 3, 6),
              "a corrupted pair table fails exactness at position 5, pair 3 (element 6, interleaved)");

// ---- seeded defects: exactly the expected laws fail, at the expected index ----

// 1. One row at the wrong position: row 9 holds position 10 (posenc built it from a position list).
template <class T, layout L>
constexpr verdict row_off_by_one() {
  std::array<std::uint64_t, N> pos{};
  for (std::size_t r = 0; r < N; ++r) pos[r] = r == 9 ? 10 : r;
  const auto t = rope::make_table<T, N, D, L>(cfg, pos).value;
  return judge(laws::span_table<T>{t.cos, t.sin, D, L, 0});  // described as consecutive from 0
}
constexpr verdict d1 = row_off_by_one<float, layout::half_split>();
static_assert(at(d1.rel, 9, 0, -1, 8), "row off by one: relative dot fails at n = 9 (m = 8), pair 0");
static_assert(at(d1.comp, 9, 0, -1, 1), "row off by one: composition R_8 R_1 != row 9, pair 0");
static_assert(d1.only(true, true, false, false), "row off by one: still rotations, still passes the tail through");

// 2. The whole table shifted: rows built from position 1, described as from 0. Every difference is
// still right (relative dot holds); R_0 R_1 = R(1) R(2) = R(3) is not row 1's R(2).
template <class T, layout L>
constexpr verdict shifted() {
  const auto t = table<T, L>(1);
  return judge(laws::span_table<T>{t.cos, t.sin, D, L, 0});
}
constexpr verdict d2 = shifted<double, layout::interleaved>();
static_assert(at(d2.comp, 1, 0, -1, 1), "shifted: composition fails at position 1, pair 0, n = 1");
static_assert(d2.only(false, true, false, false), "shifted: only composition sees it");

// 3. An entry off the unit circle: cos of pair 2 at row 6 scaled by 1 + 2^-8 (both copies).
template <class T, layout L>
constexpr verdict off_circle(double scale = 1 + 0x1p-8) {
  auto t = table<T, L>();
  const std::size_t k0 = rope::pair_index(L, 2, 0, D), k1 = rope::pair_index(L, 2, 1, D);
  const double c = laws::detail::to_double(t.cos[6 * D + k0]) * scale;
  t.cos[6 * D + k0] = t.cos[6 * D + k1] = posenc::math::round_to<T>(c).value;
  return judge(laws::view(t));
}
constexpr verdict d3 = off_circle<float, layout::interleaved>();
static_assert(at(d3.norm, 6, -1, -1) && d3.norm.failures == 1,
              "off the circle: norm preservation fails at position 6 only");
static_assert(at(d3.rel, 6, 2, -1, 5), "off the circle: relative dot at n = 6, pair 2");
static_assert(at(d3.comp, 6, 2, -1, 1), "off the circle: composition at m + n = 6, pair 2");
static_assert(d3.pass.holds, "off the circle: the tail still passes through");
// bfloat16 storage rounds the rotated vector to 8 bits (bound about 2^-7): a larger defect.
constexpr verdict d3h = off_circle<bfloat16, layout::half_split>(1.25);
static_assert(at(d3h.norm, 6, -1, -1), "bfloat16, cos x 1.25: norm preservation fails at position 6");
static_assert(off_circle<bfloat16, layout::half_split>().norm.holds,
              "bfloat16, cos x (1 + 2^-8): within the kernel's bound");

// 4. A kernel that writes the pass-through part. (a) Partial rotary written as a full-width
// rotation with a table padded by cos = 1, sin = 0: x 1 - y 0 turns -0 into +0 when y < 0, and at
// run time the default head's NaN and infinities into NaN (GCC refuses a NaN-producing operation
// in constant evaluation: there the head's tail is -0, -1.5, 1, ...). (b) A kernel that changes
// element 20 at the row of position 3 only.
template <class T, layout L>
constexpr laws::law_result padded_kernel(bool specials) {
  const auto t = table<T, L>();
  const auto v = laws::view(t);
  auto x = laws::detail::default_head<T>(D);
  if (!specials)
    for (std::size_t k = D; k < head_dim; ++k)
      x[k] = posenc::math::round_to<T>(k == D ? -0.0 : k == D + 1 ? -1.5 : double(k)).value;
  if (!specials) x[D] = negate(posenc::math::round_to<T>(0.0).value);  // -0 (round_to of -0.0 gives +0)
  using C = rope::compute_t<T>;
  auto kernel = [&](std::size_t row, const T* in, T* out) {
    const T *cr = t.cos_row(row), *sr = t.sin_row(row);
    for (std::size_t j = 0; j < D / 2; ++j) {  // the rotary part, posenc's arithmetic
      const std::size_t a = rope::pair_index(L, j, 0, D), b = rope::pair_index(L, j, 1, D);
      const C xa = posenc::detail::apply_traits<T>::load(in[a]), xb = posenc::detail::apply_traits<T>::load(in[b]);
      const C c = posenc::detail::load_exact<C>(cr[a]), s = posenc::detail::load_exact<C>(sr[a]);
      out[a] = posenc::detail::apply_traits<T>::store(xa * c - xb * s);
      out[b] = posenc::detail::apply_traits<T>::store(xa * s + xb * c);
    }
    for (std::size_t k = D; k + 1 < head_dim; k += 2) {  // the padded pairs: cos = 1, sin = 0
      const C xa = posenc::detail::apply_traits<T>::load(in[k]), xb = posenc::detail::apply_traits<T>::load(in[k + 1]);
      out[k] = posenc::detail::apply_traits<T>::store(xa * C(1) - xb * C(0));
      out[k + 1] = posenc::detail::apply_traits<T>::store(xa * C(0) + xb * C(1));
    }
  };
  return laws::pass_through(v, head_dim, std::span<const T>(x.data(), head_dim), kernel);
}
static_assert(at(padded_kernel<float, layout::half_split>(false), 0, -1, 16),
              "padded kernel: pass-through fails at position 0 element 16");
static_assert(at(padded_kernel<bfloat16, layout::interleaved>(false), 0, -1, 16),
              "padded kernel, bfloat16: element 16");

template <class T, layout L>
constexpr laws::law_result kernel_writes_tail() {
  const auto t = table<T, L>(1);  // rows at 1 .. 24: row 2 is position 3
  const auto v = laws::view(t);
  const auto x = laws::detail::default_head<T>(D);
  auto kernel = [&](std::size_t row, const T* in, T* out) {
    std::array<posenc::math::sincos_result<T>, D / 2> cs{};
    for (std::size_t j = 0; j < D / 2; ++j)
      cs[j] = {t.sin_row(row)[rope::pair_index(L, j, 0, D)], t.cos_row(row)[rope::pair_index(L, j, 0, D)]};
    (void)rope::rotate_copy(in, out, rope::apply_shape{.heads = 1, .head_dim = head_dim, .rotary_dim = D, .lay = L},
                            cs.data());
    if (v.position(row) == 3) out[20] = posenc::math::round_to<T>(2.0).value;
  };
  return laws::pass_through(v, head_dim, std::span<const T>(x.data(), head_dim), kernel);
}
constexpr laws::law_result d4b = kernel_writes_tail<float16, layout::half_split>();
static_assert(at(d4b, 3, -1, 20) && d4b.failures == 1,
              "a kernel writing element 20 at position 3: pass-through names it");

// 5. Frequencies: a repeated value, an increase in float, LongRoPE factors that tie two pairs.
constexpr double freq_repeat[5] = {1.0, 0.5, 0.25, 0.25, 0.125};
constexpr float freq_up[6] = {1.0f, 0.5f, 0.25f, 0.125f, 0.0625f, 0.07f};
static_assert(at(laws::monotone_frequencies(freq_repeat), -1, 3, -1) &&
                  laws::monotone_frequencies(freq_repeat).deviation == 1.0,
              "repeated frequency: fails at pair 3, ratio exactly 1");
static_assert(at(laws::monotone_frequencies(freq_up), -1, 5, -1), "an increase: fails at pair 5");
constexpr double freq_zero[3] = {1.0, 0.0, 0.0};
static_assert(at(laws::monotone_frequencies(freq_zero), -1, 1, -1), "a zero frequency fails");
// base 16, d = 8, LongRoPE factors (1, 1/2, 1, 1): inv_freq = 16^(-j/4) / ext[j] = (1, 1, 1/4, 1/8)
constexpr double ext_equal[4] = {1.0, 0.5, 1.0, 1.0};
constexpr rope::config longrope{.head_dim = 8,
                                .rope_theta = 16.0,
                                .rope_type = rope::scaling::longrope,
                                .factor = 1.0,
                                .original_max_position_embeddings = 4096,
                                .short_factor = ext_equal,
                                .long_factor = ext_equal};
static_assert(at(laws::monotone_frequencies(longrope), -1, 1, -1), "LongRoPE factors can tie pairs 0 and 1");
static_assert(!laws::monotone_frequencies(rope::config{.head_dim = 16, .rope_theta = 1.0}).holds,
              "invalid config: the table");

// 6. Parity on a table covering [-12, 12): (a) sin of pair 2 at +5 negated, one copy: parity names
// position 5 (partner -5), element 2, and the rotation laws see a wrong angle; (b) cos of pair 3 at
// -7 one ulp up (both copies): parity only (one ulp is within every rounding bound).
template <class T, layout L>
constexpr laws::law_result parity_flipped(verdict* rest = nullptr) {
  auto m = mirrored<T, L>();
  const std::size_t k = rope::pair_index(L, 2, 0, D);
  m.sin[H + 5][k] = negate(m.sin[H + 5][k]);
  const auto sv = laws::signed_view(m.cos, m.sin, L, -static_cast<std::int64_t>(H));
  if (rest != nullptr) *rest = judge(sv);
  return laws::parity(sv);
}
constexpr laws::law_result d6a = parity_flipped<float, layout::half_split>();
static_assert(at(d6a, 5, 2, 2, -5), "flipped sin at +5: parity fails at position 5, pair 2, element 2, partner -5");
constexpr bool d6a_rotation_fails() {
  verdict r{};
  (void)parity_flipped<float, layout::half_split>(&r);
  return !r.rel.holds && !r.comp.holds && r.norm.holds && r.pass.holds;
}
static_assert(d6a_rotation_fails(), "flipped sin: a wrong angle, still a rotation");

template <class T, layout L>
constexpr laws::law_result parity_one_ulp(verdict* rest = nullptr) {
  auto m = mirrored<T, L>();
  const std::size_t k0 = rope::pair_index(L, 3, 0, D), k1 = rope::pair_index(L, 3, 1, D);
  m.cos[H - 7][k0] = m.cos[H - 7][k1] = next_up(m.cos[H - 7][k0]);
  const auto sv = laws::signed_view(m.cos, m.sin, L, -static_cast<std::int64_t>(H));
  if (rest != nullptr) *rest = judge(sv);
  return laws::parity(sv);
}
constexpr laws::law_result d6b = parity_one_ulp<double, layout::interleaved>();
static_assert(at(d6b, 7, 3, 6, -7) && d6b.failures == 2,
              "one ulp at -7: parity fails at position 7, pair 3, elements 6 and 7");
constexpr bool d6b_only_parity() {
  verdict r{};
  (void)parity_one_ulp<double, layout::interleaved>(&r);
  return r.only(false, false, false, false);
}
static_assert(d6b_only_parity(), "one ulp: invisible to the rounding-bound laws");
// An exact zero sin (a zero frequency) may be +0 on both sides.
constexpr bool zero_sin_accepted() {
  auto m = mirrored<float, layout::half_split>();
  for (std::size_t r = 0; r < 2 * H; ++r) m.sin[r][7] = m.sin[r][15] = 0.0f, m.cos[r][7] = m.cos[r][15] = 1.0f;
  return laws::parity(laws::signed_view(m.cos, m.sin, layout::half_split, -static_cast<std::int64_t>(H))).holds;
}
static_assert(zero_sin_accepted(), "+0 at both -p and p: accepted");

// Bounds: the core's definitions, pinned to their derivations (tests/test_law_checkers.cpp pins the
// MPFR layer's use of the same functions).
constexpr double u32 = 0x1p-24, u64 = 0x1p-53;
static_assert(laws::relative_dot_bound<float>() == 2 * (2 * u32 + u32 * u32) * (1 + 0x1p-40) + 0x1p-51);
static_assert(laws::relative_dot_bound<double>() == 2 * (2 * u64 + u64 * u64) * (1 + 0x1p-40));
static_assert(laws::composition_bound<float>() == (3 * u32 + u32 * u32) * (1 + 0x1p-40) + 0x1p-52);
static_assert(laws::norm_preservation_bound<float, float>(16) ==
              laws::apply_kernel_bounds<float, float>().norm * (1 + 0x1p-40) +
                  18 * 0x1p-53 * (1 + laws::apply_kernel_bounds<float, float>().norm));
static_assert(laws::decreasing_ratio_bound == 0x1.fffffffffffffp-1);

}  // namespace

TEST_CASE("rotation laws at run time give the compile-time results", "[laws][rotation]") {
  CHECK(all_hold<float, layout::half_split>());
  CHECK(all_hold<float16, layout::interleaved>());
  const verdict r1 = row_off_by_one<float, layout::half_split>();
  CHECK(at(r1.rel, 9, 0, -1, 8));
  CHECK(at(r1.comp, 9, 0, -1, 1));
  CHECK(r1.only(true, true, false, false));
  const verdict r2 = shifted<double, layout::interleaved>();
  CHECK(at(r2.comp, 1, 0, -1, 1));
  CHECK(r2.only(false, true, false, false));
  const verdict r3 = off_circle<float, layout::interleaved>();
  CHECK(at(r3.norm, 6, -1, -1));
  CHECK(r3.norm.failures == d3.norm.failures);
  CHECK(r3.norm.deviation == d3.norm.deviation);  // the same bits at run time
  CHECK(at(r3.rel, 6, 2, -1, 5));
  CHECK(at(padded_kernel<float, layout::half_split>(false), 0, -1, 16));
  const auto nan_head = padded_kernel<float, layout::half_split>(true);  // NaN, infinities: run time only
  CHECK(at(nan_head, 0, -1, 16));
  CHECK(nan_head.failures >= 3 * N);  // -0 - NaN 0, inf - (-inf) 0 and inf 0 - inf are NaN: 3 or more per row
  CHECK(at(kernel_writes_tail<float16, layout::half_split>(), 3, -1, 20));
  const double repeat[] = {1.0, 0.5, 0.25, 0.25, 0.125};
  CHECK(at(laws::monotone_frequencies(repeat), -1, 3, -1));
  CHECK(at(laws::monotone_frequencies(longrope), -1, 1, -1));
  CHECK(at(parity_flipped<float, layout::half_split>(), 5, 2, 2, -5));
  verdict rest{};
  CHECK(at(parity_one_ulp<double, layout::interleaved>(&rest), 7, 3, 6, -7));
  CHECK(rest.only(false, false, false, false));

  const std::string s = laws::to_string(d1.rel);
  INFO(s);
  CHECK(s.find("FAILS, first at position 9 pair 0 partner position 8") != std::string::npos);
  const std::string p = laws::to_string(d6a);
  INFO(p);
  CHECK(p.find("first at position 5 pair 2 element 2 partner position -5") != std::string::npos);
  const std::string f = laws::to_string(laws::monotone_frequencies(repeat));
  INFO(f);
  CHECK(f.find("first at pair 3") != std::string::npos);
}

TEST_CASE("rotation laws on run-time spans and caller vectors", "[laws][rotation]") {
  const auto t = rope::make_table<float, N, D, layout::half_split>(cfg, {.start = 0});
  REQUIRE(t.ok());
  laws::span_table<float> v{t.value.cos, t.value.sin, D, layout::half_split, 0};
  CHECK(laws::relative_dot(v).holds);
  CHECK(laws::composition(v).holds);
  CHECK(laws::norm_preservation(v).holds);
  // A caller's vector: bfloat16 storage rotated with a float table (compute float, one rounding at
  // the store: a bound of about 2^-8), and a float one.
  std::array<bfloat16, D> xb{};
  std::array<float, D> xf{};
  for (std::size_t k = 0; k < D; ++k) {
    xf[k] = static_cast<float>(k) - 7.5f;
    xb[k] = posenc::math::round_to<bfloat16>(static_cast<double>(xf[k])).value;
  }
  const auto nb = laws::norm_preservation(v, xb);
  INFO(laws::to_string(nb));
  CHECK(nb.holds);
  CHECK(nb.bound == laws::norm_preservation_bound<bfloat16, float>(D));
  CHECK(laws::norm_preservation(v, xf).holds);
  CHECK(!laws::norm_preservation(v, std::array<float, D>{}).holds);  // a zero vector: refused
  // The kernel grid: a table of 1500 rows is rotated on every second row and the last.
  // Not const: as a static const with a constant initializer, Clang tried to fold every CHECK over
  // it at compile time (10 s of this unit's 27 s front end, -ftime-trace).
  static auto tall = rope::make_table<float, 1500, D, layout::half_split>(cfg);
  REQUIRE(tall.ok());
  CHECK(laws::norm_preservation(laws::view(tall.value)).checked == 751);
  CHECK(laws::norm_preservation(laws::view(tall.value), {.max_rows = 0}).checked == 1500);
  CHECK(laws::pass_through(laws::view(tall.value), 20).checked == 751 * 4);
  // A pass-through head from the caller: float specials, posenc's kernel.
  std::array<float, 32> head{};
  for (std::size_t k = 0; k < head.size(); ++k) head[k] = k < D ? static_cast<float>(k) : -0.0f;
  CHECK(laws::pass_through(v, 32, std::span<const float>(head)).holds);
  CHECK(!laws::pass_through(v, D).holds);  // head_dim must exceed rotary_dim
  // A defect at run time: one row's sin flipped (row 11, pair 4).
  std::array<float, N* D> sin = t.value.sin;
  sin[11 * D + 4] = -sin[11 * D + 4];
  sin[11 * D + 4 + D / 2] = -sin[11 * D + 4 + D / 2];
  v.sin = sin;
  const auto rel = laws::relative_dot(v);
  CHECK(at(rel, 11, 4, -1, 10));
  CHECK(at(laws::composition(v), 11, 4, -1, 1));
  CHECK(laws::norm_preservation(v).holds);
  // Signed spans: parity of a table covering [-12, 12).
  const auto m = mirrored<float, layout::interleaved>();
  laws::signed_span_table<float> sv{std::span<const float>(&m.cos[0][0], 2 * H * D),
                                    std::span<const float>(&m.sin[0][0], 2 * H * D), D, layout::interleaved,
                                    -static_cast<std::int64_t>(H)};
  CHECK(laws::parity(sv).holds);
  CHECK(laws::parity(sv).checked == (H - 1) * D);
  CHECK(!laws::exactness(sv, cfg).holds);  // negative rows have no exact value in exactness
  CHECK(laws::exactness(sv, cfg).first_failure.position == -12);
}
