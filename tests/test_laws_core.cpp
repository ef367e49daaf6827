// test_laws_core.cpp: the constexpr laws of posenc/laws/ (core, standard library only) on tables
// built by posenc and on tables given as C arrays and spans, in constant evaluation and at run
// time; and each law shown able to fail: one seeded defect per case (a wrong entry, a swapped
// layout, a flipped sign, a position off by one, a wrong frequency, an entry off the unit circle),
// after which exactly the expected laws fail, at the expected index.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "posenc/laws.hpp"
#include "posenc/laws/print.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/table.hpp"

namespace {

namespace rope = posenc::rope;
namespace laws = posenc::laws;
using posenc::bfloat16;
using posenc::float16;
using rope::layout;

constexpr std::size_t N = 12, D = 16;
constexpr rope::config cfg{.head_dim = 16, .rope_theta = 10000.0};

// A table as a C header would hold it: two T[N][D] arrays, rows at `first`.
template <class T>
struct c_arrays {
  T cos[N][D];
  T sin[N][D];
};
template <class T, layout L>
constexpr c_arrays<T> as_arrays(const rope::config& c, std::uint64_t first = 0) {
  const auto t = rope::make_table<T, N, D, L>(c, {.start = first});
  c_arrays<T> a{};
  for (std::size_t r = 0; r < N; ++r)
    for (std::size_t k = 0; k < D; ++k) {
      a.cos[r][k] = t.value.cos[r * D + k];
      a.sin[r][k] = t.value.sin[r * D + k];
    }
  return a;
}

template <class T>
constexpr T next_up(T x) {
  using F = posenc::detail::float_format<T>;
  return F::from_bits(static_cast<typename F::storage>(F::to_bits(x) + 1u));
}
template <class T>
constexpr T negate(T x) {
  using F = posenc::detail::float_format<T>;
  return F::from_bits(static_cast<typename F::storage>(
      F::to_bits(x) ^ (typename F::storage{1} << (8 * sizeof(typename F::storage) - 1))));
}

// The five laws on one half-split table (and its interleaved twin built from the same config).
struct verdict {
  laws::law_result exact, unit, copies, zero, layout_eq;
};
template <class T>
constexpr verdict judge(const c_arrays<T>& hs, const rope::config& described, std::uint64_t first = 0) {
  const auto il = as_arrays<T, layout::interleaved>(cfg, first);
  const auto v = laws::view(hs.cos, hs.sin, layout::half_split, first);
  return {laws::exactness(v, described), laws::unit_norm(v), laws::pair_copies(v), laws::identity_at_zero(v),
          laws::layout_equivalence(laws::view(il.cos, il.sin, layout::interleaved, first), v)};
}

constexpr bool at(const laws::law_result& r, std::int64_t pos, std::int64_t pair, std::int64_t elem = -2) {
  return !r.holds && r.first_failure.position == pos && r.first_failure.pair == pair &&
         (elem == -2 || r.first_failure.element == elem);
}

// ---- the unmodified tables: every law holds, at compile time ----
template <class T>
constexpr bool all_hold() {
  const auto hs = as_arrays<T, layout::half_split>(cfg);
  const verdict v = judge(hs, cfg);
  return v.exact.holds && v.unit.holds && v.copies.holds && v.zero.holds && v.layout_eq.holds &&
         v.exact.checked == N * D && v.zero.checked == D;
}
static_assert(all_hold<double>(), "posenc's double table: exact, unit norm, pair copies, identity at 0, layouts agree");
static_assert(all_hold<float>(), "posenc's float table: every law holds");
static_assert(all_hold<bfloat16>(), "posenc's bfloat16 table: every law holds");
static_assert(all_hold<float16>(), "posenc's float16 table: every law holds");

// posenc's own table type, and a scaled config from position 1000.
constexpr rope::config yarn{.head_dim = 16,
                            .rope_theta = 10000.0,
                            .rope_type = rope::scaling::yarn,
                            .factor = 4.0,
                            .original_max_position_embeddings = 64};
constexpr auto yarn_table = rope::make_table<float, N, D, layout::interleaved>(yarn, {.start = 1000});
static_assert(yarn_table.ok());
static_assert(laws::exactness(laws::view(yarn_table.value), yarn).holds, "YaRN table from 1000: exact");
static_assert(laws::pair_copies(laws::view(yarn_table.value)).holds, "YaRN table: pair copies");
static_assert(laws::identity_at_zero(laws::view(yarn_table.value)).checked == 0, "no row at position 0");
static_assert(!laws::exactness(laws::view(yarn_table.value), cfg).holds, "described as unscaled: not exact");

// ---- seeded defects: exactly the expected laws fail, at the expected index ----

// 1. One wrong entry: cos of pair 5 at position 3, both copies, one ulp up.
template <class T>
constexpr verdict wrong_entry() {
  auto hs = as_arrays<T, layout::half_split>(cfg);
  hs.cos[3][5] = hs.cos[3][5 + D / 2] = next_up(hs.cos[3][5]);
  return judge(hs, cfg);
}
constexpr verdict d1 = wrong_entry<float>();
static_assert(at(d1.exact, 3, 5, 5) && d1.exact.failures == 2 && d1.exact.deviation == 1.0,
              "wrong entry: exactness at position 3 pair 5, 1 ulp");
static_assert(at(d1.layout_eq, 3, 5), "wrong entry: layouts disagree at position 3 pair 5");
static_assert(d1.unit.holds && d1.copies.holds && d1.zero.holds,
              "wrong entry: the magnitude and shape laws still hold");

// 2. A swapped layout: a half-split table read as interleaved.
template <class T>
constexpr verdict swapped_layout() {
  const auto hs = as_arrays<T, layout::half_split>(cfg);
  const auto v = laws::view(hs.cos, hs.sin, layout::interleaved);
  return {laws::exactness(v, cfg), laws::unit_norm(v), laws::pair_copies(v), laws::identity_at_zero(v), {}};
}
constexpr verdict d2 = swapped_layout<float>();
static_assert(at(d2.copies, 1, 0, 1), "swapped layout: pair copies fail at position 1 pair 0 element 1");
static_assert(at(d2.exact, 1, 0, 1), "swapped layout: exactness fails at position 1, element 1");
static_assert(d2.unit.holds && d2.zero.holds,
              "swapped layout: every entry is still a rotation, position 0 the identity");

// 3. A flipped sign: sin of pair 2 at position 7, both copies.
template <class T>
constexpr verdict flipped_sign() {
  auto hs = as_arrays<T, layout::half_split>(cfg);
  hs.sin[7][2] = hs.sin[7][2 + D / 2] = negate(hs.sin[7][2]);
  return judge(hs, cfg);
}
constexpr verdict d3 = flipped_sign<bfloat16>();
static_assert(at(d3.exact, 7, 2, 2) && d3.exact.failures == 2, "flipped sign: exactness at position 7 pair 2");
static_assert(d3.unit.holds && d3.copies.holds && d3.zero.holds, "flipped sign: invisible to the magnitude laws");

// 4. A position off by one: rows built from position 1, described as from 0.
template <class T>
constexpr verdict off_by_one() {
  const auto hs = as_arrays<T, layout::half_split>(cfg, 1);
  const auto v = laws::view(hs.cos, hs.sin, layout::half_split, 0);
  return {laws::exactness(v, cfg), laws::unit_norm(v), laws::pair_copies(v), laws::identity_at_zero(v), {}};
}
constexpr verdict d4 = off_by_one<float16>();
static_assert(at(d4.exact, 0, 0, 0), "off by one: exactness fails at position 0");
static_assert(at(d4.zero, 0, 0, 0), "off by one: position 0 is not the identity");
static_assert(d4.unit.holds && d4.copies.holds, "off by one: still rotations, still pair copies");

// 5. A wrong frequency: built with base 10001, described as 10000 (pair 0 has theta = 1 in both).
template <class T>
constexpr verdict wrong_frequency() {
  constexpr rope::config other{.head_dim = 16, .rope_theta = 10001.0};
  return judge(as_arrays<T, layout::half_split>(other), cfg);
}
constexpr verdict d5 = wrong_frequency<double>();
static_assert(!d5.exact.holds && d5.exact.first_failure.pair == 1, "wrong frequency: exactness fails first at pair 1");
static_assert(d5.unit.holds && d5.copies.holds && d5.zero.holds, "wrong frequency: the other laws hold");

// 6. Off the unit circle: cos of pair 4 at position 2 scaled by 1 + 2^-10 (float16 table).
template <class T>
constexpr verdict off_circle() {
  auto hs = as_arrays<T, layout::half_split>(cfg);
  const double c = laws::detail::to_double(hs.cos[2][4]) * (1 + 0x1p-10);
  hs.cos[2][4] = hs.cos[2][4 + D / 2] = posenc::math::round_to<T>(c).value;
  return judge(hs, cfg);
}
constexpr verdict d6 = off_circle<float16>();
static_assert(at(d6.unit, 2, 4, 4) && d6.unit.failures == 2,
              "off the circle: unit norm fails at position 2 pair 4, at both of its elements");
static_assert(at(d6.exact, 2, 4, 4), "off the circle: exactness fails there too");
static_assert(d6.copies.holds && d6.zero.holds, "off the circle: shape laws hold");

// 7. Inside the unit circle: cos of pair 4 at position 2 scaled by 1 - 2^-9 (the law takes |.|).
template <class T>
constexpr verdict inside_circle() {
  auto hs = as_arrays<T, layout::half_split>(cfg);
  const double c = laws::detail::to_double(hs.cos[2][4]) * (1 - 0x1p-9);
  hs.cos[2][4] = hs.cos[2][4 + D / 2] = posenc::math::round_to<T>(c).value;
  return judge(hs, cfg);
}
constexpr verdict d7 = inside_circle<float16>();
static_assert(at(d7.unit, 2, 4, 4) && d7.unit.failures == 2,
              "inside the circle: unit norm fails at position 2 pair 4, at both of its elements");

// 8. Only the second copy of a sin differs: pair copies compares sin as well as cos.
template <class T>
constexpr verdict one_sin_copy() {
  auto hs = as_arrays<T, layout::half_split>(cfg);
  hs.sin[5][3 + D / 2] = negate(hs.sin[5][3 + D / 2]);
  return judge(hs, cfg);
}
constexpr verdict d8 = one_sin_copy<float>();
static_assert(at(d8.copies, 5, 3, 3 + D / 2) && d8.copies.failures == 1,
              "one sin copy: pair copies fails at position 5 pair 3");
static_assert(d8.unit.holds, "one sin copy: a negated sin keeps both copies on the unit circle");

// 9. A table with the attention factor folded in (YaRN, af = 0.1 ln 4 + 1) is exact only when
// described as folded.
constexpr auto folded = rope::make_table<float, N, D, layout::half_split>(yarn, {.start = 3, .fold_attention = true});
static_assert(folded.ok());
static_assert(laws::exactness(laws::view(folded.value), yarn, {.fold_attention = true}).holds,
              "folded table, described folded: exact");
static_assert(!laws::exactness(laws::view(folded.value), yarn).holds, "folded table, described plain: not exact");

// The ulp distance itself.
static_assert(laws::detail::ulp_distance(1.0f, 1.0f) == 0 && laws::detail::ulp_distance(1.0f, next_up(1.0f)) == 1);
static_assert(laws::detail::ulp_distance(0.0f, -0.0f) == 1 && laws::detail::ulp_distance(-0x1p-149f, 0x1p-149f) == 3);

}  // namespace

TEST_CASE("laws at run time give the compile-time results", "[laws][core]") {
  volatile int seed = 0;  // keep the evaluation at run time
  (void)seed;
  const verdict r1 = wrong_entry<float>();
  CHECK(r1.exact.first_failure.position == d1.exact.first_failure.position);
  CHECK(r1.exact.failures == d1.exact.failures);
  CHECK(r1.unit.holds);
  const verdict r4 = off_by_one<float16>();
  CHECK(r4.zero.first_failure.element == 0);
  CHECK(!r4.exact.holds);
  CHECK(all_hold<float>());
  CHECK(all_hold<bfloat16>());
  const std::string s = laws::to_string(d1.exact);
  INFO(s);
  CHECK(s.find("FAILS, first at position 3 pair 5 element 5") != std::string::npos);
  CHECK(s.find("(2 of 192 cases)") != std::string::npos);
  const std::string ok = laws::to_string(laws::unit_norm(laws::view(yarn_table.value)));
  INFO(ok);
  CHECK(ok.find(": holds, worst") != std::string::npos);
}

// The second copy of pair 3 in row 2 (element 7 interleaved, 3 + D/2 half-split) shrunk to 0.9 of
// itself, the first copy intact: unit_norm must name that element.
template <layout L>
void check_wrong_second_copy() {
  const auto t = rope::make_table<float, N, D, L>(cfg);
  REQUIRE(t.ok());
  std::array<float, N* D> cos = t.value.cos, sin = t.value.sin;
  const std::size_t second = L == layout::interleaved ? 2 * 3 + 1 : 3 + D / 2;
  cos[2 * D + second] *= 0.9f;
  sin[2 * D + second] *= 0.9f;
  CHECK(laws::unit_norm(laws::span_table<float>{t.value.cos, t.value.sin, D, L, 0}).holds);
  const auto r = laws::unit_norm(laws::span_table<float>{cos, sin, D, L, 0});
  CHECK(!r.holds);
  CHECK(r.first_failure.position == 2);
  CHECK(r.first_failure.pair == 3);
  CHECK(r.first_failure.element == static_cast<std::int64_t>(second));
}

TEST_CASE("unit_norm reads both copies of a pair: a wrong second copy fails it", "[laws][core]") {
  // Before unit_norm read both copies, only pair_copies and exactness caught such a table.
  check_wrong_second_copy<layout::interleaved>();
  check_wrong_second_copy<layout::half_split>();
}

TEST_CASE("run-time spans: a table whose size is known at run time only", "[laws][core]") {
  const auto t = rope::make_table<float, N, D, layout::half_split>(cfg, {.start = 40});
  REQUIRE(t.ok());
  laws::span_table<float> v{t.value.cos, t.value.sin, D, layout::half_split, 40};
  CHECK(laws::exactness(v, cfg).holds);
  CHECK(laws::unit_norm(v).holds);
  CHECK(laws::pair_copies(v).holds);
  std::array<float, N* D> cos = t.value.cos;
  cos[5 * D + 3] = -cos[5 * D + 3];
  v.cos = cos;
  const auto r = laws::exactness(v, cfg);
  CHECK(!r.holds);
  CHECK(r.first_failure.position == 45);
  CHECK(r.first_failure.pair == 3);
  CHECK(!laws::pair_copies(v).holds);
  laws::span_table<float> bad{std::span<const float>(t.value.cos).first(17), t.value.sin, D, layout::half_split, 0};
  CHECK(!laws::unit_norm(bad).holds);  // not whole rows: the shape is refused, not read past
  CHECK(!laws::exactness(v, rope::config{.head_dim = 16, .rope_theta = 1.0}).holds);  // invalid config
  // The per-entry path (run-time sizes) with the attention factor folded in.
  const auto f = rope::make_table<float, N, D, layout::half_split>(yarn, {.start = 40, .fold_attention = true});
  REQUIRE(f.ok());
  const laws::span_table<float> fv{f.value.cos, f.value.sin, D, layout::half_split, 40};
  CHECK(laws::exactness(fv, yarn, {.fold_attention = true}).holds);
  CHECK(!laws::exactness(fv, yarn).holds);
  // The block path (static sizes at run time: blocks of rope::make_pair_table) with it folded in:
  // the reference blocks must be folded too (mutant 38 builds them unfolded).
  CHECK(laws::exactness(laws::view(f.value), yarn, {.fold_attention = true}).holds);
  CHECK(!laws::exactness(laws::view(f.value), yarn).holds);
}

namespace {

// More rows than one reference block (256 in constant evaluation, 16 at run time): the last block
// overlaps the one before it; a defect in the overlap is found once, at its own position.
constexpr auto tall = rope::make_table<float, 300, D, layout::interleaved>(cfg, {.start = 5});
constexpr laws::law_result tall_with_defect() {
  auto t = tall.value;
  t.sin[290 * D + 7] = -t.sin[290 * D + 7];
  return laws::exactness(laws::view(t), cfg);
}
static_assert(tall.ok() && laws::exactness(laws::view(tall.value), cfg).holds, "300 rows from 5: exact, every block");
static_assert(laws::exactness(laws::view(tall.value), cfg).checked == 300 * D, "every element checked once");
static_assert(at(tall_with_defect(), 295, 3, 7) && tall_with_defect().failures == 1,
              "defect at row 290 = position 295, pair 3, element 7");

}  // namespace

TEST_CASE("exactness over several reference blocks at run time", "[laws][core]") {
  auto t = std::make_unique<rope::table<float, 300, D, layout::interleaved>>(tall.value);
  CHECK(laws::exactness(laws::view(*t), cfg).holds);
  CHECK(laws::exactness(laws::view(*t), cfg).checked == 300 * D);
  t->sin[290 * D + 7] = -t->sin[290 * D + 7];
  const auto r = laws::exactness(laws::view(*t), cfg);
  CHECK(!r.holds);
  CHECK(r.failures == 1);
  CHECK(r.first_failure.position == 295);
  CHECK(r.first_failure.element == 7);
}

// Run-time sizes (span_table) at run time go through rope::fill_pair_table in blocks of
// laws::detail::reference_pairs / (D/2) rows (256 rows here); a block the engine refuses goes
// through the per-entry path, which names the failure as before.
TEST_CASE("exactness on run-time spans: several engine blocks, and the per-entry fallback", "[laws][core]") {
  constexpr std::size_t block_rows = laws::detail::reference_pairs / (D / 2);
  static_assert(block_rows < 300, "the tall table spans two blocks");
  auto t = std::make_unique<rope::table<float, 300, D, layout::interleaved>>(tall.value);
  laws::span_table<float> v{t->cos, t->sin, D, layout::interleaved, 5};
  CHECK(laws::exactness(v, cfg).holds);
  CHECK(laws::exactness(v, cfg).checked == 300 * D);
  t->sin[290 * D + 7] = -t->sin[290 * D + 7];  // in the second block
  t->cos[3 * D + 2] = t->cos[3 * D + 2] * 2;   // in the first
  const auto r = laws::exactness(v, cfg);
  CHECK(!r.holds);
  CHECK(r.failures == 2);
  CHECK(r.first_failure.position == 8);
  CHECK(r.first_failure.element == 2);
  CHECK(r.checked == 300 * D);

  // Rows past rope::max_table_position: the engine refuses their block, and the per-entry path
  // compares them (rope::sincos takes any position), so the verdict does not depend on where the
  // block boundary falls.
  const std::uint64_t near = rope::max_table_position - 2;
  std::array<float, 4 * D> hc{}, hs{};
  for (std::size_t row = 0; row < 4; ++row)
    for (std::size_t j = 0; j < D / 2; ++j) {
      const auto e = rope::sincos<float>(cfg, near + row, static_cast<int>(j));
      REQUIRE(e.ok());
      for (int k = 0; k < 2; ++k) {
        hc[row * D + rope::pair_index(layout::half_split, j, k, D)] = e.value.cos;
        hs[row * D + rope::pair_index(layout::half_split, j, k, D)] = e.value.sin;
      }
    }
  laws::span_table<float> past{hc, hs, D, layout::half_split, near};
  CHECK(laws::exactness(past, cfg).holds);
  CHECK(laws::exactness(past, cfg).checked == 4 * D);
  hs[3 * D + 1] = -hs[3 * D + 1];
  CHECK(laws::exactness(past, cfg).first_failure.position == static_cast<std::int64_t>(near + 3));

  // A folded entry that overflows float16: no exact value in T, so the law fails at the first such
  // position (the engine's overflow status sends the block to the per-entry path, which says where).
  constexpr rope::config loud{.head_dim = 16,
                              .rope_theta = 10000.0,
                              .rope_type = rope::scaling::yarn,
                              .factor = 4.0,
                              .original_max_position_embeddings = 4096,
                              .attention_factor = 70000.0};
  std::array<posenc::float16, 2 * D> fc{}, fs{};
  const laws::span_table<posenc::float16> fv{fc, fs, D, layout::half_split, 0};
  const auto o = laws::exactness(fv, loud, {.fold_attention = true});
  CHECK(!o.holds);
  CHECK(o.first_failure.position == 0);
  CHECK(o.first_failure.pair == -1);
}
