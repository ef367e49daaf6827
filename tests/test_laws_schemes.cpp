// test_laws_schemes.cpp: the constexpr laws of the bias and absolute encodings (posenc/laws/
// sinusoid_*, alibi_*, bucket_*, xpos_*) on posenc's tables in every dtype, in constant evaluation
// and at run time; each law shown able to fail: one seeded defect per case, after which exactly the
// expected laws fail, at the expected index, in constant evaluation and again at run time; and the
// decay of P(p) . P(p + k) with k for docs/laws.md section 6, from MPFR and from the tables.
#include <mpfr.h>
#include <boost/hana/for_each.hpp>
#include <boost/hana/length.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <map>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "posenc/alibi.hpp"
#include "posenc/deberta.hpp"
#include "posenc/laws.hpp"
#include "posenc/laws/print.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/table.hpp"
#include "posenc/shaw.hpp"
#include "posenc/sinusoidal.hpp"
#include "posenc/t5.hpp"
#include "posenc/transformer_xl.hpp"
#include "posenc/verify/registry/schemes.hpp"
#include "posenc/xpos.hpp"

namespace {

namespace laws = posenc::laws;
namespace sn = posenc::sinusoidal;
namespace rope = posenc::rope;
using laws::law_kind;
using posenc::bfloat16;
using posenc::float16;

// ---- the expected outcome of a family of laws: which fail, and where first ----

struct failure {
  law_kind kind;
  std::int64_t position, pair, element, partner = laws::no_partner;
};

template <std::size_t N>
constexpr bool exactly(const std::array<laws::law_result, N>& rs, std::initializer_list<failure> expected) {
  for (const laws::law_result& r : rs) {
    bool listed = false;
    failure f{};
    for (const failure& e : expected)
      if (e.kind == r.kind) listed = true, f = e;
    if (!listed) {
      if (!r.holds) return false;
      continue;
    }
    const laws::entry_index& a = r.first_failure;
    if (r.holds || a.position != f.position || a.pair != f.pair || a.element != f.element || a.partner != f.partner)
      return false;
  }
  return true;
}

template <std::size_t N>
std::string describe(const std::array<laws::law_result, N>& rs) {
  std::string s;
  for (const auto& r : rs) s += laws::to_string(r) + "\n";
  return s;
}

// The run-time results equal the compile-time ones, figure for figure.
template <std::size_t N>
bool same(const std::array<laws::law_result, N>& a, const std::array<laws::law_result, N>& b) {
  for (std::size_t i = 0; i < N; ++i) {
    const auto &x = a[i], &y = b[i];
    if (x.holds != y.holds || x.kind != y.kind || x.checked != y.checked || x.failures != y.failures ||
        x.deviation != y.deviation || x.first_failure.position != y.first_failure.position ||
        x.first_failure.pair != y.first_failure.pair || x.first_failure.element != y.first_failure.element ||
        x.first_failure.partner != y.first_failure.partner)
      return false;
  }
  return true;
}

int opaque(int x) {  // a value the compiler cannot see: the call below runs at run time
  volatile int v = x;
  return v;
}

// ---- sinusoids ----

constexpr sn::config paper16{.dim = 16};
constexpr sn::config fairseq16{.dim = 16, .exponent = sn::exponent::fairseq, .layout = sn::layout::concat};

// defect 0: none; 1: row 9 holds position 10; 2: built from 0, described from 1;
// 3: cos of pair 1 at position -3 scaled by 1.25 (fairseq layout, positions -8 .. 15).
template <class T>
constexpr std::array<laws::law_result, 2> sinusoid_family(int defect) {
  const sn::config cfg = defect == 3 ? fairseq16 : paper16;
  const std::int64_t first = defect == 3 ? -8 : 0;
  auto t = sn::make_table<T, 24, 16>(cfg, first).value;
  if (defect == 1)
    for (std::size_t k = 0; k < 16; ++k) t[9 * 16 + k] = t[10 * 16 + k];
  if (defect == 3) t[5 * 16 + 8 + 1] = static_cast<T>(static_cast<float>(t[5 * 16 + 9]) * 1.25f);
  const laws::sinusoid_table<T> v{t, cfg, defect == 2 ? 1 : first};
  return {laws::sinusoid_shift(v, {.shifts = {1, 5, 0, 0}}), laws::sinusoid_relative_dot(v, {.shifts = {1, 5, 0, 0}})};
}

static_assert(exactly(sinusoid_family<float>(0), {}));
static_assert(exactly(sinusoid_family<double>(0), {}));
static_assert(exactly(sinusoid_family<float>(1),
                      {{&laws::kind::sinusoid_shift, 9, 0, 0, 1}, {&laws::kind::sinusoid_relative_dot, 8, -1, -1, 9}}));
static_assert(exactly(sinusoid_family<float>(2), {{&laws::kind::sinusoid_shift, 2, 0, 0, 1}}));
static_assert(exactly(sinusoid_family<double>(3), {{&laws::kind::sinusoid_shift, -3, 1, 1, 1},
                                                   {&laws::kind::sinusoid_relative_dot, -4, -1, -1, -3}}));

TEST_CASE("sinusoid laws: seeded defects fail exactly where expected, at compile time and run time",
          "[laws][schemes]") {
  for (int d = 0; d <= 3; ++d) {
    CAPTURE(d);
    CHECK(same(sinusoid_family<float>(opaque(d)), sinusoid_family<float>(d)));
    CHECK(same(sinusoid_family<double>(opaque(d)), sinusoid_family<double>(d)));
  }
  constexpr auto ct = sinusoid_family<float>(1);
  const auto rt = sinusoid_family<float>(opaque(1));
  INFO(describe(rt));
  CHECK(exactly(rt, {{&laws::kind::sinusoid_shift, 9, 0, 0, 1}, {&laws::kind::sinusoid_relative_dot, 8, -1, -1, 9}}));
  CHECK(same(ct, rt));
}

template <class T>
void sinusoid_laws_hold(const sn::config& cfg, std::int64_t first, std::size_t rows) {
  std::vector<T> t(rows * static_cast<std::size_t>(cfg.dim));
  REQUIRE(sn::fill_table<T>(sn::checked_config{cfg}, first, std::span<T>(t)) == posenc::status::ok);
  const laws::sinusoid_table<T> v{t, cfg, first};
  const laws::sinusoid_grid g{.shifts = {1, 3, 100, laws::sinusoid_middle}};
  const auto s = laws::sinusoid_shift(v, g);
  const auto d = laws::sinusoid_relative_dot(v, g);
  INFO(laws::to_string(s) << "\n" << laws::to_string(d));
  CHECK(s.holds);
  CHECK(d.holds);
  CHECK(s.checked > 0);
  CHECK(d.checked > 0);
}

TEST_CASE("sinusoid laws hold of posenc's tables in every dtype and layout", "[laws][schemes]") {
  for (const sn::config& c :
       {sn::config{.dim = 512}, sn::config{.dim = 512, .exponent = sn::exponent::fairseq, .layout = sn::layout::concat},
        sn::config{.dim = 15}, sn::config{.dim = 15, .layout = sn::layout::concat},
        sn::config{.dim = 15, .exponent = sn::exponent::fairseq}}) {
    CAPTURE(c.dim, static_cast<int>(c.exponent), static_cast<int>(c.layout));
    sinusoid_laws_hold<double>(c, 0, 300);
    sinusoid_laws_hold<float>(c, -150, 300);
    sinusoid_laws_hold<bfloat16>(c, 0, 300);
    sinusoid_laws_hold<float16>(c, -150, 300);
  }
}

TEST_CASE("sinusoid laws hold of Transformer-XL's and XLNet's relative sinusoids", "[laws][schemes]") {
  namespace tx = posenc::transformer_xl;
  for (const tx::config& c :
       {tx::config{.d_model = 64, .klen = 96, .qlen = 32},
        tx::config{.d_model = 64, .klen = 96, .qlen = 32, .model = tx::model::xlnet, .bi_data = true},
        tx::config{.d_model = 64, .klen = 96, .qlen = 32, .clamp_len = 40, .model = tx::model::xlnet}}) {
    const auto rows = static_cast<std::size_t>(tx::rows(c));
    std::vector<float> t(rows * 64);
    REQUIRE(tx::fill_table<float>(c, std::span<float>(t)) == posenc::status::ok);
    std::vector<std::int64_t> pos(rows);
    for (std::size_t r = 0; r < rows; ++r) pos[r] = tx::position(c, static_cast<std::int64_t>(r)).value;
    const laws::sinusoid_table<float> v{t, {.dim = 64, .layout = sn::layout::concat}, 0, pos};
    const auto s = laws::sinusoid_shift(v, {.shifts = {1, 7, 0, 0}});
    const auto d = laws::sinusoid_relative_dot(v, {.shifts = {1, 7, 0, 0}});
    INFO(laws::to_string(s) << "\n" << laws::to_string(d));
    CHECK((s.holds && d.holds && s.checked > 0 && d.checked > 0));
  }
}

// The decay of P(p) . P(p + k) = sum_i cos(k omega_i) with k, d = 512 (the paper's d_model), from
// MPFR at 256 bits; and the float table's worst distance from it over p in [0, 1024). The rows are
// docs/laws.md section 6's table: the test fails if the document's copy differs.
double mpfr_dot(int d, long k) {
  mpfr_t w, x, s, t;
  mpfr_inits2(256, w, x, s, t, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_zero(s, 1);
  for (int i = 0; i < d / 2; ++i) {
    mpfr_set_ui(t, 10000, MPFR_RNDN);
    mpfr_log(t, t, MPFR_RNDN);
    mpfr_mul_si(t, t, -2 * i, MPFR_RNDN);
    mpfr_div_si(t, t, d, MPFR_RNDN);
    mpfr_exp(w, t, MPFR_RNDN);  // omega_i = 10000^(-2i/d)
    mpfr_mul_si(x, w, k, MPFR_RNDN);
    mpfr_cos(x, x, MPFR_RNDN);
    mpfr_add(s, s, x, MPFR_RNDN);
  }
  const double r = mpfr_get_d(s, MPFR_RNDN);
  mpfr_clears(w, x, s, t, static_cast<mpfr_ptr>(nullptr));
  return r;
}

TEST_CASE("the dot of two sinusoids decays with their distance (docs/laws.md section 6)", "[laws][schemes]") {
  constexpr int d = 512;
  constexpr std::size_t rows = 1024 + 2048;
  std::vector<float> t(rows * d);
  REQUIRE(sn::fill_table<float>(sn::checked_config{sn::config{.dim = d}}, 0, std::span<float>(t)) ==
          posenc::status::ok);
  const laws::sinusoid_table<float> v{t, {.dim = d}};
  const double bound = laws::sinusoid_dot_bound<float>(d / 2) / 2;  // one dot against the exact value
  std::vector<std::string> lines;
  for (const long k : {0L, 1L, 2L, 4L, 8L, 16L, 32L, 64L, 128L, 256L, 512L, 1024L, 2048L}) {
    const double exact = mpfr_dot(d, k);
    double worst = 0;
    for (std::size_t p = 0; p < 1024; ++p) {
      const auto dd = laws::detail::sinusoid_dot(v, v.row(p), v.row(p + static_cast<std::size_t>(k)));
      const double e = (dd.hi - exact) + dd.lo;
      worst = e < 0 ? (-e > worst ? -e : worst) : (e > worst ? e : worst);
    }
    CHECK(worst <= bound);
    char buf[160];
    std::snprintf(buf, sizeof buf, "| %ld | %.6f | %.6f | %.2e |", k, exact, exact / (d / 2), worst);
    lines.emplace_back(buf);
  }
  std::string table =
      "| k | P(p) . P(p + k) (MPFR) | / (d/2) | float table, worst over p < 1024 |\n|---|---|---|---|\n";
  for (const auto& l : lines) table += l + "\n";
  std::printf("docs/laws.md section 6, d = 512 (paper), float table bound per dot %.2e:\n%s", bound, table.c_str());
  std::ifstream doc(POSENC_SOURCE_DIR "/docs/laws.md");
  std::stringstream text;
  text << doc.rdbuf();
  CHECK(text.str().find(table) != std::string::npos);
}

// ---- ALiBi ----

// 0: none; 1: head 5's slope 0.1% high (12 heads); 2: 16 heads (BLOOM), head 3 (2^-2) one ulp up;
// 3: head 1, query 3, key 1 holds the bias of distance 3; 4: head 1's biases negated (a kernel
// without the minus; the diagonal keeps +0); 5: causal, query 4, key 1 holds +0.5.
constexpr std::array<laws::law_result, 4> alibi_family(int defect) {
  const posenc::alibi::config cfg{.heads = defect == 2 ? 16 : 12};
  std::array<float, 16> m{};
  for (int h = 0; h < cfg.heads; ++h)
    m[static_cast<std::size_t>(h)] = posenc::alibi::slope<float>(posenc::alibi::checked_config{cfg}, h).value;
  if (defect == 1) m[5] *= 1.001f;
  if (defect == 2) m[3] = 0x1.000002p-2f;
  const std::span<const float> slopes(m.data(), static_cast<std::size_t>(cfg.heads));
  auto b = posenc::alibi::make_symmetric_bias_table<float, 2, 6, 6>(posenc::alibi::config{.heads = 2}).value;
  if (defect == 3) b[(1 * 6 + 3) * 6 + 1] = b[(1 * 6 + 3) * 6 + 0];
  if (defect == 4)
    for (std::size_t k = 36; k < 72; ++k) b[k] = -b[k] + 0.0f;
  if (defect == 5) b[(0 * 6 + 4) * 6 + 1] = 0.5f;
  const laws::alibi_bias_table<float> bv{b, 2, 6, 6, 0, 0, defect == 5};
  return {laws::alibi_geometric_slopes(slopes, cfg), laws::alibi_power_of_two_slopes(slopes, cfg),
          laws::alibi_relative_bias(bv), laws::alibi_monotone_bias(bv)};
}

static_assert(exactly(alibi_family(0), {}));
static_assert(exactly(alibi_family(1), {{&laws::kind::alibi_geometric_slopes, -1, 5, -1},
                                        {&laws::kind::alibi_power_of_two_slopes, -1, 5, -1}}));
static_assert(exactly(alibi_family(2), {{&laws::kind::alibi_power_of_two_slopes, -1, 3, -1}}));
static_assert(exactly(alibi_family(3), {{&laws::kind::alibi_relative_bias, 3, 1, 1, 0}}));
static_assert(exactly(alibi_family(4), {{&laws::kind::alibi_monotone_bias, 0, 1, 1, 0}}));
static_assert(exactly(alibi_family(5), {{&laws::kind::alibi_relative_bias, 4, 0, 1, 0},
                                        {&laws::kind::alibi_monotone_bias, 4, 0, 1, 2}}));

TEST_CASE("ALiBi laws: seeded defects fail exactly where expected, at compile time and run time", "[laws][schemes]") {
  for (int d = 0; d <= 5; ++d) {
    CAPTURE(d);
    const auto rt = alibi_family(opaque(d));
    INFO(describe(rt));
    CHECK(same(rt, alibi_family(d)));
  }
}

template <class T, std::size_t Heads>
void alibi_laws_hold(const posenc::alibi::config& c) {
  const posenc::alibi::checked_config cc{c};
  std::vector<T> m(Heads);
  REQUIRE(posenc::alibi::fill_slopes<T>(cc, std::span<T>(m)) == posenc::status::ok);
  const auto g = laws::alibi_geometric_slopes(std::span<const T>(m), c);
  const auto p = laws::alibi_power_of_two_slopes(std::span<const T>(m), c);
  const auto b = posenc::alibi::make_symmetric_bias_table<T, Heads, 20, 24>(cc, 3, 0);
  REQUIRE(b.ok());
  const laws::alibi_bias_table<T> sym{b.value, Heads, 20, 24, 3, 0};
  const laws::alibi_bias_table<T> causal{b.value, Heads, 20, 24, 3, 0, true};
  INFO(laws::to_string(g) << "\n" << laws::to_string(p));
  CHECK(g.holds);
  CHECK(p.holds);
  CHECK(laws::alibi_relative_bias(sym).holds);
  CHECK(laws::alibi_monotone_bias(sym).holds);
  CHECK(laws::alibi_relative_bias(causal).holds);
  CHECK(laws::alibi_monotone_bias(causal).holds);
}

TEST_CASE("ALiBi laws hold of posenc's slopes and biases in every dtype", "[laws][schemes]") {
  alibi_laws_hold<double, 16>({.heads = 16});
  alibi_laws_hold<float, 12>({.heads = 12});
  alibi_laws_hold<bfloat16, 16>({.heads = 16});
  alibi_laws_hold<float16, 12>({.heads = 12});
  alibi_laws_hold<float, 5>({.heads = 5, .max_bias = 1.0});
  alibi_laws_hold<double, 24>({.heads = 24, .max_bias = 16.0});
}

// ---- buckets ----

constexpr posenc::t5::config t5_bi{};
constexpr posenc::t5::config t5_causal{.bidirectional = false};
constexpr posenc::deberta::config deberta_small{.position_buckets = 16, .max_relative_positions = 40};

template <class I, std::size_t N>
constexpr std::array<laws::law_result, 4> bucket_laws(const std::array<I, N>& b, std::int64_t first,
                                                      const laws::bucket_spec& s) {
  const laws::bucket_table<I> t{b, first};
  return {laws::bucket_monotone(t, s), laws::bucket_bounded(t, s), laws::bucket_saturation(t, s),
          laws::bucket_sign_partition(t, s)};
}

// 0..3: T5 bidirectional (none; r = -50 in bucket 3; buckets of max_distance 256 described as 128;
// mirrored: the later keys in the lower half); 4..5: T5 causal (none; r = -150 in bucket 30);
// 6..7: DeBERTa 16/40 (none; r = 5 in bucket -5); 8..9: Shaw k = 4 (none; r = 2 at index 9);
// 10: T5 bidirectional with r = 200 in bucket 32, one row past relative_attention_bias's 32 (the
// highest bucket is num_buckets - 1 = 31, which defect 0's table reaches: both sides of the bound).
constexpr std::array<laws::law_result, 4> bucket_family(int defect) {
  if (defect == 10) {
    auto b = posenc::t5::make_buckets<200>(t5_bi).value;
    b[400] = 32;
    return bucket_laws(b, -200, laws::t5_bucket_spec(t5_bi));
  }
  if (defect <= 3) {
    auto b =
        posenc::t5::make_buckets<200>(defect == 2 ? posenc::t5::config{.relative_attention_max_distance = 256} : t5_bi)
            .value;
    if (defect == 1) b[200 - 50] = 3;
    if (defect == 3)
      for (std::size_t i = 0; i < 200; ++i) {
        const int x = b[i];
        b[i] = b[400 - i];
        b[400 - i] = x;
      }
    return bucket_laws(b, -200, laws::t5_bucket_spec(t5_bi));
  }
  if (defect <= 5) {
    auto b = posenc::t5::make_buckets<200>(t5_causal).value;
    if (defect == 5) b[200 - 150] = 30;
    return bucket_laws(b, -200, laws::t5_bucket_spec(t5_causal));
  }
  if (defect <= 7) {
    auto b = posenc::deberta::make_buckets<39>(deberta_small).value;
    if (defect == 7) b[39 + 5] = -5;
    return bucket_laws(b, -39, laws::deberta_bucket_spec(deberta_small));
  }
  std::array<int, 17> b{};
  for (int r = -8; r <= 8; ++r)
    b[static_cast<std::size_t>(r + 8)] = posenc::shaw::relative_index({.max_relative_position = 4}, 0, r).value;
  if (defect == 9) b[8 + 2] = 9;
  return bucket_laws(b, -8, laws::shaw_bucket_spec(4));
}

static_assert(exactly(bucket_family(0), {}));
static_assert(exactly(bucket_family(1), {{&laws::kind::bucket_monotone, -50, -1, -1, -49}}));
// Buckets of max_distance 256 read as 128's: bucket 8 + floor(8 log(n/8) / log 32) stays below 15
// while n / 8 < 32^(7/8) = 20.75..., i.e. n <= 165: the first unsaturated r from -200 up is -165.
static_assert(exactly(bucket_family(2), {{&laws::kind::bucket_saturation, -165, -1, -1}}));
static_assert(exactly(bucket_family(3), {{&laws::kind::bucket_saturation, -200, -1, -1},
                                         {&laws::kind::bucket_sign_partition, -200, -1, -1}}));
static_assert(exactly(bucket_family(5), {{&laws::kind::bucket_monotone, -150, -1, -1, -149},
                                         {&laws::kind::bucket_saturation, -150, -1, -1}}));
static_assert(exactly(bucket_family(7),
                      {{&laws::kind::bucket_monotone, 5, -1, -1, 4}, {&laws::kind::bucket_sign_partition, 5, -1, -1}}));
static_assert(exactly(bucket_family(9),
                      {{&laws::kind::bucket_monotone, 3, -1, -1, 2}, {&laws::kind::bucket_bounded, 2, -1, -1}}));
static_assert(exactly(bucket_family(10),
                      {{&laws::kind::bucket_bounded, 200, -1, -1}, {&laws::kind::bucket_saturation, 200, -1, -1}}));
static_assert(bucket_family(0)[1].holds && bucket_family(0)[1].checked > 0);  // bucket 31 is in bounds

TEST_CASE("bucket laws: seeded defects fail exactly where expected, at compile time and run time", "[laws][schemes]") {
  // T5 causal, DeBERTa and Shaw without defects: every law holds; causal T5 has no sign partition.
  const auto causal = bucket_family(opaque(4));
  CHECK((causal[0].holds && causal[1].holds && causal[2].holds && causal[3].holds && causal[3].checked == 0));
  const auto deb = bucket_family(opaque(6));
  CHECK((deb[0].holds && deb[1].holds && deb[2].holds && deb[2].checked == 2 && deb[3].holds));
  const auto shaw = bucket_family(opaque(8));
  CHECK((shaw[0].holds && shaw[1].holds && shaw[2].holds && shaw[3].holds));
  for (int d = 0; d <= 10; ++d) {
    CAPTURE(d);
    const auto rt = bucket_family(opaque(d));
    INFO(describe(rt));
    CHECK(same(rt, bucket_family(d)));
  }
}

// ---- XPOS ----

constexpr rope::config xrope{.head_dim = 16, .rope_theta = 10000.0};
constexpr posenc::xpos::config x16{.head_dim = 16};

// The tables are built once, each its own constant evaluation (Clang's default step limit is per
// evaluation), and copied into each case.
constexpr auto xpos_rot = rope::make_table<float, 16, 16, rope::layout::interleaved>(xrope).value;
template <class S>
constexpr auto xpos_sc = posenc::xpos::make_scale_table<S, 16, 8>(x16, -4).value;
template <class S>
constexpr auto xpos_inv = posenc::xpos::make_scale_table<S, 16, 8>(x16, -4, true).value;

// 0: none; 1: q's scale of pair 2 at row 10 1% high; 2: the rotation's row 9 holds position 10.
template <class S>
constexpr std::array<laws::law_result, 1> xpos_family(int defect) {
  auto rot = xpos_rot;
  auto sc = xpos_sc<S>;
  const auto& inv = xpos_inv<S>;
  if (defect == 1) sc[10 * 8 + 2] = static_cast<S>(static_cast<float>(sc[10 * 8 + 2]) * 1.01f);
  if (defect == 2)
    for (std::size_t k = 0; k < 16; ++k)
      rot.cos[9 * 16 + k] = rot.cos[10 * 16 + k], rot.sin[9 * 16 + k] = rot.sin[10 * 16 + k];
  // The rotation's rows are positions 0 .. 15; the scales', -4 .. 11: XPOS centres its positions,
  // and the law reads the scale of row r with the rotation of row r, whatever their positions.
  return {laws::xpos_relative_scale(laws::view(rot), std::span<const S>(sc), std::span<const S>(inv))};
}

static_assert(exactly(xpos_family<float>(0), {}));
static_assert(exactly(xpos_family<double>(0), {}));
static_assert(exactly(xpos_family<float>(1), {{&laws::kind::xpos_relative_scale, 10, 2, -1, 9}}));
static_assert(exactly(xpos_family<float>(2), {{&laws::kind::xpos_relative_scale, 9, 0, -1, 8}}));

TEST_CASE("XPOS law: seeded defects fail exactly where expected, at compile time and run time", "[laws][schemes]") {
  for (int d = 0; d <= 2; ++d) {
    CAPTURE(d);
    CHECK(same(xpos_family<float>(opaque(d)), xpos_family<float>(d)));
  }
  // bfloat16 scales hold their own bound at 128 dimensions and 512 positions.
  constexpr std::size_t P = 512;
  const posenc::xpos::checked_config xc{posenc::xpos::config{.head_dim = 128}};
  std::vector<bfloat16> sc(P * 64), inv(P * 64);
  REQUIRE(posenc::xpos::fill_scales<bfloat16>(xc, -256, std::span<bfloat16>(sc)) == posenc::status::ok);
  REQUIRE(posenc::xpos::fill_scales<bfloat16>(xc, -256, std::span<bfloat16>(inv), true) == posenc::status::ok);
  std::vector<float> c(P * 128), s(P * 128);
  const rope::config rc{.head_dim = 128, .rope_theta = 10000.0};
  REQUIRE(rope::fill_table<float>(rc, std::span<float>(c), std::span<float>(s), rope::layout::interleaved) ==
          posenc::status::ok);
  const laws::span_table<float> v{c, s, 128, rope::layout::interleaved, 0};
  const auto r = laws::xpos_relative_scale(v, std::span<const bfloat16>(sc), std::span<const bfloat16>(inv),
                                           {.differences = {1, 17, 255, 0}});
  INFO(laws::to_string(r));
  CHECK(r.holds);
  CHECK(r.checked == (511 + 495 + 257) * 64);
}

// ---- the registry: every law that applies to each scheme config runs on its table, every dtype ----

namespace reg = posenc::verify::registry;
namespace hana = boost::hana;

static_assert(decltype(hana::length(reg::every_scheme))::value == 14, "fourteen scheme descriptors");
static_assert(reg::law_count<reg::alibi_scheme> == 4 && reg::law_count<reg::t5_scheme> == 4 &&
                  reg::law_count<reg::sinusoidal_scheme> == 2 && reg::law_count<reg::xpos_scheme> == 1 &&
                  reg::law_count<reg::attn_temperature_scheme> == 3 && reg::law_count<reg::mrope_scheme> == 3 &&
                  reg::law_count<reg::rope_nd_scheme> == 2,
              "each descriptor lists its laws");
static_assert(!reg::law::bucket_sign_partition::applies_to(reg::t5_scheme::examples[1].config), "T5 causal");
static_assert(reg::law::bucket_sign_partition::applies_to(reg::deberta_scheme::examples[0].config));
static_assert(reg::law_count<reg::kerple_log_scheme> == 0 && reg::law_count<reg::sandwich_scheme> == 0 &&
                  reg::law_count<reg::logn_scheme> == 0,
              "no law reads KERPLE's, Sandwich's or log-n's tables");

// law -> example configs it ran on (the report's matrix); every example of every descriptor.
template <class T>
void run_registry(const char* dtype, std::map<std::string, std::vector<std::string>>& ran_on, std::size_t& examples) {
  hana::for_each(reg::every_scheme, [&](auto d) {
    using D = typename decltype(d)::type;
    for (const auto& e : D::examples) {
      ++examples;
      const auto tables = D::template make_tables<T>(e);
      REQUIRE(tables.status == posenc::status::ok);
      const auto outcomes = reg::run_scheme_laws<D>(tables);
      REQUIRE(outcomes.size() == reg::law_count<D>);
      std::string line = std::string(e.name) + " (" + dtype + "):";
      bool any = false;
      for (const auto& o : outcomes) {
        if (!o.ran) continue;
        any = true;
        line += std::string(" ") + o.law + ",";
        INFO(e.name << " " << dtype << ": " << laws::to_string(o.result));
        CHECK(o.result.holds);
        // Every law checks something on every config it applies to.
        CHECK(o.result.checked > 0);
        auto& names = ran_on[o.law];
        if (std::find(names.begin(), names.end(), e.name) == names.end()) names.emplace_back(e.name);
      }
      // A scheme with no law is listed as such; every other ran some law.
      CHECK(any == (reg::law_count<D> > 0));
      if (!any) line += " no law applies";
      std::printf("%s\n", line.c_str());
    }
  });
}

TEST_CASE("the scheme law runner: every applicable law on every registered scheme config, every dtype",
          "[laws][schemes][registry]") {
  std::map<std::string, std::vector<std::string>> ran_on;
  std::size_t examples = 0;
  run_registry<double>("double", ran_on, examples);
  run_registry<float>("float", ran_on, examples);
  run_registry<bfloat16>("bfloat16", ran_on, examples);
  run_registry<float16>("float16", ran_on, examples);
  CHECK(examples == 4 * 28);  // twenty-eight configs (rope-nd: FLUX.1, FLUX.2, a 2D ViT, DINOv3), four dtypes
  // The seventeen laws, each run on some config.
  CHECK(ran_on.size() == 17);
  for (const auto& [law, names] : ran_on) {
    std::string line = law + " ran on:";
    for (const auto& s : names) line += " [" + s + "]";
    std::printf("%s\n", line.c_str());
    CHECK(!names.empty());
  }
}

// The runner reports a defect: a registered config's table with one wrong bucket.
TEST_CASE("the scheme law runner reports a corrupted table", "[laws][schemes][registry]") {
  auto t = reg::t5_scheme::make_tables<float>(reg::t5_scheme::examples[0]);
  t.buckets[400 + 20] = 40;  // r = 20 past the last bucket (31)
  const auto outcomes = reg::run_scheme_laws<reg::t5_scheme>(t);
  for (const auto& o : outcomes) {
    if (!o.ran) continue;
    INFO(laws::to_string(o.result));
    const bool expect_fail =
        o.result.kind == &laws::kind::bucket_bounded || o.result.kind == &laws::kind::bucket_monotone;
    CHECK(o.result.holds == !expect_fail);
    if (o.result.kind == &laws::kind::bucket_bounded) CHECK(o.result.first_failure.position == 20);
    if (o.result.kind == &laws::kind::bucket_monotone) CHECK(o.result.first_failure.position == 21);
  }
}

}  // namespace
