// test_rope_boundaries.cpp: every branch point of the RoPE frequency formulas, tested on both sides
// and at equality (issue 11's boundary discipline). Expected values come from the MPFR oracle
// (posenc/verify/rope_oracle.hpp, written independently from HF modeling_rope_utils.py) and from
// derivations stated at each case; the configs are found by search, so each boundary is reached
// on purpose, and the search asserts that it found them.
//
//  - YaRN ramp (_compute_yarn_parameters, linear_ramp_factor): low == high (HF adds 0.001 to
//    high) at pair 0, at d/2 and past the last pair (the only places the clamps allow it);
//    low < high and low > high; every pair, so each ramp end is seen from both sides; truncate
//    on and off.
//  - Llama-3 bands (_compute_llama3_parameters): high_freq_factor and low_freq_factor one double
//    ulp either side of, and at the double nearest to, L0 / wavelen_j.
//  - LongRoPE's factor switch at seq_len = L0 - 1, L0, L0 + 1; dynamic NTK at
//    seq_len = max_position_embeddings - 1, equal, + 1.
//  - Partial rotary: floor(head_dim * partial_rotary_factor) at and one ulp below integers,
//    against an exact integer derivation; the smallest rotary dim (2) and rotary_dim == head_dim.
//  - float16 sin entries across the subnormal/normal boundary 2^-14 of a table column.
#include <catch2/catch.hpp>

#include <mpfr.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/angle.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/models.hpp"
#include "posenc/rope/table.hpp"
#include "posenc/verify/rope_oracle.hpp"
#include "posenc/verify/rope_table_oracle.hpp"

namespace {

namespace rope = posenc::rope;
using posenc::bfloat16;
using posenc::float16;
using rope::scaling;
using M = posenc::verify::detail::mp;

template <class T>
std::uint64_t bits(T x) {
  return static_cast<std::uint64_t>(posenc::detail::float_format<T>::to_bits(x));
}

// Every inv_freq[j] and the attention factor of c against the oracle, in all four dtypes.
template <class T>
void check_against_oracle_as(const rope::config& c, const std::string& what) {
  for (int j = 0; j < rope::rotary_dim(c) / 2; ++j) {
    const auto got = rope::inv_freq<T>(c, j);
    INFO(what << " j=" << j << " (" << sizeof(T) * 8 << "-bit type)");
    REQUIRE(got.ok());
    CHECK(bits(got.value) == bits(posenc::verify::cr_rope_inv_freq<T>(c, j)));
  }
  const auto a = rope::attention_factor<T>(c);
  INFO(what << " attention factor");
  REQUIRE(a.ok());
  CHECK(bits(a.value) == bits(posenc::verify::cr_rope_attention_factor<T>(c)));
}
void check_against_oracle(const rope::config& c, const std::string& what) {
  INFO(what << ": " << rope::validate(c).message);
  REQUIRE(rope::validate(c).ok());
  check_against_oracle_as<double>(c, what);
  check_against_oracle_as<float>(c, what);
  check_against_oracle_as<bfloat16>(c, what);
  check_against_oracle_as<float16>(c, what);
}

std::string describe(const rope::config& c) {
  return "d=" + std::to_string(rope::rotary_dim(c)) + " base=" + std::to_string(c.rope_theta) +
         " L0=" + std::to_string(c.original_max_position_embeddings) + " beta=" + std::to_string(c.beta_fast) + "/" +
         std::to_string(c.beta_slow) + (c.truncate ? " truncated" : " untruncated");
}

// ---------------------------------------------------------------------------------------------
// YaRN: a search over (d, base, betas, L0) for every shape of the truncated correction range.

struct yarn_case {
  rope::config cfg;
  long lo, hi;  // the exact truncated, clamped range (oracle)
};

std::vector<yarn_case> yarn_search() {
  std::vector<yarn_case> out;
  const std::array<std::array<double, 2>, 3> betas{{{32.0, 1.0}, {2.0, 1.0}, {1.25, 1.0}}};
  for (const int d : {2, 4, 8, 16, 32, 64, 128})
    for (const double base : {10000.0, 1000000.0, 1e8})
      for (const auto& bb : betas)
        for (double l0 = 1; l0 < 0x1p31; l0 = std::ceil(l0 * 1.07)) {
          rope::config c{.head_dim = d,
                         .rope_theta = base,
                         .rope_type = scaling::yarn,
                         .factor = 4.0,
                         .original_max_position_embeddings = static_cast<std::int64_t>(l0),
                         .beta_fast = bb[0],
                         .beta_slow = bb[1]};
          double lo = 0, hi = 0;
          posenc::verify::exact_yarn_range(c, lo, hi);
          out.push_back({c, static_cast<long>(lo), static_cast<long>(hi)});
        }
  return out;
}

}  // namespace

TEST_CASE("YaRN ramp: low == high at pair 0, at d/2 and past it; low < high; low > high", "[rope][boundary]") {
  const std::vector<yarn_case> all = yarn_search();
  // Pick up to 3 configs of each shape; each shape must exist, or the boundary is not tested.
  // Which shapes exist: low = max(floor(a), 0), high = min(ceil(b), d - 1) with a = fcd(beta_fast)
  // < b = fcd(beta_slow), so floor(a) == ceil(b) is impossible and low == high needs a clamp: either
  // a < 0 and b in (-1, 0] (low == high == 0, the pair-0 case), or a >= d - 1 (low == high == d - 1,
  // which is d/2 for d = 2 and past the last pair d/2 - 1 otherwise).
  enum shape { eq_zero, eq_half, eq_past, lt_inside, gt, shapes };
  const char* names[shapes] = {"low == high == 0", "low == high == d/2 (d = 2)", "low == high == d - 1 > d/2",
                               "low < high", "low > high"};
  std::array<int, shapes> seen{};
  for (const yarn_case& y : all) {
    const long half = rope::rotary_dim(y.cfg) / 2;
    shape s = shapes;
    if (y.lo == y.hi) {
      s = y.lo == 0 ? eq_zero : y.lo == half ? eq_half : eq_past;
      CHECK((y.lo == 0 || y.lo == 2 * half - 1));  // the derivation above: no other equal range
    } else {
      s = y.lo < y.hi ? lt_inside : gt;
    }
    if (seen[s] >= 3) continue;
    ++seen[s];
    const std::string what =
        std::string(names[s]) + " (" + std::to_string(y.lo) + ", " + std::to_string(y.hi) + "), " + describe(y.cfg);
    // The library's range is the oracle's.
    const auto r = rope::yarn_correction_range(y.cfg);
    INFO(what);
    REQUIRE(r.ok());
    CHECK(r.low == static_cast<double>(y.lo));
    CHECK(r.high == static_cast<double>(y.hi));
    check_against_oracle(y.cfg, what);
    rope::config untruncated = y.cfg;  // the same config with truncate off: real bounds, no floor/ceil
    untruncated.truncate = false;
    check_against_oracle(untruncated, what + ", truncate off");
    if (y.lo == y.hi) {
      // Derivation (HF linear_ramp_factor with max += 0.001): ramp(j) = clamp((j - k) / 0.001, 0, 1)
      // is 0 for j <= k and 1 for j > k, so inv_freq[j] is the default b^(-2j/d) for j <= k and the
      // linear-scaled b^(-2j/d) / s past k; at k = 0, inv_freq[0] = b^0 = 1 exactly.
      rope::config ext{.head_dim = y.cfg.head_dim, .rope_theta = y.cfg.rope_theta};
      rope::config itp = ext;
      itp.rope_type = scaling::linear;
      itp.factor = y.cfg.factor;
      for (int j = 0; j < half; ++j) {
        INFO("j=" << j);
        const float want = j <= y.lo ? rope::inv_freq<float>(ext, j).value : rope::inv_freq<float>(itp, j).value;
        CHECK(rope::inv_freq<float>(y.cfg, j).value == want);
      }
      if (y.lo == 0) CHECK(rope::inv_freq<double>(y.cfg, 0).value == 1.0);
    }
  }
  for (int s = 0; s < shapes; ++s) {
    INFO("shape not reached by the search: " << names[s]);
    CHECK(seen[static_cast<std::size_t>(s)] > 0);
  }
}

TEST_CASE("YaRN: the issue-11 config, low == high == 0 at d = 8, L0 = 64, betas 32/16", "[rope][boundary]") {
  // fcd(n) = d ln(L0 / (2 pi n)) / (2 ln b): fcd(32) = 8 ln(64 / 201.06) / 18.42 = -0.497 -> floor -1
  // -> max(., 0) = 0; fcd(16) = 8 ln(64 / 100.53) / 18.42 = -0.196 -> ceil 0. So low = high = 0 and
  // HF's ramp at pair 0 is 0 / 0.001 = 0: inv_freq[0] = 1 (extrapolation), the rest / 4.
  constexpr rope::config c{.head_dim = 8,
                           .rope_theta = 10000.0,
                           .rope_type = scaling::yarn,
                           .factor = 4.0,
                           .original_max_position_embeddings = 64,
                           .beta_fast = 32.0,
                           .beta_slow = 16.0};
  static_assert(rope::yarn_correction_range(c).low == 0.0 && rope::yarn_correction_range(c).high == 0.0,
                "the config sits on low == high == 0");
  static_assert(rope::inv_freq<double>(c, 0).value == 1.0, "YaRN, low == high == 0: inv_freq[0] = 1 exactly");
  static_assert(rope::inv_freq<double>(c, 1).value == 0.025,
                "YaRN, low == high == 0: inv_freq[1] = 10000^(-1/4) / 4 = 0.025");
  CHECK(rope::inv_freq<double>(c, 0).value == 1.0);
  check_against_oracle(c, "issue-11 config");
}

// ---------------------------------------------------------------------------------------------
// Llama-3 bands: keep iff wavelen < L0 / hff, divide iff wavelen > L0 / lff (pi is transcendental,
// so no exact tie; the nearest doubles to the tie are the hardest cases to decide).

namespace {

// RN_double(L0 / wavelen_j), wavelen_j = 2 pi b^(2j/d), and the exact sign of L0 theta_j - 2 pi f.
double tie_factor(const rope::config& c, int j) {
  M w(400), t(400);
  mpfr_set_d(t.get(), c.rope_theta, MPFR_RNDN);
  mpfr_set_si(w.get(), 2 * j, MPFR_RNDN);
  mpfr_div_si(w.get(), w.get(), rope::rotary_dim(c), MPFR_RNDN);
  mpfr_pow(w.get(), t.get(), w.get(), MPFR_RNDN);
  mpfr_const_pi(t.get(), MPFR_RNDN);
  mpfr_mul(w.get(), w.get(), t.get(), MPFR_RNDN);
  mpfr_mul_2ui(w.get(), w.get(), 1, MPFR_RNDN);
  mpfr_si_div(w.get(), static_cast<long>(c.original_max_position_embeddings), w.get(), MPFR_RNDN);
  return mpfr_get_d(w.get(), MPFR_RNDN);
}
int sign_l0_theta_minus_2pi_f(const rope::config& c, int j, double f) {
  M th(400), t(400);
  mpfr_set_d(th.get(), c.rope_theta, MPFR_RNDN);
  mpfr_set_si(t.get(), -2 * j, MPFR_RNDN);
  mpfr_div_si(t.get(), t.get(), rope::rotary_dim(c), MPFR_RNDN);
  mpfr_pow(th.get(), th.get(), t.get(), MPFR_RNDN);
  mpfr_mul_si(th.get(), th.get(), static_cast<long>(c.original_max_position_embeddings), MPFR_RNDN);
  mpfr_const_pi(t.get(), MPFR_RNDN);
  mpfr_mul_d(t.get(), t.get(), 2 * f, MPFR_RNDN);
  mpfr_sub(th.get(), th.get(), t.get(), MPFR_RNDN);
  return mpfr_sgn(th.get());
}

}  // namespace

TEST_CASE("Llama-3 bands: each threshold one ulp either side of and at the wavelength", "[rope][boundary]") {
  int flips_high = 0, flips_low = 0;
  for (const int j : {3, 17, 40}) {
    rope::config c{.head_dim = 128,
                   .rope_theta = 500000.0,
                   .rope_type = scaling::llama3,
                   .factor = 8.0,
                   .original_max_position_embeddings = 8192};
    const double tie = tie_factor(c, j);
    for (const double hff : {std::nextafter(tie, 0.0), tie, std::nextafter(tie, 1e300)}) {
      // high edge: low_freq_factor well below (a quarter of) the tie
      c.high_freq_factor = hff;
      c.low_freq_factor = tie / 4;
      const auto b = rope::llama3_band_of(c, j);
      INFO("j=" << j << " hff=" << hff);
      REQUIRE(b.ok());
      const bool keep = sign_l0_theta_minus_2pi_f(c, j, hff) > 0;  // wavelen < L0 / hff
      CHECK((b.value == rope::llama3_band::keep) == keep);
      if (!keep) CHECK(b.value == rope::llama3_band::smoothed);
      flips_high += keep ? 1 : 0;
      check_against_oracle(c, "llama3 high edge j=" + std::to_string(j));
    }
    for (const double lff : {std::nextafter(tie, 0.0), tie, std::nextafter(tie, 1e300)}) {
      c.low_freq_factor = lff;
      c.high_freq_factor = tie * 4;
      const auto b = rope::llama3_band_of(c, j);
      INFO("j=" << j << " lff=" << lff);
      REQUIRE(b.ok());
      const bool divided = sign_l0_theta_minus_2pi_f(c, j, lff) < 0;  // wavelen > L0 / lff
      CHECK((b.value == rope::llama3_band::divided) == divided);
      if (!divided) CHECK(b.value == rope::llama3_band::smoothed);
      flips_low += divided ? 1 : 0;
      check_against_oracle(c, "llama3 low edge j=" + std::to_string(j));
    }
  }
  // Each edge was crossed: some of the three factors per pair fall on each side.
  CHECK(flips_high > 0);
  CHECK(flips_high < 9);
  CHECK(flips_low > 0);
  CHECK(flips_low < 9);
}

// ---------------------------------------------------------------------------------------------
// LongRoPE and dynamic NTK switches.

TEST_CASE("LongRoPE: short factors up to seq_len = L0, long factors from L0 + 1", "[rope][boundary]") {
  rope::config c = rope::models::phi3_vision_128k_short;
  const std::int64_t l0 = c.original_max_position_embeddings;
  for (const std::int64_t seq : {l0 - 1, l0, l0 + 1}) {
    c.seq_len = seq;
    const bool want_long = seq > l0;  // _compute_longrope_parameters: `if seq_len > original_max_position_embeddings`
    INFO("seq_len=" << seq << " L0=" << l0);
    CHECK(rope::longrope_factors(c).data() == (want_long ? c.long_factor.data() : c.short_factor.data()));
    // Derivation: inv_freq[j] = b^(-2j/d) / ext[j] with ext the selected list, so the config equals
    // the one whose both lists are that list.
    rope::config forced = c;
    forced.short_factor = forced.long_factor = want_long ? c.long_factor : c.short_factor;
    int differ = 0;
    for (int j = 0; j < rope::rotary_dim(c) / 2; ++j) {
      CHECK(rope::inv_freq<float>(c, j).value == rope::inv_freq<float>(forced, j).value);
      differ += c.short_factor[static_cast<std::size_t>(j)] != c.long_factor[static_cast<std::size_t>(j)];
    }
    CHECK(differ > 40);  // the two lists differ almost everywhere, so a wrong switch shows
    check_against_oracle(c, "longrope seq_len=" + std::to_string(seq));
  }
}

TEST_CASE("dynamic NTK: the base changes only past max_position_embeddings", "[rope][boundary]") {
  rope::config c{.head_dim = 128,
                 .rope_theta = 10000.0,
                 .rope_type = scaling::dynamic,
                 .factor = 2.0,
                 .max_position_embeddings = 4096};
  const rope::config plain{.head_dim = 128, .rope_theta = 10000.0};
  for (const std::int64_t seq : {std::int64_t{0}, std::int64_t{4095}, std::int64_t{4096}, std::int64_t{4097}}) {
    c.seq_len = seq;
    INFO("seq_len=" << seq);
    // Derivation: seq_len = max(seq_len, M) and q = s len / M - (s - 1) = 1 when len = M, so the
    // base is unchanged up to M; at M + 1, q = 1 + s / M and inv_freq[j] = theta_j q^(-2j/(d-2)).
    for (int j = 0; j < 64; ++j) {
      const double got = rope::inv_freq<double>(c, j).value, def = rope::inv_freq<double>(plain, j).value;
      if (seq <= 4096)
        CHECK(got == def);
      else if (j > 0)
        CHECK(got < def);
    }
    check_against_oracle(c, "dynamic seq_len=" + std::to_string(seq));
  }
}

TEST_CASE("seq_len unset: a table's sequence length is its last position plus one (HF's rule)", "[rope][boundary]") {
  // HF's dynamic_rope_update: seq_len = max(position_ids) + 1, then LongRoPE takes the long factors
  // iff seq_len > L0 and dynamic NTK rescales iff seq_len > M. So a table whose last position is p,
  // with seq_len unset, equals the table with seq_len = p + 1 set explicitly (whose values the case
  // above checks against the oracle), bit for bit, and the switch falls between last positions
  // L0 - 1 and L0 (LongRoPE) or M - 1 and M (dynamic).
  rope::config longrope = rope::models::phi3_vision_128k_short;
  longrope.seq_len = 0;
  const rope::config dynamic{.head_dim = 128,
                             .rope_theta = 10000.0,
                             .rope_type = scaling::dynamic,
                             .factor = 2.0,
                             .max_position_embeddings = 4096};
  for (const rope::config& unset : {longrope, dynamic}) {
    const std::uint64_t edge = static_cast<std::uint64_t>(
        unset.rope_type == scaling::longrope ? unset.original_max_position_embeddings : unset.max_position_embeddings);
    const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(unset));
    for (const std::uint64_t last : {edge - 1, edge}) {
      INFO("rope_type " << (unset.rope_type == scaling::longrope ? "longrope" : "dynamic") << ", last position "
                        << last);
      rope::config set = unset;
      set.seq_len = static_cast<std::int64_t>(last) + 1;
      rope::config unscaled = unset;
      unscaled.seq_len = 1;  // short factors, or no dynamic scaling
      // Rows last - 1 and last: from a start (the table's length is start + rows) and from a list.
      const std::vector<std::uint64_t> list{last, last - 1};
      std::vector<float> cos(2 * d), sin(2 * d), want_cos(2 * d), want_sin(2 * d), plain_cos(2 * d), plain_sin(2 * d);
      REQUIRE(rope::fill_table<float>(unset, cos, sin, rope::layout::half_split, {.start = last - 1}) ==
              posenc::status::ok);
      REQUIRE(rope::fill_table<float>(set, want_cos, want_sin, rope::layout::half_split, {.start = last - 1}) ==
              posenc::status::ok);
      REQUIRE(rope::fill_table<float>(unscaled, plain_cos, plain_sin, rope::layout::half_split, {.start = last - 1}) ==
              posenc::status::ok);
      CHECK(cos == want_cos);
      CHECK(sin == want_sin);
      // Past the edge the scaled table differs from the unscaled one; up to it, it is the same.
      CHECK((cos == plain_cos) == (last < edge));
      std::vector<float> lcos(2 * d), lsin(2 * d);
      REQUIRE(rope::fill_table<float>(unset, list, lcos, lsin) == posenc::status::ok);
      CHECK(std::equal(lcos.begin(), lcos.begin() + static_cast<std::ptrdiff_t>(d),
                       want_cos.begin() + static_cast<std::ptrdiff_t>(d)));
      CHECK(std::equal(lsin.begin() + static_cast<std::ptrdiff_t>(d), lsin.end(), want_sin.begin()));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Partial rotary: floor(head_dim * prf), exactly.

namespace {

__extension__ typedef unsigned __int128 u128;  // GCC and Clang both have it; -Wpedantic wants the marker

// floor(n * f) for a double 0 < f <= 1 and 0 < n < 2^31, in integers: f = m 2^e with m < 2^53.
std::int64_t exact_floor_product(int n, double f) {
  int ex = 0;
  const double fr = std::frexp(f, &ex);  // f = fr 2^ex, fr in [0.5, 1)
  const auto m = static_cast<u128>(std::ldexp(fr, 53));
  const int e = ex - 53;  // f = m 2^e, e < 0 for f <= 1
  const u128 p = m * static_cast<u128>(n);
  return static_cast<std::int64_t>(p >> -e);
}

}  // namespace

TEST_CASE("partial rotary: floor(head_dim * factor) at and one ulp below whole numbers", "[rope][boundary]") {
  struct edge {
    int head_dim;
    double prf;
  };
  const std::vector<edge> edges{{128, 0.25},
                                {128, std::nextafter(0.25, 0.0)},
                                {128, std::nextafter(0.25, 1.0)},
                                {80, 0.4},
                                {10, 0.3},
                                {64, 1.0},
                                {64, std::nextafter(1.0, 0.0)},
                                {64, 0.03125},
                                {64, std::nextafter(0.03125, 0.0)},
                                {2, 1.0},
                                {1, 1.0},
                                {96, 0.5},
                                {100, 0.02},
                                {256, 0.25},
                                {2048, 1.0 / 3.0}};
  for (const edge& e : edges) {
    const rope::config c{.head_dim = e.head_dim, .partial_rotary_factor = e.prf};
    const std::int64_t want = exact_floor_product(e.head_dim, e.prf);
    INFO("head_dim=" << e.head_dim << " prf=" << e.prf << " want=" << want);
    if (want % 2 != 0) {
      CHECK(std::string(rope::validate(c).message) == "rotary dim must be even");
    } else if (want == 0) {
      CHECK(std::string(rope::validate(c).message) == "rotary dim is zero");
    } else {
      REQUIRE(rope::validate(c).ok());
      CHECK(rope::rotary_dim(c) == want);
    }
  }
  // 10 * 0.3 (the double below 3/10) is just below 3: floor 2 (HF's float product says 3; exact
  // semantics take the double the user wrote, docs/rope.md section 1).
  CHECK(exact_floor_product(10, 0.3) == 2);
  CHECK(exact_floor_product(128, std::nextafter(0.25, 0.0)) == 31);
  // A seeded sweep of (head_dim, prf) against the integer derivation.
  std::uint64_t s = 0x9E3779B97F4A7C15u;
  for (int i = 0; i < 20000; ++i) {
    s = s * 6364136223846793005u + 1442695040888963407u;
    const int n = 1 + static_cast<int>((s >> 33) % 4096);
    const double f = static_cast<double>((s >> 11) & ((std::uint64_t{1} << 40) - 1)) * 0x1p-40 + 0x1p-41;
    const rope::config c{.head_dim = n, .partial_rotary_factor = f};
    const std::int64_t want = exact_floor_product(n, f);
    if (want % 2 != 0 || want == 0) continue;
    INFO("head_dim=" << n << " prf=" << f);
    REQUIRE(rope::rotary_dim(c) == want);
  }
}

// ---------------------------------------------------------------------------------------------
// float16's subnormal boundary in a table column: sin(m theta) around 2^-14.

TEST_CASE("float16 sin entries across the subnormal boundary 2^-14 are correctly rounded", "[rope][boundary]") {
  constexpr rope::config c{.head_dim = 128, .rope_theta = 500000.0};
  const int j = 63;  // theta_63 = 500000^(-126/128) ~ 2.4e-6, so sin(m theta) crosses 2^-14 near m ~ 25
  const double theta = rope::inv_freq<double>(c, j).value;
  const std::uint64_t cross = static_cast<std::uint64_t>(0x1p-14 / theta);
  int sub = 0, normal = 0;
  for (std::uint64_t m = 0; m <= cross + 3; ++m) {
    const auto got = rope::sincos<float16>(c, m, j);
    const auto want = posenc::verify::cr_rope_scaled_sincos<float16>(c, m, j);
    INFO("m=" << m);
    REQUIRE(got.ok());
    CHECK(got.value.sin.bits == want.sin.bits);
    CHECK(got.value.cos.bits == want.cos.bits);
    ((got.value.sin.bits & 0x7C00u) == 0 ? sub : normal) += 1;
  }
  CHECK(sub > 0);  // both sides of the boundary were reached
  CHECK(normal > 0);
}

// ---------------------------------------------------------------------------------------------
// Every precondition of validate() and check_table(), at its edge and one step either side.

TEST_CASE("preconditions: each limit accepted at its edge, refused one step past", "[rope][boundary][validate]") {
  auto msg = [](const rope::config& c) { return std::string(rope::validate(c).message); };
  const rope::config base{.head_dim = 128};
  auto with = [&](auto f) {
    rope::config c = base;
    f(c);
    return c;
  };
  // rope_theta in (1, 2^960)
  CHECK(msg(with([](rope::config& c) { c.rope_theta = 1.0; })) == "rope_theta (the base) must be finite and > 1");
  CHECK(msg(with([](rope::config& c) { c.rope_theta = std::nextafter(1.0, 2.0); })) == "ok");
  CHECK(msg(with([](rope::config& c) { c.rope_theta = std::nextafter(0x1p960, 0.0); })) == "ok");
  CHECK(msg(with([](rope::config& c) { c.rope_theta = 0x1p960; })) == "rope_theta (the base) must be below 2^960");
  // partial_rotary_factor in (0, 1]; rotary dim even, nonzero, at most 65536
  CHECK(msg(with([](rope::config& c) { c.partial_rotary_factor = 1.0; })) == "ok");
  CHECK(msg(with([](rope::config& c) { c.partial_rotary_factor = std::nextafter(1.0, 2.0); })) ==
        "partial_rotary_factor must be in (0, 1]");
  CHECK(msg(with([](rope::config& c) { c.partial_rotary_factor = 0x1p-1074; })) == "rotary dim is zero");
  CHECK(msg(rope::config{.head_dim = 65536}) == "ok");
  CHECK(msg(rope::config{.head_dim = 65538}) == "rotary dim above 65536");
  CHECK(msg(rope::config{.head_dim = 128, .rotary_dim = 128}) == "ok");
  CHECK(msg(rope::config{.head_dim = 128, .rotary_dim = 130}) == "rotary_dim exceeds head_dim");
  CHECK(msg(rope::config{.head_dim = 128, .rotary_dim = 2}) == "ok");
  // ntk / dynamic: rotary dim above 2
  CHECK(msg(rope::config{.head_dim = 2, .rope_type = scaling::ntk, .factor = 2.0}) ==
        "ntk and dynamic need a rotary dim above 2 (exponent d/(d-2))");
  CHECK(msg(rope::config{.head_dim = 4, .rope_type = scaling::ntk, .factor = 2.0}) == "ok");
  // dynamic: seq_len >= 0
  const rope::config dyn{.head_dim = 64, .rope_type = scaling::dynamic, .factor = 2.0, .max_position_embeddings = 4096};
  rope::config d = dyn;
  d.seq_len = -1;
  CHECK(msg(d) == "dynamic needs max_position_embeddings > 0 and seq_len >= 0");
  d.seq_len = 0;
  CHECK(msg(d) == "ok");
  // position counts in [0, 2^53]
  d.max_position_embeddings = std::int64_t{1} << 53;
  CHECK(msg(d) == "ok");
  d.max_position_embeddings = (std::int64_t{1} << 53) + 1;
  CHECK(msg(d) == "position counts must be in [0, 2^53]");
  // YaRN: beta_fast > beta_slow; Llama-3: high_freq_factor >= low_freq_factor (equal: Llama-4)
  rope::config y = rope::models::qwen2_5_7b_yarn;
  y.beta_fast = y.beta_slow;
  CHECK(msg(y) == "beta_fast must exceed beta_slow");
  y.beta_fast = std::nextafter(y.beta_slow, 1e300);
  CHECK(msg(y) == "ok");
  rope::config l = rope::models::llama3_1_8b;
  l.high_freq_factor = std::nextafter(l.low_freq_factor, 0.0);
  CHECK(msg(l) == "high_freq_factor must not be below low_freq_factor");
  l.high_freq_factor = l.low_freq_factor;
  CHECK(msg(l) == "ok");
  // LongRoPE: L0 >= 2
  rope::config p = rope::models::phi3_vision_128k_short;
  p.original_max_position_embeddings = 1;
  CHECK(msg(p) == "longrope needs original_max_position_embeddings >= 2");
  p.original_max_position_embeddings = 2;
  CHECK(msg(p) == "ok");
  // Tables: positions up to max_table_position = 2^21, inclusive.
  const std::uint64_t top = rope::max_table_position;
  CHECK(rope::check_table(base, 1, 128, top).ok());
  CHECK(!rope::check_table(base, 1, 128, top + 1).ok());
  CHECK(rope::check_table(base, 2, 128, top - 1).ok());
  CHECK(!rope::check_table(base, 3, 128, top - 1).ok());
  CHECK(std::string(rope::check_table(base, 2, 128, top).message) == "table positions past 2^21");
  CHECK(rope::sincos<float>(base, top, 0).ok());
}

// ---------------------------------------------------------------------------------------------
// An explicit attention factor wins over the derived one, for YaRN and LongRoPE alike, also when it
// is folded into the table (HF: attention_factor = config's value if set).

TEST_CASE("explicit attention_factor: folded entries use it, YaRN and LongRoPE", "[rope][boundary]") {
  rope::config lr = rope::models::phi3_vision_128k_short;
  lr.attention_factor = 1.25;
  rope::config y = rope::models::qwen2_5_7b_yarn;
  y.attention_factor = 0.75;
  for (const rope::config& c : {lr, y}) {
    REQUIRE(rope::attention_factor<double>(c).value == *c.attention_factor);
    for (const std::uint64_t m : {std::uint64_t{1}, std::uint64_t{4097}, std::uint64_t{100000}})
      for (const int j : {0, 5, rope::rotary_dim(c) / 2 - 1}) {
        const auto got = rope::attention_sincos<float>(c, m, j);
        const auto want = posenc::verify::cr_rope_attention_sincos<float>(c, m, j);
        INFO("m=" << m << " j=" << j << " af=" << *c.attention_factor);
        REQUIRE(got.ok());
        CHECK(got.value.cos == want.cos);
        CHECK(got.value.sin == want.sin);
      }
    const auto t = rope::make_table<double, 4, 96, rope::layout::half_split>(lr, {.start = 1, .fold_attention = true});
    REQUIRE(t.ok());
    CHECK(t.value.cos[0] == posenc::verify::cr_rope_attention_sincos<double>(lr, 1, 0).cos);
  }
}
