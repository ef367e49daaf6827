// RoPE whose angle counts turns, 2 pi p theta_j (rope/turns.hpp): DINOv3's 2 pi coord / period, as
// scalar entries and as ND tables (rope/nd.hpp angle_unit::turns, rope/dinov3.hpp), against the
// MPFR oracle's 2 pi variant (verify/rope_oracle.hpp cr_rope_turns_sincos_at: mpfr_const_pi, its
// own frequency and product) at 0 ULP in double, float, bfloat16 and float16; the exact quarter
// turns; the same bits in constant evaluation; and the twice-rounded shortcut (2 pi coord given as
// a position) shown to miss the correct entries (the checker can fail).
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "posenc/laws/streams/axis_identity_at_zero.hpp"
#include "posenc/laws/streams/axis_relative_dot.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/dinov3.hpp"
#include "posenc/rope/nd.hpp"
#include "posenc/rope/turns.hpp"
#include "posenc/verify/rope_oracle.hpp"

using namespace posenc;

namespace {

template <class T>
std::uint64_t bits_of(T x) {
  return static_cast<std::uint64_t>(posenc::detail::float_format<T>::to_bits(x));
}

// DINOv3-like coordinates: patch centres of several grids, their negatives, tiny, large (near
// 2^21), exact integers and halves, and quarters. None is a multiple of 2.5 (at theta = 1/10 that
// is an exact quarter turn that no enclosure decides: tested apart).
std::vector<double> sample_coords() {
  std::vector<double> p;
  for (const std::uint64_t h : {14u, 16u, 37u})
    for (std::uint64_t i = 0; i < h; ++i) p.push_back(rope::dinov3_coord(i, h));
  for (const double x :
       {1e-300, -0x1p-1000, 1e-9,  -3e-7, 0x1p-60, 0.1,   -0.3,  1.0,        -1.0,       2.0,        -3.0,      0.5,
        -0.5,   1.5,        -7.25, 0.25,  -0.75,   0.125, 100.5, 12345.6789, 2097151.75, -2097152.0, 1048575.5, 0.0})
    p.push_back(x);
  return p;
}

template <class T>
std::uint64_t turns_mismatches(int axis_dim, const std::vector<double>& coords) {
  const rope::config c{.head_dim = axis_dim, .rope_theta = 100.0};
  std::uint64_t bad = 0;
  for (const double p : coords)
    for (int k = 0; k < axis_dim / 2; ++k) {
      const auto got = rope::sincos_turns_at<T>(c, p, k);
      const auto e = verify::cr_rope_turns_sincos_at<T>(p, 100.0, k, axis_dim);
      const bool differ =
          !got.ok() || bits_of(got.value.cos) != bits_of(e.cos) || bits_of(got.value.sin) != bits_of(e.sin);
      if (differ) UNSCOPED_INFO("p = " << p << " k = " << k);
      bad += differ;
    }
  return bad;
}

}  // namespace

TEST_CASE("Turns: cos/sin(2 pi p theta_k) are the MPFR values in four types (0 ULP)", "[turns][oracle]") {
  const auto coords = sample_coords();
  for (const int axis_dim : {32, 64}) {  // DINOv3 head dims 64 and 128: axes of D/2
    CHECK(turns_mismatches<double>(axis_dim, coords) == 0);
    CHECK(turns_mismatches<float>(axis_dim, coords) == 0);
    CHECK(turns_mismatches<bfloat16>(axis_dim, coords) == 0);
    CHECK(turns_mismatches<float16>(axis_dim, coords) == 0);
  }
}

TEST_CASE("Turns: a power-of-two base (dyadic frequencies) against MPFR away from its quarter turns",
          "[turns][oracle]") {
  // base 16, axis dim 8: theta_k = 16^(-2k/8) = 2^-k exactly, so 4 p 2^-k an integer is an exact
  // quarter turn (the proofs check those); every other coordinate against MPFR in four types.
  const rope::config c{.head_dim = 8, .rope_theta = 16.0};
  std::uint64_t bad = 0, n = 0;
  for (const double p : sample_coords())
    for (int k = 0; k < 4; ++k) {
      const double q = 4 * p / static_cast<double>(1 << k);  // exact: a power-of-two scaling
      if (q == static_cast<double>(static_cast<long long>(q))) continue;
      const auto d = rope::sincos_turns_at<double>(c, p, k);
      const auto e = verify::cr_rope_turns_sincos_at<double>(p, 16.0, k, 8);
      const auto h = rope::sincos_turns_at<float16>(c, p, k);
      const auto eh = verify::cr_rope_turns_sincos_at<float16>(p, 16.0, k, 8);
      bad += !d.ok() || bits_of(d.value.cos) != bits_of(e.cos) || bits_of(d.value.sin) != bits_of(e.sin);
      bad += !h.ok() || bits_of(h.value.cos) != bits_of(eh.cos) || bits_of(h.value.sin) != bits_of(eh.sin);
      ++n;
    }
  CHECK(n > 200);
  CHECK(bad == 0);
}

TEST_CASE("Turns: quarter turns at theta_0 = 1 are exact; the integer entry point agrees", "[turns]") {
  const rope::config c{.head_dim = 32, .rope_theta = 100.0};
  struct expect {
    double p, cos, sin;
  };
  for (const expect e :
       {expect{0.25, 0.0, 1.0}, expect{0.5, -1.0, 0.0}, expect{0.75, 0.0, -1.0}, expect{-0.25, 0.0, -1.0},
        expect{1.0, 1.0, 0.0}, expect{-1.5, -1.0, 0.0}, expect{1048575.25, 0.0, 1.0}}) {
    const auto d = rope::sincos_turns_at<double>(c, e.p, 0);
    REQUIRE(d.ok());
    CHECK(bits_of(d.value.cos) == bits_of(e.cos));  // zeros are +0
    CHECK(bits_of(d.value.sin) == bits_of(e.sin));
    const auto h = rope::sincos_turns_at<float16>(c, e.p, 0);  // 0x3c00 = 1, 0xbc00 = -1
    const auto f16 = [](double x) { return x == 0 ? 0u : x > 0 ? 0x3c00u : 0xbc00u; };
    CHECK(bits_of(h.value.cos) == f16(e.cos));
    CHECK(bits_of(h.value.sin) == f16(e.sin));
  }
  for (const std::uint64_t m : {1u, 7u, 1000u, 1u << 20})
    for (const int k : {0, 3, 15}) {
      const auto a = rope::sincos_turns<float>(c, m, k), b = rope::sincos_turns_at<float>(c, static_cast<double>(m), k);
      CHECK(bits_of(a.value.cos) == bits_of(b.value.cos));
      CHECK(bits_of(a.value.sin) == bits_of(b.value.sin));
    }
  // Past the real positions' range the integer entry point still answers (MPFR at the same m, a
  // double exactly); the phase is past turns_max (2^49), so these take the multiprecision path.
  for (const std::uint64_t m : {(std::uint64_t{1} << 40) + 3, (std::uint64_t{1} << 52) + 1})
    for (const int k : {1, 5, 15}) {
      const auto big = rope::sincos_turns<double>(c, m, k);
      const auto e = verify::cr_rope_turns_sincos_at<double>(static_cast<double>(m), 100.0, k, 32);
      REQUIRE(big.ok());
      CHECK(bits_of(big.value.cos) == bits_of(e.cos));
      CHECK(bits_of(big.value.sin) == bits_of(e.sin));
    }
  // The positions through volatiles: with constant arguments Clang tried to fold each call at
  // compile time (2.7 s for each of the last two, -ftime-trace).
  volatile double nan = std::numeric_limits<double>::quiet_NaN(), past = 4194304.0, half = 0.5, quarter_turn = 2.5,
                  negative = -100.0;
  CHECK(rope::sincos_turns_at<float>(c, nan, 0).error == status::domain_error);
  CHECK(rope::sincos_turns_at<float>(c, past, 0).error == status::domain_error);
  CHECK(rope::sincos_turns_at<float>(c, half, 16).error == status::domain_error);
  // theta_8 = 100^(-1/2) = 1/10 is rational but not a dyadic: at p = 2.5 the angle is exactly pi/2
  // and cos is exactly 0, which no enclosure can prove: an error, never wrong bits.
  CHECK(rope::sincos_turns_at<float>(c, quarter_turn, 8).error == status::domain_error);
  CHECK(rope::sincos_turns_at<float>(c, negative, 8).error == status::domain_error);
}

TEST_CASE("DINOv3 coordinates are (2i + 1)/n - 1 rounded once", "[turns]") {
  CHECK(rope::dinov3_coord(0, 2) == -0.5);
  CHECK(rope::dinov3_coord(1, 2) == 0.5);
  CHECK(rope::dinov3_coord(7, 15) == 0.0);
  CHECK(rope::dinov3_coord(0, 1) == 0.0);
  // 1/14 - 1 = -13/14 and 27/14 - 1 = 13/14: RN_double of the exact rationals (MPFR).
  for (const std::uint64_t n : {3u, 14u, 37u, 1000u})
    for (std::uint64_t i = 0; i < n; ++i) {
      verify::detail::mp q(53), num(64);
      mpfr_set_si(num.get(), static_cast<long>(2 * i + 1) - static_cast<long>(n), MPFR_RNDN);
      mpfr_div_ui(q.get(), num.get(), static_cast<unsigned long>(n), MPFR_RNDN);
      CHECK(rope::dinov3_coord(i, n) == mpfr_get_d(q.get(), MPFR_RNDN));
    }
  std::vector<double> pos(2 * 2 * 3);
  REQUIRE(rope::dinov3_positions(2, 3, pos) == status::ok);
  CHECK(pos == std::vector<double>{-0.5, -0.5, -0.5, 0.5, 0.5, 0.5, -2.0 / 3, 0.0, 2.0 / 3, -2.0 / 3, 0.0, 2.0 / 3});
  CHECK(rope::dinov3_positions(0, 3, pos) == status::domain_error);
  CHECK(rope::dinov3_positions(2, 2, pos) == status::domain_error);
}

TEST_CASE("DINOv3 ND tables: every entry is the MPFR value, the laws hold", "[turns][nd][oracle]") {
  for (const int head_dim : {64, 128}) {
    const int axes[] = {head_dim / 2, head_dim / 2};
    const rope::nd_config cfg = rope::dinov3_config(axes);
    const std::size_t h = 14, w = 9, n = h * w, pairs = static_cast<std::size_t>(head_dim / 2),
                      d = static_cast<std::size_t>(head_dim);
    std::vector<double> pos(2 * n);
    REQUIRE(rope::dinov3_positions(h, w, pos) == status::ok);
    std::vector<float> cos(n * d), sin(n * d);
    REQUIRE(rope::fill_nd_table<float>(cfg, pos, cos, sin, rope::layout::half_split) == status::ok);
    std::vector<math::sincos_result<bfloat16>> pt(n * pairs);
    REQUIRE(rope::fill_nd_pair_table<bfloat16>(cfg, pos, pt) == status::ok);
    std::uint64_t bad = 0;
    for (std::size_t j = 0; j < pairs; ++j) {
      const std::size_t axis = j < pairs / 2 ? 0 : 1, k = j % (pairs / 2);
      for (std::size_t i = 0; i < n; ++i) {
        const double p = pos[axis * n + i];
        const auto e = verify::cr_rope_turns_sincos_at<float>(p, 100.0, static_cast<int>(k), head_dim / 2);
        const auto eb = verify::cr_rope_turns_sincos_at<bfloat16>(p, 100.0, static_cast<int>(k), head_dim / 2);
        for (const std::size_t el : {j, j + pairs})  // half-split: DINOv3's angles tiled twice
          bad += bits_of(cos[i * d + el]) != bits_of(e.cos) || bits_of(sin[i * d + el]) != bits_of(e.sin);
        bad += bits_of(pt[i * pairs + j].cos) != bits_of(eb.cos) || bits_of(pt[i * pairs + j].sin) != bits_of(eb.sin);
        const double at[2] = {pos[i], pos[n + i]};
        const auto s = rope::nd_sincos<float>(cfg, at, static_cast<int>(j));
        bad += bits_of(s.value.cos) != bits_of(e.cos) || bits_of(s.value.sin) != bits_of(e.sin);
      }
    }
    CHECK(bad == 0);
    const laws::nd_view<float> v{&cfg, pos, cos, sin, rotary_layout::half_split};
    CHECK(laws::axis_relative_dot(v).holds);
    CHECK(laws::axis_relative_dot(v).checked > 0);
    // The same positions read as radians are another table: the law sees a turns table read
    // through a radians config as wrong.
    CHECK(rope::nd_scratch_size(cfg, pos) == 0);
  }
}

TEST_CASE("Turns tables: constant evaluation gives the run-time bits", "[turns][nd]") {
  static constexpr int axes[] = {32, 32};  // DINOv3 ViT-S/B/L: head dim 64
  static constexpr rope::nd_config cfg{.axes_dim = axes, .rope_theta = 100.0, .angle = rope::angle_unit::turns};
  static constexpr auto pos = [] {
    std::array<double, 2 * 16> p{};
    static_cast<void>(rope::dinov3_positions(4, 4, p));
    return p;
  }();
  static constexpr auto ct = [] {
    std::array<float, 16 * 64> c{}, s{};
    static_cast<void>(rope::fill_nd_table<float>(cfg, pos, c, s, rope::layout::half_split));
    return std::array<std::array<float, 16 * 64>, 2>{c, s};
  }();
  static_assert(
      laws::axis_identity_at_zero(laws::nd_view<float>{&cfg, pos, ct[0], ct[1], rotary_layout::half_split}).holds);
  std::vector<float> c(16 * 64), s(16 * 64);
  REQUIRE(rope::fill_nd_table<float>(cfg, pos, c, s, rope::layout::half_split) == status::ok);
  std::size_t differ = 0;
  for (std::size_t k = 0; k < c.size(); ++k)
    differ += bits_of(c[k]) != bits_of(ct[0][k]) || bits_of(s[k]) != bits_of(ct[1][k]);
  CHECK(differ == 0);
}

// The shortcut the docs warn about: 2 pi coord rounded to a double, then given as a RoPE position
// (radians). Counted over DINOv3 tables (head dim 64 and 128, grids 14 x 14 and 32 x 32): the
// entries where it misses the correctly rounded value (docs/rope-streams.md quotes the counts).
template <class T>
std::uint64_t shortcut_misses(int head_dim, std::size_t grid, std::uint64_t& total) {
  const int axes[] = {head_dim / 2, head_dim / 2};
  const rope::nd_config turns = rope::dinov3_config(axes);
  const rope::nd_config radians{.axes_dim = axes, .rope_theta = 100.0};
  const std::size_t n = grid * grid, pairs = static_cast<std::size_t>(head_dim / 2);
  std::vector<double> pos(2 * n), twice(2 * n);
  REQUIRE(rope::dinov3_positions(grid, grid, pos) == status::ok);
  const double two_pi = 6.283185307179586;  // RN_double(2 pi)
  for (std::size_t i = 0; i < pos.size(); ++i) twice[i] = two_pi * pos[i];
  std::vector<math::sincos_result<T>> a(n * pairs), b(n * pairs);
  REQUIRE(rope::fill_nd_pair_table<T>(turns, pos, a) == status::ok);
  REQUIRE(rope::fill_nd_pair_table<T>(radians, twice, b) == status::ok);
  std::uint64_t miss = 0;
  for (std::size_t k = 0; k < a.size(); ++k)
    miss += static_cast<std::uint64_t>(bits_of(a[k].cos) != bits_of(b[k].cos)) +
            static_cast<std::uint64_t>(bits_of(a[k].sin) != bits_of(b[k].sin));
  total += 2 * a.size();
  return miss;
}

TEST_CASE("The twice-rounded shortcut (2 pi coord as a position) misses correct entries", "[turns][nd]") {
  std::uint64_t total = 0, miss_d = 0, miss_f = 0, miss_b = 0, miss_h = 0;
  for (const int head_dim : {64, 128})
    for (const std::size_t grid : {std::size_t{14}, std::size_t{32}}) {
      std::uint64_t t = 0;
      miss_d += shortcut_misses<double>(head_dim, grid, t);
      miss_f += shortcut_misses<float>(head_dim, grid, t);
      miss_b += shortcut_misses<bfloat16>(head_dim, grid, t);
      miss_h += shortcut_misses<float16>(head_dim, grid, t);
      total += t / 4;
    }
  std::printf("twice-rounded 2 pi coord: of %llu cos/sin values, double %llu, float %llu, bf16 %llu, f16 %llu miss\n",
              static_cast<unsigned long long>(total), static_cast<unsigned long long>(miss_d),
              static_cast<unsigned long long>(miss_f), static_cast<unsigned long long>(miss_b),
              static_cast<unsigned long long>(miss_h));
  CHECK(miss_d > 0);  // the checker (bitwise comparison with the correct table) can fail
}

TEST_CASE("Turns: the multiprecision fallback alone gives the MPFR values", "[turns][oracle]") {
  // The fast path decides nearly every entry; call the accurate path directly on the same inputs
  // (both reduce_turns branches: |X| < 1/8 and the exact fraction bits of a larger X).
  const rope::config c{.head_dim = 64, .rope_theta = 100.0};
  std::uint64_t bad = 0, n = 0;
  for (const double p : sample_coords())
    for (const int k : {1, 5, 17, 31}) {
      const rope::real_position rp = rope::split_position(p);
      if (rp.m == 0) continue;
      auto got = rope::detail::scaled_sincos_mp<double>(c, rp.m, k, false, rp.scale_exp, true);
      if (rp.negative) got.value.sin = -got.value.sin;
      const auto e = verify::cr_rope_turns_sincos_at<double>(p, 100.0, k, 64);
      bad += !got.ok() || bits_of(got.value.cos) != bits_of(e.cos) || bits_of(got.value.sin) != bits_of(e.sin);
      ++n;
    }
  CHECK(n > 300);
  CHECK(bad == 0);
}
