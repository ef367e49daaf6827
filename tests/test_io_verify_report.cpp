// posenc::io::verify_report_to_json / verify_report_from_json (io/verify_report_json.hpp): a report
// survives the round trip field for field, non-finite reals and 128-bit sums included, and a text
// that is not such a report is refused with one line naming what is wrong.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include <posenc/io/verify_report_json.hpp>

namespace pv = posenc::verify;
namespace io = posenc::io;

namespace {

pv::verify_report sample() {
  pv::verify_report r;
  r.description = "a table; rotary_dim 64, half-split";
  r.start = 5000;
  r.rows = 3000;
  r.first_block = 1;
  r.end_block = 3;
  r.max_ulp_allowed = 1;
  r.seconds = 1.25;
  pv::dtype_findings d{.dtype = pv::table_dtype::bf16, .entries = 123456, .not_correctly_rounded = 7};
  d.beyond_tolerance = 2;
  d.max_ulp = std::numeric_limits<double>::infinity();                      // a NaN entry
  d.ulp_sum_q = static_cast<pv::ulp_sum_type>(0x123456789abcdefULL) << 40;  // past 2^64
  d.has_worst = true;
  d.worst = {6000, 17, true};
  d.worst_got = std::numeric_limits<double>::quiet_NaN();
  d.worst_exact = 0x1.8p-3;
  d.has_first_failure = true;
  d.first_failure = {5100, 3, false};
  r.dtypes.push_back(d);
  pv::law_findings l{.dtype = pv::table_dtype::bf16, .law = "relative dot", .ran = true};
  l.holds = false;
  l.deviation = 0.1 + 0.2;  // not a short decimal: must read back to the same double
  l.bound = 0x1.0p-7;
  l.checked = 99;
  l.failures = 1;
  l.has_worst = true;
  l.worst = {6001, 4, -1, 6000};
  l.has_first_failure = true;
  l.first_failure = {5200, 2, -1, posenc::laws::no_partner};
  r.laws.push_back(l);
  r.laws.push_back({.dtype = pv::table_dtype::bf16, .law = "parity", .skipped = "needs rows at negative positions"});
  return r;
}

}  // namespace

TEST_CASE("verify report JSON: the round trip keeps every field", "[io][verify]") {
  const pv::verify_report r = sample();
  const std::string text = io::verify_report_to_json(r).dump(1);
  CHECK(text.find("\"max_ulp\": \"inf\"") != std::string::npos);
  CHECK(text.find("\"ulp_sum_q\": \"" + std::string("90144042682896311817621995520") + "\"") != std::string::npos);
  const auto back = io::verify_report_from_json(text);
  REQUIRE(back.ok());
  const pv::verify_report& b = back.value();
  CHECK(b.description == r.description);
  CHECK(b.start == r.start);
  CHECK(b.rows == r.rows);
  CHECK(b.first_block == 1);
  CHECK(b.end_block == 3);
  CHECK(b.max_ulp_allowed == 1);
  CHECK(b.seconds == 1.25);
  REQUIRE(b.dtypes.size() == 1);
  const auto &x = b.dtypes[0], &y = r.dtypes[0];
  CHECK(x.dtype == y.dtype);
  CHECK(x.entries == y.entries);
  CHECK(x.not_correctly_rounded == y.not_correctly_rounded);
  CHECK(x.beyond_tolerance == y.beyond_tolerance);
  CHECK(x.max_ulp == y.max_ulp);
  CHECK(x.ulp_sum_q == y.ulp_sum_q);
  CHECK(x.worst.position == 6000);
  CHECK(x.worst.element == 17);
  CHECK(x.worst.is_sin);
  CHECK(x.worst_got != x.worst_got);  // NaN
  CHECK(x.worst_exact == 0x1.8p-3);
  CHECK(x.first_failure.position == 5100);
  REQUIRE(b.laws.size() == 2);
  CHECK(b.laws[0].deviation == 0.1 + 0.2);
  CHECK(b.laws[0].worst.partner == 6000);
  CHECK(b.laws[0].first_failure.partner == posenc::laws::no_partner);
  CHECK_FALSE(b.laws[0].holds);
  CHECK_FALSE(b.laws[1].ran);
  CHECK(b.laws[1].skipped == "needs rows at negative positions");
  CHECK(io::verify_report_to_json(b).dump(1) == text);  // and again, byte for byte
}

TEST_CASE("verify report JSON: what is not a report is refused, naming the problem", "[io][verify]") {
  using Catch::Matchers::Contains;
  const auto error = [](const std::string& text) {
    const auto r = io::verify_report_from_json(text);
    return r.ok() ? std::string("accepted") : r.error();
  };
  CHECK_THAT(error("{\"rows\": 3"), Contains("not valid JSON"));
  CHECK_THAT(error("[1, 2]"), Contains("not a JSON object"));
  CHECK_THAT(error("{\"rows\": 3}"), Contains("not a posenc verify report"));
  auto j = io::verify_report_to_json(sample());
  j["posenc_verify_report"] = 1;  // the version before the report held every scheme's tables
  CHECK_THAT(error(j.dump()), Contains("version 1"));
  j = io::verify_report_to_json(sample());
  j["dtypes"][0].erase("entries");
  CHECK_THAT(error(j.dump()), Contains("dtypes[0].entries is missing"));
  j = io::verify_report_to_json(sample());
  j["dtypes"][0]["ulp_sum_q"] = "12x";
  CHECK_THAT(error(j.dump()), Contains("ulp_sum_q"));
  j = io::verify_report_to_json(sample());
  j["end_block"] = 9;
  CHECK_THAT(error(j.dump()), Contains("not a range of the table's 3"));
  j = io::verify_report_to_json(sample());
  j["laws"][0]["dtype"] = "f8";
  CHECK_THAT(error(j.dump()), Contains("'f8'"));
}
