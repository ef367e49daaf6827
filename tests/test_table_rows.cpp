// The cos/sin table engine's run-time kernels (include/posenc/math/detail/sincos_table_rows.hpp for
// float, bfloat16 and float16; sincos_table_rows_double.hpp for double):
//  * every table it writes is the scalar function entry by entry (which the oracle tests check
//    against MPFR), on both of its instruction sets, over the shapes that move its boundaries:
//    rows around the block size, columns around the slice width and the vector width, positions
//    where the block anchors leave cis_anchor's range, negative sinusoidal positions, RoPE scalings,
//    and (double kernel) rows off the progression, each turned by its own offset (against MPFR);
//  * its entry bound holds: the recurrence E_{b+1} = fl(E_b E_1) and the entry fl(A E_b), computed
//    as the kernel computes them, against MPFR's cis of the exact angle, and the bound is not
//    vacuous (the worst measured error is a visible fraction of it);
//  * its rounding test decides at its bound: a value on a float midpoint goes to the scalar path,
//    a value just past the bound does not (the test shown able to fail).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <span>
#include <utility>
#include <vector>

#include <posenc/math/detail/sincos_table_rows.hpp>
#include <posenc/math/detail/sincos_table_rows_double.hpp>
#include <posenc/math/sincos_geometric.hpp>
#include <posenc/math/sincos_table.hpp>
#include <posenc/rope/angle.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/real_position.hpp>
#include <posenc/sinusoidal.hpp>
#include <posenc/verify/oracle.hpp>
#include <posenc/verify/rope_oracle.hpp>

namespace {

namespace st = posenc::detail::sincos_table;
using posenc::math::sincos_result;

bool same(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }
bool same(posenc::bfloat16 a, posenc::bfloat16 b) { return a.bits == b.bits; }
bool same(posenc::float16 a, posenc::float16 b) { return a.bits == b.bits; }
bool same(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

// Which entry points of the kernel this machine runs: the baseline always, AVX where present.
enum class isa { baseline, avx };

std::vector<isa> isas() {
  std::vector<isa> v{isa::baseline};
#ifdef POSENC_DETAIL_ROWS_AVX
  if (st::cpu_has_avx()) v.push_back(isa::avx);
#endif
  return v;
}

template <class T, class Source, class Sink>
posenc::status run(isa k, const Source& src, std::uint64_t start, std::size_t rows, std::size_t columns, Sink& sink) {
  if constexpr (std::is_same_v<T, double>) {
#ifdef POSENC_DETAIL_ROWS_AVX
    if (k == isa::avx) return st::fill_rows_runtime_double_avx(src, start, rows, columns, nullptr, sink);
#endif
    (void)k;
    return st::fill_rows_runtime_double_baseline(src, start, rows, columns, nullptr, sink);
  } else {
#ifdef POSENC_DETAIL_ROWS_AVX
    if (k == isa::avx) return st::fill_rows_runtime_avx<T>(src, start, rows, columns, nullptr, sink);
#endif
    (void)k;
    return st::fill_rows_runtime_baseline<T>(src, start, rows, columns, nullptr, sink);
  }
}

struct shape {
  std::size_t rows, columns;
  std::uint64_t start;
};

}  // namespace

template <class T>
void check_geometric_shapes() {
  // Rows around the block sizes (B = 16 .. 256), columns around the vector (4), slice (32) and
  // chunk (128) widths, positions from 0 to 2^40, and two shapes whose block anchors leave
  // cis_anchor's range (angle past 0x1.8p30) mid-table, so that those columns turn to the scalar path.
  const shape shapes[] = {{1, 1, 0},
                          {2, 3, 0},
                          {7, 5, 1},
                          {255, 4, 0},
                          {256, 31, 0},
                          {257, 33, 99},
                          {1000, 64, 0},
                          {1025, 130, 5},
                          {4097, 7, 12345},
                          {300, 36, 1u << 20},
                          {64, 40, 1ull << 40},
                          {40, 9, 1610612736ull - 20},  // column 0 (theta = 1): anchors fail after row 20
                          {300, 2, 1610612736ull - 200}};
  for (const isa k : isas()) {
    for (const shape& s : shapes) {
      const posenc::math::geometric_frequencies g{10000.0, 2, static_cast<std::int64_t>(2 * s.columns)};
      std::vector<sincos_result<T>> out(s.rows * s.columns);
      st::row_major_sink<T> sink{out.data(), s.columns};
      REQUIRE(run<T>(k, g, s.start, s.rows, s.columns, sink) == posenc::status::ok);
      std::size_t bad = 0;
      for (std::size_t i = 0; i < s.rows; ++i)
        for (std::size_t j = 0; j < s.columns; ++j) {
          const auto e = g.entry<T>({}, nullptr, s.start + i, static_cast<int>(j));
          const auto& r = out[i * s.columns + j];
          if (!same(r.sin, e.value.sin) || !same(r.cos, e.value.cos)) {
            if (bad++ == 0)
              UNSCOPED_INFO("isa " << static_cast<int>(k) << " bytes " << sizeof(T) << " rows " << s.rows << " columns "
                                   << s.columns << " start " << s.start << ": first difference at row " << i
                                   << " column " << j);
          }
        }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("run-time kernel: geometric tables equal the scalar function on every shape", "[table_rows]") {
  check_geometric_shapes<float>();
  check_geometric_shapes<posenc::bfloat16>();
  check_geometric_shapes<posenc::float16>();
  check_geometric_shapes<double>();  // the double-double kernel: slices of 8, blocks up to 256
}

TEST_CASE("run-time float kernel: sinusoidal tables equal element() in both layouts, any start", "[table_rows]") {
  namespace sn = posenc::sinusoidal;
  for (const auto ex : {sn::exponent::paper, sn::exponent::fairseq})
    for (const auto lay : {sn::layout::interleaved, sn::layout::concat})
      for (const int dim : {8, 67, 130})
        for (const std::int64_t first : {std::int64_t{0}, std::int64_t{-300}, std::int64_t{-5}, std::int64_t{70000}}) {
          const sn::checked_config cc{sn::config{.dim = dim, .exponent = ex, .layout = lay}};
          REQUIRE(cc.ok());
          const std::size_t rows = 333, d = static_cast<std::size_t>(dim);
          std::vector<float> t(rows * d);
          REQUIRE(sn::fill_table<float>(cc, first, std::span<float>(t)) == posenc::status::ok);
          std::size_t bad = 0;
          for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t k = 0; k < d; ++k) {
              const std::int64_t p = first + static_cast<std::int64_t>(r);
              if (!same(t[r * d + k], sn::element<float>(cc, p, static_cast<int>(k)).value) && bad++ == 0)
                UNSCOPED_INFO("dim " << dim << " first " << first << ": position " << p << " element " << k);
            }
          CHECK(bad == 0);
        }
}

template <class T>
void check_rope_tables() {
  namespace rp = posenc::rope;
  // Unfolded and folded (the attention factor in every entry: YaRN's computed one, an explicit
  // one, LongRoPE's): each entry against the scalar rope::sincos / rope::attention_sincos.
  static const double long_f[40] = {1.0,  1.25, 1.5,  2.0,  2.5,  3.0,  4.0,  5.0,  6.0,  7.0,  8.0,  9.0,  10.0, 11.0,
                                    12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0,
                                    26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 1.02};
  const rp::config cfgs[] = {
      {.head_dim = 128,
       .rope_theta = 500000.0,
       .rope_type = rp::scaling::llama3,
       .factor = 8.0,
       .original_max_position_embeddings = 8192},
      {.head_dim = 64,
       .rope_theta = 10000.0,
       .rope_type = rp::scaling::yarn,
       .factor = 40.0,
       .original_max_position_embeddings = 4096},
      {.head_dim = 64,
       .rope_theta = 150000.0,
       .rope_type = rp::scaling::yarn,
       .factor = 32.0,
       .original_max_position_embeddings = 4096,
       .attention_factor = 1.3},
      {.head_dim = 80,
       .rope_theta = 10000.0,
       .rope_type = rp::scaling::longrope,
       .original_max_position_embeddings = 4096,
       .max_position_embeddings = 131072,
       .seq_len = 8192,
       .short_factor = std::span<const double>(long_f),
       .long_factor = std::span<const double>(long_f)},
      {.head_dim = 80, .rope_theta = 10000.0, .partial_rotary_factor = 0.5},
      // 10 pairs: a last slice narrower than the double kernel's 8 columns and its vectors of 4.
      {.head_dim = 20, .rope_theta = 10000.0, .rope_type = rp::scaling::linear, .factor = 2.0},
      // Proportional (Gemma-3n style): 32 of 128 pairs rotate, the others hold cis(0) (or af cis(0)).
      {.head_dim = 256, .rope_theta = 1000000.0, .partial_rotary_factor = 0.25, .proportional = true},
  };
  for (const rp::config& c : cfgs)
    for (const bool fold : {false, true}) {
      const rp::checked_config cc{c};
      REQUIRE(cc.ok());
      const std::size_t half = static_cast<std::size_t>(rp::rotary_dim(c)) / 2, rows = 700;
      for (const std::uint64_t start : {std::uint64_t{0}, std::uint64_t{123456}}) {
        std::vector<sincos_result<T>> out(rows * half);
        REQUIRE(rp::fill_pair_table<T>(c, std::span<sincos_result<T>>(out), {.start = start, .fold_attention = fold}) ==
                posenc::status::ok);
        std::size_t bad = 0;
        for (std::size_t i = 0; i < rows; ++i)
          for (std::size_t j = 0; j < half; ++j) {
            const auto e = fold ? rp::attention_sincos<T>(cc, start + i, static_cast<int>(j)).value
                                : rp::sincos<T>(cc, start + i, static_cast<int>(j)).value;
            if ((!same(out[i * half + j].sin, e.sin) || !same(out[i * half + j].cos, e.cos)) && bad++ == 0)
              UNSCOPED_INFO("bytes " << sizeof(T) << " head_dim " << c.head_dim << " fold " << fold << " start "
                                     << start << ": row " << i << " pair " << j);
          }
        CHECK(bad == 0);
        // The expanded tables (the half-split one's rows are written in place, first copies then
        // the second half): both elements of every pair, in both layouts, are the pair table's.
        for (const rp::layout lay : {rp::layout::half_split, rp::layout::interleaved}) {
          const std::size_t d = 2 * half;
          std::vector<T> cos(rows * d), sin(rows * d);
          REQUIRE(rp::fill_table<T>(c, std::span<T>(cos), std::span<T>(sin), lay,
                                    {.start = start, .fold_attention = fold}) == posenc::status::ok);
          std::size_t wrong = 0;
          for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < half; ++j)
              for (const int t : {0, 1}) {
                const std::size_t k = i * d + rp::pair_index(lay, j, t, d);
                if ((!same(cos[k], out[i * half + j].cos) || !same(sin[k], out[i * half + j].sin)) && wrong++ == 0)
                  UNSCOPED_INFO("expanded, bytes " << sizeof(T) << " head_dim " << c.head_dim << " fold " << fold
                                                   << " layout " << static_cast<int>(lay) << ": row " << i << " pair "
                                                   << j << " copy " << t);
              }
          CHECK(wrong == 0);
        }
      }
    }
}

TEST_CASE("run-time kernel: RoPE tables of several scalings, folded or not, equal the scalar functions",
          "[table_rows]") {
  check_rope_tables<float>();
  check_rope_tables<posenc::bfloat16>();
  check_rope_tables<posenc::float16>();
  check_rope_tables<double>();  // the double-double kernel; proportional's constant pairs
}

namespace {

// The component error of (vc, vs) against MPFR's cis of the exact angle m theta, at 200 bits.
double cis_error(std::uint64_t m, posenc::math::double_double th, double vc, double vs) {
  mpfr_t x, c, s;
  mpfr_inits2(200, c, s, static_cast<mpfr_ptr>(nullptr));
  mpfr_init2(x, 64);
  posenc::verify::detail::exact_product(x, m, th);
  mpfr_cos(c, x, MPFR_RNDN);
  mpfr_sin(s, x, MPFR_RNDN);
  mpfr_sub_d(c, c, vc, MPFR_RNDN);
  mpfr_sub_d(s, s, vs, MPFR_RNDN);
  const double err = std::fmax(std::fabs(mpfr_get_d(c, MPFR_RNDU)), std::fabs(mpfr_get_d(s, MPFR_RNDU)));
  mpfr_clears(x, c, s, static_cast<mpfr_ptr>(nullptr));
  return err;
}

// For several frequencies and block starts p0, the row paths' own arithmetic against MPFR:
// |error| + 2^-53 <= bound[b] (the 2^-53 is the bound's margin for the test's sums, not an error)
// for every b < n. next(b, c1, s1, ac, as, vc, vs) advances the path's value to row b. Returns the
// worst error / bound over b >= 16, to show the bound is not vacuous.
template <class Next>
double check_bound(const double* bound, std::size_t n, std::uint64_t p_lo, const char* what, Next next) {
  double worst = 0;
  for (const int j : {0, 1, 17, 40, 63})
    for (const std::uint64_t p0 : {p_lo, std::uint64_t{256}, std::uint64_t{1} << 30}) {
      const posenc::math::double_double th = posenc::math::geometric_frequency(10000.0, 2 * j, 128);
      double c1 = 0, s1 = 0, ac = 0, as = 0;
      REQUIRE(st::cis_anchor(1, th, c1, s1));
      REQUIRE(st::cis_anchor(p0, th, ac, as));
      double vc = ac, vs = as;
      for (std::size_t b = 0; b < n; ++b) {
        next(b, c1, s1, ac, as, vc, vs);
        if (p0 + b == 0) continue;  // the paths write cis(0) exactly
        const double err = cis_error(p0 + b, th, vc, vs), lim = bound[b] - 0x1p-53;
        if (err > lim) UNSCOPED_INFO(what << ": pair " << j << " p0 " << p0 << " b " << b << ": error " << err);
        CHECK(err <= lim);
        if (b >= 16) worst = std::fmax(worst, err / lim);
      }
    }
  std::printf("[table_rows] %s: worst measured error / bound (b >= 16): %.4f\n", what, worst);
  return worst;
}

}  // namespace

TEST_CASE("the row paths: entry bounds hold against MPFR and are not vacuous", "[table_rows]") {
  // The run-time kernel: E_1 and A from cis_anchor, E_b by the recurrence, the entry fl(A E_b).
  double e[st::slice_block_max];
  st::entry_bounds(e, st::slice_block_max);
  double ec = 1, es = 0;
  const double worst_entry =
      check_bound(e, st::slice_block_max, 0, "entry",
                  [&](std::size_t b, double c1, double s1, double ac, double as, double& vc, double& vs) {
                    if (b == 0) ec = 1, es = 0;
                    if (b == 1) ec = c1, es = s1;
                    if (b >= 2) {
                      const double nc = ec * c1 - es * s1, ns = es * c1 + ec * s1;
                      ec = nc, es = ns;
                    }
                    vc = ac * ec - as * es, vs = as * ec + ac * es;
                  });
  // Constant evaluation's walk: V_0 = A, V_{b+1} = fl(V_b E_1) (walk_bounds).
  double w[st::constexpr_block_max];
  st::walk_bounds(w, st::constexpr_block_max);
  const double worst_walk =
      check_bound(w, st::constexpr_block_max, 1, "walk",
                  [](std::size_t b, double c1, double s1, double, double, double& vc, double& vs) {
                    if (b == 0) return;
                    const double nc = vc * c1 - vs * s1, ns = vs * c1 + vc * s1;
                    vc = nc, vs = ns;
                  });
  CHECK(worst_entry > 1e-3);  // a bound a thousand times too loose would be a bug of its own
  CHECK(worst_walk > 1e-3);
}

namespace {

// A source whose scalar entry is a sentinel, and which counts its calls.
struct sentinel_source {
  mutable int calls = 0;
  posenc::math::frequency_value frequency(int) const { return {{1.0, 0.0}, 0.0, posenc::status::ok}; }
  template <class T>
  posenc::result<sincos_result<T>> entry(const posenc::math::frequency_value&, const posenc::math::amplitude*,
                                         std::uint64_t, int) const {
    ++calls;
    const T v = posenc::detail::round_dd<T>(-7.0, 0.0);
    return {{v, v}, posenc::status::ok};
  }
};

}  // namespace

template <class T>
void check_decision(double midpoint) {
  using namespace st::rows_vec;
  // Lane 0 carries the value under test as its cos (A = x + 0.5i, E_b = 1): on a T midpoint it must
  // go to the scalar path, within the bound of it too; just past the bound it must not.
  const double e = 0x1p-45;
  // Last, 2^-16: a float16 subnormal, which the vector test leaves to the lane-by-lane test
  // (round_two_ended, which decides it: no call of the source, the correctly rounded value).
  const double cases[] = {midpoint, midpoint + 0.5 * e, midpoint - 0.5 * e, midpoint + 2 * e, 0.75, 0x1p-16};
  const bool redo[] = {true, true, true, false, false, false};
  for (std::size_t t = 0; t < 6; ++t) {
    const sentinel_source src;
    const posenc::math::frequency_value f[st::slice_columns] = {};
    d4 ac[vectors], as[vectors], ec[vectors], es[vectors];
    for (std::size_t k = 0; k < vectors; ++k)
      ac[k] = d4{0.5, 0.5, 0.5, 0.5}, as[k] = ac[k], ec[k] = d4{1, 1, 1, 1}, es[k] = d4{0, 0, 0, 0};
    ac[0][0] = cases[t];
    const bool slow[st::slice_columns] = {};
    T sn[st::slice_columns] = {}, cs[st::slice_columns] = {};
    posenc::status status = posenc::status::ok;
    st::row_values<T, false>(src, f, ac, as, ec, es, e, nullptr, slow, false, 5, 0, 9, sn, cs, status);
    INFO("bytes " << sizeof(T) << " case " << t);
    CHECK(src.calls == (redo[t] ? 1 : 0));
    CHECK(same(cs[0], redo[t] ? posenc::detail::round_dd<T>(-7.0, 0.0) : posenc::detail::round_dd<T>(cases[t], 0.0)));
    CHECK(same(cs[1], posenc::detail::round_dd<T>(0.5, 0.0)));
  }
}

TEST_CASE("run-time kernel: the rounding test decides at its bound", "[table_rows]") {
  check_decision<float>(1 + 0x1p-24);
  check_decision<posenc::bfloat16>(1 + 0x1p-8);
  check_decision<posenc::float16>(1 + 0x1p-11);
}

namespace {

// A source whose scalar path is marked: the lanes the vector test leaves undecided come back NaN.
struct marked_scalar_source {
  template <class T>
  posenc::result<sincos_result<T>> entry(const posenc::math::frequency_value&, const posenc::math::amplitude*,
                                         std::uint64_t, int) const {
    const T nan = static_cast<T>(std::nan(""));
    return {sincos_result<T>{nan, nan}, posenc::status::ok};
  }
};

}  // namespace

// Regression (issue 24, proofs/gappa/README.md): the folded float test compared the interval's two
// ends as floats, and -0.0f == +0.0f. One entry at position 1 whose cos is that of RN(pi/2),
// 6.1e-17 > 0, folded with af = 2^-120: the exact af cos, about 2^-173.8, is positive and its RN in
// float is +0, but the interval [v - ef, v + ef] (ef about 2^-170) straddles 0 with both ends below
// 2^-150, so the lane counted as decided and stored RN(v - ef) = -0.0f. A zero's sign is not
// decided by such an interval: the lane must go to the scalar path (here marked NaN), or give +0.
TEST_CASE("run-time float kernel: a folded entry rounding to zero keeps the exact value's sign", "[table_rows]") {
  using namespace st::rows_vec;
  d4 ac[vectors], as[vectors], ec[vectors], es[vectors];
  for (std::size_t k = 0; k < vectors; ++k)
    ac[k] = d4{0.5, 0.5, 0.5, 0.5}, as[k] = ac[k], ec[k] = d4{1, 1, 1, 1}, es[k] = d4{0, 0, 0, 0};
  ac[0][0] = 6.123233995736766e-17;  // cos(RN(pi/2)) rounded to double, positive
  as[0][0] = 1.0;
  posenc::math::frequency_value f[st::slice_columns] = {};
  bool slow[st::slice_columns] = {};
  const posenc::math::amplitude af{{0x1p-120, 0.0}, 0.0, true};
  float sn[st::slice_columns], cs[st::slice_columns];
  posenc::status status = posenc::status::ok;
  const double e0 = 0x1p-50, afa = 0x1p-120;  // the row's bound and |af|, as fill_slice forms ef
  const double ef = ((e0 * afa) * (1 + 0x1p-50) + afa * 0x1.8p-52 * (1 + 0x1p-40)) * (1 + 0x1p-50);
  st::row_values<float, true>(marked_scalar_source{}, f, ac, as, ec, es, ef, &af, slow, false, 1, 0, 1, sn, cs, status);
  INFO("cos entry " << cs[0] << ", sign bit " << std::signbit(cs[0]));
  CHECK((std::isnan(cs[0]) || (cs[0] == 0.0f && !std::signbit(cs[0]))));
  CHECK((std::isnan(sn[0]) || sn[0] == 0x1p-120f));  // RN(2^-120 sin(RN(pi/2))), or the lane's scalar redo
}

namespace {

namespace dd = st::rows_dd;

// One lane of a cdd / cshort vector from a double-double complex value.
void set_cdd(dd::cdd& v, posenc::math::double_double c, posenc::math::double_double s) {
  for (std::size_t l = 0; l < dd::lanes; ++l) v.ch[l] = c.hi, v.cl[l] = c.lo, v.sh[l] = s.hi, v.sl[l] = s.lo;
  dd::split_hi(v.ch, v.chh);
  dd::split_hi(v.sh, v.shh);
}

// The component error of hi + lo (a double-double value) against MPFR's cos or sin of m theta.
double cis_error_dd(std::uint64_t m, posenc::math::double_double th, double ch, double cl, double sh, double sl) {
  mpfr_t x, c, s;
  mpfr_inits2(300, c, s, static_cast<mpfr_ptr>(nullptr));
  mpfr_init2(x, 64);
  posenc::verify::detail::exact_product(x, m, th);
  mpfr_cos(c, x, MPFR_RNDN);
  mpfr_sin(s, x, MPFR_RNDN);
  mpfr_sub_d(c, c, ch, MPFR_RNDN);
  mpfr_sub_d(c, c, cl, MPFR_RNDN);
  mpfr_sub_d(s, s, sh, MPFR_RNDN);
  mpfr_sub_d(s, s, sl, MPFR_RNDN);
  const double err = std::fmax(std::fabs(mpfr_get_d(c, MPFR_RNDU)), std::fabs(mpfr_get_d(s, MPFR_RNDU)));
  mpfr_clears(x, c, s, static_cast<mpfr_ptr>(nullptr));
  return err;
}

}  // namespace

TEST_CASE("the double kernel: entry bounds hold against MPFR and are not vacuous", "[table_rows]") {
  // As the kernel computes them: E_1 and A from cis_anchor_dd, E_b by the double-double
  // recurrence, the entry A E_b from both in their 26-bit short form (cmul_short), unnormalised.
  double worst = 0;
  for (const int j : {0, 1, 17, 40, 63})
    for (const std::uint64_t p0 : {std::uint64_t{0}, std::uint64_t{256}, std::uint64_t{1} << 20}) {
      const posenc::math::double_double th = posenc::math::geometric_frequency(10000.0, 2 * j, 128);
      posenc::math::double_double c1, s1, ac, as;
      double d1 = 0, da = 0;
      REQUIRE(st::cis_anchor_dd(1, th, c1, s1, d1));
      REQUIRE(st::cis_anchor_dd(p0, th, ac, as, da));
      REQUIRE(d1 <= st::anchor_error_dd::delta);
      REQUIRE(da <= st::anchor_error_dd::delta);
      double bound[dd::dd_block_max];
      st::entry_bounds_dd(bound, dd::dd_block_max, d1);
      dd::cdd e1, eb, a;
      set_cdd(e1, c1, s1);
      set_cdd(a, ac, as);
      set_cdd(eb, {1.0, 0.0}, {0.0, 0.0});
      dd::cshort as_short, eb_short;
      dd::to_short(a, as_short);
      for (std::size_t b = 0; b < dd::dd_block_max; ++b) {
        dd::to_short(eb, eb_short);
        dd::d4 c, cl, sv, sl;
        dd::cmul_short(as_short, eb_short, c, cl, sv, sl);
        if (p0 + b != 0) {
          const double err = cis_error_dd(p0 + b, th, c[0], cl[0], sv[0], sl[0]);
          if (err > bound[b]) UNSCOPED_INFO("pair " << j << " p0 " << p0 << " b " << b << ": error " << err);
          CHECK(err <= bound[b]);
          if (b >= 16) worst = std::fmax(worst, err / bound[b]);
        }
        dd::d4 nc, ncl, ns, nsl;
        dd::cmul(eb, e1, nc, ncl, ns, nsl);
        dd::normalise(nc, ncl, eb.ch, eb.cl, eb.chh);
        dd::normalise(ns, nsl, eb.sh, eb.sl, eb.shh);
      }
    }
  std::printf("[table_rows] double kernel entry: worst measured error / bound (b >= 16): %.4f\n", worst);
  CHECK(worst > 1e-3);  // a bound a thousand times too loose would be a bug of its own
}

TEST_CASE("the double kernel: the rounding test decides at its bound", "[table_rows]") {
  // Lane 0 carries the value under test as its cos (A = x + 0.5i, E_b = 1): on a double midpoint it
  // must go to the scalar path, within the bound of it too; past the bound it must not. The bound
  // the kernel tests with: (e_row + ferr)(1 + 2^-50) + 2^-76.
  const double e_row = 0x1p-70, e = e_row * (1 + 0x1p-50) + 0x1p-76;
  const posenc::math::double_double mid{1.0, 0x1p-53};  // between 1 and 1 + 2^-52
  const posenc::math::double_double cases[] = {
      mid, {1.0, 0x1p-53 + 0.5 * e}, {1.0, 0x1p-53 - 0.5 * e}, {1.0, 0x1p-53 + 2 * e}, {0.75, 0.0}, {1.0, 0x1p-54}};
  const bool redo[] = {true, true, true, false, false, false};
  for (std::size_t t = 0; t < 6; ++t) {
    const sentinel_source src;
    const posenc::math::frequency_value f[dd::width] = {};
    dd::cdd a_full[dd::vectors], e_full[dd::vectors];
    dd::cshort a[dd::vectors], eb[dd::vectors];
    for (std::size_t k = 0; k < dd::vectors; ++k) {
      set_cdd(a_full[k], {0.5, 0.0}, {0.5, 0.0});
      set_cdd(e_full[k], {1.0, 0.0}, {0.0, 0.0});
    }
    a_full[0].ch[0] = cases[t].hi;
    a_full[0].cl[0] = cases[t].lo;
    dd::split_hi(a_full[0].ch, a_full[0].chh);
    for (std::size_t k = 0; k < dd::vectors; ++k) dd::to_short(a_full[k], a[k]), dd::to_short(e_full[k], eb[k]);
    const dd::d4 ferr[dd::vectors] = {};
    const bool slow[dd::width] = {};
    double sn[dd::width] = {}, cs[dd::width] = {};
    posenc::status status = posenc::status::ok;
    st::row_values_dd<false>(src, f, a, eb, e_row, ferr, nullptr, nullptr, slow, false, 5, 0, 7, sn, cs, status);
    INFO("case " << t);
    CHECK(src.calls == (redo[t] ? 1 : 0));
    const double want = cases[t].hi + cases[t].lo;  // RN(hi + lo): the correctly rounded value
    CHECK(same(cs[0], redo[t] ? -7.0 : want));
    CHECK(same(cs[1], 0.5));
  }
}

namespace {

// Rows off the progression (sincos_source.hpp's row offsets): row p at p + o_p, o_p = m 2^-e
// (exact, so p + o_p is a double), RoPE frequencies 1e4^(-2j/d); entry() is the scalar function at
// that real position.
struct offset_rows_source {
  posenc::rope::config cfg;
  std::uint64_t start = 0;
  const double* offsets = nullptr;
  double bound = 0;
  posenc::math::frequency_value frequency(int j) const { return posenc::rope::frequency_dd(cfg, j); }
  template <class T>
  posenc::result<sincos_result<T>> entry(const posenc::math::frequency_value&, const posenc::math::amplitude*,
                                         std::uint64_t p, int j) const {
    return posenc::rope::sincos_at<T>(cfg, static_cast<double>(p) + offsets[p - start], j);
  }
  double row_offset(std::uint64_t p) const { return offsets[p - start]; }
  double row_offset_bound() const { return bound; }
};

}  // namespace

TEST_CASE("the double kernel: rows off the progression (row offsets) are the MPFR values", "[table_rows]") {
  // Offsets up to 2^-32 (every column turned, |o theta| <= 2^-32), up to 2^-22 and 2^-14 (columns
  // with theta above 2^-8, 2^-16 past the 2^-30 gate: the scalar entries, where a turn as
  // 1 - t^2/2 + i t would be off by t^3/6; the others turned), and none on some rows;
  // row 0 at a small negative position (the kernel's cis(0) shortcut must not apply); rows around the block size,
  // columns around the vector and slice widths. Every entry against MPFR at p + o_p.
  struct offset_case {
    std::size_t rows, columns;
    std::uint64_t start;
    int scale;  // o_p = m 2^-scale, |m| <= 1024
  };
  // (start + rows) 2^scale < 2^53: p + o_p exact.
  const offset_case cases[] = {
      {300, 13, 0, 42}, {300, 13, 0, 32}, {300, 13, 0, 24}, {70, 8, 1000, 42}, {40, 21, 1 << 19, 32}};
  for (const isa k : isas())
    for (const offset_case& c : cases) {
      std::vector<double> offsets(c.rows);
      for (std::size_t i = 0; i < c.rows; ++i)  // m in [-1024, 1024], 0 on every fifth row
        offsets[i] = i % 5 == 3
                         ? 0.0
                         : std::ldexp(static_cast<double>(static_cast<int>((i * 7919 + 11) % 2049) - 1024), -c.scale);
      const posenc::rope::config cfg{.head_dim = static_cast<int>(2 * c.columns), .rope_theta = 1e4};
      const offset_rows_source src{cfg, c.start, offsets.data(), std::ldexp(1024.0, -c.scale)};
      std::vector<sincos_result<double>> out(c.rows * c.columns);
      st::row_major_sink<double> sink{out.data(), c.columns};
      REQUIRE(run<double>(k, src, c.start, c.rows, c.columns, sink) == posenc::status::ok);
      std::size_t bad = 0;
      for (std::size_t i = 0; i < c.rows; ++i)
        for (std::size_t j = 0; j < c.columns; ++j) {
          const double x = static_cast<double>(c.start + i) + offsets[i];
          const auto e =
              posenc::verify::cr_rope_sincos_at<double>(x, 1e4, static_cast<int>(j), static_cast<int>(2 * c.columns));
          const auto& r = out[i * c.columns + j];
          if (!same(r.sin, e.sin) || !same(r.cos, e.cos))
            if (bad++ == 0)
              UNSCOPED_INFO("isa " << static_cast<int>(k) << " start " << c.start << " scale " << c.scale
                                   << ": first difference at row " << i << " column " << j);
        }
      CHECK(bad == 0);
    }
}

namespace {

namespace sn = posenc::sinusoidal;

// Constant evaluation's row path (sincos_table_rows_constexpr.hpp) against the run-time kernel:
// both layouts, a start past 0, a negative start (the per-entry stores of the negated rows), a
// table wider than one constant-evaluation pass (columns > constexpr_columns_max), and row 0.
constexpr sn::config ct_interleaved{.dim = 130};
constexpr sn::config ct_concat{.dim = 67, .exponent = sn::exponent::fairseq, .layout = sn::layout::concat};
constexpr sn::config ct_wide{.dim = 1030, .layout = sn::layout::concat};
constexpr auto ct_t1 = sn::make_table<float, 300, 130>(ct_interleaved, 1000);
constexpr auto ct_t2 = sn::make_table<float, 40, 67>(ct_concat, -17);
constexpr auto ct_t3 = sn::make_table<float, 3, 1030>(ct_wide, 0);
static_assert(ct_t1.ok() && ct_t2.ok() && ct_t3.ok(), "the constexpr sinusoidal tables build");

template <class A>
std::size_t differences(const A& ct, const sn::config& c, std::int64_t first) {
  std::vector<float> rt(ct.value.size());
  REQUIRE(sn::fill_table<float>(sn::checked_config{c}, first, std::span<float>(rt)) == posenc::status::ok);
  std::size_t bad = 0;
  for (std::size_t k = 0; k < rt.size(); ++k)
    if (!same(rt[k], ct.value[k])) ++bad;
  return bad;
}

}  // namespace

TEST_CASE("constant evaluation's float row path gives the run-time kernel's bits", "[table_rows][ct_rt]") {
  CHECK(differences(ct_t1, ct_interleaved, 1000) == 0);
  CHECK(differences(ct_t2, ct_concat, -17) == 0);
  CHECK(differences(ct_t3, ct_wide, 0) == 0);
}

namespace {

namespace pm = posenc::math;

// A geometric source that records where the row walk fell back to its scalar entry.
struct recording_source {
  pm::geometric_frequencies g;
  std::vector<std::pair<std::uint64_t, int>>* calls;
  pm::frequency_value frequency(int j) const { return g.frequency(j); }
  template <class T>
  posenc::result<sincos_result<T>> entry(const pm::frequency_value& f, const pm::amplitude* af, std::uint64_t p,
                                         int j) const {
    calls->emplace_back(p, j);
    return g.template entry<T>(f, af, p, j);
  }
};

// A constant-evaluated compact table (on Clang, walked two rows a pass; on GCC, one), for the
// comparison with the run-time kernel below. 301 rows: the last row is walked alone.
constexpr pm::geometric_frequencies ct_pairs_f{10000.0, 2, 40};
constexpr auto ct_pairs = [] {
  std::array<sincos_result<float>, 301 * 20> t{};
  const auto s = pm::sincos_geometric_table<float>(ct_pairs_f, 20, std::span(t), {.start = 977});
  return std::pair{s, t};
}();
static_assert(ct_pairs.first == posenc::status::ok, "the constexpr compact table builds");

}  // namespace

TEST_CASE("constant evaluation's compact rows: two rows a pass give one row a pass's bits and fallbacks",
          "[table_rows][ct_rt]") {
  // The walk runs at run time here too (it is constexpr), so both settings run on both compilers.
  // 2049 and 4097 rows: a block of one row after full ones; 3001 from 5000: blocks of odd length.
  struct shape {
    std::uint64_t start;
    std::size_t rows;
  };
  for (const shape sh :
       {shape{0, 1}, shape{0, 2}, shape{0, 3}, shape{0, 768}, shape{0, 2049}, shape{1, 4097}, shape{5000, 3001}}) {
    const std::size_t columns = 64;
    std::vector<std::pair<std::uint64_t, int>> calls1, calls2;
    std::vector<sincos_result<float>> t1(sh.rows * columns), t2(t1.size()), rt(t1.size());
    st::row_major_sink<float> s1{t1.data(), columns}, s2{t2.data(), columns};
    const recording_source src1{{10000.0, 2, 128}, &calls1}, src2{{10000.0, 2, 128}, &calls2};
    REQUIRE(st::fill_chunk_float_constexpr(src1, sh.start, sh.rows, 0, columns, s1, false) == posenc::status::ok);
    REQUIRE(st::fill_chunk_float_constexpr(src2, sh.start, sh.rows, 0, columns, s2, true) == posenc::status::ok);
    REQUIRE(pm::sincos_geometric_table<float>({10000.0, 2, 128}, columns, std::span(rt), {.start = sh.start}) ==
            posenc::status::ok);
    std::size_t bad1 = 0, bad2 = 0;
    for (std::size_t k = 0; k < rt.size(); ++k) {
      bad1 += !same(t1[k].sin, rt[k].sin) || !same(t1[k].cos, rt[k].cos);
      bad2 += !same(t2[k].sin, rt[k].sin) || !same(t2[k].cos, rt[k].cos);
    }
    INFO("start " << sh.start << ", rows " << sh.rows);
    CHECK(bad1 == 0);
    CHECK(bad2 == 0);
    // The same entries fall back, at the same positions and columns: a second row's fallback at
    // the first row's position, or its bound taken from the first row, would show here.
    std::sort(calls1.begin(), calls1.end());
    std::sort(calls2.begin(), calls2.end());
    CHECK(calls1 == calls2);
  }
  // Not vacuous: 768 rows from 0 fall back in both rows of a pass (positions of both parities).
  std::vector<std::pair<std::uint64_t, int>> calls;
  std::vector<sincos_result<float>> t(768 * 64);
  st::row_major_sink<float> sink{t.data(), 64};
  REQUIRE(st::fill_chunk_float_constexpr(recording_source{{10000.0, 2, 128}, &calls}, 0, 768, 0, 64, sink, true) ==
          posenc::status::ok);
  bool even = false, odd = false;
  for (const auto& c : calls) (c.first % 2 == 0 ? even : odd) = true;
  CHECK(even);
  CHECK(odd);

  // The constant-evaluated table equals the run-time kernel's.
  std::vector<sincos_result<float>> want(ct_pairs.second.size());
  REQUIRE(pm::sincos_geometric_table<float>(ct_pairs_f, 20, std::span(want), {.start = 977}) == posenc::status::ok);
  std::size_t bad = 0;
  for (std::size_t k = 0; k < want.size(); ++k)
    bad += !same(ct_pairs.second[k].sin, want[k].sin) || !same(ct_pairs.second[k].cos, want[k].cos);
  CHECK(bad == 0);
}
