// test_law_checkers.cpp: the law checkers of posenc/verify/law_measures/ decide at their derived bounds.
//  1. The bounds are pinned to the values their derivations give (bounds.hpp's header, docs/rope.md
//     section 5), written here from the formulas with the unit roundoffs as literals, so a bound
//     weakened (or tightened) in the library fails here.
//  2. Each checker is fed an input just inside its bound (it must pass) and one just past it (it
//     must fail, with a worst ratio barely above 1, naming the case): entries walked ulp by ulp
//     for the table laws, rows crafted at bound * (1 -+ 2^-20) for the rotation laws, one bit for
//     the bit-for-bit laws, equality for the strict order law.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "posenc/math/round.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/table.hpp"
#include "posenc/verify/law_measures/bounds.hpp"
#include "posenc/verify/law_measures/composition.hpp"
#include "posenc/verify/law_measures/decreasing.hpp"
#include "posenc/verify/law_measures/layout.hpp"
#include "posenc/verify/law_measures/norm.hpp"
#include "posenc/verify/law_measures/orthogonality.hpp"
#include "posenc/verify/law_measures/pass_through.hpp"
#include "posenc/verify/law_measures/relative_dot.hpp"
#include "posenc/verify/law_measures/yarn_ramp.hpp"

namespace {

namespace rope = posenc::rope;
namespace laws = posenc::verify::law_measures;
using posenc::bfloat16;
using posenc::float16;
using posenc::verify::exact_real;

// Relative agreement to 1e-12: the pins are formulas in double, the library's too; a weakened or
// mistyped bound is off by far more.
bool same(double a, double b) { return std::fabs(a - b) <= 1e-12 * std::fabs(b); }

// The unit roundoffs 2^-p (p = 53, 24, 8, 11) and the float16 extras of the derivations.
constexpr double u64 = 0x1p-53, u32 = 0x1p-24, ubf = 0x1p-8, uhf = 0x1p-11;

// kappa (K) = sqrt(2) (2u + u^2) (1 + u_t) (1 + 1e-15), kr = kappa + ub (1 + u_t + kappa): one
// kernel rotation computed in u, table u_t, storage rounding ub.
struct pinned {
  double norm, inverse, compose;
};
pinned pin(double u_t, double u, double ub) {
  const double kappa = std::sqrt(2.0) * (2 * u + u * u) * (1 + u_t) * (1 + 1e-15);
  const double kr = kappa + ub * (1 + u_t + kappa);
  const double a = kr + u_t;
  return {kr + u_t, kr * (1 + u_t + kr) + (1 + u_t) * kr + 2 * u_t + u_t * u_t, a * (2 + a)};
}

// One definition: the checkers' bounds are the core's constexpr functions (posenc/laws/bounds.hpp),
// which the constexpr laws of posenc/laws/ use too.
static_assert(laws::relative_dot_bound<float>() == posenc::laws::table_dot_bound<float>());
static_assert(laws::composition_bound<bfloat16>() == posenc::laws::table_law_bound<bfloat16>());
static_assert(laws::kernel_bounds<bfloat16, float>().norm == posenc::laws::apply_kernel_bounds<bfloat16, float>().norm);
static_assert(laws::orthogonality_bound<float16>() + 0x1p-52 == posenc::laws::unit_norm_bound<float16>());

}  // namespace

TEST_CASE("law bounds are the derived values", "[laws][bounds]") {
  CHECK(laws::unit_roundoff<double>() == u64);
  CHECK(laws::unit_roundoff<float>() == u32);
  CHECK(laws::unit_roundoff<bfloat16>() == ubf);
  CHECK(laws::unit_roundoff<float16>() == uhf);
  CHECK(laws::table_block_error<float16>() == uhf + 0x1p-25);  // a subnormal sin entry: 2^-25 absolute
  CHECK(laws::table_block_error<float>() == u32);
  // orthogonality: (2u + u^2)(1 + 2^-40), + 2^-26 for float16 (proofs/rope_table.cpp law 3)
  CHECK(same(laws::orthogonality_bound<double>(), (2 * u64 + u64 * u64) * (1 + 0x1p-40)));
  CHECK(same(laws::orthogonality_bound<float>(), (2 * u32 + u32 * u32) * (1 + 0x1p-40)));
  CHECK(same(laws::orthogonality_bound<bfloat16>(), (2 * ubf + ubf * ubf) * (1 + 0x1p-40)));
  CHECK(same(laws::orthogonality_bound<float16>(), (2 * uhf + uhf * uhf) * (1 + 0x1p-40) + 0x1p-26));
  // table laws: composition 3u + u^2, relative dot 2u + u^2
  CHECK(same(laws::composition_bound<float>(), 3 * u32 + u32 * u32));
  CHECK(same(laws::relative_dot_bound<bfloat16>(), 2 * ubf + ubf * ubf));
  CHECK(same(laws::relative_dot_bound<float>(), 2 * u32 + u32 * u32));
  // apply kernel, storage / table: float/float, double/double, bf16/float, bf16/bf16, f16/float
  struct kcase {
    const char* name;
    laws::apply_bounds got;
    pinned want;
  };
  const kcase cases[] = {
      {"float, float table", laws::kernel_bounds<float, float>(), pin(u32, u32, 0)},
      {"double, double table", laws::kernel_bounds<double, double>(), pin(u64, u64, 0)},
      {"bfloat16, float table", laws::kernel_bounds<bfloat16, float>(), pin(u32, u32, ubf)},
      {"bfloat16, bfloat16 table", laws::kernel_bounds<bfloat16, bfloat16>(), pin(ubf, u32, ubf)},
      {"float16, float table", laws::kernel_bounds<float16, float>(), pin(u32, u32, uhf)},
  };
  for (const kcase& k : cases) {
    INFO(k.name << ": norm " << k.got.norm << " inverse " << k.got.inverse << " compose " << k.got.compose);
    CHECK(same(k.got.norm, k.want.norm));
    CHECK(same(k.got.inverse, k.want.inverse));
    CHECK(same(k.got.compose, k.want.compose));
  }
  // Magnitudes a reader can check by hand: float/float kappa = sqrt(2) 2^-23 (1 + ...) = 1.6859e-7.
  CHECK(std::fabs(laws::kernel_bounds<float, float>().norm - (1.6858739e-7 + 0x1p-24)) < 1e-13);
}

namespace {

template <class T>
T next_up(T x) {  // the next representable value above a positive x
  using F = posenc::detail::float_format<T>;
  return F::from_bits(static_cast<typename F::storage>(F::to_bits(x) + 1u));
}
template <class T>
double as_double(T x) {
  return posenc::verify::detail::to_double(x);
}

// A one-row, one-pair table with entries (cos 1, sin s): |c^2 + s^2 - 1| = s^2. Walk s up ulp by
// ulp from below sqrt(bound) until s^2 passes the pinned bound; s has at most 24 significant bits
// (a float when T is double), so s^2 is exact in double.
template <class T>
void orthogonality_at_the_bound(double bound, const char* name) {
  using W = std::conditional_t<std::is_same_v<T, double>, float, T>;
  rope::table<T, 1, 2, rope::layout::half_split> t{};
  const T one = posenc::math::round_to<T>(1.0).value;
  t.cos = {one, one};
  W s = posenc::math::round_to<W>(std::sqrt(bound) * 0.99).value, prev = s;
  while (as_double(s) * as_double(s) <= bound) prev = s, s = next_up(s);
  const auto entry = [](W w) { return posenc::math::round_to<T>(as_double(w)).value; };  // exact
  t.sin = {entry(prev), entry(prev)};
  const auto inside = laws::check_orthogonality(t);
  t.sin = {entry(s), entry(s)};
  const auto past = laws::check_orthogonality(t);
  INFO(name << ": inside " << inside.summary() << " / past " << past.summary());
  CHECK(inside.passed);
  CHECK(inside.worst_ratio > 0.9);
  CHECK(!past.passed);
  CHECK(past.worst_ratio < 1.02);
  CHECK(past.counterexample.find("position 0 pair 0") != std::string::npos);
}

}  // namespace

TEST_CASE("orthogonality: passes just inside its bound, fails just past it", "[laws][bounds]") {
  orthogonality_at_the_bound<double>((2 * u64 + u64 * u64) * (1 + 0x1p-40), "double");
  orthogonality_at_the_bound<float>((2 * u32 + u32 * u32) * (1 + 0x1p-40), "float");
  orthogonality_at_the_bound<bfloat16>((2 * ubf + ubf * ubf) * (1 + 0x1p-40), "bfloat16");
  orthogonality_at_the_bound<float16>((2 * uhf + uhf * uhf) * (1 + 0x1p-40) + 0x1p-26, "float16");
}

TEST_CASE("norm preservation: a block of norm 1 + 2 ulp fails, 1 + 1 ulp passes", "[laws][bounds]") {
  // v = (1, 0) through a block (c, 0): |Rv| - |v| = c - 1, and R^T R v = c^2 rounded. With float
  // storage and table the bound is kr + u_t = 2.28e-7: c = 1 + 2^-22 (2.38e-7) is just past it,
  // c = 1 + 2^-23 (1.19e-7) inside. Double: bound 4.25e-16, c = 1 + 2^-51 past, 1 + 2^-52 inside.
  const std::vector<float> xf{1.0f, 0.0f};
  const auto f_past = laws::check_norm_preservation_of_row<float, float>({{0.0f, 1.0f + 0x1p-22f}}, xf, 1, 2,
                                                                         rope::layout::half_split, 7);
  const auto f_in = laws::check_norm_preservation_of_row<float, float>({{0.0f, 1.0f + 0x1p-23f}}, xf, 1, 2,
                                                                       rope::layout::half_split, 7);
  INFO(f_past.summary() << " / " << f_in.summary());
  CHECK(!f_past.passed);
  CHECK(f_past.worst_ratio < 1.1);
  CHECK(f_past.counterexample.find("m=7 head 0") != std::string::npos);
  CHECK(f_in.passed);
  const std::vector<double> xd{1.0, 0.0};
  const auto d_past = laws::check_norm_preservation_of_row<double, double>({{0.0, 1.0 + 0x1p-51}}, xd, 1, 2,
                                                                           rope::layout::interleaved, 7);
  const auto d_in = laws::check_norm_preservation_of_row<double, double>({{0.0, 1.0 + 0x1p-52}}, xd, 1, 2,
                                                                         rope::layout::interleaved, 7);
  INFO(d_past.summary() << " / " << d_in.summary());
  CHECK(!d_past.passed);
  CHECK(d_past.worst_ratio < 1.1);
  CHECK(d_in.passed);
}

namespace {

laws::cs_row block(exact_real c) { return {{c}, {exact_real(0)}}; }

}  // namespace

TEST_CASE("composition and relative dot: rows at bound (1 -+ 2^-20)", "[laws][bounds]") {
  const std::vector<double> q{1.0, 0.0};
  const laws::cs_row one = block(1);
  struct bcase {
    const char* name;
    double bound;
    bool exact;
  };
  const bcase cases[] = {{"float table", 3 * u32 + u32 * u32, false},
                         {"bfloat16 table", 3 * ubf + ubf * ubf, false},
                         {"exact rotation", 0x1p-240, true}};
  for (const bcase& b : cases) {
    for (const double side : {-1.0, 1.0}) {
      // ||R_m R_n q - R_{m+n} q|| = delta with R_m = R_n = I and R_{m+n} = diag(1 + delta).
      const exact_real delta = exact_real(b.bound) * (1 + side * exact_real(0x1p-20));
      laws::law_report r = laws::check_composition_rows("composition", b.exact ? "exact rotation" : "rounded table", q,
                                                        one, one, block(1 + delta), b.bound, 3, 4);
      INFO(b.name << " side " << side << ": " << r.summary());
      CHECK(r.passed == (side < 0));
      CHECK(std::fabs(r.worst_ratio - (1 + side * 0x1p-20)) < 1e-9);
      if (side > 0) CHECK(r.counterexample.find("m=3 n=4") != std::string::npos);
    }
  }
  // The checker's own bound for a float table is the pinned one: a row past it fails through
  // check_composition's bound too.
  CHECK(same(laws::composition_bound<float>(), cases[0].bound));
  const double rel_bounds[] = {2 * u32 + u32 * u32, 2 * ubf + ubf * ubf, 0x1p-240};
  CHECK(same(laws::relative_dot_bound<float>(), rel_bounds[0]));
  for (const double bound : rel_bounds) {
    for (const double side : {-1.0, 1.0}) {
      // <R_m q, R_n k> - <q, R_{n-m} k> = (1 + delta) - 1 with R_m = R_{n-m} = I, R_n = diag(1 + delta).
      const exact_real delta = exact_real(bound) * (1 + side * exact_real(0x1p-20));
      const auto r =
          laws::check_relative_dot_rows("relative dot", "rounded table", q, q, one, block(1 + delta), one, bound, 5, 9);
      INFO("bound " << bound << " side " << side << ": " << r.summary());
      CHECK(r.passed == (side < 0));
      CHECK(std::fabs(r.worst_ratio - (1 + side * 0x1p-20)) < 1e-9);
    }
  }
}

TEST_CASE("bit-for-bit laws fail on one bit; the strict order fails on equality", "[laws][bounds]") {
  // Layout: the half-split output is the interleaved one permuted (d = 4, head_dim 6, 2 heads).
  const std::size_t head_dim = 6, d = 4;
  const std::vector<float> ri{0.5f, 1.5f, 2.5f, 3.5f, 9.0f, 9.5f, -0.5f, -1.5f, -2.5f, -3.5f, 7.0f, 7.5f};
  std::vector<float> rh(ri.size());
  for (std::size_t k = 0; k < ri.size(); ++k) {  // written out: half-split q holds interleaved 2(q mod 2) + q div 2
    const std::size_t h = k / head_dim, q = k % head_dim;
    rh[k] = q < d ? ri[h * head_dim + 2 * (q % 2) + q / 2] : ri[k];
  }
  laws::law_report good = laws::make_report("layout");
  laws::compare_layout_outputs(good, ri, rh, head_dim, d, 11, "forward");
  CHECK(good.passed);
  rh[7] = std::nextafter(rh[7], 0.0f);  // one ulp
  laws::law_report bad = laws::make_report("layout");
  laws::compare_layout_outputs(bad, ri, rh, head_dim, d, 11, "forward");
  CHECK(!bad.passed);
  CHECK(bad.failures == 1);
  CHECK(bad.counterexample.find("element 7") != std::string::npos);

  // Pass-through: elements d..head_dim-1 of each head keep their bits; the rotary part moves.
  const std::vector<float> x{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  std::vector<float> y = x;
  for (std::size_t k = 0; k < y.size(); ++k)
    if (k % head_dim < d) y[k] = -y[k];
  CHECK(laws::check_pass_through_outputs(x, {&y}, head_dim, d, 3).passed);
  std::vector<float> z = y;
  z[11] = std::nextafter(z[11], 100.0f);  // one ulp in the pass-through part of head 1
  const auto pt = laws::check_pass_through_outputs(x, {&y, &z}, head_dim, d, 3);
  CHECK(!pt.passed);
  CHECK(pt.counterexample.find("element 11 (pass-through)") != std::string::npos);
  const auto still = laws::check_pass_through_outputs(x, {&x}, head_dim, d, 3);  // nothing moved at m = 3
  CHECK(!still.passed);
  CHECK(still.counterexample.find("did not move") != std::string::npos);

  // Strictly decreasing, at equality: base 16, d = 8, LongRoPE factors (1, 1/2, 1, 1) give
  // inv_freq = 16^(-j/4) / ext[j] = (1, 1, 1/4, 1/8): pairs 0 and 1 equal, the least violation;
  // with ext[1] one ulp above 1/2, inv_freq[1] < 1 and the law holds.
  static constexpr double ext_equal[4] = {1.0, 0.5, 1.0, 1.0}, ext_below[4] = {1.0, 0x1.0000000000001p-1, 1.0, 1.0};
  rope::config lr{.head_dim = 8,
                  .rope_theta = 16.0,
                  .rope_type = rope::scaling::longrope,
                  .factor = 1.0,
                  .original_max_position_embeddings = 4096,
                  .short_factor = ext_equal,
                  .long_factor = ext_equal};
  REQUIRE(rope::validate(lr).ok());
  CHECK(rope::inv_freq<double>(lr, 1).value == 1.0);
  const auto dec = laws::check_inv_freq_decreasing(lr);
  CHECK(!dec.passed);
  CHECK(dec.failures == 1);
  CHECK(dec.counterexample.find("j=1") != std::string::npos);
  lr.short_factor = lr.long_factor = ext_below;
  CHECK(laws::check_inv_freq_decreasing(lr).passed);
}

TEST_CASE("YaRN ramp law at low == high == 0 (issue 11's missed boundary)", "[laws][rope]") {
  // d = 8, L0 = 64, betas 32/16: the correction range is [0, 0] (tests/test_rope_boundaries.cpp
  // derives it), so pair 0 is extrapolated (inv_freq 1) and pairs 1..3 interpolated.
  constexpr rope::config c{.head_dim = 8,
                           .rope_theta = 10000.0,
                           .rope_type = rope::scaling::yarn,
                           .factor = 4.0,
                           .original_max_position_embeddings = 64,
                           .beta_fast = 32.0,
                           .beta_slow = 16.0};
  laws::yarn_regions g{};
  const auto r = laws::check_yarn_ramp(c, false, &g);
  INFO(r.summary());
  CHECK(r.passed);
  CHECK(g.below == 1);
  CHECK(g.inside == 0);
  CHECK(g.above == 3);
}
