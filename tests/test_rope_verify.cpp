// posenc::verify::verify_rope (verify/rope_verify.hpp): posenc's own tables pass in every dtype;
// the ULP figures agree with verify::ulp_error entry by entry; a table one step off in one entry, a
// NaN entry or HF's float32 table fails at the right entry; --max-ulp tolerates what it says; the
// report does not depend on the threads or on how the blocks are split into shards.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/models.hpp>
#include <posenc/rope/policy.hpp>
#include <posenc/verify/rope_table_oracle.hpp>
#include <posenc/verify/rope_verify.hpp>
#include <posenc/verify/stats.hpp>

namespace pv = posenc::verify;
namespace pr = posenc::rope;

namespace {

template <class T>
struct table {
  std::vector<T> cos, sin;
};

template <class T>
table<T> own(const pr::config& c, std::uint64_t start, std::size_t rows, pr::layout lay = pr::layout::half_split) {
  const std::size_t d = static_cast<std::size_t>(pr::rotary_dim(c));
  table<T> t{std::vector<T>(rows * d), std::vector<T>(rows * d)};
  REQUIRE(pr::fill_table<T>(c, std::span<T>(t.cos), std::span<T>(t.sin), lay, {.start = start}) == posenc::status::ok);
  return t;
}

template <class T>
pv::verify_report check(const pv::rope_verify_request& q, const table<T>& t) {
  const pv::table_input in[] = {pv::given_table<T>(t.cos, t.sin)};
  return pv::verify_rope(q, in);
}

// The next representable value of T above x (x finite, not the largest).
template <class T>
T next_up(T x) {
  std::uint64_t b = pv::detail::to_bits64(x);
  const std::uint64_t sign = std::uint64_t{1} << (pv::detail::storage_bits<T> - 1);
  if (b == sign) return pv::detail::from_bits64<T>(1);  // -0 -> smallest subnormal
  b = (b & sign) != 0 ? b - 1 : b + 1;
  return pv::detail::from_bits64<T>(b);
}

void require_same_findings(const pv::verify_report& a, const pv::verify_report& b) {
  REQUIRE(a.first_block == b.first_block);
  REQUIRE(a.end_block == b.end_block);
  REQUIRE(a.dtypes.size() == b.dtypes.size());
  for (std::size_t i = 0; i < a.dtypes.size(); ++i) {
    const auto &x = a.dtypes[i], &y = b.dtypes[i];
    CHECK(x.entries == y.entries);
    CHECK(x.not_correctly_rounded == y.not_correctly_rounded);
    CHECK(x.beyond_tolerance == y.beyond_tolerance);
    CHECK(x.ulp_sum_q == y.ulp_sum_q);
    CHECK(x.max_ulp == y.max_ulp);
    CHECK(x.worst.position == y.worst.position);
    CHECK(x.worst.element == y.worst.element);
    CHECK(x.worst.is_sin == y.worst.is_sin);
    CHECK(x.has_first_failure == y.has_first_failure);
    CHECK(x.first_failure.position == y.first_failure.position);
  }
  REQUIRE(a.laws.size() == b.laws.size());
  for (std::size_t i = 0; i < a.laws.size(); ++i) {
    const auto &x = a.laws[i], &y = b.laws[i];
    INFO(x.law);
    CHECK(x.ran == y.ran);
    CHECK(x.holds == y.holds);
    CHECK(x.checked == y.checked);
    CHECK(x.failures == y.failures);
    CHECK(x.deviation == y.deviation);
    CHECK(x.worst.position == y.worst.position);
    CHECK(x.worst.pair == y.worst.pair);
  }
}

}  // namespace

TEST_CASE("verify_rope: posenc's own tables pass in every dtype, every entry counted", "[verify]") {
  const pr::config c = pr::models::llama3_2_1b;  // llama3 scaling, head_dim 64
  pv::rope_verify_request q{.config = c, .start = 100, .rows = 1500};
  const pv::table_input in[] = {pv::own_table(pv::table_dtype::f64), pv::own_table(pv::table_dtype::f32),
                                pv::own_table(pv::table_dtype::bf16), pv::own_table(pv::table_dtype::f16)};
  const auto r = pv::verify_rope(q, in);
  CHECK(r.passed());
  CHECK(r.complete());
  REQUIRE(r.dtypes.size() == 4);
  for (const auto& d : r.dtypes) {
    INFO(pv::dtype_name(d.dtype));
    CHECK(d.entries == 1500u * 64u * 2u);
    CHECK(d.not_correctly_rounded == 0);
    CHECK(d.max_ulp <= 0.5);
    CHECK(d.max_ulp > 0.49);    // 192000 entries: some lie near a midpoint
    CHECK(d.mean_ulp() > 0.1);  // a rounding error is uniform-ish on [0, 0.5]
    CHECK(d.mean_ulp() < 0.3);
  }
  // Every law the registry has for a plain table ran in every dtype, and held.
  std::size_t ran = 0;
  for (const auto& l : r.laws) {
    INFO(l.law);
    if (!l.ran) continue;
    ++ran;
    CHECK(l.holds);
    CHECK(l.failures == 0);
  }
  CHECK(ran >= 4 * 8);  // exactness .. norm preservation, monotone frequencies: in each of four dtypes
}

TEST_CASE("verify_rope: the ULP figures are verify::ulp_error's, entry by entry", "[verify]") {
  // A table with errors (HF's float32 pipeline): the report's max, mean and worst entry equal those
  // computed here from the oracle and ulp_error (MPFR), independently of the verifier's double-double.
  const pr::config c{.head_dim = 32, .rope_theta = 10000.0};
  const std::size_t rows = 300, d = 32, pairs = 16;
  table<float> t{std::vector<float>(rows * d), std::vector<float>(rows * d)};
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t j = 0; j < pairs; ++j) {
      const auto cs = pr::sincos<float>(pr::hf_float32, c, 7000 + r, static_cast<int>(j));
      REQUIRE(cs.ok());
      for (const std::size_t k : {j, j + pairs}) {
        t.cos[r * d + k] = cs.value.cos;
        t.sin[r * d + k] = cs.value.sin;
      }
    }
  const auto rep = check(pv::rope_verify_request{.config = c, .start = 7000, .rows = rows}, t);
  const pv::rope_table_oracle oracle(c);
  double max_err = 0, sum = 0;
  std::uint64_t not_cr = 0;
  pv::rope_table_oracle::value v;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t k = 0; k < d; ++k) {
      oracle.eval(7000 + r, static_cast<int>(k % pairs), false, v);
      for (const bool s : {false, true}) {
        const float got = s ? t.sin[r * d + k] : t.cos[r * d + k];
        const mpfr_srcptr exact = s ? v.sin.get() : v.cos.get();
        const double e = pv::ulp_error(got, exact);
        max_err = std::max(max_err, e);
        sum += e;
        if (pv::detail::round_into_bits<float>(exact) != pv::detail::to_bits64(got)) ++not_cr;
      }
    }
  REQUIRE(rep.dtypes.size() == 1);
  const auto& f = rep.dtypes[0];
  CHECK(f.entries == rows * d * 2);
  CHECK(f.not_correctly_rounded == not_cr);
  CHECK(not_cr > 0);  // the float32 angle's error shows at positions 7000+
  CHECK(f.max_ulp == Approx(max_err).epsilon(1e-12));
  CHECK(f.mean_ulp() == Approx(sum / static_cast<double>(rows * d * 2)).epsilon(1e-9));
  CHECK_FALSE(rep.passed());
}

TEST_CASE("verify_rope: one entry one step off is found, and --max-ulp 1 tolerates it", "[verify]") {
  const pr::config c = pr::models::qwen2_5_7b_yarn;
  const std::uint64_t start = 4000;
  table<float> t = own<float>(c, start, 2500);
  const std::size_t d = 128, row = 1700, k = 77;
  t.sin[row * d + k] = next_up(t.sin[row * d + k]);
  pv::rope_verify_request q{.config = c, .start = start, .rows = 2500};
  const auto r = check(q, t);
  CHECK_FALSE(r.passed());
  REQUIRE(r.dtypes.size() == 1);
  CHECK(r.dtypes[0].not_correctly_rounded == 1);
  CHECK(r.dtypes[0].beyond_tolerance == 1);
  REQUIRE(r.dtypes[0].has_first_failure);
  CHECK(r.dtypes[0].first_failure.position == start + row);
  CHECK(r.dtypes[0].first_failure.element == k);
  CHECK(r.dtypes[0].first_failure.is_sin);
  CHECK(r.dtypes[0].max_ulp > 0.5);
  CHECK(r.dtypes[0].max_ulp < 1.5);
  CHECK(r.dtypes[0].worst.position == start + row);
  for (const auto& l : r.laws)
    if (l.law == "exactness" || l.law == "pair copies") {
      INFO(l.law);
      CHECK_FALSE(l.holds);
      CHECK(l.first_failure.position == static_cast<std::int64_t>(start + row));
    }

  q.max_ulp = 1;
  const auto tolerant = check(q, t);
  CHECK(tolerant.dtypes[0].not_correctly_rounded == 1);
  CHECK(tolerant.dtypes[0].beyond_tolerance == 0);
  for (const auto& l : tolerant.laws)
    if (l.law == "exactness") CHECK(l.holds);
}

TEST_CASE("verify_rope: a NaN entry fails; so does a table in the other layout", "[verify]") {
  const pr::config c{.head_dim = 64, .rope_theta = 500000.0};
  table<posenc::bfloat16> t = own<posenc::bfloat16>(c, 0, 1100);
  t.cos[1050 * 64 + 3] = posenc::bfloat16::from_bits(0x7FC0);
  const auto r = check(pv::rope_verify_request{.config = c, .rows = 1100}, t);
  CHECK_FALSE(r.passed());
  CHECK(r.dtypes[0].beyond_tolerance == 1);
  CHECK(r.dtypes[0].max_ulp == std::numeric_limits<double>::infinity());
  CHECK(r.dtypes[0].first_failure.position == 1050);

  const table<posenc::bfloat16> inter = own<posenc::bfloat16>(c, 0, 1100, pr::layout::interleaved);
  const auto wrong = check(pv::rope_verify_request{.config = c, .rows = 1100}, inter);
  CHECK_FALSE(wrong.passed());
  CHECK(wrong.dtypes[0].beyond_tolerance > 0);
  const auto right =
      check(pv::rope_verify_request{.config = c, .rows = 1100, .layout = pr::layout::interleaved}, inter);
  CHECK(right.passed());
}

TEST_CASE("verify_rope: folded tables and partial rotary dims", "[verify]") {
  const pr::config yarn = pr::models::qwen2_5_7b_yarn;  // attention factor 0.1 ln 4 + 1
  pv::rope_verify_request q{.config = yarn, .start = 160000, .rows = 1024, .fold_attention = true};
  const pv::table_input own_f16[] = {pv::own_table(pv::table_dtype::f16), pv::own_table(pv::table_dtype::f32)};
  CHECK(pv::verify_rope(q, own_f16).passed());
  // The plain table given as if folded: every entry off by the attention factor.
  const table<float> plain = own<float>(yarn, 160000, 1024);
  const auto r = check(q, plain);
  CHECK_FALSE(r.passed());
  CHECK(r.dtypes[0].beyond_tolerance > 1024 * 128);

  const pr::config neox = pr::models::pythia;  // rotary dim 32 of 128
  const table<double> t = own<double>(neox, 0, 600);
  const auto p = check(pv::rope_verify_request{.config = neox, .rows = 600}, t);
  CHECK(p.passed());
  CHECK(p.dtypes[0].entries == 600u * 32u * 2u);
}

TEST_CASE("verify_rope: threads and shards do not change the findings", "[verify]") {
  const pr::config c = pr::models::llama3_2_1b;  // rotary dim 64
  const std::uint64_t rows = 4500;               // 5 blocks, the last one short
  table<float> t = own<float>(c, 0, rows);
  t.cos[3100 * 64 + 9] = next_up(t.cos[3100 * 64 + 9]);  // something to find
  t.sin[1200 * 64 + 60] = next_up(next_up(t.sin[1200 * 64 + 60]));
  pv::rope_verify_request q{.config = c, .rows = rows, .threads = 1};
  const auto whole = check(q, t);
  CHECK_FALSE(whole.passed());
  CHECK(whole.dtypes[0].first_failure.position == 1200);
  q.threads = 3;
  require_same_findings(check(q, t), whole);
  for (const std::uint64_t n : {std::uint64_t{2}, std::uint64_t{3}, std::uint64_t{5}}) {  // 5: one block each
    INFO("shards: " << n);
    q.shard = {0, n};
    pv::verify_report merged = check(q, t);
    CHECK_FALSE(merged.complete());
    for (std::uint64_t k = 1; k < n; ++k) {
      q.shard = {k, n};
      merged.merge(check(q, t));
    }
    CHECK(merged.complete());
    require_same_findings(merged, whole);
  }
  // Reports that do not follow each other do not merge.
  q.shard = {0, 3};
  pv::verify_report first = check(q, t);
  q.shard = {2, 3};
  CHECK_THROWS_AS(first.merge(check(q, t)), std::invalid_argument);
}

TEST_CASE("verify_rope: requests it cannot carry out throw, naming the problem", "[verify]") {
  const pr::config c{.head_dim = 64, .rope_theta = 10000.0};
  const pv::table_input own[] = {pv::own_table(pv::table_dtype::f32)};
  const auto msg = [&](pv::rope_verify_request q, std::span<const pv::table_input> in) -> std::string {
    try {
      pv::verify_rope(q, in);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "no exception";
  };
  using Catch::Matchers::Contains;
  CHECK_THAT(msg({.config = c, .rows = 0}, own), Contains("no rows"));
  CHECK_THAT(msg({.config = c, .rows = 2048, .shard = {2, 2}}, own), Contains("below the count"));
  CHECK_THAT(msg({.config = c, .rows = 2048, .shard = {0, 3}}, own), Contains("has no rows"));
  CHECK_THAT(msg({.config = c, .start = 2097000, .rows = 2048}, own), Contains("2^21"));
  CHECK_THAT(msg({.config = pr::config{.head_dim = 64, .rope_theta = 0.5}, .rows = 10}, own), Contains("rope_theta"));
  const pv::table_input twice[] = {pv::own_table(pv::table_dtype::f32), pv::own_table(pv::table_dtype::f32)};
  CHECK_THAT(msg({.config = c, .rows = 10}, twice), Contains("two tables of dtype f32"));
  const std::vector<float> small(64 * 9);
  const pv::table_input short_table[] = {pv::given_table<float>(small, small)};
  CHECK_THAT(msg({.config = c, .rows = 10}, short_table), Contains("expected 10 rows x 64 = 640"));
}
