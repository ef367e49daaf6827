// test_cli_schemes.cpp: `posenc emit <scheme>` for every scheme but RoPE (issue 9), run as the built
// executable (POSENC_CLI_PATH). Expected values are never the tool's own output: each row is
// compared, bit for bit, with the scheme's generator called here (the scalar entry points, where
// the tool calls the table fillers; both are verified against MPFR in the schemes' own tests), or
// with a published or derived value (ALiBi's 8 slopes are 2^-1 .. 2^-8, T5's bucket of 0 is 0,
// log_512(2048) = 11/9, KERPLE-power with p = 1 is -a k exactly, ...).
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <posenc/alibi.hpp>
#include <posenc/attn_temperature.hpp>
#include <posenc/config_field.hpp>
#include <posenc/deberta.hpp>
#include <posenc/kerple.hpp>
#include <posenc/logn.hpp>
#include <posenc/math/round.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/bits.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/sandwich.hpp>
#include <posenc/shaw.hpp>
#include <posenc/sinusoidal.hpp>
#include <posenc/t5.hpp>
#include <posenc/transformer_xl.hpp>
#include <posenc/xpos.hpp>

#include "cli_test_util.hpp"

namespace {

using posenc::bfloat16;
using posenc::float16;
using posenc_test::cat;
using posenc_test::cli_result;
using posenc_test::dbits;
using posenc_test::dtype;
using posenc_test::emit;
using posenc_test::exact;
using posenc_test::fnv1a64;
using posenc_test::parse_hex;
using posenc_test::split;
using posenc_test::strings;

// A successful run's stdout.
std::string ok_out(const strings& args) {
  const cli_result r = emit(args);
  INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
  REQUIRE(r.status == 0);
  REQUIRE(r.err.empty());
  return r.out;
}

// A CSV: the header, then the rows split into fields.
struct csv {
  std::string header;
  std::vector<strings> rows;
};

csv ok_csv(const strings& args) {
  const std::string out = ok_out(args);
  auto lines = split(out, '\n');
  REQUIRE(lines.size() >= 2);
  REQUIRE(lines.back().empty());
  lines.pop_back();
  csv c{lines[0], {}};
  for (std::size_t i = 1; i < lines.size(); ++i) c.rows.push_back(split(lines[i], ','));
  return c;
}

long long integer(const std::string& s) {
  long long v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  REQUIRE(ec == std::errc{});
  REQUIRE(p == s.data() + s.size());
  return v;
}

// The field equals v bit for bit (-0 differs from +0).
template <class T>
bool same(const std::string& field, T v) {
  return dbits(parse_hex(field)) == dbits(exact(v));
}

// A --decimal field read back into T (f64/f32 by from_chars, bf16/f16 by one correct rounding of
// the decimal's double, which the tool's shortest decimal allows: it lies inside the rounding interval).
template <class T>
T read_decimal(const std::string& s) {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    T v{};
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    REQUIRE(ec == std::errc{});
    REQUIRE(p == s.data() + s.size());
    return v;
  } else {
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    REQUIRE(end == s.c_str() + s.size());
    return posenc::math::round_to<T>(d).value;
  }
}

template <class T>
auto bits_of(T v) {
  return posenc::to_bits(v);
}

// Little-endian bytes of v (the --format bin encoding).
template <class T>
std::string le_bytes(T v) {
  std::string s;
  if constexpr (std::is_same_v<T, std::int32_t>) {
    auto b = static_cast<std::uint32_t>(v);
    for (int i = 0; i < 4; ++i, b >>= 8) s += static_cast<char>(b & 0xFFu);
  } else {
    auto b = posenc::to_bits(v);
    for (std::size_t i = 0; i < sizeof b; ++i, b = static_cast<decltype(b)>(b >> 8)) s += static_cast<char>(b & 0xFFu);
  }
  return s;
}

// ---- sinusoidal ----------------------------------------------------------------------------

template <class T>
void check_sinusoidal(const strings& flags, posenc::sinusoidal::config cfg, long long start, long long n) {
  const posenc::sinusoidal::checked_config cc{cfg};
  REQUIRE(cc.ok());
  const csv c = ok_csv(cat(flags, {"--dtype", dtype<T>()}));
  CHECK(c.header == "position,dim,value");
  REQUIRE(c.rows.size() == static_cast<std::size_t>(n * cfg.dim));
  std::size_t r = 0;
  for (long long p = start; p < start + n; ++p)
    for (int k = 0; k < cfg.dim; ++k, ++r) {
      INFO("position " << p << ", element " << k << ", " << dtype<T>());
      REQUIRE(c.rows[r].size() == 3);
      CHECK(integer(c.rows[r][0]) == p);
      CHECK(integer(c.rows[r][1]) == k);
      const auto want = posenc::sinusoidal::element<T>(cc, p, k);
      REQUIRE(want.ok());
      CHECK(same(c.rows[r][2], want.value));
    }
  // --decimal reads back to the same bits.
  const csv d = ok_csv(cat(flags, {"--dtype", dtype<T>(), "--decimal"}));
  REQUIRE(d.rows.size() == c.rows.size());
  for (std::size_t i = 0; i < d.rows.size(); ++i) {
    INFO("row " << i << ": " << d.rows[i][2]);
    CHECK(d.rows[i][2].find("0x") == std::string::npos);
    CHECK(
        bits_of(read_decimal<T>(d.rows[i][2])) ==
        bits_of(
            posenc::sinusoidal::element<T>(cc, integer(d.rows[i][0]), static_cast<int>(integer(d.rows[i][1]))).value));
  }
}

TEST_CASE("emit sinusoidal: every element is sinusoidal::element, in each layout, exponent and dtype",
          "[cli][schemes]") {
  using posenc::sinusoidal::exponent;
  using posenc::sinusoidal::layout;
  const strings paper{"sinusoidal", "--dim", "5", "--positions", "4", "--start", "-2"};
  check_sinusoidal<double>(paper, {.dim = 5}, -2, 4);
  check_sinusoidal<float>(paper, {.dim = 5}, -2, 4);
  check_sinusoidal<bfloat16>(paper, {.dim = 5}, -2, 4);
  check_sinusoidal<float16>(paper, {.dim = 5}, -2, 4);
  const strings fairseq{"sinusoidal", "--dim",   "7",          "--positions", "3",        "--start", "1000",
                        "--base",     "0x1p+10", "--exponent", "fairseq",     "--layout", "concat"};
  const posenc::sinusoidal::config fcfg{
      .dim = 7, .base = 1024.0, .exponent = exponent::fairseq, .layout = layout::concat};
  check_sinusoidal<double>(fairseq, fcfg, 1000, 3);
  check_sinusoidal<float16>(fairseq, fcfg, 1000, 3);
  // Derived: position 0 is sin 0 = 0, cos 0 = 1 in the interleaved layout.
  const csv z = ok_csv({"sinusoidal", "--dim", "2", "--positions", "1"});
  CHECK(z.rows[0][2] == "0x0p+0");
  CHECK(z.rows[1][2] == "0x1p+0");
}

// ---- Transformer-XL / XLNet ------------------------------------------------------------------

TEST_CASE("emit transformer-xl: rows and values are transformer_xl::position and fill_table", "[cli][schemes]") {
  using posenc::transformer_xl::model;
  struct cfg_case {
    strings flags;
    posenc::transformer_xl::config cfg;
  };
  const std::vector<cfg_case> cases{
      {{"--d-model", "4", "--klen", "5", "--clamp-len", "3"}, {.d_model = 4, .klen = 5, .clamp_len = 3}},
      {{"--d-model", "6", "--klen", "3", "--qlen", "2", "--model", "xlnet", "--bi-data"},
       {.d_model = 6, .klen = 3, .qlen = 2, .model = model::xlnet, .bi_data = true}},
      {{"--d-model", "2", "--klen", "3", "--qlen", "1", "--model", "xlnet", "--attn-type", "uni"},
       {.d_model = 2,
        .klen = 3,
        .qlen = 1,
        .model = model::xlnet,
        .attn_type = posenc::transformer_xl::attention::uni}},
  };
  for (const auto& k : cases) {
    const csv c = ok_csv(cat({"transformer-xl", "--dtype", "f32"}, k.flags));
    CHECK(c.header == "row,position,dim,value");
    const auto rows = static_cast<std::size_t>(posenc::transformer_xl::rows(k.cfg));
    const auto d = static_cast<std::size_t>(k.cfg.d_model);
    std::vector<float> want(rows * d);
    REQUIRE(posenc::transformer_xl::fill_table<float>(k.cfg, want) == posenc::status::ok);
    REQUIRE(c.rows.size() == rows * d);
    for (std::size_t r = 0; r < c.rows.size(); ++r) {
      INFO(posenc_test::describe_cli(k.flags) << " row " << r);
      CHECK(integer(c.rows[r][0]) == static_cast<long long>(r / d));
      CHECK(integer(c.rows[r][1]) == posenc::transformer_xl::position(k.cfg, static_cast<std::int64_t>(r / d)).value);
      CHECK(integer(c.rows[r][2]) == static_cast<long long>(r % d));
      CHECK(same(c.rows[r][3], want[r]));
    }
  }
  // Derived: Transformer-XL's positions run klen - 1 down to 0, clamped (here at 3).
  const csv c = ok_csv({"transformer-xl", "--d-model", "2", "--klen", "5", "--clamp-len", "3"});
  strings positions;
  for (std::size_t r = 0; r < c.rows.size(); r += 2) positions.push_back(c.rows[r][1]);
  CHECK(positions == strings{"3", "3", "2", "1", "0"});
}

// ---- ALiBi ---------------------------------------------------------------------------------

TEST_CASE("emit alibi: the slopes of 8 heads are 2^-1 .. 2^-8 exactly; others alibi::slope", "[cli][schemes]") {
  const csv c = ok_csv({"alibi", "--heads", "8"});
  CHECK(c.header == "head,slope");
  REQUIRE(c.rows.size() == 8);
  for (std::size_t h = 0; h < 8; ++h) {
    CHECK(integer(c.rows[h][0]) == static_cast<long long>(h));
    CHECK(c.rows[h][1] == "0x1p-" + std::to_string(h + 1));
  }
  const csv d = ok_csv({"alibi", "--heads", "8", "--decimal"});
  CHECK(d.rows[0][1] == "0.5");
  CHECK(d.rows[7][1] == "0.00390625");
  // 12 heads (not a power of two), max_bias 6, in every dtype.
  const posenc::alibi::checked_config cc{posenc::alibi::config{.heads = 12, .max_bias = 6.0}};
  const auto check = [&](auto tag) {
    using T = decltype(tag);
    const csv e = ok_csv({"alibi", "--heads", "12", "--max-bias", "6", "--dtype", dtype<T>()});
    REQUIRE(e.rows.size() == 12);
    for (int h = 0; h < 12; ++h)
      CHECK(same(e.rows[static_cast<std::size_t>(h)][1], posenc::alibi::slope<T>(cc, h).value));
  };
  check(double{});
  check(float{});
  check(bfloat16{});
  check(float16{});
}

TEST_CASE("emit alibi --bias: causal and symmetric rows are alibi::bias", "[cli][schemes]") {
  const posenc::alibi::checked_config cc{posenc::alibi::config{.heads = 3}};
  for (const bool symmetric : {false, true}) {
    strings args{"alibi", "--heads", "3", "--bias", "--positions", "5", "--dtype", "bf16"};
    if (symmetric) args.push_back("--symmetric");
    const csv c = ok_csv(args);
    CHECK(c.header == "head,query,key,bias");
    std::size_t r = 0;
    for (int h = 0; h < 3; ++h)
      for (std::uint64_t i = 0; i < 5; ++i)
        for (std::uint64_t j = 0; j < (symmetric ? 5 : i + 1); ++j, ++r) {
          INFO("head " << h << " query " << i << " key " << j << (symmetric ? " symmetric" : " causal"));
          REQUIRE(r < c.rows.size());
          CHECK(integer(c.rows[r][0]) == h);
          CHECK(integer(c.rows[r][1]) == static_cast<long long>(i));
          CHECK(integer(c.rows[r][2]) == static_cast<long long>(j));
          const auto m = symmetric ? posenc::alibi::mask::symmetric : posenc::alibi::mask::causal;
          CHECK(same(c.rows[r][3], posenc::alibi::bias<bfloat16>(cc, h, i, j, m).value));
        }
    CHECK(r == c.rows.size());
  }
  // Derived: with 1 head the slope is 2^-8, so query 3, key 1 has bias -2 * 2^-8 = -2^-7.
  const csv one = ok_csv({"alibi", "--heads", "1", "--bias", "--positions", "4"});
  CHECK(one.rows[7] == strings{"0", "3", "1", "-0x1p-7"});
}

// ---- buckets and indices (integers) ----------------------------------------------------------

TEST_CASE("emit t5-bucket: buckets are t5::bucket; relative position 0 is bucket 0", "[cli][schemes]") {
  for (const bool causal : {false, true}) {
    strings args{"t5-bucket", "--num-buckets", "32", "--max-distance", "128", "--range", "300"};
    if (causal) args.push_back("--causal");
    const csv c = ok_csv(args);
    CHECK(c.header == "relative_position,bucket");
    REQUIRE(c.rows.size() == 601);
    const posenc::t5::checked_config cc{posenc::t5::config{.bidirectional = !causal}};
    for (std::size_t r = 0; r < c.rows.size(); ++r) {
      const long long rel = static_cast<long long>(r) - 300;
      INFO("relative position " << rel << (causal ? " causal" : " bidirectional"));
      CHECK(integer(c.rows[r][0]) == rel);
      CHECK(integer(c.rows[r][1]) == posenc::t5::bucket(cc, rel).value);
    }
    CHECK(c.rows[300][1] == "0");                    // published: 0 is the first bucket
    CHECK(c.rows[299][1] == "1");                    // key one before the query
    CHECK(c.rows[301][1] == (causal ? "0" : "17"));  // one after: the upper half (16 + 1), or 0
    CHECK(c.rows[0][1] == (causal ? "31" : "15"));   // saturated past max_distance
  }
}

// The config flags are generated from each scheme's list of config fields (<scheme>/config_fields.hpp):
// flag --a-b for field a_b, --no-a-b for a switch that is on by default, and the help shows the
// library's default, config{}'s member, read here from the config, not from the tool.
// The fields whose flag is missing from `posenc emit <table> --help`, or listed without "(required)"
// or without the default; empty when the help agrees with the list.
template <class Fields>
std::string fields_not_in_help(const std::string& table, const Fields& fields) {
  const std::string help = ok_out({table, "--help"});
  std::string missing;
  posenc::for_each_field(fields, [&](const auto& f) {
    using M = typename std::remove_cvref_t<decltype(f)>::member_type;
    std::string flag(f.name);
    std::replace(flag.begin(), flag.end(), '_', '-');
    if constexpr (std::is_same_v<M, bool>) {
      if (f.default_value()) flag = "no-" + flag;
    }
    std::string want;  // what the flag's line must say besides the flag
    if (f.required())
      want = "(required)";
    else if constexpr (std::is_integral_v<M> && !std::is_same_v<M, bool>)
      want = "(default " + std::to_string(f.default_value()) + ")";
    else if constexpr (std::is_floating_point_v<M>) {
      char buf[32];  // the shortest decimal that reads back as the default (10000, 0.1)
      const auto end = std::to_chars(buf, buf + sizeof buf, f.default_value()).ptr;
      want = "(default " + std::string(buf, end) + ")";
    }
    const auto at = help.find("\n  --" + flag + " ");
    const std::string line = at == std::string::npos ? "" : help.substr(at + 1, help.find('\n', at + 1) - at - 1);
    if (line.empty() || line.find(want) == std::string::npos)
      missing += (missing.empty() ? "" : " ") + std::string(f.name);
  });
  return missing;
}

TEST_CASE("emit <scheme> --help: one flag per config field, with the library's default", "[cli][schemes]") {
  CHECK(fields_not_in_help("sinusoidal", posenc::sinusoidal::config_fields).empty());
  CHECK(fields_not_in_help("transformer-xl", posenc::transformer_xl::config_fields).empty());
  CHECK(fields_not_in_help("alibi", posenc::alibi::config_fields).empty());
  CHECK(fields_not_in_help("t5-bucket", posenc::t5::config_fields).empty());
  CHECK(fields_not_in_help("deberta-bucket", posenc::deberta::config_fields).empty());
  CHECK(fields_not_in_help("shaw", posenc::shaw::config_fields).empty());
  CHECK(fields_not_in_help("xpos", posenc::xpos::config_fields).empty());
  CHECK(fields_not_in_help("sandwich", posenc::sandwich::config_fields).empty());
  CHECK(fields_not_in_help("logn", posenc::logn::config_fields).empty());
  CHECK(fields_not_in_help("attn-temperature", posenc::attn_temperature::config_fields).empty());
  CHECK(fields_not_in_help("kerple-log", posenc::kerple::log_config_fields).empty());
  CHECK(fields_not_in_help("kerple-power", posenc::kerple::power_config_fields).empty());
  // the checker can fail: a field the tool has no flag for, and a default the help does not show
  using logn_field = posenc::config_field<posenc::logn::config, std::int64_t>;
  CHECK(fields_not_in_help("logn", std::make_tuple(logn_field{
                                       .name = "no_such_field", .member = &posenc::logn::config::base, .help = ""})) ==
        "no_such_field");
  CHECK(fields_not_in_help("sinusoidal", posenc::logn::config_fields) == "base at_least_one");
}

TEST_CASE("emit deberta-bucket and t5-bucket: new flags, older spellings and defaults are one table",
          "[cli][schemes]") {
  const std::string defaults = ok_out({"deberta-bucket", "--range", "600"});
  CHECK(defaults ==
        ok_out({"deberta-bucket", "--position-buckets", "256", "--max-relative-positions", "512", "--range", "600"}));
  CHECK(defaults == ok_out({"deberta-bucket", "--bucket-size", "256", "--max-position", "512", "--range", "600"}));
  CHECK(defaults != ok_out({"deberta-bucket", "--position-buckets", "128", "--range", "600"}));
  const strings t5{"t5-bucket", "--num-buckets", "32", "--max-distance", "128", "--range", "200"};
  CHECK(ok_out(cat(t5, {"--causal"})) == ok_out(cat(t5, {"--no-bidirectional"})));
  CHECK(ok_out(cat(t5, {"--causal"})) != ok_out(t5));
  CHECK(ok_out({"transformer-xl", "--d-model", "8", "--klen", "3", "--model", "transformer_xl"}) ==
        ok_out({"transformer-xl", "--d-model", "8", "--klen", "3", "--model", "transformer-xl"}));
}

TEST_CASE("emit deberta-bucket: buckets are deberta::bucket; |r| <= 128 is r itself", "[cli][schemes]") {
  const csv c = ok_csv({"deberta-bucket", "--bucket-size", "256", "--max-position", "512", "--range", "700"});
  CHECK(c.header == "relative_position,bucket");
  REQUIRE(c.rows.size() == 1401);
  const posenc::deberta::checked_config cc{posenc::deberta::config{}};
  for (std::size_t r = 0; r < c.rows.size(); ++r) {
    const long long rel = static_cast<long long>(r) - 700;
    INFO("relative position " << rel);
    CHECK(integer(c.rows[r][0]) == rel);
    CHECK(integer(c.rows[r][1]) == posenc::deberta::bucket(cc, rel).value);
    if (rel >= -128 && rel <= 128) CHECK(integer(c.rows[r][1]) == rel);
  }
  CHECK(c.rows[700 + 511][1] == "255");  // derived: at |r| = M - 1 the log term is exactly mid - 1
}

TEST_CASE("emit shaw: indices are shaw::relative_index", "[cli][schemes]") {
  const csv c = ok_csv({"shaw", "--positions", "7", "--max-relative-position", "2"});
  CHECK(c.header == "query,key,index");
  REQUIRE(c.rows.size() == 49);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j) {
      const strings& row = c.rows[static_cast<std::size_t>(i * 7 + j)];
      CHECK(row[0] == std::to_string(i));
      CHECK(row[1] == std::to_string(j));
      CHECK(integer(row[2]) == posenc::shaw::relative_index({.max_relative_position = 2}, i, j).value);
    }
  // The header's example: k = 20 (the default), query 5, key 3 is index 18.
  const csv d = ok_csv({"shaw", "--positions", "6"});
  CHECK(d.rows[5 * 6 + 3] == strings{"5", "3", "18"});
}

// ---- XPOS, KERPLE, Sandwich, log-n -----------------------------------------------------------

TEST_CASE("emit xpos: scales are xpos::scale (and inverse_scale); position 0 is 1", "[cli][schemes]") {
  const posenc::xpos::checked_config cc{posenc::xpos::config{.head_dim = 8, .scale_base = 16}};
  for (const bool inverse : {false, true}) {
    strings args{"xpos", "--head-dim", "8",  "--scale-base", "16", "--positions",
                 "6",    "--start",    "-3", "--dtype",      "f16"};
    if (inverse) args.push_back("--inverse");
    const csv c = ok_csv(args);
    CHECK(c.header == "position,pair,scale");
    REQUIRE(c.rows.size() == 24);
    for (std::size_t r = 0; r < 24; ++r) {
      const long long n = -3 + static_cast<long long>(r / 4);
      const int j = static_cast<int>(r % 4);
      INFO("position " << n << " pair " << j);
      CHECK(integer(c.rows[r][0]) == n);
      CHECK(integer(c.rows[r][1]) == j);
      const auto want =
          inverse ? posenc::xpos::inverse_scale<float16>(cc, n, j) : posenc::xpos::scale<float16>(cc, n, j);
      CHECK(same(c.rows[r][2], want.value));
      if (n == 0) CHECK(c.rows[r][2] == "0x1p+0");
    }
  }
}

TEST_CASE("emit kerple-log and kerple-power: biases are kerple::log_bias / power_bias", "[cli][schemes]") {
  const std::vector<double> p{1.5, 0.25, 2.0}, a{0.5, 0.75, 0.125};
  for (const bool log : {true, false}) {
    const csv c = ok_csv({log ? "kerple-log" : "kerple-power", "--p", "1.5,0.25,2", "--a", "0.5,0x1.8p-1,0.125",
                          "--distances", "9", "--dtype", "f32"});
    CHECK(c.header == "head,distance,bias");
    REQUIRE(c.rows.size() == 27);
    for (std::size_t r = 0; r < 27; ++r) {
      const std::size_t h = r / 9, k = r % 9;
      INFO((log ? "log" : "power") << " head " << h << " distance " << k);
      CHECK(integer(c.rows[r][0]) == static_cast<long long>(h));
      CHECK(integer(c.rows[r][1]) == static_cast<long long>(k));
      const auto want =
          log ? posenc::kerple::log_bias<float>(p[h], a[h], k) : posenc::kerple::power_bias<float>(a[h], p[h], k);
      CHECK(same(c.rows[r][2], want.value));
    }
  }
  // Derived: KERPLE-power with p = 1 is -a k exactly (ALiBi's form).
  const csv one = ok_csv({"kerple-power", "--p", "1", "--a", "0.375", "--distances", "4"});
  CHECK(one.rows[3][2] == "-0x1.2p+0");  // -1.125
}

TEST_CASE("emit sandwich: biases are sandwich::bias; distance 0 is 0", "[cli][schemes]") {
  const posenc::sandwich::config cfg{.dim = 8, .heads = 3};
  const csv c = ok_csv({"sandwich", "--dim", "8", "--heads", "3", "--distances", "6", "--dtype", "bf16"});
  CHECK(c.header == "head,distance,bias");
  REQUIRE(c.rows.size() == 18);
  for (std::size_t r = 0; r < 18; ++r) {
    const int h = static_cast<int>(r / 6);
    const auto k = static_cast<std::int64_t>(r % 6);
    INFO("head " << h << " distance " << k);
    CHECK(same(c.rows[r][2], posenc::sandwich::bias<bfloat16>(cfg, h, k).value));
    if (k == 0) CHECK(c.rows[r][2] == "0x0p+0");
  }
}

TEST_CASE("emit logn: factors are logn::factor; log_512(2048) = 11/9 rounded once", "[cli][schemes]") {
  const csv c = ok_csv({"logn", "--positions", "4", "--start", "2047"});
  CHECK(c.header == "n,factor");
  REQUIRE(c.rows.size() == 4);
  for (std::size_t r = 0; r < 4; ++r) {
    CHECK(integer(c.rows[r][0]) == 2047 + static_cast<long long>(r));
    CHECK(same(c.rows[r][1], posenc::logn::factor<double>({}, 2047 + static_cast<std::int64_t>(r)).value));
  }
  CHECK(same(c.rows[1][1], 11.0 / 9.0));  // IEEE division rounds the exact 11/9 once
  // Qwen: 1 up to the training length, log_L(n) after.
  const csv q =
      ok_csv({"logn", "--positions", "3", "--start", "4095", "--base", "4096", "--at-least-one", "--dtype", "f32"});
  CHECK(q.rows[0][1] == "0x1p+0");
  CHECK(q.rows[1][1] == "0x1p+0");
  CHECK(same(q.rows[2][1], posenc::logn::factor<float>({.base = 4096, .at_least_one = true}, 4097).value));
  const csv s = ok_csv({"logn", "--positions", "1", "--start", "32768", "--decimal"});
  CHECK(read_decimal<double>(s.rows[0][1]) == 5.0 / 3.0);  // log_512(32768) = 5/3
}

TEST_CASE("emit attn-temperature: scales are attn_temperature::scale; Llama-4's step at p = 8191", "[cli][schemes]") {
  const csv c = ok_csv({"attn-temperature", "--positions", "4", "--start", "8189"});
  CHECK(c.header == "position,scale");
  REQUIRE(c.rows.size() == 4);
  for (std::size_t r = 0; r < 4; ++r) {
    const std::int64_t p = 8189 + static_cast<std::int64_t>(r);
    CHECK(integer(c.rows[r][0]) == p);
    CHECK(same(c.rows[r][1], posenc::attn_temperature::scale<double>({}, p).value));
  }
  CHECK(c.rows[1][1] == "0x1p+0");  // p = 8190: floor(8191 / 8192) = 0
  // The published 1.069315 at p = 8191 (pe-formulas-more.md section 3), and 1.715540 at 10485759.
  const csv d = ok_csv({"attn-temperature", "--positions", "1", "--start", "8191", "--decimal"});
  CHECK(std::fabs(read_decimal<double>(d.rows[0][1]) - 1.069315) <= 0.5e-6);
  const csv e = ok_csv({"attn-temperature", "--positions", "1", "--start", "10485759", "--decimal", "--dtype", "f32"});
  CHECK(std::fabs(read_decimal<double>(e.rows[0][1]) - 1.715540) <= 0.5e-6);
  // Another step length and slope: a step every 4 positions, at p = 3, 7, ...
  const posenc::attn_temperature::config small{.floor_scale = 4, .attn_scale = 0.5};
  const csv s =
      ok_csv({"attn-temperature", "--positions", "9", "--floor-scale", "4", "--attn-scale", "0.5", "--dtype", "bf16"});
  for (std::size_t r = 0; r < 9; ++r)
    CHECK(same(s.rows[r][1], posenc::attn_temperature::scale<bfloat16>(small, static_cast<std::int64_t>(r)).value));
  CHECK(s.rows[2][1] == "0x1p+0");
  CHECK(s.rows[3][1] != "0x1p+0");
  CHECK(s.rows[6][1] == s.rows[3][1]);
  CHECK(s.rows[7][1] != s.rows[6][1]);
}

// ---- formats ---------------------------------------------------------------------------------

TEST_CASE("emit <scheme> --format bin: the value column, little-endian, in row order", "[cli][schemes]") {
  // Reals in the dtype.
  const posenc::sinusoidal::checked_config cc{posenc::sinusoidal::config{.dim = 6}};
  for (const char* t : {"f64", "f32", "bf16", "f16"}) {
    const std::string out = ok_out({"sinusoidal", "--dim", "6", "--positions", "3", "--format", "bin", "--dtype", t});
    std::string want;
    for (std::int64_t p = 0; p < 3; ++p)
      for (int k = 0; k < 6; ++k) {
        if (std::string(t) == "f64") want += le_bytes(posenc::sinusoidal::element<double>(cc, p, k).value);
        if (std::string(t) == "f32") want += le_bytes(posenc::sinusoidal::element<float>(cc, p, k).value);
        if (std::string(t) == "bf16") want += le_bytes(posenc::sinusoidal::element<bfloat16>(cc, p, k).value);
        if (std::string(t) == "f16") want += le_bytes(posenc::sinusoidal::element<float16>(cc, p, k).value);
      }
    INFO(t);
    CHECK(out == want);
  }
  // Integers as int32 (negative ones too: DeBERTa's buckets keep the sign).
  const std::string b =
      ok_out({"deberta-bucket", "--bucket-size", "8", "--max-position", "20", "--range", "30", "--format", "bin"});
  const posenc::deberta::checked_config dc{
      posenc::deberta::config{.position_buckets = 8, .max_relative_positions = 20}};
  std::string want;
  for (std::int64_t r = -30; r <= 30; ++r)
    want += le_bytes(static_cast<std::int32_t>(posenc::deberta::bucket(dc, r).value));
  CHECK(b == want);
  CHECK(b.size() == 61 * 4);
}

TEST_CASE("emit <scheme> --format c: named, sized arrays, the command, the parameters, the checksum",
          "[cli][schemes]") {
  const std::string h = ok_out({"alibi", "--heads", "8", "--format", "c"});
  CHECK(h.find("// command: posenc emit alibi --heads 8 --format c\n") != std::string::npos);
  CHECK(h.find("//   max_bias = 0x1p+3\n") != std::string::npos);
  CHECK(h.find("inline constexpr") != std::string::npos);
  CHECK(h.find("posenc_alibi_CONST double posenc_alibi_slope[8] = {\n"
               "  0x1p-1, 0x1p-2, 0x1p-3, 0x1p-4, 0x1p-5, 0x1p-6, 0x1p-7, 0x1p-8\n};") != std::string::npos);
  CHECK(h.find("posenc_alibi_entries = 8u;") != std::string::npos);
  const std::string bin = ok_out({"alibi", "--heads", "8", "--format", "bin"});
  char hash[80];
  std::snprintf(hash, sizeof hash, "posenc_alibi_checksum = 0x%016llxu;",
                static_cast<unsigned long long>(fnv1a64(bin)));
  CHECK(h.find(hash) != std::string::npos);

  // A 3-D table with --name, bf16 bit patterns.
  const std::string s = ok_out({"alibi", "--heads", "2", "--bias", "--symmetric", "--positions", "2", "--dtype", "bf16",
                                "--format", "c", "--name", "my_bias"});
  CHECK(s.find("my_bias_CONST uint16_t my_bias_bias[2][2][2] = {\n  {{0x0000, 0xbd80},\n  {0xbd80, 0x0000}},\n") !=
        std::string::npos);  // -2^-4 is bf16 0xbd80
  CHECK(s.find("bfloat16 bit patterns") != std::string::npos);

  // Integers: int32_t, one array per scheme.
  const std::string t =
      ok_out({"t5-bucket", "--num-buckets", "32", "--max-distance", "128", "--range", "2", "--format", "c"});
  CHECK(t.find("posenc_t5_bucket_CONST int32_t posenc_t5_bucket_bucket[5] = {\n  2, 1, 0, 17, 18\n};") !=
        std::string::npos);
  const std::string x = ok_out({"sinusoidal", "--dim", "2", "--positions", "2", "--format", "c", "--dtype", "f32"});
  CHECK(
      x.find("float posenc_sinusoidal_value[2][2] = {\n  {0x0p+0f, 0x1p+0f},\n  {0x1.aed548p-1f, 0x1.14a28p-1f}\n};") !=
      std::string::npos);
}

TEST_CASE("emit <scheme> -o FILE writes the file and nothing else", "[cli][schemes]") {
  posenc_test::temp_dir dir;
  const std::string f = dir.file("slopes.csv");
  const cli_result r = emit({"alibi", "--heads", "2", "-o", f});
  CHECK(r.status == 0);
  CHECK(r.out.empty());
  // Derived: 2 heads, max_bias 8: m_h = 2^(-8 (h + 1) / 2).
  CHECK(posenc_test::read_all(f) == "head,slope\n0,0x1p-4\n1,0x1p-8\n");
  CHECK(dir.files() == strings{"slopes.csv"});
}

// ---- errors ----------------------------------------------------------------------------------

TEST_CASE("emit <scheme>: every bad input exits 2 with one line naming it, no stdout and no file", "[cli][schemes]") {
  struct bad_case {
    strings args;
    std::string says;
  };
  const std::vector<bad_case> cases{
      // the scheme's validate
      {{"sinusoidal", "--dim", "0", "--positions", "1"}, "invalid sinusoidal config: dim must be in [1, 65536]"},
      {{"sinusoidal", "--dim", "3", "--positions", "1", "--exponent", "fairseq"}, "needs dim >= 4"},
      {{"sinusoidal", "--dim", "4", "--positions", "1", "--base", "1"}, "base must be in (1, 2^960)"},
      {{"transformer-xl", "--d-model", "3", "--klen", "2"}, "d_model must be even"},
      {{"transformer-xl", "--d-model", "4", "--klen", "2", "--qlen", "3", "--model", "xlnet"},
       "qlen must be in [0, klen]"},
      {{"alibi", "--heads", "0"}, "invalid ALiBi config: heads must be at least 1"},
      {{"alibi", "--heads", "4097"}, "heads must be at most 4096"},
      {{"alibi", "--heads", "8", "--max-bias", "0.1"}, "max_bias must be a multiple of 2^-16"},
      {{"t5-bucket", "--num-buckets", "32", "--max-distance", "8", "--range", "1"},
       "relative_attention_max_distance must exceed"},
      {{"t5-bucket", "--num-buckets", "3", "--max-distance", "8", "--range", "1"}, "relative_attention_num_buckets"},
      {{"deberta-bucket", "--bucket-size", "256", "--max-position", "100", "--range", "1"},
       "max_relative_positions - 1 must exceed"},
      {{"shaw", "--positions", "3", "--max-relative-position", "0"}, "max_relative_position must be in [1, 2^30]"},
      {{"xpos", "--head-dim", "7", "--positions", "1"}, "head_dim must be even"},
      {{"xpos", "--head-dim", "8", "--positions", "1", "--scale-base", "0"}, "scale_base must be in [1, 2^30]"},
      {{"sandwich", "--dim", "7", "--heads", "2", "--distances", "3"}, "invalid Sandwich config"},
      {{"logn", "--positions", "2", "--base", "1"}, "base must be in [2, 2^53)"},
      {{"attn-temperature", "--positions", "2", "--floor-scale", "0"},
       "invalid attention-temperature config: floor_scale must be in [1, 2^53]"},
      {{"attn-temperature", "--positions", "2", "--attn-scale", "-0.1"}, "attn_scale must be finite and >= 0"},
      {{"attn-temperature", "--positions", "2", "--attn-scale", "nan"}, "--attn-scale"},
      {{"kerple-log", "--p", "-1", "--a", "1", "--distances", "2"}, "outside KERPLE-log's domain"},
      {{"kerple-power", "--p", "3", "--a", "1", "--distances", "2"}, "outside KERPLE-power's domain"},
      // values that do not fit the dtype
      {{"xpos", "--head-dim", "4", "--positions", "2", "--start", "-4533", "--dtype", "f16"},
       "scale overflows f16 at position -4533, pair 0"},
      {{"kerple-power", "--p", "1", "--a", "1e300", "--distances", "3", "--dtype", "f16"},
       "bias overflows f16 at head 0, distance 1"},
      {{"attn-temperature", "--positions", "40", "--floor-scale", "8", "--attn-scale", "1e5", "--dtype", "f16"},
       "scale overflows f16 at position 7"},
      // flags
      {{"alibi", "--heads", "8", "--bogus"}, "unknown flag '--bogus'"},
      {{"alibi", "--heads", "8", "--dim", "4"}, "flag --dim does not apply to 'emit alibi'"},
      {{"alibi", "--heads", "8", "--positions", "4"}, "--positions applies to 'emit alibi --bias' only"},
      {{"rope", "--head-dim", "8", "--positions", "1", "--heads", "2"}, "flag --heads does not apply to 'emit rope'"},
      {{"t5-bucket", "--num-buckets", "32", "--max-distance", "128", "--range", "1", "--dtype", "f32"},
       "--dtype applies to real-valued tables only"},
      {{"shaw", "--positions", "2", "--decimal"}, "--decimal applies to real-valued tables only"},
      {{"logn", "--positions", "2", "--format", "c", "--decimal"}, "--decimal applies to --format csv only"},
      {{"logn", "--positions", "2", "--name", "x"}, "--name applies to --format c only"},
      {{"logn", "--positions", "2", "--format", "c", "--name", "9x"}, "--name must be a C identifier"},
      {{"logn", "--positions", "2", "--format", "xml"}, "invalid value 'xml' for --format"},
      {{"logn", "--positions", "2", "--dtype", "f8"}, "invalid value 'f8' for --dtype"},
      {{"sinusoidal", "--dim", "4", "--positions", "1", "--layout", "half-split"}, "invalid value 'half-split'"},
      {{"transformer-xl", "--d-model", "4", "--klen", "2", "--bi-data"}, "--bi-data applies to --model xlnet only"},
      {{"kerple-log", "--p", "1,2", "--a", "1", "--distances", "2"}, "--p has 2 values and --a 1"},
      {{"kerple-log", "--p", "1,x", "--a", "1,1", "--distances", "2"}, "--p entry is not a number: 'x'"},
      {{"sinusoidal", "--dim", "4", "--positions", "1", "extra"}, "unexpected argument 'extra'"},
      {{"nosuch", "--heads", "1"}, "unknown table 'nosuch'"},
      // missing required flags
      {{"sinusoidal", "--dim", "4"}, "--positions is required"},
      {{"alibi"}, "--heads is required"},
      {{"alibi", "--heads", "2", "--bias"}, "--positions is required"},
      {{"t5-bucket", "--num-buckets", "32", "--max-distance", "128"}, "--range is required"},
      {{"sandwich", "--heads", "2", "--distances", "2"}, "--dim is required"},
      {{"xpos", "--positions", "2"}, "--head-dim is required"},
      // a field given by its flag and by the older spelling of it
      {{"deberta-bucket", "--bucket-size", "8", "--position-buckets", "8", "--range", "1"},
       "give --position-buckets or --bucket-size, not both"},
      {{"t5-bucket", "--num-buckets", "32", "--max-distance", "128", "--range", "1", "--causal", "--no-bidirectional"},
       "give --no-bidirectional or --causal, not both"},
      {{"logn", "--positions", "1", "--base", "1.5"}, "--base must be an integer"},
      {{"sinusoidal", "--dim", "4", "--positions", "1", "--exponent", "nope"},
       "invalid value 'nope' for --exponent (expected one of: paper, fairseq)"},
      {{"kerple-log", "--a", "1", "--distances", "2"}, "--p X,X,... (one value per head) is required"},
      {{"kerple-power", "--p", "1", "--distances", "2"}, "--a X,X,... (one value per head) is required"},
      {{"kerple-log", "--p", "1,2", "--a", "1", "--distances", "2"}, "--p has 2 values and --a 1 (one per head each)"},
      {{"kerple-power", "--p", "1", "--a", "1,x", "--distances", "2"}, "--a entry"},
      {{"sandwich", "--dim", "8", "--heads", "2"}, "--distances is required"},
      // sizes
      {{"sinusoidal", "--dim", "65536", "--positions", "257"}, "table too large"},
      {{"alibi", "--heads", "4", "--bias", "--positions", "4096", "--symmetric"}, "table too large"},
      {{"t5-bucket", "--num-buckets", "32", "--max-distance", "128", "--range", "8388608"}, "table too large"},
      {{"t5-bucket", "--num-buckets", "32", "--max-distance", "128", "--range", "9223372036854775807"},
       "--range must be in [0, 4611686018427387904]"},
      {{"shaw", "--positions", "4097"}, "table too large"},
      {{"sandwich", "--dim", "4096", "--heads", "16", "--distances", "100000"}, "at most 2^28 = 268435456 per run"},
      {{"logn", "--positions", "16777217"}, "--positions must be in [1, 16777216]"},
      {{"logn", "--positions", "0"}, "--positions must be in [1, 16777216]"},
      {{"logn", "--positions", "1", "--start", "0"}, "--start must be in [1, 1099511627776]"},
      {{"attn-temperature", "--positions", "1", "--start", "-1"}, "--start must be in [0, 1099511627776]"},
      {{"attn-temperature", "--positions", "0"}, "--positions must be in [1, 16777216]"},
      {{"attn-temperature", "--positions", "1", "--floor-scale", "8.5"}, "--floor-scale must be an integer"},
      {{"xpos", "--head-dim", "4", "--positions", "2", "--start", "1099511627776"}, "positions must be <= 2^40"},
      {{"kerple-log", "--p", "1", "--a", "1", "--distances", "99999999999"}, "--distances must be in"},
  };
  for (const auto& c : cases) {
    posenc_test::temp_dir dir;
    const strings args = cat(c.args, {"-o", dir.file("out")});
    const cli_result r = emit(args);
    INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("posenc: error: ", 0) == 0);
    CHECK(r.err.find('\n') == r.err.size() - 1);
    CHECK(r.err.find(c.says) != std::string::npos);
    CHECK(dir.files().empty());
  }
}

TEST_CASE("emit <scheme> --help prints that table's usage and flags", "[cli][schemes]") {
  for (const char* s : {"sinusoidal", "transformer-xl", "alibi", "t5-bucket", "deberta-bucket", "shaw", "xpos",
                        "kerple-log", "kerple-power", "sandwich", "logn", "attn-temperature"}) {
    const std::string out = ok_out({s, "--help"});
    INFO(s);
    CHECK(out.rfind(std::string("usage: posenc emit ") + s + " ", 0) == 0);
    CHECK(out.find("--format csv|c|bin|npy|safetensors") != std::string::npos);
  }
  const std::string t5 = ok_out({"t5-bucket", "--help"});
  CHECK(t5.find("--dtype") == std::string::npos);  // integers: no dtype
  const std::string all = ok_out({"--help"});
  CHECK(all.find("posenc emit kerple-power") != std::string::npos);
  const cli_result h = posenc_test::run_cli(POSENC_CLI_PATH, {"help", "emit"});
  CHECK(h.status == 0);
  CHECK(h.out == all);
}

}  // namespace

// ---- each table's help lists its own flags, and only them (issue 20) ----

namespace {

using posenc_test::table_flags;

// Each table's flags (RoPE's here, the others' in cli_test_util.hpp), the output flags apart.
std::vector<table_flags> every_table() {
  const strings rope_freq = {"head-dim", "rope-theta",  "rope-type",
                             "factor",   "long-factor", "proportional",
                             "policy",   "hf-config",   "partial-rotary-factor"};
  std::vector<table_flags> all = {
      {"rope-freq", rope_freq, true},
      {"rope", cat(rope_freq, {"positions", "start", "layout", "fold-attention"}), true},
  };
  for (table_flags& t : posenc_test::scheme_table_flags()) all.push_back(std::move(t));
  return all;
}

bool has(const strings& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

// The flags a help text lists: its lines "  --name ...".
strings listed_flags(const std::string& help) {
  strings out;
  for (const std::string& line : split(help, '\n'))
    if (line.rfind("  --", 0) == 0) out.push_back(line.substr(4, line.find(' ', 4) - 4));
  return out;
}

}  // namespace

TEST_CASE("emit <table> --help lists the table's flags and none of another table's", "[cli][schemes][help]") {
  const auto tables = every_table();
  for (const auto& t : tables) {
    const std::string help = ok_out({t.table, "--help"});
    const strings listed = listed_flags(help);
    INFO(t.table << "\n" << help);
    CHECK(help.rfind("usage: posenc emit " + t.table + " ", 0) == 0);
    strings want = cat(t.own, {"format", "name", "output", "help"});
    if (t.real) want = cat(want, {"dtype", "decimal"});
    for (const std::string& f : want) {
      INFO("missing --" << f);
      CHECK(has(listed, f));
    }
    // Another table's flag is listed only where this table has a flag of the same name.
    for (const auto& other : tables)
      for (const std::string& f : other.own) {
        INFO("--" << f << " of " << other.table << " listed");
        CHECK((!has(listed, f) || has(want, f)));
      }
    if (t.table != "rope" && t.table != "rope-freq") CHECK(listed.size() == want.size());  // nothing else
    CHECK(std::count(listed.begin(), listed.end(), "dtype") <= 1);                         // each flag once
  }
  // rope's help was 100 lines of every table's flags; it is RoPE's now (its config is 20 flags).
  CHECK(split(ok_out({"rope", "--help"}), '\n').size() < 60);
}

TEST_CASE("emit <table>: a flag of another table is an error naming the flag", "[cli][schemes][help]") {
  for (const auto& t : every_table()) {
    std::string foreign;  // a value flag of another table, none of this one's
    for (const char* f : {"klen", "dim", "num-buckets", "scale-base"})
      if (foreign.empty() && !has(t.own, f)) foreign = f;
    const strings args = {t.table, "--" + foreign, "4"};
    const cli_result r = emit(args);
    INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err ==
          "posenc: error: emit " + t.table + ": flag --" + foreign + " does not apply to 'emit " + t.table + "'\n");
  }
}

TEST_CASE("emit <scheme>: Python's spellings give the canonical spellings' bytes", "[cli][schemes][spelling]") {
  const struct {
    strings base, canonical, alternative;
  } cases[] = {
      {{"sinusoidal", "--dim", "8", "--positions", "3"}, {"--dtype", "bf16"}, {"--dtype", "bfloat16"}},
      {{"xpos", "--head-dim", "8", "--positions", "3"}, {"--dtype", "f16"}, {"--dtype", "float16"}},
      {{"alibi", "--heads", "4"}, {"--dtype", "f32"}, {"--dtype", "float32"}},
      {{"logn", "--positions", "5"}, {"--dtype", "f64"}, {"--dtype", "float64"}},
      {{"transformer-xl", "--d-model", "8", "--klen", "4"},
       {"--model", "transformer-xl"},
       {"--model", "transformer_xl"}},
  };
  for (const auto& c : cases)
    for (const char* format : {"csv", "c"}) {  // c: the command line is in the header's comment
      const cli_result a = emit(cat(cat(c.base, c.canonical), {"--format", format}));
      const cli_result b = emit(cat(cat(c.base, c.alternative), {"--format", format}));
      INFO(posenc_test::describe_cli(cat(c.base, c.alternative)) << "\nstderr: " << b.err);
      CHECK(a.status == 0);
      CHECK(b.status == 0);
      CHECK(!a.out.empty());
      CHECK(b.out == a.out);
    }
}
