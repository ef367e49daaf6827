// test_rope_remap.cpp: ReRoPE, Leaky ReRoPE and StreamingLLM positions (rope/rerope.hpp,
// rope/leaky_rerope.hpp, rope/streaming_cache.hpp), their laws (laws/rope/remapped_scores.hpp,
// laws/rope/relative_map.hpp), and causal linear attention with RoPE (rope/linear_attention.hpp).
// Expected values: the MPFR oracles (verify/rope_table_oracle.hpp, verify/rope_remap_oracle.hpp,
// the latter forming Leaky ReRoPE's real w + (rel - w) / k from its definition), the references'
// definitions written out as literals (docs/rope-remap.md), and the derived bounds. Every checker
// is shown failing on a mutant.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/laws/print.hpp"
#include "posenc/laws/rope/relative_map.hpp"
#include "posenc/laws/rope/remapped_scores.hpp"
#include "posenc/laws/rope/table_view.hpp"
#include "posenc/laws/rotary/relative_dot.hpp"
#include "posenc/rope/apply.hpp"
#include "posenc/rope/leaky_rerope.hpp"
#include "posenc/rope/linear_attention.hpp"
#include "posenc/rope/rerope.hpp"
#include "posenc/rope/streaming_cache.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/random.hpp"
#include "posenc/verify/rope_remap_oracle.hpp"
#include "posenc/verify/rope_table_oracle.hpp"

namespace {

namespace rope = posenc::rope;
namespace laws = posenc::laws;
namespace v = posenc::verify;
using posenc::bfloat16;
using posenc::status;

constexpr std::size_t D = 16;  // rotary dim: 8 pairs, frequencies from 1 down to 10000^(-7/8)
constexpr rope::config plain{.head_dim = D, .rope_theta = 10000.0};

template <class T>
bool same(T a, T b) {
  return v::detail::to_bits64(a) == v::detail::to_bits64(b);
}

// Entries of an expanded table (half-split) that differ from the oracle's RN_T at `want(row, j)`.
template <class T, class Want>
int mismatches(const std::vector<T>& cos, const std::vector<T>& sin, std::size_t rows, Want want) {
  int bad = 0;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t j = 0; j < D / 2; ++j) {
      const posenc::math::sincos_result<T> w = want(r, static_cast<int>(j));
      for (const std::size_t k : {j, j + D / 2})
        bad += static_cast<int>(!same(cos[r * D + k], w.cos) || !same(sin[r * D + k], w.sin));
    }
  return bad;
}

template <class T>
laws::span_table<T> span_view(const std::vector<T>& cos, const std::vector<T>& sin, std::uint64_t first = 0) {
  return {cos, sin, D, posenc::rotary_layout::half_split, first};
}

template <class T>
struct rows {
  std::vector<T> cos, sin;
  explicit rows(std::size_t n) : cos(n * D), sin(n * D) {}
};

template <class T>
rows<T> plain_rows(const rope::config& c, std::size_t n, std::uint64_t start = 0) {
  rows<T> r(n);
  REQUIRE(rope::fill_table<T>(c, r.cos, r.sin, rope::layout::half_split, {.start = start}) == status::ok);
  return r;
}

}  // namespace

// ---- ReRoPE ----

TEST_CASE("rerope: min(i - j, w), the table rows 0 .. w against MPFR, domain errors", "[remap][rerope]") {
  const rope::rerope_config c{.window = 12};
  CHECK(rope::rerope_relative_position(c, 30, 25).value == 5);
  CHECK(rope::rerope_relative_position(c, 30, 18).value == 12);  // rel 12 = w: outside the window, w
  CHECK(rope::rerope_relative_position(c, 30, 0).value == 12);
  CHECK(rope::rerope_relative_position(c, 3, 4).error == status::domain_error);  // key after query
  CHECK(rope::rerope_relative_position(rope::rerope_config{.window = 0}, 3, 1).error == status::domain_error);
  CHECK(!rope::validate(rope::rerope_config{.window = (1u << 21) + 1}).ok());
  CHECK(rope::rerope_prefill_rows(c, 40) == 40);
  CHECK(rope::rerope_prefill_rows(c, 5) == 13);

  const v::rope_table_oracle oracle(plain);
  rows<float> f(13);
  REQUIRE(rope::fill_rerope_table<float>(plain, c, f.cos, f.sin) == status::ok);
  CHECK(mismatches(f.cos, f.sin, 13, [&](std::size_t r, int j) { return oracle.sincos<float>(r, j); }) == 0);
  rows<bfloat16> b(13);
  REQUIRE(rope::fill_rerope_table<bfloat16>(plain, c, b.cos, b.sin) == status::ok);
  CHECK(mismatches(b.cos, b.sin, 13, [&](std::size_t r, int j) { return oracle.sincos<bfloat16>(r, j); }) == 0);
  rows<float> short_by_one(12);
  CHECK(rope::fill_rerope_table<float>(plain, c, short_by_one.cos, short_by_one.sin) == status::domain_error);
  std::vector<posenc::math::sincos_result<double>> pairs(13 * D / 2);
  REQUIRE(rope::fill_rerope_pair_table<double>(plain, c, pairs) == status::ok);
  CHECK(same(pairs[12 * D / 2 + 3].sin, oracle.sincos<double>(12, 3).sin));
}

TEST_CASE("rerope: the score law holds on posenc's tables and fails on a window off by one", "[remap][rerope][laws]") {
  constexpr std::uint64_t w = 12;
  const auto p = plain_rows<float>(plain, 40);
  const auto dec = plain_rows<float>(plain, w + 1);
  const laws::law_result r = laws::rerope_scores(span_view(p.cos, p.sin), span_view(dec.cos, dec.sin), w);
  INFO(laws::to_string(r));
  CHECK(r.holds);
  CHECK(r.checked == 40 * 41 / 2 * D / 2);
  std::printf("[remap] %s\n", laws::to_string(r).c_str());
  // Mutant: a decode table of rows 1 .. w + 1 read as 0 .. w (a kernel indexing row r + 1).
  const auto shifted = plain_rows<float>(plain, w + 1, 1);
  const laws::law_result m = laws::rerope_scores(span_view(p.cos, p.sin), span_view(shifted.cos, shifted.sin), w);
  CHECK(!m.holds);
  CHECK(m.first_failure.position == 0);
  // Mutant: the law's own window one larger than the table's (a mask |i - j| <= w): rel = w reads
  // plain rows i, j while the decode table holds row w (the same rotation), so the case still
  // passes; rel = w + 1 needs decode row w + 1, which the table lacks.
  CHECK(!laws::rerope_scores(span_view(p.cos, p.sin), span_view(dec.cos, dec.sin), w + 1).holds);
}

TEST_CASE("rerope and leaky: laws of the maps, and mutants that break them", "[remap][laws]") {
  const rope::checked_rerope_config rc{{.window = 12}};
  const auto rerope = [&](std::uint64_t rel) {
    return rope::remapped_position{rope::rerope_relative_position(rc, rel, 0).value, 1};
  };
  CHECK(laws::relative_map_window(rerope, 12, 100).holds);
  CHECK(laws::relative_map_monotone(rerope, 100, false).holds);
  CHECK(!laws::relative_map_monotone(rerope, 100, true).holds);  // constant past w: not strict
  CHECK(laws::relative_map_slope(rerope, 12, 100, 1, 0).holds);
  const rope::checked_leaky_rerope_config lc{{.window = 12, .scaling_factor = 3}};
  const auto leaky = [&](std::uint64_t rel) { return rope::leaky_rerope_relative_position(lc, rel, 0).value; };
  CHECK(laws::relative_map_window(leaky, 12, 100).holds);
  CHECK(laws::relative_map_monotone(leaky, 100, true).holds);
  CHECK(laws::relative_map_slope(leaky, 12, 100, 3, 1).holds);  // 1/k past w
  CHECK(!laws::relative_map_slope(leaky, 12, 100, 1, 0).holds);
  // Mutants: q held at w - 1 outside the window (the constant position off by one), a map that
  // reflects at the window (w - (rel - w): farther keys look nearer), and Leaky's k w + rel instead
  // of k w + rel - w (a jump of w / k at the edge).
  const auto rerope_w1 = [](std::uint64_t rel) { return rope::remapped_position{rel < 12 ? rel : 11, 1}; };
  CHECK(!laws::relative_map_window(rerope_w1, 12, 100).holds);
  CHECK(laws::relative_map_monotone(rerope_w1, 100, false).holds);  // monotone alone does not see it
  const auto reflect = [](std::uint64_t rel) { return rope::remapped_position{rel < 12 ? rel : 24 - rel % 24, 1}; };
  const laws::law_result back = laws::relative_map_monotone(reflect, 100, false);
  CHECK(!back.holds);
  CHECK(back.first_failure.position == 13);
  const auto leaky_jump = [](std::uint64_t rel) {
    return rel < 12 ? rope::remapped_position{rel, 1} : rope::remapped_position{3 * 12 + rel, 3};
  };
  const laws::law_result j = laws::relative_map_window(leaky_jump, 12, 100);
  CHECK(!j.holds);
  CHECK(j.first_failure.position == 12);
  CHECK(laws::relative_map_monotone(leaky_jump, 100, true).holds);  // monotone alone does not see it
}

// ---- Leaky ReRoPE ----

TEST_CASE("leaky rerope: rel' = (k w + rel - w) / k, configs and domain errors", "[remap][leaky]") {
  const rope::leaky_rerope_config c{.window = 512, .scaling_factor = 16};
  const auto at = rope::leaky_rerope_relative_position(c, 515, 0);  // rel = w + 3: 512 + 3/16
  CHECK(at.value.position == 16 * 512 + 3);
  CHECK(at.value.divisor == 16);
  CHECK(at.value.value() == 512.1875);
  CHECK(rope::leaky_rerope_relative_position(c, 511, 0).value.position == 511);
  CHECK(rope::leaky_rerope_relative_position(c, 511, 0).value.divisor == 1);
  CHECK(rope::leaky_rerope_relative_position(c, 0, 1).error == status::domain_error);
  CHECK(!rope::validate(rope::leaky_rerope_config{.window = 0}).ok());
  CHECK(!rope::validate(rope::leaky_rerope_config{.scaling_factor = 1}).ok());
  CHECK(!rope::validate(rope::leaky_rerope_config{.window = 1 << 20, .scaling_factor = 3}).ok());
  CHECK(rope::leaky_rerope_scaled_rows(c, 1000) == 1000 + 512 * 15);
  const auto s = rope::leaky_rerope_scaled_config(plain, c);
  REQUIRE(s.ok());
  CHECK(s.value.rope_type == rope::scaling::linear);
  CHECK(s.value.factor == 16.0);
  rope::config lin = plain;
  lin.rope_type = rope::scaling::linear;
  lin.factor = 2.5;
  CHECK(rope::leaky_rerope_scaled_config(lin, c).value.factor == 40.0);
  lin.factor = 1.0 + 0x1p-52;  // times 3 is not a double
  CHECK(rope::leaky_rerope_scaled_config(lin, rope::leaky_rerope_config{.window = 4, .scaling_factor = 3}).error ==
        status::domain_error);
  rope::config yarn = plain;
  yarn.rope_type = rope::scaling::yarn;
  yarn.factor = 4;
  yarn.original_max_position_embeddings = 4096;
  CHECK(rope::leaky_rerope_scaled_config(yarn, c).error == status::domain_error);
  rows<float> bad(3);
  CHECK(rope::fill_leaky_rerope_table<float>(plain, rope::leaky_rerope_config{.window = 4, .scaling_factor = 1},
                                             bad.cos, bad.sin) == status::domain_error);
}

TEST_CASE("leaky rerope: the decode table against MPFR's w + (rel - w)/k, every entry", "[remap][leaky][oracle]") {
  // k = 3: (rel - w) / 3 is not dyadic, so the real rel' is no double; the table's rows are the
  // integer rows 3 w + rel - w of the table scaled by 3.
  const rope::leaky_rerope_config c{.window = 8, .scaling_factor = 3};
  constexpr std::size_t n = 48;
  const auto want = [&](auto tag) {
    using T = decltype(tag);
    return [&](std::size_t rel, int j) { return v::cr_leaky_rerope_sincos<T>(plain, 8, 3, rel, j); };
  };
  rows<double> d(n);
  REQUIRE(rope::fill_leaky_rerope_table<double>(plain, c, d.cos, d.sin) == status::ok);
  CHECK(mismatches(d.cos, d.sin, n, want(0.0)) == 0);
  rows<float> f(n);
  REQUIRE(rope::fill_leaky_rerope_table<float>(plain, c, f.cos, f.sin) == status::ok);
  CHECK(mismatches(f.cos, f.sin, n, want(0.0f)) == 0);
  rows<bfloat16> b(n);
  REQUIRE(rope::fill_leaky_rerope_table<bfloat16>(plain, c, b.cos, b.sin) == status::ok);
  CHECK(mismatches(b.cos, b.sin, n, want(bfloat16{})) == 0);
  std::vector<posenc::math::sincos_result<float>> pairs(n * D / 2);
  REQUIRE(rope::fill_leaky_rerope_pair_table<float>(plain, c, pairs) == status::ok);
  int bad = 0;
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t j = 0; j < D / 2; ++j)
      bad += static_cast<int>(!same(pairs[r * D / 2 + j].cos, f.cos[r * D + j]) ||
                              !same(pairs[r * D / 2 + j].sin, f.sin[r * D + j]));
  CHECK(bad == 0);
  // The oracle can fail: the rows of the reference's offset read one row late (w k + rel - w + 1).
  rows<float> late(n);
  REQUIRE(rope::fill_table<float>(plain, std::span<float>(late.cos).first(8 * D),
                                  std::span<float>(late.sin).first(8 * D)) == status::ok);
  const auto scaled = rope::leaky_rerope_scaled_config(plain, c).value;
  REQUIRE(rope::fill_table<float>(scaled, std::span<float>(late.cos).subspan(8 * D),
                                  std::span<float>(late.sin).subspan(8 * D), rope::layout::half_split,
                                  {.start = 3 * 8 + 1}) == status::ok);
  CHECK(mismatches(late.cos, late.sin, n, want(0.0f)) > 0);
}

TEST_CASE("leaky rerope at the reference's scale: 4096 rows of Llama-3's head, sampled against MPFR",
          "[remap][leaky][oracle]") {
  // The reference's w 512, k 16 and a Llama-3 head (64 pairs, base 500000): the scaled rows take
  // theta_j / 16 from the plain frequencies (rope/detail/frequency_cache.hpp), so every 7th row of
  // both parts and the rows at the seam are checked against MPFR (about 38,000 entries of float).
  const rope::config llama{.head_dim = 128, .rope_theta = 500000.0};
  const rope::leaky_rerope_config c{.window = 512, .scaling_factor = 16};
  constexpr std::size_t n = 4096, half = 64;
  std::vector<posenc::math::sincos_result<float>> t(n * half);
  REQUIRE(rope::fill_leaky_rerope_pair_table<float>(llama, c, t) == status::ok);
  const v::leaky_rerope_oracle oracle(llama, 512, 16);
  int bad = 0, checked = 0;
  for (std::size_t r = 0; r < n; r += (r >= 505 && r < 519) ? 1 : 7)
    for (std::size_t j = 0; j < half; ++j, ++checked) {
      const auto w = oracle.sincos<float>(r, static_cast<int>(j));
      bad += static_cast<int>(!same(t[r * half + j].cos, w.cos) || !same(t[r * half + j].sin, w.sin));
    }
  CHECK(checked > 37000);
  CHECK(bad == 0);
}

TEST_CASE("leaky rerope: the score law on prefill and decode tables; mutants fail it", "[remap][leaky][laws]") {
  const rope::leaky_rerope_config c{.window = 8, .scaling_factor = 3};
  constexpr std::size_t n = 40;
  const auto scaled_cfg = rope::leaky_rerope_scaled_config(plain, c).value;
  const auto p = plain_rows<float>(plain, n);
  const auto s = plain_rows<float>(scaled_cfg, rope::leaky_rerope_scaled_rows(c, n));
  rows<float> dec(n);
  REQUIRE(rope::fill_leaky_rerope_table<float>(plain, c, dec.cos, dec.sin) == status::ok);
  const laws::law_result r =
      laws::leaky_rerope_scores(span_view(p.cos, p.sin), span_view(s.cos, s.sin), span_view(dec.cos, dec.sin), 8, 3);
  INFO(laws::to_string(r));
  CHECK(r.holds);
  CHECK(r.checked == n * (n + 1) / 2 * D / 2);
  std::printf("[remap] %s\n", laws::to_string(r).c_str());
  // Mutant 1: the decode table's scaled rows from k w + rel (offset w k instead of w (k - 1)).
  rows<float> off(n);
  std::copy(dec.cos.begin(), dec.cos.begin() + 8 * D, off.cos.begin());
  std::copy(dec.sin.begin(), dec.sin.begin() + 8 * D, off.sin.begin());
  REQUIRE(rope::fill_table<float>(scaled_cfg, std::span<float>(off.cos).subspan(8 * D),
                                  std::span<float>(off.sin).subspan(8 * D), rope::layout::half_split,
                                  {.start = 3 * 8 + 8}) == status::ok);
  const laws::law_result m =
      laws::leaky_rerope_scores(span_view(p.cos, p.sin), span_view(s.cos, s.sin), span_view(off.cos, off.sin), 8, 3);
  CHECK(!m.holds);
  CHECK(m.first_failure.position == 8);  // the first query with a key outside the window
  // Mutant 2: the scaled table with factor 2 (a config that ignored k).
  rope::config two = scaled_cfg;
  two.factor = 2;
  const auto s2 = plain_rows<float>(two, rope::leaky_rerope_scaled_rows(c, n));
  CHECK(
      !laws::leaky_rerope_scores(span_view(p.cos, p.sin), span_view(s2.cos, s2.sin), span_view(dec.cos, dec.sin), 8, 3)
           .holds);
}

namespace {

// ||X - R_(-phi)||_2 of the block X = [[a, -b], [b, a]] (a, b exact, in MPFR) against the exact
// rotation by -phi (cos phi, -sin phi), rounded up to a double. The block form's 2-norm is
// sqrt(da^2 + db^2) (laws/detail/blocks.hpp).
double block_distance(mpfr_srcptr a, mpfr_srcptr b, mpfr_srcptr cos_phi, mpfr_srcptr sin_phi) {
  v::detail::mp da(400), db(400);
  mpfr_sub(da.get(), a, cos_phi, MPFR_RNDN);
  mpfr_add(db.get(), b, sin_phi, MPFR_RNDN);  // b - (-sin phi)
  mpfr_sqr(da.get(), da.get(), MPFR_RNDU);
  mpfr_sqr(db.get(), db.get(), MPFR_RNDU);
  mpfr_add(da.get(), da.get(), db.get(), MPFR_RNDU);
  mpfr_sqrt(da.get(), da.get(), MPFR_RNDU);
  return mpfr_get_d(da.get(), MPFR_RNDU);
}

// The premises of leaky_rerope_scores measured exactly: every prefill block M1 within
// table_dot_bound of the exact rotation by the remapped angle, every decode block M2 within
// table_block_error of it (the angle from MPFR's w + (rel - w)/k). Returns the worst ratios.
std::array<double, 2> leaky_blocks_against_mpfr(const rows<float>& p, const rows<float>& s, const rows<float>& dec,
                                                std::size_t n) {
  const v::leaky_rerope_oracle oracle(plain, 8, 3);
  std::vector<std::unique_ptr<v::detail::mp>> sin_phi, cos_phi;  // [rel * pairs + j]
  for (std::size_t rel = 0; rel < n; ++rel)
    for (int j = 0; j < static_cast<int>(D / 2); ++j) {
      sin_phi.push_back(std::make_unique<v::detail::mp>(320));
      cos_phi.push_back(std::make_unique<v::detail::mp>(320));
      oracle.eval(rel, j, *sin_phi.back(), *cos_phi.back());
    }
  const double dot_bound = laws::table_dot_bound<float>(), entry_bound = laws::table_block_error<float>();
  std::array<double, 2> worst{0, 0};
  v::detail::mp a(200), b(200), t(200);
  const auto exact = [](v::detail::mp& out, float x) { mpfr_set_flt(out.get(), x, MPFR_RNDN); };
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      const std::size_t rel = i - j;
      const bool inside = rel < 8;
      const rows<float>& A = inside ? p : s;
      const std::size_t qa = inside ? i : i + 16, kb = j;
      for (std::size_t pj = 0; pj < D / 2; ++pj) {
        const float c1 = A.cos[qa * D + pj], s1 = A.sin[qa * D + pj], c2 = A.cos[kb * D + pj], s2 = A.sin[kb * D + pj];
        exact(a, c1), mpfr_mul_d(a.get(), a.get(), c2, MPFR_RNDN), exact(t, s1),
            mpfr_mul_d(t.get(), t.get(), s2, MPFR_RNDN);
        mpfr_add(a.get(), a.get(), t.get(), MPFR_RNDN);  // c1 c2 + s1 s2, exact at 200 bits
        exact(b, c1), mpfr_mul_d(b.get(), b.get(), s2, MPFR_RNDN), exact(t, s1),
            mpfr_mul_d(t.get(), t.get(), c2, MPFR_RNDN);
        mpfr_sub(b.get(), b.get(), t.get(), MPFR_RNDN);  // c1 s2 - s1 c2
        const std::size_t o = rel * D / 2 + pj;
        worst[0] =
            std::fmax(worst[0], block_distance(a.get(), b.get(), cos_phi[o]->get(), sin_phi[o]->get()) / dot_bound);
        exact(a, dec.cos[rel * D + pj]);
        exact(b, dec.sin[rel * D + pj]);
        mpfr_neg(b.get(), b.get(), MPFR_RNDN);  // D~^T: b = -s
        worst[1] =
            std::fmax(worst[1], block_distance(a.get(), b.get(), cos_phi[o]->get(), sin_phi[o]->get()) / entry_bound);
      }
    }
  return worst;
}

}  // namespace

TEST_CASE("leaky rerope: the score law's premises measured against MPFR, block by block", "[remap][leaky][oracle]") {
  const rope::leaky_rerope_config c{.window = 8, .scaling_factor = 3};
  constexpr std::size_t n = 40;
  const auto scaled_cfg = rope::leaky_rerope_scaled_config(plain, c).value;
  const auto p = plain_rows<float>(plain, n);
  const auto s = plain_rows<float>(scaled_cfg, rope::leaky_rerope_scaled_rows(c, n));
  rows<float> dec(n);
  REQUIRE(rope::fill_leaky_rerope_table<float>(plain, c, dec.cos, dec.sin) == status::ok);
  const auto w = leaky_blocks_against_mpfr(p, s, dec, n);
  std::printf("[remap] leaky rerope vs MPFR: worst ||M1 - R|| / (2u + u^2) = %.3g, ||M2 - R|| / u = %.3g\n", w[0],
              w[1]);
  CHECK(w[0] <= 1);
  CHECK(w[1] <= 1);
  // The measure can fail: the decode table with the offset w k (one window late).
  rows<float> off(n);
  std::copy(dec.cos.begin(), dec.cos.begin() + 8 * D, off.cos.begin());
  std::copy(dec.sin.begin(), dec.sin.begin() + 8 * D, off.sin.begin());
  REQUIRE(rope::fill_table<float>(scaled_cfg, std::span<float>(off.cos).subspan(8 * D),
                                  std::span<float>(off.sin).subspan(8 * D), rope::layout::half_split,
                                  {.start = 3 * 8 + 8}) == status::ok);
  CHECK(leaky_blocks_against_mpfr(p, s, off, n)[1] > 1);
}

// ---- StreamingLLM ----

TEST_CASE("streaming: the kept tokens and their cache positions", "[remap][streaming]") {
  const rope::checked_streaming_cache_config c{{.start_size = 4, .recent_size = 8}};
  // Token 20: the cache of 20 tokens holds 0..3 and 12..19 (kv_cache.py: [0, S) + [n - R, n)),
  // then 20 itself: 13 keys at positions 0..12, the query at 12.
  std::array<std::uint64_t, 13> tokens{}, positions{};
  REQUIRE(rope::streaming_step_slots(c, 20, tokens, positions) == status::ok);
  CHECK(tokens == std::array<std::uint64_t, 13>{0, 1, 2, 3, 12, 13, 14, 15, 16, 17, 18, 19, 20});
  CHECK(positions == std::array<std::uint64_t, 13>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  CHECK(rope::streaming_attention_step(c, 20).value.query_position == 12);
  // Before the cache fills: token 5 sees 0..5 at their own positions.
  CHECK(rope::streaming_attention_step(c, 5).value.keys == 6);
  CHECK(rope::streaming_slot_token(c, 5, 3).value == 3);
  CHECK(rope::streaming_slot_token(c, 12, 12).value == 12);  // n = S + R: nothing evicted yet
  CHECK(rope::streaming_slot_token(c, 13, 4).value == 5);    // the first eviction drops token 4
  CHECK(rope::streaming_slot_token(c, 20, 14).error == status::domain_error);
  std::array<std::uint64_t, 12> short_tokens{}, short_positions{};
  CHECK(rope::streaming_step_slots(c, 20, short_tokens, short_positions) == status::domain_error);
  // Every step's slots (streaming_step_slots writes them without streaming_slot_token's checks)
  // are streaming_slot_token's, before the cache fills, at n = S + R, at the first eviction, after.
  int slot_mismatches = 0;
  for (std::uint64_t t = 0; t < 40; ++t) {
    const std::uint64_t keys = rope::streaming_attention_step(c, t).value.keys;
    std::vector<std::uint64_t> tk(keys), pos(keys);
    REQUIRE(rope::streaming_step_slots(c, t, tk, pos) == status::ok);
    for (std::uint64_t s = 0; s < keys; ++s)
      slot_mismatches += tk[s] != rope::streaming_slot_token(c, t, s).value || pos[s] != s;
  }
  CHECK(slot_mismatches == 0);
  CHECK(!rope::validate(rope::streaming_cache_config{.recent_size = 0}).ok());
  CHECK(!rope::validate(rope::streaming_cache_config{.start_size = 1u << 21, .recent_size = 1}).ok());
}

TEST_CASE("streaming: the step's rows against MPFR, the score law, and the relative property", "[remap][streaming]") {
  const rope::checked_streaming_cache_config c{{.start_size = 4, .recent_size = 8}};
  const auto t = rope::make_streaming_table<float, 13, D>(plain, c, 20);
  REQUIRE(t.ok());
  const v::rope_table_oracle oracle(plain);
  int bad = 0;
  for (std::size_t s = 0; s < 13; ++s)
    for (int j = 0; j < static_cast<int>(D / 2); ++j) {
      const auto want = oracle.sincos<float>(s, j);  // the cache position s, not the token's index
      const auto got = t.value.rows.pair(s, static_cast<std::size_t>(j));
      bad += static_cast<int>(!same(got.cos, want.cos) || !same(got.sin, want.sin));
    }
  CHECK(bad == 0);
  CHECK(rope::make_streaming_table<float, 12, D>(plain, c, 20).error == status::domain_error);

  constexpr rope::table_options from_zero{};
  const auto direct = rope::make_table<float, 13, D>(plain, from_zero);
  REQUIRE(direct.ok());
  const laws::law_result r = laws::streaming_scores(laws::view(t.value.rows), laws::view(direct.value));
  INFO(laws::to_string(r));
  CHECK(r.holds);
  std::printf("[remap] %s\n", laws::to_string(r).c_str());
  // The relative property: at steps 20 and 27 (other tokens kept, same slots) every score equals
  // the same relative block within the bound, so the two steps' scores differ by at most twice it;
  // and the step's rows hold relative_dot over slot differences 1, 2 and half the cache.
  const auto t27 = rope::make_streaming_table<float, 13, D>(plain, c, 27);
  CHECK(t27.value.token[4] == 19);
  CHECK(laws::streaming_scores(laws::view(t27.value.rows), laws::view(direct.value)).holds);
  CHECK(laws::relative_dot(laws::view(t.value.rows), {{1, 2, laws::middle_row, 0}}).holds);
  // Mutant: keys rotated at their positions in the text (the tokens' indices) instead of the slots.
  std::array<std::uint64_t, 13> text_positions{};
  for (std::size_t s = 0; s < 13; ++s) text_positions[s] = t.value.token[s];
  const auto wrong = rope::make_table<float, 13, D>(plain, text_positions);
  REQUIRE(wrong.ok());
  const laws::law_result m = laws::streaming_scores(laws::view(wrong.value), laws::view(direct.value));
  CHECK(!m.holds);
  CHECK(m.first_failure.partner == 0);  // the sink at slot 0 is 20 tokens away in the text, 12 in the cache
}

// ---- linear attention with RoPE ----

namespace {

struct attention_case {
  rope::linear_attention_shape sh;
  std::vector<double> rq, rk, fq, fk, v;
};

double elu_plus_one(double x) { return x > 0 ? x + 1 : std::exp(x); }

// phi = elu + 1, then R_m phi(q_m), R_n phi(k_n) with posenc's double table (rope::rotate).
attention_case make_case(std::size_t tokens, std::size_t dv, std::uint64_t seed) {
  attention_case a{{tokens, D, dv}, {}, {}, {}, {}, {}};
  v::rng g(seed);
  for (std::size_t i = 0; i < tokens * D; ++i) {
    a.fq.push_back(elu_plus_one(g.uniform(-2, 2)));
    a.fk.push_back(elu_plus_one(g.uniform(-2, 2)));
  }
  for (std::size_t i = 0; i < tokens * dv; ++i) a.v.push_back(g.uniform(-1, 1));
  std::vector<posenc::math::sincos_result<double>> table(tokens * D / 2);
  REQUIRE(rope::fill_pair_table<double>(plain, table) == status::ok);
  a.rq = a.fq;
  a.rk = a.fk;
  const rope::apply_shape one{.heads = 1, .head_dim = D, .rotary_dim = D};
  for (std::size_t m = 0; m < tokens; ++m) {
    REQUIRE(rope::rotate(a.rq.data() + m * D, one, table.data() + m * D / 2) == status::ok);
    REQUIRE(rope::rotate(a.rk.data() + m * D, one, table.data() + m * D / 2) == status::ok);
  }
  return a;
}

struct attention_result {
  std::vector<double> num, den, out;
  explicit attention_result(const rope::linear_attention_shape& s)
      : num(s.tokens * s.value_dim), den(s.tokens), out(s.tokens * s.value_dim) {}
  rope::linear_attention_outputs spans() { return {num, den, out}; }
};

// The largest |quadratic - linear| / bound over num, den and out, and whether every one is within.
struct comparison {
  double worst_ratio = 0, worst_num_diff = 0;
  bool within = true;
};

comparison compare(const attention_case& a, const attention_result& lin, const attention_result& quad) {
  const rope::linear_attention_inputs in{a.rq, a.rk, a.fq, a.fk, a.v};
  const std::size_t nv = a.sh.tokens * a.sh.value_dim;
  std::vector<double> bn(nv), bd(a.sh.tokens), bo(nv);
  REQUIRE(rope::linear_attention_bounds(a.sh, in, lin.out, quad.out, quad.den, {bn, bd, bo}) == status::ok);
  comparison c;
  const auto one = [&](double x, double y, double bound) {
    const double diff = std::fabs(x - y);
    c.within = c.within && diff <= bound;
    c.worst_ratio = std::fmax(c.worst_ratio, diff / bound);
  };
  for (std::size_t i = 0; i < nv; ++i) {
    one(lin.num[i], quad.num[i], bn[i]);
    one(lin.out[i], quad.out[i], bo[i]);
    c.worst_num_diff = std::fmax(c.worst_num_diff, std::fabs(lin.num[i] - quad.num[i]));
  }
  for (std::size_t m = 0; m < a.sh.tokens; ++m) one(lin.den[m], quad.den[m], bd[m]);
  return c;
}

// Mutant: the state updated after token m reads it (the diagonal n = m left out).
void linear_attention_without_diagonal(const attention_case& a, attention_result& out) {
  const std::size_t d = a.sh.dim, dv = a.sh.value_dim;
  std::vector<double> S(d * dv, 0.0), z(d, 0.0);
  for (std::size_t m = 0; m < a.sh.tokens; ++m) {
    for (std::size_t c = 0; c < dv; ++c) {
      double s = 0;
      for (std::size_t i = 0; i < d; ++i) s += a.rq[m * d + i] * S[i * dv + c];
      out.num[m * dv + c] = s;
    }
    double den = 0;
    for (std::size_t i = 0; i < d; ++i) den += a.fq[m * d + i] * z[i];
    out.den[m] = den;
    for (std::size_t c = 0; c < dv; ++c) out.out[m * dv + c] = out.num[m * dv + c] / (den == 0 ? 1 : den);
    for (std::size_t i = 0; i < d; ++i) {
      for (std::size_t c = 0; c < dv; ++c) S[i * dv + c] += a.rk[m * d + i] * a.v[m * dv + c];
      z[i] += a.fk[m * d + i];
    }
  }
}

}  // namespace

TEST_CASE("linear attention with RoPE: O(n) state = O(n^2) sum within the derived bound", "[remap][linear]") {
  const std::uint64_t seed = v::seed_for("linear attention with RoPE");
  v::print_seed("linear attention with RoPE", seed);
  double worst = 0;
  for (std::uint64_t trial = 0; trial < 4; ++trial) {
    const attention_case a = make_case(256, 8, seed + trial);
    attention_result lin(a.sh), quad(a.sh);
    std::vector<double> state(D * 8 + D);
    const rope::linear_attention_inputs in{a.rq, a.rk, a.fq, a.fk, a.v};
    REQUIRE(rope::causal_linear_attention(a.sh, in, lin.spans(), state) == status::ok);
    REQUIRE(rope::causal_quadratic_attention(a.sh, in, quad.spans()) == status::ok);
    const comparison c = compare(a, lin, quad);
    CHECK(c.within);
    CHECK(c.worst_num_diff > 0);  // the two orders do round differently: the bound is not vacuous
    worst = std::fmax(worst, c.worst_ratio);
  }
  std::printf("[remap] linear attention: worst |quadratic - linear| / bound = %.3g over 4 x 256 tokens\n", worst);
  // The checker can fail: the diagonal left out of the state.
  const attention_case a = make_case(64, 8, seed);
  attention_result quad(a.sh), mutant(a.sh);
  REQUIRE(rope::causal_quadratic_attention(a.sh, {a.rq, a.rk, a.fq, a.fk, a.v}, quad.spans()) == status::ok);
  linear_attention_without_diagonal(a, mutant);
  CHECK(!compare(a, mutant, quad).within);
  // Shapes.
  std::vector<double> state(3);
  CHECK(rope::causal_linear_attention(a.sh, {a.rq, a.rk, a.fq, a.fk, a.v}, mutant.spans(), state) ==
        status::domain_error);
}
