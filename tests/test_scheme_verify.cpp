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
#include "posenc/verify/scheme_verify.hpp"
#include "posenc/verify/t5_oracle.hpp"

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
pv::scheme_verify_report verify_given(const pv::alibi_verify_request& q, const std::vector<T>& v) {
  const pv::values_input in[] = {pv::given_values<T>(std::span<const T>(v))};
  return pv::verify_alibi(q, in);
}

bool every_law_ran_and_held(const pv::scheme_verify_report& r) {
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
  CHECK(good.dtypes[0].findings.entries == 16);
  CHECK(good.dtypes[0].findings.not_correctly_rounded == 0);
  CHECK(good.dtypes[0].findings.max_ulp <= 0.5);
  // Both slope laws apply to BLOOM's 16 heads (odd heads have integer exponents); the bias laws
  // need the bias table.
  std::size_t ran = 0, skipped = 0;
  for (const auto& l : good.laws) (l.ran ? ran : skipped) += 1;
  CHECK(ran == 2);
  CHECK(skipped == 2);

  s[5] = one_step(s[5]);
  const auto moved = verify_given<T>(slopes, s);
  CHECK_FALSE(moved.passed());
  CHECK(moved.dtypes[0].findings.beyond_tolerance == 1);
  CHECK(moved.dtypes[0].first_failure_at == "head 5");
  CHECK(moved.dtypes[0].findings.max_ulp > 0.5);
  pv::alibi_verify_request tolerant = slopes;
  tolerant.max_ulp = 1;
  const auto within = verify_given<T>(tolerant, s);
  CHECK(within.dtypes[0].findings.passed());
  CHECK(within.dtypes[0].findings.not_correctly_rounded == 1);

  s[5] = quiet_nan<T>();
  const auto nan = verify_given<T>(tolerant, s);
  CHECK_FALSE(nan.passed());
  CHECK(nan.dtypes[0].first_failure_at == "head 5");
  CHECK(nan.dtypes[0].findings.max_ulp == std::numeric_limits<double>::infinity());

  // The causal bias table of 12 heads (8 + 4 interleaved: irrational slopes) over 40 positions.
  const posenc::alibi::config twelve{.heads = 12};
  const pv::alibi_verify_request causal{.config = twelve, .bias = true, .positions = 40};
  std::vector<T> b = oracle_alibi<T>(twelve, 40);
  const auto bias_ok = verify_given<T>(causal, b);
  CHECK(bias_ok.passed());
  CHECK(bias_ok.dtypes[0].findings.entries == 12 * 40 * 41 / 2);
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
    for (const auto& d : r.dtypes) CHECK(d.findings.not_correctly_rounded == 0);
    CHECK(r.dtypes[0].findings.entries == 5u * (symmetric ? 33u * 33u : 33u * 34u / 2u));
  }
  const pv::alibi_verify_request wrong{.config = {.heads = 16}};
  const std::vector<float> short_table(15);
  CHECK_THROWS_AS(verify_given<float>(wrong, short_table), std::invalid_argument);
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
