// test_scheme_verify.cpp: the verify engine of the schemes other than RoPE (verify/scheme_verify.hpp).
// A table built from the MPFR oracles (not from posenc's generators) passes in every dtype; posenc's
// own passes; one entry moved one representable step fails, naming the entry (and passes with
// max_ulp 1, still counted as not correctly rounded); a NaN fails whatever the tolerance; an integer
// table with one bucket off fails, naming the relative position; the laws run on what is verified and
// can fail.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "posenc/alibi.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/t5.hpp"
#include "posenc/verify/alibi_oracle.hpp"
#include "posenc/verify/deberta_oracle.hpp"
#include "posenc/verify/kerple_oracle.hpp"
#include "posenc/verify/log_ratio_oracle.hpp"
#include "posenc/verify/rational_power_oracle.hpp"
#include "posenc/verify/sandwich_oracle.hpp"
#include "posenc/verify/scheme_verify.hpp"
#include "posenc/verify/shaw_oracle.hpp"
#include "posenc/verify/sinusoid_oracle.hpp"
#include "posenc/verify/t5_oracle.hpp"
#include "posenc/verify/transformer_xl_oracle.hpp"

namespace {

namespace pv = posenc::verify;
using posenc::bfloat16;
using posenc::float16;

// The representable neighbour of x one step up in magnitude (bits + 1: the next value away from 0).
template <class T>
T one_step(T x) {
  return pv::detail::from_bits64<T>(pv::detail::to_bits64(x) + 1);
}

template <class T>
T quiet_nan() {
  return pv::detail::from_bits64<T>(pv::detail::inf_bits<T>() | 1);
}

// ALiBi's slopes (m_h, positive) or its causal bias table (-m_h (i - j), j <= i), each entry RN_T of
// the MPFR oracle: the exact rational exponent comes from the config's definition (alibi.md), the
// value from alibi_oracle.hpp.
template <class T>
std::vector<T> oracle_alibi(const posenc::alibi::config& c, std::size_t positions) {
  std::vector<T> out;
  for (int h = 0; h < c.heads; ++h) {
    const auto e = posenc::alibi::slope_exponent_of(c, h).value;
    if (positions == 0) {
      auto v = pv::alibi_bias_value(e.num, e.den, 1);
      out.push_back(pv::detail::from_bits64<T>(pv::detail::to_bits64(v.template round<T>()) ^
                                               (std::uint64_t{1} << (pv::detail::storage_bits<T> - 1))));
      continue;
    }
    for (std::size_t i = 0; i < positions; ++i)
      for (std::size_t j = 0; j <= i; ++j) out.push_back(pv::alibi_bias_value(e.num, e.den, i - j).template round<T>());
  }
  return out;
}

template <class T>
pv::verify_report verify_given(const pv::alibi_verify_request& q, const std::vector<T>& v) {
  const pv::values_input in[] = {pv::given_values<T>(std::span<const T>(v))};
  return pv::verify_alibi(q, in);
}

bool every_law_ran_and_held(const pv::verify_report& r) {
  for (const auto& l : r.laws)
    if (l.ran && !l.holds) return false;
  return true;
}

template <class T>
void alibi_checks_of_one_dtype() {
  const pv::table_dtype dt = pv::dtype_of<T>();
  INFO("dtype " << pv::dtype_name(dt));
  const posenc::alibi::config bloom{.heads = 16};
  const pv::alibi_verify_request slopes{.config = bloom};
  std::vector<T> s = oracle_alibi<T>(bloom, 0);
  const auto good = verify_given<T>(slopes, s);
  REQUIRE(good.passed());
  REQUIRE(good.dtypes.size() == 1);
  CHECK(good.dtypes[0].entries == 16);
  CHECK(good.dtypes[0].not_correctly_rounded == 0);
  CHECK(good.dtypes[0].max_ulp <= 0.5);
  // Both slope laws apply to BLOOM's 16 heads (odd heads have integer exponents); the bias laws
  // need the bias table.
  std::size_t ran = 0, skipped = 0;
  for (const auto& l : good.laws) (l.ran ? ran : skipped) += 1;
  CHECK(ran == 2);
  CHECK(skipped == 2);

  s[5] = one_step(s[5]);
  const auto moved = verify_given<T>(slopes, s);
  CHECK_FALSE(moved.passed());
  CHECK(moved.dtypes[0].beyond_tolerance == 1);
  CHECK(moved.dtypes[0].first_failure_at == "head 5");
  CHECK(moved.dtypes[0].max_ulp > 0.5);
  pv::alibi_verify_request tolerant = slopes;
  tolerant.max_ulp = 1;
  const auto within = verify_given<T>(tolerant, s);
  CHECK(within.dtypes[0].passed());
  CHECK(within.dtypes[0].not_correctly_rounded == 1);

  s[5] = quiet_nan<T>();
  const auto nan = verify_given<T>(tolerant, s);
  CHECK_FALSE(nan.passed());
  CHECK(nan.dtypes[0].first_failure_at == "head 5");
  CHECK(nan.dtypes[0].max_ulp == std::numeric_limits<double>::infinity());

  // The causal bias table of 12 heads (8 + 4 interleaved: irrational slopes) over 40 positions.
  const posenc::alibi::config twelve{.heads = 12};
  const pv::alibi_verify_request causal{.config = twelve, .bias = true, .positions = 40};
  std::vector<T> b = oracle_alibi<T>(twelve, 40);
  const auto bias_ok = verify_given<T>(causal, b);
  CHECK(bias_ok.passed());
  CHECK(bias_ok.dtypes[0].entries == 12 * 40 * 41 / 2);
  // Head 7, query 30, key 4: row 7 * 820 + 30 * 31 / 2 + 4.
  const std::size_t at = 7 * 820 + 465 + 4;
  b[at] = one_step(b[at]);
  const auto bias_bad = verify_given<T>(causal, b);
  CHECK_FALSE(bias_bad.passed());
  CHECK(bias_bad.dtypes[0].first_failure_at == "head 7, query 30, key 4");
  // The relative-bias law sees it too: the entry differs from the others at distance 26.
  bool law_failed = false;
  for (const auto& l : bias_bad.laws) law_failed = law_failed || (l.ran && !l.holds);
  CHECK(law_failed);
  CHECK(every_law_ran_and_held(bias_ok));
}

}  // namespace

TEST_CASE("scheme verify: ALiBi slopes and biases from the oracle pass; one step or a NaN fails, named",
          "[verify][alibi]") {
  alibi_checks_of_one_dtype<double>();
  alibi_checks_of_one_dtype<float>();
  alibi_checks_of_one_dtype<bfloat16>();
  alibi_checks_of_one_dtype<float16>();
}

TEST_CASE("scheme verify: posenc's own ALiBi tables pass in every dtype, all laws held", "[verify][alibi]") {
  const pv::values_input own[] = {pv::own_values(pv::table_dtype::f64), pv::own_values(pv::table_dtype::f32),
                                  pv::own_values(pv::table_dtype::bf16), pv::own_values(pv::table_dtype::f16)};
  for (const bool symmetric : {false, true}) {
    const pv::alibi_verify_request q{
        .config = {.heads = 5, .max_bias = 1.0}, .bias = true, .positions = 33, .symmetric = symmetric};
    const auto r = pv::verify_alibi(q, own);
    CHECK(r.passed());
    REQUIRE(r.dtypes.size() == 4);
    for (const auto& d : r.dtypes) CHECK(d.not_correctly_rounded == 0);
    CHECK(r.dtypes[0].entries == 5u * (symmetric ? 33u * 33u : 33u * 34u / 2u));
  }
  const pv::alibi_verify_request wrong{.config = {.heads = 16}};
  const std::vector<float> short_table(15);
  CHECK_THROWS_AS(verify_given<float>(wrong, short_table), std::invalid_argument);
  // one report entry per dtype: two tables of one dtype, or none, is an error (RoPE's rule too)
  const pv::values_input twice[] = {pv::own_values(pv::table_dtype::f32), pv::own_values(pv::table_dtype::f32)};
  CHECK_THROWS_WITH(pv::verify_alibi(wrong, twice), Catch::Matchers::Contains("two tables of dtype f32"));
  CHECK_THROWS_WITH(pv::verify_alibi(wrong, std::span<const pv::values_input>()),
                    Catch::Matchers::Contains("no table to verify"));
}

TEST_CASE("scheme verify: T5 buckets against the published formula; one bucket off fails, named", "[verify][t5]") {
  const posenc::t5::config c{};
  const std::int64_t range = 300;
  std::vector<std::int32_t> oracle;
  for (std::int64_t r = -range; r <= range; ++r) oracle.push_back(pv::t5_oracle_bucket(c, r));
  const pv::t5_verify_request q{.config = c, .range = range};
  const auto own = pv::verify_t5(q, {});
  CHECK(own.passed());
  CHECK(own.integers.entries == 601);
  CHECK(own.laws.size() == 4);  // monotone, bounded, saturation, sign partition (bidirectional)
  CHECK(every_law_ran_and_held(own));
  CHECK(pv::verify_t5(q, oracle, false).passed());
  oracle[300 - 16] += 1;  // relative position -16: bucket 10 (an exact tie of the log term) made 11
  const auto bad = pv::verify_t5(q, oracle, false);
  CHECK_FALSE(bad.passed());
  CHECK(bad.integers.wrong == 1);
  CHECK(bad.integers.first_failure_at == "relative position -16");
  CHECK(bad.integers.worst_got == 11);
  CHECK(bad.integers.worst_exact == 10);
}

namespace {

// A table built from the oracle passes; the entry at `at` moved one step fails, named `name`; a NaN
// there fails even with max_ulp 1. verify(inputs, max_ulp) runs the engine on the table.
template <class T, class Verify>
void one_step_and_nan_fail(std::vector<T> table, std::size_t at, const std::string& name, Verify verify) {
  const auto run = [&](std::uint64_t max_ulp) {
    const pv::values_input in[] = {pv::given_values<T>(std::span<const T>(table))};
    return verify(std::span<const pv::values_input>(in), max_ulp);
  };
  const auto good = run(0);
  CHECK(good.passed());
  REQUIRE(good.dtypes.size() == 1);
  CHECK(good.dtypes[0].entries == table.size());
  CHECK(good.dtypes[0].not_correctly_rounded == 0);
  table[at] = one_step(table[at]);
  const auto moved = run(0);
  CHECK_FALSE(moved.passed());
  CHECK(moved.dtypes[0].beyond_tolerance == 1);
  CHECK(moved.dtypes[0].first_failure_at == name);
  CHECK(run(1).dtypes[0].passed());
  table[at] = quiet_nan<T>();
  const auto nan = run(1);
  CHECK_FALSE(nan.dtypes[0].passed());
  CHECK(nan.dtypes[0].first_failure_at == name);
}

// RN_T(-x) from an oracle value of x (the slopes), or RN_T(x).
template <class T, class V>
T rounded(V& v, std::size_t k = 0) {
  return v.template round<T>(k);
}

template <class T>
void float_schemes_of_one_dtype() {
  INFO("dtype " << pv::dtype_name(pv::dtype_of<T>()));
  {  // sinusoidal, the fairseq concat layout with an odd dim (a zero column), negative positions
    const posenc::sinusoidal::config c{
        .dim = 9, .exponent = posenc::sinusoidal::exponent::fairseq, .layout = posenc::sinusoidal::layout::concat};
    std::vector<T> t;
    for (std::int64_t pos = -20; pos < 20; ++pos)
      for (int j = 0; j < 9; ++j) {
        const pv::sinusoid_element e = pv::sinusoid_element_of(c, j);
        auto v = pv::sinusoid_angle_value(pos, c.base, e.num, e.den);
        t.push_back(e.zero ? T{} : rounded<T>(v, e.is_sin ? 1 : 0));
      }
    one_step_and_nan_fail<T>(t, 25 * 9 + 2, "row 25 (position 5), element 2", [&](auto in, std::uint64_t k) {
      return pv::verify_sinusoidal({.config = c, .start = -20, .positions = 40, .max_ulp = k}, in);
    });
  }
  {  // Transformer-XL: [sin | cos] of the framework's positions, inv_freq 10000^(-2i/16)
    const posenc::transformer_xl::config c{.d_model = 16, .klen = 12, .clamp_len = 9};
    const std::vector<std::int64_t> pos = pv::transformer_xl_positions(c);
    std::vector<T> t;
    for (const std::int64_t p : pos)
      for (int k = 0; k < 16; ++k) {
        auto v = pv::sinusoid_angle_value(p, 10000.0, 2 * (k % 8), 16);
        t.push_back(rounded<T>(v, k < 8 ? 1 : 0));
      }
    one_step_and_nan_fail<T>(t, 5 * 16 + 11, "row 5 (position 6), element 11", [&](auto in, std::uint64_t k) {
      return pv::verify_transformer_xl({.config = c, .max_ulp = k}, in);
    });
  }
  {  // XPOS: zeta_j = (2j + 0.4 d) / (1.4 d) to the power n / 512, d = 16
    std::vector<T> t;
    for (std::int64_t n = -30; n < 30; ++n)
      for (std::int64_t j = 0; j < 8; ++j) {
        auto v = pv::rational_power_value(2 * j * 5 + 2 * 16, 7 * 16, n, 512);
        t.push_back(rounded<T>(v));
      }
    one_step_and_nan_fail<T>(t, 40 * 8 + 3, "position 10, pair 3", [&](auto in, std::uint64_t k) {
      return pv::verify_xpos({.config = {.head_dim = 16}, .start = -30, .positions = 60, .max_ulp = k}, in);
    });
  }
  {  // KERPLE-log and -power, two heads
    std::vector<T> lg, pw;
    for (const auto& [p, a] : {std::pair{1.5, 0.5}, std::pair{0.75, 0.125}})
      for (std::uint64_t k = 0; k < 50; ++k) {
        auto l = pv::kerple_log_value(p, a, k);
        auto w = pv::kerple_power_value(a, p, k);
        lg.push_back(rounded<T>(l));
        pw.push_back(rounded<T>(w));
      }
    one_step_and_nan_fail<T>(lg, 50 + 7, "head 1, distance 7", [&](auto in, std::uint64_t k) {
      return pv::verify_kerple({.log = true, .p = {1.5, 0.75}, .a = {0.5, 0.125}, .distances = 50, .max_ulp = k}, in);
    });
    one_step_and_nan_fail<T>(pw, 31, "head 0, distance 31", [&](auto in, std::uint64_t k) {
      return pv::verify_kerple({.log = false, .p = {1.5, 0.75}, .a = {0.5, 0.125}, .distances = 50, .max_ulp = k}, in);
    });
  }
  {  // Sandwich d 8, 2 heads; distance 0 is exactly 0
    std::vector<T> t;
    for (int h = 0; h < 2; ++h)
      for (std::int64_t k = 0; k < 30; ++k) {
        if (k == 0) {
          t.push_back(T{});
          continue;
        }
        auto v = pv::sandwich_value(8, 2, h, k);
        t.push_back(rounded<T>(v));
      }
    one_step_and_nan_fail<T>(t, 30 + 12, "head 1, distance 12", [&](auto in, std::uint64_t k) {
      return pv::verify_sandwich({.config = {.dim = 8, .heads = 2}, .distances = 30, .max_ulp = k}, in);
    });
  }
  {  // log-n, Qwen's form: 1 up to the base 64, log_64(n) past it
    pv::detail::mp one(64);
    mpfr_set_ui(one.get(), 1, MPFR_RNDN);
    std::vector<T> t;
    for (std::int64_t n = 1; n <= 200; ++n) {
      auto v = pv::log_ratio_value(n, 64);
      t.push_back(n <= 64 ? pv::detail::round_into<T>(one.get()) : rounded<T>(v));
    }
    one_step_and_nan_fail<T>(t, 99, "n = 100", [&](auto in, std::uint64_t k) {
      return pv::verify_logn({.config = {.base = 64, .at_least_one = true}, .start = 1, .positions = 200, .max_ulp = k},
                             in);
    });
  }
}

}  // namespace

TEST_CASE("scheme verify: the float schemes' tables from the oracles pass; one step or a NaN fails, named",
          "[verify]") {
  float_schemes_of_one_dtype<double>();
  float_schemes_of_one_dtype<float>();
  float_schemes_of_one_dtype<bfloat16>();
  float_schemes_of_one_dtype<float16>();
}

TEST_CASE("scheme verify: posenc's own float tables pass in every dtype; their laws run and hold", "[verify]") {
  const pv::values_input own[] = {pv::own_values(pv::table_dtype::f64), pv::own_values(pv::table_dtype::f32),
                                  pv::own_values(pv::table_dtype::bf16), pv::own_values(pv::table_dtype::f16)};
  const auto all_pass = [](const pv::verify_report& r, std::size_t laws_ran) {
    INFO(r.scheme);
    CHECK(r.passed());
    CHECK(r.dtypes.size() == 4);
    std::size_t ran = 0;
    for (const auto& l : r.laws) ran += l.ran && l.holds ? 1u : 0u;
    CHECK(ran == laws_ran);
  };
  all_pass(pv::verify_sinusoidal({.config = {.dim = 32}, .start = -50, .positions = 100}, own), 8);
  all_pass(
      pv::verify_transformer_xl(
          {.config =
               {.d_model = 16, .klen = 40, .qlen = 8, .model = posenc::transformer_xl::model::xlnet, .bi_data = true}},
          own),
      8);
  all_pass(pv::verify_xpos({.config = {.head_dim = 32}, .start = -40, .positions = 80, .inverse = true}, own), 4);
  all_pass(pv::verify_kerple({.log = false, .p = {2.0, 0.5}, .a = {0.01, 0.25}, .distances = 64}, own), 0);
  all_pass(pv::verify_sandwich({.config = {.dim = 16, .heads = 3}, .distances = 40}, own), 0);
  all_pass(pv::verify_logn({.config = {}, .start = 1, .positions = 600}, own), 0);
}

TEST_CASE("scheme verify: DeBERTa buckets and Shaw indices against the published formulas; one off fails, named",
          "[verify]") {
  const posenc::deberta::config v3{};  // deberta-v3: 256 buckets, max_relative_positions 512
  std::vector<std::int32_t> db;
  for (std::int64_t r = -700; r <= 700; ++r) db.push_back(static_cast<std::int32_t>(pv::deberta_oracle_bucket(v3, r)));
  const pv::deberta_verify_request dq{.config = v3, .range = 700};
  const auto own = pv::verify_deberta(dq, {});
  CHECK(own.passed());
  CHECK(own.integers.entries == 1401);
  CHECK(own.laws.size() == 4);
  CHECK(every_law_ran_and_held(own));
  CHECK(pv::verify_deberta(dq, db, false).passed());
  db[700 + 511] -= 1;  // relative position 511: the published 255 (the term exactly mid - 1)
  const auto bad = pv::verify_deberta(dq, db, false);
  CHECK_FALSE(bad.passed());
  CHECK(bad.integers.first_failure_at == "relative position 511");
  CHECK(bad.integers.worst_exact == 255);

  const posenc::shaw::config k5{.max_relative_position = 5};
  std::vector<std::int32_t> sh;
  for (std::int64_t i = 0; i < 30; ++i)
    for (std::int64_t j = 0; j < 30; ++j) sh.push_back(static_cast<std::int32_t>(pv::shaw_oracle_index(5, i, j)));
  const pv::shaw_verify_request sq{.config = k5, .positions = 30};
  const auto own_shaw = pv::verify_shaw(sq, {});
  CHECK(own_shaw.passed());
  CHECK(every_law_ran_and_held(own_shaw));
  CHECK(pv::verify_shaw(sq, sh, false).passed());
  sh[12 * 30 + 9] = 3;  // query 12, key 9: clip(-3, -5, 5) + 5 = 2
  const auto bad_shaw = pv::verify_shaw(sq, sh, false);
  CHECK_FALSE(bad_shaw.passed());
  CHECK(bad_shaw.integers.first_failure_at == "query 12, key 9");
  CHECK(bad_shaw.integers.worst_exact == 2);
  // The laws read row 0 and column 0: an index off there breaks monotonicity too.
  sh[12 * 30 + 9] = 2;
  sh[3] = 10;  // query 0, key 3: 8 -> 10, above key 4's 9
  bool law_failed = false;
  for (const auto& l : pv::verify_shaw(sq, sh, false).laws) law_failed = law_failed || (l.ran && !l.holds);
  CHECK(law_failed);
}

namespace {

// Two reports say the same of the same table: every count, maximum, sum and named entry, and every
// law's findings (their times aside).
void same_findings(const pv::verify_report& a, const pv::verify_report& b) {
  CHECK(a.scheme == b.scheme);
  CHECK(a.first_block == b.first_block);
  CHECK(a.end_block == b.end_block);
  CHECK(a.passed() == b.passed());
  REQUIRE(a.dtypes.size() == b.dtypes.size());
  for (std::size_t i = 0; i < a.dtypes.size(); ++i) {
    const pv::dtype_findings &x = a.dtypes[i], &y = b.dtypes[i];
    CHECK(x.entries == y.entries);
    CHECK(x.not_correctly_rounded == y.not_correctly_rounded);
    CHECK(x.beyond_tolerance == y.beyond_tolerance);
    CHECK(x.max_ulp == y.max_ulp);
    CHECK(x.ulp_sum_q == y.ulp_sum_q);
    CHECK(x.worst.position == y.worst.position);
    CHECK(x.worst_at == y.worst_at);
    CHECK(x.first_failure_at == y.first_failure_at);
  }
  CHECK(a.integers.entries == b.integers.entries);
  CHECK(a.integers.wrong == b.integers.wrong);
  CHECK(a.integers.worst_at == b.integers.worst_at);
  CHECK(a.integers.first_failure_at == b.integers.first_failure_at);
  REQUIRE(a.laws.size() == b.laws.size());
  for (std::size_t i = 0; i < a.laws.size(); ++i) {
    INFO(a.laws[i].law);
    CHECK(a.laws[i].law == b.laws[i].law);
    CHECK(a.laws[i].ran == b.laws[i].ran);
    CHECK(a.laws[i].skipped == b.laws[i].skipped);
    CHECK(a.laws[i].holds == b.laws[i].holds);
    CHECK(a.laws[i].checked == b.laws[i].checked);
    CHECK(a.laws[i].failures == b.laws[i].failures);
    CHECK(a.laws[i].deviation == b.laws[i].deviation);
  }
}

// The report of one run on one thread; of one run on 3 threads; and of `shards` runs merged (their
// order given, their threads 2): all three the same, for a request verify(run) builds.
template <class Verify>
pv::verify_report same_whatever_the_split(Verify verify, std::uint64_t shards) {
  const pv::verify_report one = verify(pv::run_options{.threads = 1});
  INFO(one.scheme << ": " << one.total_blocks() << " blocks");
  REQUIRE(one.complete());
  REQUIRE(one.total_blocks() >= shards);
  same_findings(verify(pv::run_options{.threads = 3}), one);
  pv::verify_report merged = verify(pv::run_options{.shard = {0, shards}, .threads = 2});
  CHECK_FALSE(merged.complete());
  for (std::uint64_t k = 1; k < shards; ++k) {
    const pv::verify_report part = verify(pv::run_options{.shard = {k, shards}, .threads = 2});
    for (const auto& l : part.laws) CHECK(l.skipped == pv::detail::sv::laws_run_with_block_0);
    merged.merge(part);
  }
  CHECK(merged.complete());
  same_findings(merged, one);
  return one;
}

}  // namespace

TEST_CASE("scheme verify: threads and shards do not change the report; merged shards equal one run", "[verify]") {
  // ALiBi's causal bias table, 5 heads x 120 queries: 36300 entries, 9 blocks; one entry (in the
  // last shard) moved one step, so the worst entry and the first failure come from a slice.
  const posenc::alibi::config five{.heads = 5, .max_bias = 1.0};
  std::vector<float> alibi = oracle_alibi<float>(five, 120);
  alibi[4 * 7260 + 100 * 101 / 2 + 3] = one_step(alibi[4 * 7260 + 100 * 101 / 2 + 3]);
  const pv::values_input given[] = {pv::given_values<float>(alibi)};
  const auto bias = same_whatever_the_split(
      [&](const pv::run_options& run) {
        return pv::verify_alibi({.config = five, .bias = true, .positions = 120, .run = run}, given);
      },
      4);
  CHECK_FALSE(bias.passed());
  CHECK(bias.dtypes[0].first_failure_at == "head 4, query 100, key 3");

  // posenc's own sinusoidal table in two dtypes (its laws run in the slice of block 0).
  const pv::values_input own[] = {pv::own_values(pv::table_dtype::f32), pv::own_values(pv::table_dtype::bf16)};
  const auto sin = same_whatever_the_split(
      [&](const pv::run_options& run) {
        return pv::verify_sinusoidal({.config = {.dim = 64}, .start = -100, .positions = 300, .run = run}, own);
      },
      3);
  CHECK(sin.passed());
  CHECK_FALSE(sin.laws.empty());
  CHECK(every_law_ran_and_held(sin));

  // T5's buckets, one off in the middle slice and one off by as much in the last: the worst entry
  // is the first of the tied ones in row order, however the blocks are split and merged (the
  // report promises it, and a user reading two reports of one table expects one answer).
  std::vector<std::int32_t> t5;
  for (std::int64_t r = -6000; r <= 6000; ++r)
    t5.push_back(static_cast<std::int32_t>(pv::t5_oracle_bucket(posenc::t5::config{}, r)));
  t5[6000 + 200] += 1;   // entry 6200, block 1
  t5[6000 + 4000] -= 1;  // entry 10000, block 2: the same error, 1
  const auto buckets = same_whatever_the_split(
      [&](const pv::run_options& run) { return pv::verify_t5({.config = {}, .range = 6000, .run = run}, t5, false); },
      3);
  CHECK_FALSE(buckets.passed());
  CHECK(buckets.integers.wrong == 2);
  CHECK(buckets.integers.first_failure_at == "relative position 200");
  CHECK(buckets.integers.max_error == 1);
  CHECK(buckets.integers.worst_at == "relative position 200");

  // A shard past the blocks, and a shard index not below the count, are refused.
  CHECK_THROWS_WITH(pv::verify_t5({.config = {}, .range = 6000, .run = {.shard = {0, 4}}}, t5, false),
                    Catch::Contains("has no rows") || Catch::Contains("at most 3 shards"));
  CHECK_THROWS_WITH(pv::verify_t5({.config = {}, .range = 6000, .run = {.shard = {3, 3}}}, t5, false),
                    Catch::Contains("below the count"));
}
