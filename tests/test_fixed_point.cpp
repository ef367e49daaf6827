// test_fixed_point.cpp: the q15/q31 types (numeric/fixed_point.hpp), the rounding onto their grid
// (math/round_fixed.hpp, math/detail/mp/ziv_fixed.hpp) and the RoPE tables in them
// (rope/fixed_point_table.hpp), against the MPFR oracle: RN_even(x 2^F) of the exact value by
// mpfr_rint, then CMSIS's saturation to [-2^F, 2^F - 1] (verify/mpfr.hpp round_into_fixed_bits),
// at 0 error in every entry.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "posenc/alibi/fixed_point_slopes.hpp"
#include "posenc/laws/alibi/geometric_slopes.hpp"
#include "posenc/laws/alibi/power_of_two_slopes.hpp"
#include "posenc/laws/bounds.hpp"
#include "posenc/laws/print.hpp"
#include "posenc/laws/rope/exactness.hpp"
#include "posenc/laws/rotary/composition.hpp"
#include "posenc/laws/rotary/layout_equivalence.hpp"
#include "posenc/laws/rotary/pair_copies.hpp"
#include "posenc/laws/rotary/relative_dot.hpp"
#include "posenc/laws/rotary/unit_norm.hpp"
#include "posenc/math/round_fixed.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/rope/fixed_point_apply.hpp"
#include "posenc/rope/fixed_point_table.hpp"
#include "posenc/rope/models.hpp"
#include "posenc/rope/table.hpp"
#include "posenc/sinusoidal/fixed_point_table.hpp"
#include "posenc/verify/alibi_oracle.hpp"
#include "posenc/verify/law_measures/composition.hpp"
#include "posenc/verify/law_measures/orthogonality.hpp"
#include "posenc/verify/law_measures/relative_dot.hpp"
#include "posenc/verify/rational_power_oracle.hpp"
#include "posenc/verify/rope_oracle.hpp"
#include "posenc/verify/rope_table_oracle.hpp"
#include "posenc/verify/sinusoid_oracle.hpp"
#include "posenc/xpos/fixed_point_scale.hpp"
#include "sample_count.hpp"

namespace {

using posenc::q15;
using posenc::q31;
namespace math = posenc::math;
namespace rope = posenc::rope;

// A pair table of Q for cfg's default frequencies, entry by entry against the oracle; returns the
// number of values that differ.
template <class Q>
int oracle_mismatches(const rope::config& cfg, std::span<const std::uint64_t> positions,
                      std::span<const math::sincos_result<Q>> table) {
  const int d = rope::rotary_dim(cfg), pairs = d / 2;
  int bad = 0;
  for (int j = 0; j < pairs; ++j) {
    const posenc::verify::rope_frequency f(cfg.rope_theta, j, d);
    for (std::size_t i = 0; i < positions.size(); ++i) {
      auto v = posenc::verify::rope_value(f, positions[i]);
      const Q c = v.template round<Q>(0), s = v.template round<Q>(1);
      const auto& got = table[i * static_cast<std::size_t>(pairs) + static_cast<std::size_t>(j)];
      if (got.cos != c || got.sin != s) {
        if (bad < 5)
          UNSCOPED_INFO("position " << positions[i] << " pair " << j << ": cos " << got.cos.bits << " want " << c.bits
                                    << ", sin " << got.sin.bits << " want " << s.bits);
        ++bad;
      }
    }
  }
  return bad;
}

constexpr rope::config llama2_like{.head_dim = 64, .rope_theta = 10000.0};

}  // namespace

TEST_CASE("q15 and q31: saturation and the rounding onto the grid, from their definitions") {
  // saturate: CMSIS's __SSAT to [-2^F, 2^F - 1].
  CHECK(posenc::saturate<q15>(32768).value.bits == 32767);
  CHECK(posenc::saturate<q15>(32768).saturated);
  CHECK_FALSE(posenc::saturate<q15>(32767).saturated);
  CHECK(posenc::saturate<q15>(-32768).value.bits == -32768);
  CHECK_FALSE(posenc::saturate<q15>(-32768).saturated);
  CHECK(posenc::saturate<q15>(-32769).saturated);
  CHECK(posenc::saturate<q31>(std::int64_t{1} << 31).value.bits == 2147483647);
  // 1.0: 2^15 saturates to 0x7FFF (CMSIS's value of 1 in its tables); -1.0 is exact.
  CHECK(math::round_to_fixed<q15>(1.0).value.value.bits == 0x7FFF);
  CHECK(math::round_to_fixed<q15>(1.0).value.saturated);
  CHECK(math::round_to_fixed<q15>(-1.0).value.value.bits == -32768);
  CHECK_FALSE(math::round_to_fixed<q15>(-1.0).value.saturated);
  // Ties: 0.5 + 2^-16 is 16384.5 steps: even (16384); with any positive low part, up (16385);
  // 1 - 2^-16 is 32767.5 steps: even would be 32768, which saturates to 32767.
  CHECK(math::round_to_fixed<q15>(0.5 + 0x1p-16).value.value.bits == 16384);
  CHECK(math::round_to_fixed<q15>(math::double_double{0.5 + 0x1p-16, 0x1p-80}).value.value.bits == 16385);
  CHECK(math::round_to_fixed<q15>(math::double_double{0.5 + 0x1p-16, -0x1p-80}).value.value.bits == 16384);
  CHECK(math::round_to_fixed<q15>(0.5 + 3 * 0x1p-16).value.value.bits == 16386);  // 16385.5: even is up
  CHECK(math::round_to_fixed<q15>(-(0.5 + 0x1p-16)).value.value.bits == -16384);
  CHECK(math::round_to_fixed<q15>(1.0 - 0x1p-16).value.saturated);
  CHECK_FALSE(math::round_to_fixed<q15>(math::double_double{1.0 - 0x1p-16, -0x1p-90}).value.saturated);
  CHECK(math::round_to_fixed<q31>(0x1p-32).value.value.bits == 0);      // 0.5 steps: even
  CHECK(math::round_to_fixed<q31>(3 * 0x1p-32).value.value.bits == 2);  // 1.5 steps: even
  CHECK(math::round_to_fixed<q31>(math::double_double{0x1p-32, 0x1p-100}).value.value.bits == 1);
  CHECK(math::round_to_fixed<q31>(std::numeric_limits<double>::quiet_NaN()).error == posenc::status::invalid_input);
  CHECK(q15{16384}.to_double() == 0.5);
  CHECK(q31{-1073741824}.to_double() == -0.5);
}

TEST_CASE("q15 RoPE tables: every entry at 0 error against MPFR, constexpr and run time alike") {
  // 2048 rows in the GCC and Clang presets, 409 in the sanitizer build (sample_count.hpp).
  const auto rows = static_cast<std::size_t>(posenc_test::samples(4096));
  constexpr std::size_t pairs = 32;
  std::vector<math::sincos_result<q15>> t(rows * pairs);
  const posenc::fixed_fill_status st = rope::fill_pair_table<q15>(llama2_like, std::span(t));
  REQUIRE(st.ok());
  std::vector<std::uint64_t> pos(rows);
  for (std::size_t i = 0; i < rows; ++i) pos[i] = i;
  CHECK(oracle_mismatches<q15>(llama2_like, pos, t) == 0);
  // cos 0 = 1 saturates to 0x7FFF in every pair of row 0, and the count says how many values
  // saturated in all (cos > 1 - 2^-16 at the small angles of the slow pairs).
  for (std::size_t j = 0; j < pairs; ++j) CHECK(t[j].cos.bits == 0x7FFF);
  std::uint64_t at_max = 0;
  for (const auto& e : t) at_max += (e.cos.bits == 0x7FFF ? 1u : 0u) + (e.sin.bits == 0x7FFF ? 1u : 0u);
  CHECK(st.saturated >= pairs);
  CHECK(st.saturated <= at_max);  // a saturated value is 0x7FFF (some 0x7FFF are RN(x 2^15) itself)
  // The entries the engine's float rounding left on a q15 midpoint (the accurate path's cases)
  // are among those checked: there are some in this table.
  std::vector<math::sincos_result<float>> tf(rows * pairs);
  REQUIRE(rope::fill_pair_table<float>(llama2_like, std::span(tf)) == posenc::status::ok);
  int midpoints = 0;
  for (const auto& e : tf)
    midpoints += (posenc::detail::grid_side(e.cos, 15).side == 0) + (posenc::detail::grid_side(e.sin, 15).side == 0);
  CHECK(midpoints > 10);
  // The same table in constant evaluation (both layouts' cos/sin copies and a pair table).
  static constexpr auto ct = rope::make_pair_table<q15, 40, 32>(llama2_like);
  static_assert(ct.ok() && ct.value.data[0].cos.bits == 0x7FFF && ct.value.data[0].sin.bits == 0);
  for (std::size_t i = 0; i < 40 * pairs; ++i)
    CHECK((ct.value.data[i].cos == t[i].cos && ct.value.data[i].sin == t[i].sin));
  std::uint64_t sat40 = 0;
  {
    std::vector<math::sincos_result<q15>> t40(40 * pairs);
    sat40 = rope::fill_pair_table<q15>(llama2_like, std::span(t40)).saturated;
  }
  CHECK(ct.value.saturated == sat40);
  static constexpr auto ex = rope::make_table<q15, 8, 64, rope::layout::interleaved>(llama2_like);
  static_assert(ex.ok());
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < pairs; ++j) {
      CHECK(ex.value.cos[i * 64 + 2 * j] == t[i * pairs + j].cos);
      CHECK(ex.value.sin[i * 64 + 2 * j + 1] == t[i * pairs + j].sin);
    }
}

namespace {

// A position list's runs of consecutive positions are range fills (from 4 rows at run time, 8 in
// constant evaluation), the rest scalar entries; the saturation count adds up over the parts.
// (fixed_list_at at namespace scope: GCC with -fsanitize=address does not fold a function-local
// static's address compared with nullptr, which the fill does with a list, in a constant expression.)
constexpr std::array<std::uint64_t, 22> fixed_list_at{0, 1, 2,  3,  4,  5,  6,  7,  8,  9,  77,
                                                      3, 3, 41, 42, 43, 44, 45, 46, 47, 48, 49};

template <class Q>
void check_fixed_list() {
  std::vector<std::uint64_t> pos;
  for (std::uint64_t i = 0; i < 10; ++i) pos.push_back(i);  // a run from 0: cos 0 saturates
  pos.push_back(100), pos.push_back(57);
  for (std::uint64_t i = 0; i < 3; ++i) pos.push_back(5000 + i);
  for (std::uint64_t i = 0; i < 5; ++i) pos.push_back(300 + i);
  pos.push_back(0), pos.push_back(5), pos.push_back(5);
  for (std::uint64_t i = 0; i < 40; ++i) pos.push_back(2000000 + i);
  for (std::uint64_t i = 0; i < 9; ++i) pos.push_back(41 + i);
  constexpr std::size_t pairs = 32;
  std::vector<math::sincos_result<Q>> t(pos.size() * pairs);
  const posenc::fixed_fill_status st = rope::fill_pair_table<Q>(llama2_like, pos, std::span(t));
  REQUIRE(st.ok());
  CHECK(oracle_mismatches<Q>(llama2_like, pos, t) == 0);
  std::uint64_t one_by_one = 0;  // each position alone: a list of one row, the scalar path
  for (const std::uint64_t p : pos) {
    std::vector<math::sincos_result<Q>> row(pairs);
    const std::array<std::uint64_t, 1> at{p};
    one_by_one += rope::fill_pair_table<Q>(llama2_like, at, std::span(row)).saturated;
  }
  CHECK(st.saturated == one_by_one);
  CHECK(st.saturated >= 2 * pairs);  // rows at position 0
}

}  // namespace

TEST_CASE("q15/q31 RoPE tables at a position list: 0 error against MPFR, the saturation counted over the parts") {
  check_fixed_list<q15>();
  check_fixed_list<q31>();
  // In constant evaluation: a run of 10, scattered positions, a run of 9.
  static constexpr auto ct = rope::make_pair_table<q15, 22, 32>(llama2_like, fixed_list_at);
  static_assert(ct.ok());
  std::vector<math::sincos_result<q15>> rt(22 * 32);
  const posenc::fixed_fill_status st = rope::fill_pair_table<q15>(llama2_like, fixed_list_at, std::span(rt));
  REQUIRE(st.ok());
  int differ = 0;
  for (std::size_t k = 0; k < rt.size(); ++k)
    differ += !(ct.value.data[k].cos == rt[k].cos && ct.value.data[k].sin == rt[k].sin);
  CHECK(differ == 0);
  CHECK(ct.value.saturated == st.saturated);
}

TEST_CASE("q31 RoPE tables: 0 error against MPFR, including the entries whose double is a q31 midpoint") {
  constexpr std::size_t rows = 512, pairs = 32;
  std::vector<math::sincos_result<q31>> t(rows * pairs);
  REQUIRE(rope::fill_pair_table<q31>(llama2_like, std::span(t)).ok());
  std::vector<std::uint64_t> pos(rows);
  for (std::size_t i = 0; i < rows; ++i) pos[i] = i;
  CHECK(oracle_mismatches<q31>(llama2_like, pos, t) == 0);
  // Positions where RN_double(cos or sin) of some pair is exactly a q31 midpoint (found by a scan
  // of positions below 2^21 with this config's double table: 20 of 67 million entries), so these
  // values come from the 256-bit enclosure, not from the double.
  const std::array<std::uint64_t, 8> hard = {104752, 215899, 262033, 286562, 309697, 433834, 1047520, 1482366};
  std::vector<math::sincos_result<q31>> th(hard.size() * pairs);
  REQUIRE(rope::fill_pair_table<q31>(llama2_like, hard, std::span(th)).ok());
  CHECK(oracle_mismatches<q31>(llama2_like, hard, th) == 0);
  // The check can fail: rounding the double instead (ties to even on the midpoint) misses some.
  std::vector<math::sincos_result<double>> td(hard.size() * pairs);
  REQUIRE(rope::fill_pair_table<double>(llama2_like, hard, std::span(td)) == posenc::status::ok);
  std::vector<math::sincos_result<q31>> naive(td.size());
  int midpoints = 0;
  for (std::size_t k = 0; k < td.size(); ++k) {
    midpoints +=
        (posenc::detail::grid_side(td[k].cos, 31).side == 0) + (posenc::detail::grid_side(td[k].sin, 31).side == 0);
    naive[k] = {math::round_to_fixed<q31>(td[k].sin).value.value, math::round_to_fixed<q31>(td[k].cos).value.value};
  }
  CHECK(midpoints >= 8);
  CHECK(oracle_mismatches<q31>(llama2_like, hard, naive) > 0);
  // Constant evaluation gives the same bits (q31 takes the double path: small table).
  static constexpr auto ct = rope::make_pair_table<q31, 4, 32>(llama2_like);
  static_assert(ct.ok() && ct.value.data[0].cos.bits == 2147483647 && ct.value.saturated >= 32);
  for (std::size_t i = 0; i < 4 * pairs; ++i)
    CHECK((ct.value.data[i].cos == t[i].cos && ct.value.data[i].sin == t[i].sin));
}

namespace {

// The unit-norm law of a q15/q31 pair table in units of 2^-F: max over entries of
// |kc^2 + ks^2 - 2^2F| / 2^F, computed exactly in integers.
template <class Q>
double max_norm_deviation(std::span<const math::sincos_result<Q>> t) {
  constexpr int F = posenc::fixed_format<Q>::fraction_bits;
  __extension__ using i128 = __int128;
  double worst = 0;
  for (const auto& e : t) {
    const i128 c = e.cos.bits, s = e.sin.bits;
    i128 d = c * c + s * s - (i128{1} << (2 * F));
    if (d < 0) d = -d;
    const double steps = static_cast<double>(d) / static_cast<double>(std::int64_t{1} << F);
    worst = steps > worst ? steps : worst;
  }
  return worst;
}

}  // namespace

TEST_CASE("q15/q31 RoPE tables keep unit norm within the bound quantisation implies (docs/fixed-point.md)") {
  // c_q = c + e_c, s_q = s + e_s: c_q^2 + s_q^2 - 1 = 2 (c e_c + s e_s) + e_c^2 + e_s^2, so its size
  // is at most 2 sqrt(e_c^2 + e_s^2) + e_c^2 + e_s^2 (Cauchy-Schwarz). Rounding: |e| <= 2^-(F+1);
  // a saturated cos (x >= 1 - 2^-(F+1)) errs by at most 2^-F. In units of 2^-F the bound is
  // sqrt(5) + 1.25 2^-F; cos 0 = 1 stored as 1 - 2^-F reaches 2 - 2^-F of it.
  const auto check = [](auto tag) {
    using Q = decltype(tag);
    constexpr int F = posenc::fixed_format<Q>::fraction_bits;
    const double bound = 2.2360679774997898 + 1.25 * std::ldexp(1.0, -F);
    std::vector<math::sincos_result<Q>> t(2048 * 32);
    REQUIRE(rope::fill_pair_table<Q>(llama2_like, std::span(t)).ok());
    const double worst = max_norm_deviation<Q>(t);
    UNSCOPED_INFO(posenc::fixed_format<Q>::fraction_bits << " fraction bits: worst |c^2 + s^2 - 1| = " << worst
                                                         << " x 2^-F, bound " << bound);
    CHECK(worst <= bound);
    CHECK(worst >= 2 - std::ldexp(1.0, -F));  // row 0 (saturated cos 0) reaches it
    // The check can fail: a cos two steps too low at row 0 breaks it.
    t[0].cos.bits = static_cast<decltype(t[0].cos.bits)>(t[0].cos.bits - 2);
    CHECK(max_norm_deviation<Q>(t) > bound);
  };
  check(q15{});
  check(q31{});
}

TEST_CASE("q15/q31 RoPE tables: the rotary laws hold at their quantised bounds, and each rejects a corrupted table") {
  // The bounds (laws/bounds.hpp, derived in docs/fixed-point.md): a block's error ||E|| <= (sqrt(5)/2)
  // 2^-F, unit norm 2 ||E|| + ||E||^2, relative dot twice that, composition 3 ||E|| + ||E||^2, each
  // with at most 2^-48 for the law's own evaluation in double.
  const auto check = [](auto tag) {
    using Q = decltype(tag);
    namespace pl = posenc::laws;
    constexpr int F = posenc::fixed_format<Q>::fraction_bits;
    const double step = std::ldexp(1.0, -F), e = std::sqrt(5.0) / 2 * step;
    const auto near = [](double got, double want) { return got >= want && got <= want * (1 + 0x1p-39) + 0x1p-48; };
    CHECK(near(pl::unit_norm_bound<Q>(), 2 * e + e * e));
    CHECK(near(pl::relative_dot_bound<Q>(), 2 * (2 * e + e * e)));
    CHECK(near(pl::composition_bound<Q>(), 3 * e + e * e));

    const rope::config c{.head_dim = 64, .rope_theta = 10000.0};
    constexpr std::size_t rows = 256, d = 64;
    std::vector<Q> hc(rows * d), hs(rows * d), ic(rows * d), is(rows * d);
    REQUIRE(rope::fill_table<Q>(c, std::span<Q>(hc), std::span<Q>(hs), rope::layout::half_split, {}).ok());
    REQUIRE(rope::fill_table<Q>(c, std::span<Q>(ic), std::span<Q>(is), rope::layout::interleaved, {}).ok());
    const auto laws = [&](std::vector<Q>& cos, std::vector<Q>& sin) {
      const pl::span_table<Q> h{cos, sin, d, rope::layout::half_split, 0};
      const pl::span_table<Q> i{ic, is, d, rope::layout::interleaved, 0};
      return std::array<pl::law_result, 6>{pl::exactness(h, c), pl::unit_norm(h),   pl::relative_dot(h),
                                           pl::composition(h),  pl::pair_copies(h), pl::layout_equivalence(i, h)};
    };
    for (const auto& r : laws(hc, hs)) {
      INFO(F << " fraction bits: " << pl::to_string(r));
      CHECK(r.holds);
    }
    // Pair 3 of row 100 one step low, both copies: exactness (0 steps allowed) and layout equivalence fail.
    constexpr std::size_t row = 100, pair = 31;  // the slowest pair: cos near 1
    auto c1 = hc;
    c1[row * d + 3].bits = static_cast<decltype(c1[0].bits)>(c1[row * d + 3].bits - 1);
    c1[row * d + 3 + 32].bits = static_cast<decltype(c1[0].bits)>(c1[row * d + 3 + 32].bits - 1);
    auto r1 = laws(c1, hs);
    CHECK(!r1[0].holds);
    CHECK(r1[0].deviation == 1.0);
    CHECK(!r1[5].holds);
    CHECK(r1[4].holds);
    // The slowest pair's cos 8 steps low (both copies): unit norm (~16 steps against 2.24), relative
    // dot (~8 against 4.47) and composition (~8 against 3.35) fail.
    auto c8 = hc;
    for (const std::size_t k : {pair, pair + 32})
      c8[row * d + k].bits = static_cast<decltype(c8[0].bits)>(c8[row * d + k].bits - 8);
    auto r8 = laws(c8, hs);
    CHECK(!r8[1].holds);
    CHECK(!r8[2].holds);
    CHECK(!r8[3].holds);
    CHECK(r8[4].holds);
    // One copy only: pair copies fails.
    auto c9 = hc;
    c9[row * d + pair].bits = static_cast<decltype(c9[0].bits)>(c9[row * d + pair].bits - 1);
    CHECK(!laws(c9, hs)[4].holds);
  };
  check(q15{});
  check(q31{});
}

TEST_CASE("q15/q31 RoPE tables: the MPFR law checkers hold them to the quantised bounds, and can fail") {
  // verify/law_measures: |c^2 + s^2 - 1| exactly, <R~_m q, R~_n k> and R~_m R~_n q against the exact
  // rotations (MPFR), bounds 2 ||E|| + ||E||^2 and 3 ||E|| + ||E||^2 of ||E|| = (sqrt(5)/2) 2^-F.
  namespace lm = posenc::verify::law_measures;
  const auto check = [](auto tag) {
    using Q = decltype(tag);
    const rope::config c{.head_dim = 32, .rope_theta = 10000.0};
    const auto t = rope::make_table<Q, 48, 32>(c);
    REQUIRE(t.ok());
    const lm::law_report o = lm::check_orthogonality(t.value);
    INFO(posenc::fixed_format<Q>::fraction_bits << " fraction bits: " << o.law << " worst ratio " << o.worst_ratio
                                                << " " << o.counterexample);
    CHECK(o.passed);
    CHECK(o.worst_ratio > 0.85);  // row 0: (1 - 2^-F)^2 - 1, about 2 of the bound's 2.24 steps
    std::mt19937_64 rng(23);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const lm::exact_rows ex(c);
    for (const auto& [m, n] : {std::pair<std::uint64_t, std::uint64_t>{0, 1}, {3, 40}, {17, 1000}, {511, 4095}}) {
      std::vector<double> q(32), k(32);
      for (std::size_t i = 0; i < 32; ++i) q[i] = u(rng), k[i] = u(rng);
      const lm::law_report rd = lm::check_relative_dot<Q>(c, ex, q, k, m, n);
      const lm::law_report co = lm::check_composition<Q>(c, q, m, n);
      INFO("m " << m << " n " << n << ": " << rd.counterexample << co.counterexample);
      CHECK(rd.passed);
      CHECK(co.passed);
    }
    // A row 8 steps off in pair 0's cos fails the relative dot checker (8 steps against ~2.24).
    bool ok = true;
    lm::cs_row tm = lm::rounded_row<Q>(c, 3, ok), tn = lm::rounded_row<Q>(c, 40, ok);
    REQUIRE(ok);
    tm.c[0] = tm.c[0] - posenc::verify::exact_real(std::ldexp(8.0, -posenc::fixed_format<Q>::fraction_bits));
    std::vector<double> e0(32, 0.0);
    e0[0] = 1;
    CHECK(!lm::check_relative_dot_rows("relative dot", "corrupted table", e0, e0, tm, tn, ex.at(37),
                                       posenc::laws::table_dot_bound<Q>(), 3, 40)
               .passed);
  };
  check(q15{});
  check(q31{});
}

namespace {

// A sinusoidal table of Q, rows first .. first + rows - 1, against the oracle: the mismatches.
template <class Q>
int sinusoid_mismatches(const posenc::sinusoidal::config& c, std::int64_t first, std::span<const Q> t) {
  const std::size_t d = static_cast<std::size_t>(c.dim), rows = t.size() / d;
  int bad = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t k = 0; k < d; ++k) {
      const auto e = posenc::verify::sinusoid_element_of(c, static_cast<int>(k));
      Q want{};
      if (!e.zero) {
        auto v = posenc::verify::sinusoid_angle_value(first + static_cast<std::int64_t>(r), c.base, e.num, e.den);
        want = v.template round<Q>(e.is_sin ? 1 : 0);
      }
      if (t[r * d + k] != want) {
        if (bad < 5)
          UNSCOPED_INFO("row " << first + static_cast<std::int64_t>(r) << " element " << k << ": " << t[r * d + k].bits
                               << " want " << want.bits);
        ++bad;
      }
    }
  return bad;
}

}  // namespace

TEST_CASE("q15/q31 sinusoidal tables: 0 error against MPFR, negative positions and saturation included") {
  namespace sn = posenc::sinusoidal;
  const auto check = [](auto tag, const sn::config& c, std::int64_t first, std::size_t rows) {
    using Q = decltype(tag);
    std::vector<Q> t(rows * static_cast<std::size_t>(c.dim));
    const posenc::fixed_fill_status st = sn::fill_table<Q>(sn::checked_config{c}, first, std::span(t));
    REQUIRE(st.ok());
    CHECK(sinusoid_mismatches<Q>(c, first, t) == 0);
    return st.saturated;
  };
  const sn::config paper{.dim = 64};
  const sn::config fairseq_odd{.dim = 33, .exponent = sn::exponent::fairseq, .layout = sn::layout::concat};
  // Rows -256 .. 255: position 0's cos columns saturate (cos 0 = 1), and so do the small angles of
  // the slow columns, at negative positions too; a sin near -1 does not (-2^F is exact).
  CHECK(check(q15{}, paper, -256, 512) > 32);
  CHECK(check(q15{}, fairseq_odd, -100, 300) > 0);
  CHECK(check(q31{}, paper, -64, 128) > 0);
  static_cast<void>(check(q31{}, fairseq_odd, 1000, 64));
  // The paper's d = 64 angles are RoPE's (base 10000, d = 64): the positions whose double is a q31
  // midpoint (test above) take the enclosure here too, 1482366 in column 0 (omega_0 = 1, the
  // product path) and the negative positions' rows as well.
  for (const std::int64_t p : {104752, 1482366, -1482366, 215899}) static_cast<void>(check(q31{}, paper, p, 1));
  // Constant evaluation: the same bits.
  static constexpr auto ct = sn::make_table<q15, 16, 64>(sn::checked_config{sn::config{.dim = 64}}, -8);
  static_assert(ct.ok() && ct.value[8 * 64 + 1].bits == 0x7FFF);  // position 0, element 1: cos 0
  std::vector<q15> rt(16 * 64);
  REQUIRE(sn::fill_table<q15>(sn::checked_config{paper}, -8, std::span(rt)).ok());
  for (std::size_t i = 0; i < rt.size(); ++i) CHECK(ct.value[i] == rt[i]);
}

TEST_CASE("q15/q31 ALiBi slopes: 0 error against MPFR, exact powers of two and true ties included") {
  namespace al = posenc::alibi;
  const auto mismatches = [](auto tag, const al::config& c) {
    using Q = decltype(tag);
    const al::checked_config cc{c};
    std::vector<Q> s(static_cast<std::size_t>(c.heads));
    const posenc::fixed_fill_status st = al::fill_slopes<Q>(cc, std::span(s));
    REQUIRE(st.ok());
    CHECK(st.saturated == 0);  // every slope is below 1
    int bad = 0;
    for (int h = 0; h < c.heads; ++h) {
      const auto e = al::slope_exponent_of(cc, h).value;
      auto v = posenc::verify::alibi_bias_value(e.num, e.den, 1);  // -m_h
      const Q neg = v.template round<Q>();
      // RN is symmetric and no slope saturates, so RN(m) = -RN(-m).
      bad += s[static_cast<std::size_t>(h)].bits != -neg.bits;
    }
    return bad;
  };
  int bad = 0;
  for (int heads = 1; heads <= 96; ++heads)
    for (const double max_bias : {8.0, 3.0, 0.5}) {
      bad += mismatches(q15{}, {heads, max_bias});
      bad += mismatches(q31{}, {heads, max_bias});
    }
  CHECK(bad == 0);
  // Exact slopes on the grid's midpoint: 2^-16 is q15's half step (a true tie: even, 0), 2^-32 q31's.
  const al::checked_config tie15{al::config{.heads = 1, .max_bias = 16.0}};
  CHECK(al::make_slopes<q15, 1>(tie15).value[0].bits == 0);
  CHECK(mismatches(q15{}, {1, 16.0}) == 0);
  const al::checked_config tie31{al::config{.heads = 2, .max_bias = 16.0}};  // 2^-8, 2^-16
  CHECK(al::make_slopes<q31, 2>(tie31).value[1].bits == 32768);
  static constexpr auto ct = al::make_slopes<q15, 8>(al::checked_config{al::config{.heads = 8}});
  static_assert(ct.ok() && ct.value[0].bits == 16384 && ct.value[7].bits == 128);  // 2^-1 .. 2^-8, exact
}

// The slope laws at the bounds docs/fixed-point.md derives (absolute error 2^-(F+1) taken relative
// to each stored slope): they hold on the emitted tables and fail on one slope moved a few steps.
TEST_CASE("q15/q31 ALiBi slope laws: hold on the emitted slopes, fail on one moved by a few steps") {
  namespace al = posenc::alibi;
  namespace pl = posenc::laws;
  const auto holds = [](auto tag, const al::config& c) {
    using Q = decltype(tag);
    std::vector<Q> s(static_cast<std::size_t>(c.heads));
    REQUIRE(al::fill_slopes<Q>(al::checked_config{c}, std::span(s)).ok());
    const pl::law_result g = pl::alibi_geometric_slopes(std::span<const Q>(s), c);
    const pl::law_result p = pl::alibi_power_of_two_slopes(std::span<const Q>(s), c);
    INFO(c.heads << " heads, max_bias " << c.max_bias << ": geometric " << g.deviation << " (" << g.checked
                 << " heads read)");
    CHECK(g.holds);
    CHECK(p.holds);
    return g.checked;
  };
  // registry/alibi.hpp's examples (BLOOM 16, 12, MPT 32, 5 with max_bias 1) and a long one.
  for (const al::config& c : {al::config{.heads = 16}, al::config{.heads = 12}, al::config{.heads = 32},
                              al::config{.heads = 5, .max_bias = 1.0}, al::config{.heads = 96}}) {
    CHECK(holds(q15{}, c) > 0);
    CHECK(holds(q31{}, c) > 0);
  }
  // 8 heads, max_bias 8: 2^-1 .. 2^-8, exact, so q_1 = 1. Moving m_1 = 1/4 by k steps moves q_1 by
  // k 2^-15 / (m_0 m_0) = k 2^-13 while the bound at head 1 is about eps_1 + 2 eps_0 = 2^-13
  // (eps = 2^-16 / m): k = 3 exceeds it threefold. One step off a power of two fails that law.
  const al::config c8{.heads = 8};
  auto s = al::make_slopes<q15, 8>(al::checked_config{c8}).value;
  REQUIRE(pl::alibi_geometric_slopes(s, c8).holds);
  REQUIRE(pl::alibi_power_of_two_slopes(s, c8).holds);
  const double bound1 = pl::alibi_slope_ratio_bound<q15>(0.5, 0.5, 0.25 + 3 * 0x1p-15, false);
  CHECK(bound1 < 1.01 * 0x1p-13);
  s[1].bits += 3;
  const pl::law_result g = pl::alibi_geometric_slopes(s, c8);
  CHECK(!g.holds);
  CHECK(g.deviation >= 2.9 * bound1);
  CHECK(!pl::alibi_power_of_two_slopes(s, c8).holds);
  // q31, 16 heads: a slope that is no power of two (head 2, m_2 = 2^-1.5) moved by k steps moves
  // q_2 by k 2^-31 / m_2 = k 2^-29.5 relative; the bound is about 2^-32 (1/m_2 + 1/m_0 + 1/m_1) =
  // 6.3 x 2^-32 and the unmoved q_2 is within it: k = 8 gives 45 x 2^-32 - 6.3 x 2^-32, six times
  // the bound, a certain failure.
  const al::config c16{.heads = 16};
  auto s31 = al::make_slopes<q31, 16>(al::checked_config{c16}).value;
  REQUIRE(pl::alibi_geometric_slopes(s31, c16).holds);
  s31[2].bits += 8;
  CHECK(!pl::alibi_geometric_slopes(s31, c16).holds);
}

TEST_CASE("q15/q31 XPOS scales: 0 error against MPFR, saturation past 1 and a true tie included") {
  namespace xp = posenc::xpos;
  const auto check = [](auto tag, const xp::config& c, std::int64_t first, std::size_t rows, bool inverse) {
    using Q = decltype(tag);
    const xp::checked_config cc{c};
    const std::size_t pairs = static_cast<std::size_t>(c.head_dim / 2);
    std::vector<Q> t(rows * pairs);
    const posenc::fixed_fill_status st = xp::fill_scales<Q>(cc, first, std::span(t), inverse);
    REQUIRE(st.ok());
    int bad = 0;
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t j = 0; j < pairs; ++j) {
        const auto z = xp::zeta(cc, static_cast<int>(j)).value;
        const std::int64_t n = first + static_cast<std::int64_t>(r);
        auto v = posenc::verify::rational_power_value(z.num, z.den, inverse ? -n : n, c.scale_base);
        bad += t[r * pairs + j] != v.template round<Q>();
      }
    CHECK(bad == 0);
    return st.saturated;
  };
  static constexpr xp::config c{.head_dim = 64, .scale_base = 512};
  CHECK(check(q15{}, c, 0, 64, false) == 32);  // position 0: every scale is 1, saturated; none after
  CHECK(check(q31{}, c, 0, 64, false) == 32);
  CHECK(check(q15{}, c, -3, 4, false) == 4 * 32);  // n < 0: scales above 1 all saturate
  CHECK(check(q15{}, c, 1, 16, true) == 16 * 32);  // the inverse scales of n > 0 as well
  CHECK(check(q15{}, c, 4000, 8, false) == 0);
  // d = 20, pair 3: zeta = 70/140 = 1/2, so n = 16 scale_base gives 2^-16, q15's half step: a true
  // tie (even: 0); 2^-32 is q31's.
  const xp::checked_config half{xp::config{.head_dim = 20, .scale_base = 512}};
  std::vector<q15> t15(10);
  REQUIRE(xp::fill_scales<q15>(half, 16 * 512, std::span(t15)).ok());
  CHECK(t15[3].bits == 0);
  std::vector<q31> t31(10);
  REQUIRE(xp::fill_scales<q31>(half, 32 * 512, std::span(t31)).ok());
  CHECK(t31[3].bits == 0);
  REQUIRE(xp::fill_scales<q31>(half, 31 * 512, std::span(t31)).ok());
  CHECK(t31[3].bits == 1);  // 2^-31: exact
  CHECK(check(q15{}, xp::config{.head_dim = 20, .scale_base = 512}, 16 * 512 - 2, 5, false) == 0);
  static constexpr auto ct = xp::make_scale_table<q15, 4, 32>(xp::checked_config{c}, 0);
  static_assert(ct.ok() && ct.value[0].bits == 0x7FFF);
  std::vector<q15> rt(4 * 32);
  REQUIRE(xp::fill_scales<q15>(xp::checked_config{c}, 0, std::span(rt)).ok());
  for (std::size_t i = 0; i < rt.size(); ++i) CHECK(ct.value[i] == rt[i]);
}

TEST_CASE("q15/q31 rotation in CMSIS arithmetic: exact on a hand case, within its bound against MPFR") {
  // Hand case (CMSIS's truncating shift): x = (1/2, 0) by cos = 0x7FFF, sin = 0:
  // floor(16384 * 32767 / 2^15) = floor(16383.5) = 16383; y = floor(0) = 0.
  {
    std::array<q15, 2> v{q15{16384}, q15{0}};
    const math::sincos_result<q15> row{q15{0}, q15{0x7FFF}};
    REQUIRE(rope::rotate_fixed(v.data(), rope::apply_shape{1, 2, 2, rope::layout::interleaved}, &row) ==
            posenc::status::ok);
    CHECK(v[0].bits == 16383);
    CHECK(v[1].bits == 0);
  }
  // Random pairs |v| <= 1 - 2^-10 at positions 0 .. 255 of a d = 64 table; the exact rotation from
  // MPFR's cos/sin (verify::cr_rope_sincos<double>, within 2^-53). Bound: 2^-F (1 + |v| sqrt(5)/2).
  const auto worst_ratio = [](auto tag, int table_offset_steps) {
    using Q = decltype(tag);
    constexpr int F = posenc::fixed_format<Q>::fraction_bits;
    const double step = std::ldexp(1.0, -F);
    constexpr std::size_t rows = 256, pairs = 32;
    std::vector<math::sincos_result<Q>> t(rows * pairs);
    REQUIRE(rope::fill_pair_table<Q>(llama2_like, std::span(t)).ok());
    for (auto& e : t) e.cos.bits = static_cast<decltype(e.cos.bits)>(e.cos.bits - table_offset_steps);
    std::mt19937_64 rng(posenc_test::stream_seed(20261127));
    std::uniform_real_distribution<double> u(-0.7, 0.7);
    double worst = 0;
    for (std::size_t i = 0; i < rows; ++i) {
      std::vector<Q> v(64);
      for (auto& q : v) q = math::round_to_fixed<Q>(u(rng)).value.value;
      const std::vector<Q> in = v;
      REQUIRE(rope::rotate_fixed(v.data(), rope::apply_shape{1, 64, 64, rope::layout::half_split},
                                 t.data() + i * pairs) == posenc::status::ok);
      for (std::size_t j = 0; j < pairs; ++j) {
        const auto cs = posenc::verify::cr_rope_sincos<double>(i, 10000.0, static_cast<int>(j), 64);
        const double x = in[j].to_double(), y = in[j + 32].to_double();
        const double want0 = x * cs.cos - y * cs.sin, want1 = x * cs.sin + y * cs.cos;
        const double bound = step * (1 + std::sqrt(x * x + y * y) * 2.2360679774997898 / 2) + 0x1p-50;
        worst = std::max(
            {worst, std::fabs(v[j].to_double() - want0) / bound, std::fabs(v[j + 32].to_double() - want1) / bound});
      }
    }
    return worst;
  };
  const double r15 = worst_ratio(q15{}, 0), r31 = worst_ratio(q31{}, 0);
  UNSCOPED_INFO("worst error / bound: q15 " << r15 << ", q31 " << r31);
  CHECK(r15 <= 1);
  CHECK(r31 <= 1);
  CHECK(r15 > 0.5);  // the bound is not loose by more than 2x
  // The check can fail: a table whose cos is 3 steps low breaks the bound.
  CHECK(worst_ratio(q15{}, 3) > 1);
}

TEST_CASE("q15/q31 RoPE tables of scaled configs, attention factor folded: 0 error against MPFR") {
  // rope_table_oracle: any scaling, the factor folded, 320 bits checked roundable to 54 bits, so no
  // q15/q31 midpoint (at most 33 bits) lies within its error.
  const auto check = [](auto tag, const rope::config& c, bool fold, std::size_t rows, std::uint64_t start) {
    using Q = decltype(tag);
    const std::size_t pairs = static_cast<std::size_t>(rope::rotary_dim(c) / 2);
    std::vector<math::sincos_result<Q>> t(rows * pairs);
    const posenc::fixed_fill_status st =
        rope::fill_pair_table<Q>(c, std::span(t), {.start = start, .fold_attention = fold});
    REQUIRE(st.ok());
    const posenc::verify::rope_table_oracle oracle(c);
    int bad = 0;
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < pairs; ++j) {
        const auto want = oracle.sincos<Q>(start + i, static_cast<int>(j), fold);
        const auto& got = t[i * pairs + j];
        bad += got.cos != want.cos || got.sin != want.sin;
      }
    CHECK(bad == 0);
    return st.saturated;
  };
  constexpr rope::config yarn{.head_dim = 64,
                              .rope_theta = 10000.0,
                              .rope_type = rope::scaling::yarn,
                              .factor = 4.0,
                              .original_max_position_embeddings = 4096};
  // YaRN's attention factor 0.1 ln 4 + 1 = 1.139: folded, every |af cos| > 1 - 2^-16 saturates,
  // at both ends (af cos < -1 - 2^-16 goes to -2^F): far more than without folding.
  const std::uint64_t folded = check(q15{}, yarn, true, 256, 0), plain = check(q15{}, yarn, false, 256, 0);
  CHECK(folded > 4 * plain);
  static_cast<void>(check(q31{}, yarn, true, 64, 1000));
  static_cast<void>(check(q15{}, posenc::rope::models::llama3_2_1b, false, 128, 8000));
  // Proportional with a partial factor: pairs 8 .. 31 have frequency 0, cos 1 in every row (each
  // saturated and counted: 24 pairs x 16 rows), plus the rotating pairs' own saturations.
  constexpr rope::config prop{
      .head_dim = 64, .rope_theta = 10000.0, .partial_rotary_factor = 0.25, .proportional = true};
  CHECK(check(q15{}, prop, false, 16, 1) >= 24 * 16);
  CHECK(check(q31{}, prop, true, 16, 0) >= 24 * 16);
  {
    std::vector<math::sincos_result<q15>> t(16 * 32);
    const posenc::fixed_fill_status st = rope::fill_pair_table<q15>(prop, std::span(t), {.start = 100});
    std::uint64_t rotating_saturated = 0;
    for (std::size_t i = 0; i < 16; ++i)
      for (std::size_t j = 0; j < 8; ++j)  // a sin near +1 saturates too
        rotating_saturated +=
            (t[i * 32 + j].cos.bits == 0x7FFF ? 1u : 0u) + (t[i * 32 + j].sin.bits == 0x7FFF ? 1u : 0u);
    CHECK(st.saturated >= 24 * 16);
    CHECK(st.saturated <= 24 * 16 + rotating_saturated);
  }
  static_cast<void>(check(q31{}, posenc::rope::models::llama3_2_1b, false, 32, 100000));
}

namespace {

// The firmware's element-wise rotation from an expanded q15/q31 table (cos[k], sin[k] per element,
// rotate_half / rotate_every_two's sign): out[k] = sat((x[k] cos[k] + r(x)[k] sin[k]) >> F) with
// r(x) = (-y, x) on each pair, the sum exact in 64 bits. For pair (x, y) that is CMSIS's
// (x c - y s) >> F and (y c + x s) >> F: rotate_fixed's formula, so a pair row must give its bits.
// pair_offset shifts the compact table (the failing twin).
template <class Q, std::size_t D, rope::layout L>
constexpr bool pair_row_rotates_as_expanded(std::size_t position, std::size_t pair_offset = 0) {
  constexpr rope::config c{.head_dim = D, .rope_theta = 10000.0};
  const auto pairs = rope::make_pair_table<Q, 4, D / 2>(c, {.start = position + pair_offset});
  const auto full = rope::make_table<Q, 4, D, L>(c, {.start = position});
  if (!pairs.ok() || !full.ok()) return false;
  constexpr int F = posenc::fixed_format<Q>::fraction_bits;
  for (std::size_t row = 0; row < 4; ++row) {
    std::array<Q, D> x{}, want{};
    constexpr std::int64_t scale = F == 15 ? 16 : 1 << 20;  // |x| <= 1000 scale < 2^F
    for (std::size_t k = 0; k < D; ++k) {                   // a deterministic spread of signs and magnitudes
      const auto v = static_cast<std::int64_t>((k * 7919 + row * 104729) % 2001) - 1000;
      x[k].bits = static_cast<decltype(x[k].bits)>(v * scale);
    }
    for (std::size_t k = 0; k < D; ++k) {
      const bool first = L == rope::layout::interleaved ? k % 2 == 0 : k < D / 2;
      const std::size_t other =
          L == rope::layout::interleaved ? (first ? k + 1 : k - 1) : (first ? k + D / 2 : k - D / 2);
      const std::int64_t rot = first ? -std::int64_t{x[other].bits} : std::int64_t{x[other].bits};
      const std::int64_t sum =
          std::int64_t{x[k].bits} * full.value.cos_row(row)[k].bits + rot * full.value.sin_row(row)[k].bits;
      want[k] = posenc::saturate<Q>(sum >> F).value;
    }
    if (rope::rotate_fixed(x.data(), rope::apply_shape{1, D, D, L}, pairs.value.row(row)) != posenc::status::ok)
      return false;
    for (std::size_t k = 0; k < D; ++k)
      if (x[k].bits != want[k].bits) return false;
  }
  return true;
}

static_assert(pair_row_rotates_as_expanded<q15, 16, rope::layout::half_split>(0), "q15 pair rows, half-split");
static_assert(pair_row_rotates_as_expanded<q15, 16, rope::layout::interleaved>(1000), "q15 pair rows, interleaved");
static_assert(pair_row_rotates_as_expanded<q31, 8, rope::layout::half_split>(77), "q31 pair rows, half-split");
static_assert(pair_row_rotates_as_expanded<q31, 8, rope::layout::interleaved>(5), "q31 pair rows, interleaved");
static_assert(!pair_row_rotates_as_expanded<q15, 16, rope::layout::half_split>(0, 1),
              "the twin: a pair table one position off gives other bits (the comparison can fail)");

}  // namespace

TEST_CASE("q15/q31: rotate_fixed from a pair table gives the expanded table's element-wise bits, at run time too") {
  CHECK(pair_row_rotates_as_expanded<q15, 16, rope::layout::half_split>(3));
  CHECK(pair_row_rotates_as_expanded<q15, 16, rope::layout::interleaved>(4093));
  CHECK(pair_row_rotates_as_expanded<q31, 8, rope::layout::half_split>(123));
  CHECK(pair_row_rotates_as_expanded<q31, 8, rope::layout::interleaved>(2000000));
}
