// test_cli_fixed_point.cpp: `posenc emit rope --dtype q15|q31` and `posenc verify
// rope|sinusoidal|xpos|alibi --dtype q15|q31`, run as the built executable
// (POSENC_CLI_PATH). Expected values from the MPFR oracle (verify/rope_oracle.hpp rounded by
// verify/mpfr.hpp's round_into_fixed_bits: RN_even(x 2^F) by mpfr_rint, then saturation); the
// saturation note on stderr with exit status 0; every format holding the same integers; the
// refusals naming what is wrong.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <posenc/alibi/slopes.hpp>
#include <posenc/numeric/fixed_point.hpp>
#include <posenc/sinusoidal.hpp>
#include <posenc/verify/alibi_oracle.hpp>
#include <posenc/verify/rational_power_oracle.hpp>
#include <posenc/verify/rope_oracle.hpp>
#include <posenc/verify/sinusoid_oracle.hpp>

#include "cli_test_util.hpp"

namespace {

using posenc_test::cli_result;
using posenc_test::emit;
using posenc_test::split;
using posenc_test::strings;

template <class Q>
std::int64_t little_endian(const std::string& bytes, std::size_t at) {
  using R = typename posenc::fixed_format<Q>::storage;
  R v{};
  std::memcpy(&v, bytes.data() + at, sizeof v);  // the test hosts are little-endian (x86-64)
  return v;
}

template <class Q>
void check_table(const char* dtype, int d, int positions) {
  const strings args = {"rope",         "--head-dim", std::to_string(d), "--positions", std::to_string(positions),
                        "--rope-theta", "10000",      "--dtype",         dtype};
  const cli_result r = emit(args);
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  // The saturations of position 0's cos (and of the slow pairs' small angles) are noted, once.
  CHECK(r.err.rfind(std::string("posenc: note: emit rope: "), 0) == 0);
  CHECK(r.err.find(std::string(dtype) + " values saturated") != std::string::npos);
  CHECK(split(r.err, '\n').size() == 2);
  const auto lines = split(r.out, '\n');
  REQUIRE(lines.size() == static_cast<std::size_t>(positions * d / 2) + 2);
  std::vector<std::int64_t> csv;
  int bad = 0;
  for (int j = 0; j < d / 2; ++j) {
    const posenc::verify::rope_frequency f(10000.0, j, d);
    for (int p = 0; p < positions; ++p) {
      const auto cols = split(lines[static_cast<std::size_t>(1 + p * d / 2 + j)], ',');
      REQUIRE(cols.size() == 4);
      auto v = posenc::verify::rope_value(f, static_cast<std::uint64_t>(p));
      const Q c = v.template round<Q>(0), s = v.template round<Q>(1);
      bad += std::stoll(cols[2]) != c.bits || std::stoll(cols[3]) != s.bits;
    }
  }
  CHECK(bad == 0);
  // --format bin: per position, element k (half-split: pair k mod d/2), cos then sin, little-endian.
  const cli_result b = emit(posenc_test::cat(args, {"--format", "bin"}));
  REQUIRE(b.status == 0);
  constexpr std::size_t w = sizeof(typename posenc::fixed_format<Q>::storage);
  REQUIRE(b.out.size() == static_cast<std::size_t>(positions * d) * 2 * w);
  int bin_bad = 0;
  for (int p = 0; p < positions; ++p)
    for (int k = 0; k < d; ++k) {
      const auto cols = split(lines[static_cast<std::size_t>(1 + p * d / 2 + k % (d / 2))], ',');
      const std::size_t at = static_cast<std::size_t>(p * d + k) * 2 * w;
      bin_bad +=
          little_endian<Q>(b.out, at) != std::stoll(cols[2]) || little_endian<Q>(b.out, at + w) != std::stoll(cols[3]);
    }
  CHECK(bin_bad == 0);
  // --layout pairs: per position, pair j, cos then sin (half the bytes), in bin and in the header.
  const strings pairs = posenc_test::cat(args, {"--layout", "pairs"});
  const cli_result pb = emit(posenc_test::cat(pairs, {"--format", "bin"}));
  REQUIRE(pb.status == 0);
  REQUIRE(2 * pb.out.size() == b.out.size());
  int pairs_bad = 0;
  for (int e = 0; e < positions * d / 2; ++e) {
    const auto cols = split(lines[static_cast<std::size_t>(1 + e)], ',');
    const std::size_t at = static_cast<std::size_t>(e) * 2 * w;
    pairs_bad +=
        little_endian<Q>(pb.out, at) != std::stoll(cols[2]) || little_endian<Q>(pb.out, at + w) != std::stoll(cols[3]);
  }
  CHECK(pairs_bad == 0);
  const cli_result ph = emit(posenc_test::cat(pairs, {"--format", "c"}));
  REQUIRE(ph.status == 0);
  const std::string ctype = std::is_same_v<Q, posenc::q15> ? "int16_t" : "int32_t";
  const std::string shape = "[" + std::to_string(positions) + "][" + std::to_string(d / 2) + "]";
  CHECK(ph.out.find(ctype + " posenc_rope_cos" + shape) != std::string::npos);
  CHECK(ph.out.find("// 2 arrays x " + std::to_string(positions) + " x " + std::to_string(d / 2) + " " + ctype + ": " +
                    posenc_test::thousands(pb.out.size()) + " bytes\n") != std::string::npos);
  char pair_hash[32];
  std::snprintf(pair_hash, sizeof pair_hash, "0x%016llx",
                static_cast<unsigned long long>(posenc_test::fnv1a64(pb.out)));
  CHECK(ph.out.find(std::string("checksum = ") + pair_hash) != std::string::npos);
  // --format c: CMSIS's integer type, the saturation count, and the bin bytes' checksum.
  const cli_result h = emit(posenc_test::cat(args, {"--format", "c"}));
  REQUIRE(h.status == 0);
  CHECK(h.out.find(std::is_same_v<Q, posenc::q15> ? "int16_t posenc_rope_cos[" : "int32_t posenc_rope_cos[") !=
        std::string::npos);
  CHECK(h.out.find("// Saturated values") != std::string::npos);
  char hash[32];
  std::snprintf(hash, sizeof hash, "0x%016llx", static_cast<unsigned long long>(posenc_test::fnv1a64(b.out)));
  CHECK(h.out.find(std::string("checksum = ") + hash) != std::string::npos);
  // --format npy: '<i2' / '<i4', shape (2, positions, d), the bin's values regrouped (cos rows then sin rows).
  const cli_result n = emit(posenc_test::cat(args, {"--format", "npy"}));
  REQUIRE(n.status == 0);
  CHECK(n.out.find(std::is_same_v<Q, posenc::q15> ? "'descr': '<i2'" : "'descr': '<i4'") != std::string::npos);
  CHECK(n.out.find("(2, " + std::to_string(positions) + ", " + std::to_string(d) + ")") != std::string::npos);
  const std::size_t data = n.out.size() - static_cast<std::size_t>(2 * positions * d) * w;
  CHECK(little_endian<Q>(n.out, data) == posenc::fixed_format<Q>::max_raw);  // cos 0 saturated
  // --format safetensors: I16 / I32.
  const cli_result t = emit(posenc_test::cat(args, {"--format", "safetensors"}));
  REQUIRE(t.status == 0);
  CHECK(t.out.find(std::is_same_v<Q, posenc::q15> ? "\"dtype\":\"I16\"" : "\"dtype\":\"I32\"") != std::string::npos);
}

void check_refused(const strings& args, const std::string& words) {
  const cli_result r = emit(args);
  INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(r.err.find(words) != std::string::npos);
}

}  // namespace

TEST_CASE("emit rope --dtype q15: MPFR's values, saturations noted, every format the same", "[cli][emit]") {
  check_table<posenc::q15>("q15", 64, 48);
}

TEST_CASE("emit rope --dtype q31: MPFR's values, saturations noted, every format the same", "[cli][emit]") {
  check_table<posenc::q31>("q31", 32, 24);
}

TEST_CASE("emit --dtype q15|q31: refused where it does not apply, saying why", "[cli][emit]") {
  check_refused({"t5-bucket", "--dtype", "q15"}, "--dtype");
  check_refused({"sandwich", "--dim", "8", "--heads", "2", "--distances", "4", "--dtype", "q15"},
                "--dtype q15 and q31 apply to the tables rope, sinusoidal, alibi (slopes), xpos");
  check_refused({"alibi", "--heads", "8", "--bias", "--positions", "4", "--dtype", "q15"},
                "--bias in q15: the biases -m_h |i - j| leave [-1, 1)");
  check_refused({"rope-freq", "--head-dim", "8", "--dtype", "q31"}, "--dtype q15 and q31 apply to the tables rope");
  check_refused({"rope", "--head-dim", "8", "--positions", "2", "--dtype", "q15", "--decimal"},
                "--decimal applies to floating dtypes");
  check_refused({"rope", "--head-dim", "8", "--positions", "2", "--dtype", "q15", "--policy", "hf-float32"},
                "takes --policy exact only");
  // Without saturation no note: positions 1.. of a fast pair only (head-dim 2: theta = 1).
  const cli_result r = emit({"rope", "--head-dim", "2", "--positions", "3", "--start", "1", "--dtype", "q15"});
  CHECK(r.status == 0);
  CHECK(r.err.empty());
}

TEST_CASE("emit sinusoidal and alibi --dtype q15|q31: MPFR's values, the note, CMSIS's C type", "[cli][emit]") {
  // Sinusoidal, positions -3 .. 4: cos 0 saturates (noted), a negative position's sin is exact.
  for (const char* dtype : {"q15", "q31"}) {
    const bool q15 = std::string(dtype) == "q15";
    const cli_result r = emit({"sinusoidal", "--dim", "16", "--positions", "8", "--start", "-3", "--dtype", dtype});
    INFO(dtype << " stderr: " << r.err);
    REQUIRE(r.status == 0);
    CHECK(r.err.find("posenc: note: emit sinusoidal: ") == 0);
    const auto lines = split(r.out, '\n');
    REQUIRE(lines.size() == 8 * 16 + 2);
    const posenc::sinusoidal::config c{.dim = 16};
    int bad = 0;
    for (std::size_t row = 1; row + 1 < lines.size(); ++row) {
      const auto cols = split(lines[row], ',');
      const auto e = posenc::verify::sinusoid_element_of(c, std::stoi(cols[1]));
      auto v = posenc::verify::sinusoid_angle_value(std::stoll(cols[0]), c.base, e.num, e.den);
      const std::int64_t want = q15 ? v.template round<posenc::q15>(e.is_sin ? 1 : 0).bits
                                    : v.template round<posenc::q31>(e.is_sin ? 1 : 0).bits;
      bad += std::stoll(cols[2]) != want;
    }
    CHECK(bad == 0);
    const cli_result h = emit({"sinusoidal", "--dim", "16", "--positions", "8", "--dtype", dtype, "--format", "c"});
    CHECK(h.out.find(q15 ? "int16_t posenc_sinusoidal_value[8][16]" : "int32_t posenc_sinusoidal_value[8][16]") !=
          std::string::npos);
  }
  // ALiBi slopes of 12 heads (the second group irrational): MPFR's, no saturation, no note.
  const cli_result a = emit({"alibi", "--heads", "12", "--dtype", "q31"});
  REQUIRE(a.status == 0);
  CHECK(a.err.empty());
  const auto lines = split(a.out, '\n');
  REQUIRE(lines.size() == 12 + 2);
  const posenc::alibi::checked_config cc{posenc::alibi::config{.heads = 12}};
  int bad = 0;
  for (int h = 0; h < 12; ++h) {
    const auto e = posenc::alibi::slope_exponent_of(cc, h).value;
    auto v = posenc::verify::alibi_bias_value(e.num, e.den, 1);
    bad += std::stoll(split(lines[static_cast<std::size_t>(h + 1)], ',')[1]) != -v.template round<posenc::q31>().bits;
  }
  CHECK(bad == 0);
}

TEST_CASE("emit xpos --dtype q15: MPFR's scales, saturation at n <= 0 noted", "[cli][emit]") {
  const cli_result r = emit({"xpos", "--head-dim", "16", "--positions", "40", "--start", "-2", "--dtype", "q15"});
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("posenc: note: emit xpos: 24 of 320 q15 values saturated") == 0);  // n = -2, -1, 0
  const auto lines = split(r.out, '\n');
  REQUIRE(lines.size() == 40 * 8 + 2);
  int bad = 0;
  for (std::size_t row = 1; row + 1 < lines.size(); ++row) {
    const auto cols = split(lines[row], ',');
    const std::int64_t n = std::stoll(cols[0]), j = std::stoll(cols[1]);
    auto v = posenc::verify::rational_power_value(10 * j + 2 * 16, 7 * 16, n, 512);
    bad += std::stoll(cols[2]) != v.template round<posenc::q15>().bits;
  }
  CHECK(bad == 0);
}

namespace {

posenc_test::cli_result verify(strings args) {
  args.insert(args.begin(), "verify");
  return posenc_test::run_cli(POSENC_CLI_PATH, args);
}

// The entries (each element of each row, cos and sin) whose exact value saturates in Q: x >=
// 1 - 2^-(F+1) (docs/fixed-point.md), decided on the oracle's correctly rounded double (the
// threshold is a double: RN is monotone, and no entry rounds onto it, which the test requires).
template <class Q>
std::uint64_t oracle_saturations(int d, int positions) {
  constexpr int F = posenc::fixed_format<Q>::fraction_bits;
  const double top = 1.0 - std::ldexp(1.0, -(F + 1));
  std::uint64_t n = 0;
  for (int j = 0; j < d / 2; ++j) {
    const posenc::verify::rope_frequency f(10000.0, j, d);
    for (int p = 0; p < positions; ++p) {
      auto v = posenc::verify::rope_value(f, static_cast<std::uint64_t>(p));
      for (int w = 0; w < 2; ++w) {
        const double x = v.template round<double>(static_cast<std::size_t>(w));
        REQUIRE(x != top);
        n += x > top ? 2 : 0;  // both elements of the pair hold it
      }
    }
  }
  return n;
}

// `verify rope --dtype Q --table FILE` on the table `emit rope --dtype Q` wrote: every entry
// against MPFR, the saturations counted, the laws at their quantised bounds; then the same file
// with one entry one step (1 LSB) off fails: exit 1, the entry named, exactness failing.
template <class Q>
void check_verify(const char* dtype, const char* format) {
  constexpr int d = 32, positions = 64;
  posenc_test::temp_dir dir;
  const std::string table = dir.file(std::string("t.") + format);
  const strings cfg = {"--head-dim",   std::to_string(d), "--positions", std::to_string(positions),
                       "--rope-theta", "10000",           "--dtype",     dtype};
  REQUIRE(emit(posenc_test::cat({"rope"}, posenc_test::cat(cfg, {"--format", format, "-o", table}))).status == 0);
  const strings args = posenc_test::cat({"rope", "--table", table, "--quiet"}, cfg);
  const cli_result ok = verify(args);
  INFO(dtype << " " << format << "\n" << ok.out << ok.err);
  CHECK(ok.status == 0);
  CHECK(ok.out.rfind("posenc verify rope: PASS\n", 0) == 0);
  const std::string entries = std::to_string(positions * d * 2);
  CHECK(ok.out.find(std::string(dtype) + "    " + entries + std::string(13 - entries.size(), ' ') + "0            0") !=
        std::string::npos);
  const std::uint64_t saturated = oracle_saturations<Q>(d, positions);
  CHECK(saturated > 0);
  CHECK(ok.out.find("\n       " + std::to_string(saturated) + " entries saturated") != std::string::npos);
  for (const char* law : {"exactness             holds", "unit norm             holds", "relative dot          holds",
                          "composition           holds", "pair copies           holds"})
    CHECK(ok.out.find(std::string(dtype) + "  " + law) != std::string::npos);
  const cli_result json = verify(posenc_test::cat(args, {"--json"}));
  CHECK(json.status == 0);
  CHECK(json.out.find("\"saturated\": " + std::to_string(saturated)) != std::string::npos);
  if (std::string(format) != "bin") return;

  // Row 40, element 5, sin one step up (bin: per element cos then sin, little-endian integers).
  using R = typename posenc::fixed_format<Q>::storage;
  std::string bytes = posenc_test::read_all(table);
  const std::size_t at = ((40 * std::size_t{d} + 5) * 2 + 1) * sizeof(R);
  R raw{};
  std::memcpy(&raw, bytes.data() + at, sizeof raw);
  raw = static_cast<R>(raw + 1);
  std::memcpy(bytes.data() + at, &raw, sizeof raw);
  {
    std::ofstream f(table, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  const cli_result bad = verify(args);
  INFO(bad.out);
  CHECK(bad.status == 1);
  CHECK(bad.out.rfind("posenc verify rope: FAIL\n", 0) == 0);
  CHECK(bad.out.find(std::string(dtype) + "    " + entries + std::string(13 - entries.size(), ' ') +
                     "1            1") != std::string::npos);
  CHECK(bad.out.find("first entry beyond the allowed error: position 40, element 5, sin") != std::string::npos);
  CHECK(bad.out.find(std::string(dtype) + "  exactness             FAILS") != std::string::npos);
}

}  // namespace

TEST_CASE("verify rope --dtype q15|q31: emitted tables pass with their saturations; one entry 1 LSB off fails",
          "[cli][verify]") {
  check_verify<posenc::q15>("q15", "bin");
  check_verify<posenc::q31>("q31", "bin");
  check_verify<posenc::q31>("q31", "npy");  // '<i4' raw integers: the file says q31
  // The schemes without fixed-point tables refuse them, and ALiBi's biases: one line, exit 2.
  for (const strings& args : {strings{"sandwich", "--dim", "8", "--heads", "2", "--distances", "4", "--dtype", "q15"},
                              strings{"alibi", "--heads", "8", "--bias", "--positions", "4", "--dtype", "q15"}}) {
    const cli_result r = verify(posenc_test::cat(args, {"--quiet"}));
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(args[0] == "sandwich" ? "verified for rope, sinusoidal, xpos and alibi (slopes) only"
                                           : "biases -m_h |i - j| are not offered in q15/q31") != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  }
}

TEST_CASE("verify sinusoidal|xpos|alibi --dtype q15|q31: emitted tables pass, saturations counted; 1 LSB off fails",
          "[cli][verify]") {
  posenc_test::temp_dir dir;
  // Sinusoidal, positions -3 .. 36, d 16: the saturated entries are the values x >= 1 - 2^-16 of
  // the oracle (the clamp is one-sided: a value near -1 rounds to -2^15, which q15 holds).
  const std::string table = dir.file("s.bin");
  const strings cfg = {"--dim", "16", "--positions", "40", "--start", "-3", "--dtype", "q15"};
  REQUIRE(emit(posenc_test::cat({"sinusoidal"}, posenc_test::cat(cfg, {"--format", "bin", "-o", table}))).status == 0);
  const posenc::sinusoidal::config sc{.dim = 16};
  std::uint64_t saturated = 0;
  const double top = 1.0 - 0x1p-16;
  for (std::int64_t p = -3; p < 37; ++p)
    for (int k = 0; k < 16; ++k) {
      const auto el = posenc::verify::sinusoid_element_of(sc, k);
      auto v = posenc::verify::sinusoid_angle_value(p, sc.base, el.num, el.den);
      const double x = v.template round<double>(el.is_sin ? 1 : 0);
      REQUIRE(x != top);
      saturated += x > top ? 1 : 0;
    }
  CHECK(saturated > 0);
  const strings args = posenc_test::cat({"sinusoidal", "--table", table, "--quiet"}, cfg);
  const cli_result ok = verify(args);
  INFO(ok.out << ok.err);
  CHECK(ok.status == 0);
  CHECK(ok.out.find("q15    640          0            0") != std::string::npos);
  CHECK(ok.out.find("\n       " + std::to_string(saturated) + " entries saturated") != std::string::npos);
  CHECK(ok.out.find("q15  sinusoid shift             holds") != std::string::npos);
  CHECK(ok.out.find("q15  sinusoid relative dot      holds") != std::string::npos);
  std::string bytes = posenc_test::read_all(table);
  std::int16_t raw = 0;
  const std::size_t at = (10 * 16 + 5) * 2;  // row 10 (position 7), element 5
  std::memcpy(&raw, bytes.data() + at, 2);
  raw = static_cast<std::int16_t>(raw - 1);
  std::memcpy(bytes.data() + at, &raw, 2);
  {
    std::ofstream f(table, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  const cli_result bad = verify(args);
  CHECK(bad.status == 1);
  CHECK(bad.out.find("q15    640          1            1") != std::string::npos);
  CHECK(bad.out.find("first entry beyond the allowed error: row 10 (position 7), element 5") != std::string::npos);

  // XPOS scales of positions -4 .. 15 (d 16): zeta < 1, so every scale at n <= 0 is >= 1 and
  // saturates: 5 positions x 8 pairs, in both formats; the others are below 1.
  const cli_result x =
      verify({"xpos", "--head-dim", "16", "--positions", "20", "--start", "-4", "--dtype", "q15,q31", "--quiet"});
  INFO(x.out);
  CHECK(x.status == 0);
  CHECK(x.out.find("q15    160          0            0") != std::string::npos);
  CHECK(x.out.find("q31    160          0            0") != std::string::npos);
  CHECK(x.out.find("       40 entries saturated (exact value past the range; ulp: the grid step 2^-15)") !=
        std::string::npos);
  CHECK(x.out.find("       40 entries saturated (exact value past the range; ulp: the grid step 2^-31)") !=
        std::string::npos);
  // The relative scale cannot hold of q scales (a saturated inverse scale, docs/fixed-point.md).
  CHECK(x.out.find("q15  xpos relative scale        skipped: not checked on q15/q31 tables") != std::string::npos);

  // ALiBi's 12 slopes in q31 as .npy ('<i4': the file says q31): in (0, 1), none saturated.
  const std::string slopes = dir.file("a.npy");
  REQUIRE(emit({"alibi", "--heads", "12", "--dtype", "q31", "--format", "npy", "-o", slopes}).status == 0);
  const cli_result a = verify({"alibi", "--heads", "12", "--table", slopes, "--quiet"});
  INFO(a.out);
  CHECK(a.status == 0);
  CHECK(a.out.find("q31    12           0            0") != std::string::npos);
  CHECK(a.out.find("       0 entries saturated") != std::string::npos);
  // The slope laws at their quantised bounds (docs/fixed-point.md): 11 ratios, 2^-1 .. 2^-8 exact.
  CHECK(a.out.find("q31  alibi geometric slopes     holds") != std::string::npos);
  CHECK(a.out.find("q31  alibi power-of-two slopes  holds  worst 0          bound 0          (8 cases)") !=
        std::string::npos);
}
