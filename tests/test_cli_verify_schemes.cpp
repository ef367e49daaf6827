// `posenc verify <scheme>` for the schemes other than RoPE (tools/cli/commands_verify_schemes.hpp):
// the shipped ALiBi and T5 configs pass and print their reports; tables written by `posenc emit
// <scheme> --format bin|npy` pass, and fail (exit 1, naming the entry) once one entry is moved by
// one step; bad input exits 2 with one line and leaves no output file. The spawns are few: CI runs
// these under AddressSanitizer, where each costs about 0.1 s.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <iterator>
#include <string>

#include "cli_test_util.hpp"

#ifndef POSENC_SOURCE_DIR
#error "POSENC_SOURCE_DIR must name the source tree (tests/CMakeLists.txt defines it)"
#endif

using posenc_test::cli_result;
using posenc_test::strings;
using posenc_test::temp_dir;

namespace {

cli_result verify(strings args) {
  args.insert(args.begin(), "verify");
  return posenc_test::run_cli(POSENC_CLI_PATH, args);
}

std::string fixture(const std::string& name) { return std::string(POSENC_SOURCE_DIR) + "/examples/configs/" + name; }

std::string read_bytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

// Exit 2, nothing on stdout, one line naming the problem, no file left in dir.
void bad_input(const strings& args, const std::string& names, const temp_dir& dir) {
  const std::size_t before = dir.files().size();
  const cli_result r = verify(args);
  INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(lines(r.err) == 1);
  CHECK(r.err.rfind("posenc: error: ", 0) == 0);
  CHECK(has(r.err, names));
  CHECK(dir.files().size() == before);
}

}  // namespace

TEST_CASE("verify alibi: BLOOM-560m's config passes in every dtype; the report names each law", "[cli][verify]") {
  const cli_result r = verify({"alibi", "--hf-config", fixture("bloom-560m.json")});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("posenc verify alibi: PASS\n", 0) == 0);
  CHECK(has(r.out, "slopes; heads 16, max_bias 0x1p+3"));  // n_head 16, BLOOM's max_bias 8
  for (const char* dtype : {"\nf64    16 ", "\nf32    16 ", "\nbf16   16 ", "\nf16    16 "}) CHECK(has(r.out, dtype));
  CHECK(has(r.out, "alibi geometric slopes     holds"));
  CHECK(has(r.out, "alibi relative bias        skipped: reads the bias table"));
}

TEST_CASE("verify t5-bucket: T5-small's config passes; the JSON report counts every bucket", "[cli][verify]") {
  temp_dir dir;
  const cli_result r =
      verify({"t5-bucket", "--hf-config", fixture("t5-small.json"), "--json", "-o", dir.file("t5.json")});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.empty());  // the report went to the file
  const auto j = nlohmann::json::parse(read_bytes(dir.file("t5.json")));
  CHECK(j["scheme"] == "t5-bucket");
  CHECK(j["passed"] == true);
  CHECK(j["integers"]["entries"] == 513);  // the default range: 2 x max_distance 128
  CHECK(j["integers"]["wrong"] == 0);
  REQUIRE(j["laws"].size() == 4);
  for (const auto& l : j["laws"]) CHECK(l["holds"] == true);
}

TEST_CASE("verify alibi --table: emit's bin and npy tables pass; one entry one step off fails, named",
          "[cli][verify]") {
  temp_dir dir;
  const strings cfg = {"--heads", "12", "--bias", "--positions", "40"};
  const std::string bin = dir.file("bias.bin"), npy = dir.file("bias.npy");
  REQUIRE(posenc_test::emit(posenc_test::cat({"alibi", "--dtype", "f32", "--format", "bin", "-o", bin}, cfg)).status ==
          0);
  REQUIRE(posenc_test::emit(posenc_test::cat({"alibi", "--dtype", "bf16", "--format", "npy", "-o", npy}, cfg)).status ==
          0);
  const cli_result good = verify(posenc_test::cat({"alibi", "--table", bin, "--dtype", "f32"}, cfg));
  INFO(good.out << good.err);
  CHECK(good.status == 0);
  CHECK(has(good.out, "\nf32    9840 "));  // 12 heads x 40 x 41 / 2 causal entries
  CHECK(has(good.out, "alibi relative bias        holds"));
  const cli_result good16 = verify(posenc_test::cat({"alibi", "--table", npy, "--dtype", "bf16"}, cfg));
  CHECK(good16.status == 0);

  // Head 3, query 10, key 7: entry 3 x 820 + 10 x 11 / 2 + 7 = 2522 of the causal layout; its last
  // bit flipped moves it one representable step.
  std::string data = read_bytes(bin);
  data[2522 * 4] = static_cast<char>(data[2522 * 4] ^ 1);
  write_bytes(bin, data);
  const cli_result bad = verify(posenc_test::cat({"alibi", "--table", bin, "--dtype", "f32"}, cfg));
  INFO(bad.out << bad.err);
  CHECK(bad.status == 1);
  CHECK(bad.out.rfind("posenc verify alibi: FAIL\n", 0) == 0);
  CHECK(has(bad.out, "first entry beyond the allowed error: head 3, query 10, key 7"));
}

TEST_CASE("verify t5-bucket --table: one bucket off fails, named", "[cli][verify]") {
  temp_dir dir;
  const std::string bin = dir.file("t5.bin");
  REQUIRE(posenc_test::emit({"t5-bucket", "--num-buckets", "32", "--max-distance", "128", "--range", "100", "--format",
                             "bin", "-o", bin})
              .status == 0);
  std::string data = read_bytes(bin);
  data[(100 - 16) * 4] = static_cast<char>(data[(100 - 16) * 4] + 1);  // relative position -16: int32 LE
  write_bytes(bin, data);
  const cli_result bad =
      verify({"t5-bucket", "--num-buckets", "32", "--max-distance", "128", "--range", "100", "--table", bin, "--json"});
  INFO(bad.out << bad.err);
  CHECK(bad.status == 1);
  const auto j = nlohmann::json::parse(bad.out);
  CHECK(j["passed"] == false);
  CHECK(j["integers"]["first_failure"]["at"] == "relative position -16");
  CHECK(j["integers"]["worst"]["exact"] == 10);  // the published table: bucket 10 starts at 16
}

TEST_CASE("verify sinusoidal and logn: posenc's tables pass; a logn table one step off fails, named", "[cli][verify]") {
  const cli_result own = verify({"sinusoidal", "--dim", "64", "--positions", "128", "--start", "-64"});
  INFO(own.out << own.err);
  CHECK(own.status == 0);
  CHECK(has(own.out, "\nbf16   8192 "));  // 128 positions x 64, in each of the four dtypes
  CHECK(has(own.out, "sinusoid shift             holds"));

  temp_dir dir;
  const std::string bin = dir.file("logn.bin");
  const strings cfg = {"--base", "512", "--positions", "1000"};
  REQUIRE(posenc_test::emit(posenc_test::cat({"logn", "--dtype", "f16", "--format", "bin", "-o", bin}, cfg)).status ==
          0);
  std::string data = read_bytes(bin);
  data[2 * 699] = static_cast<char>(data[2 * 699] ^ 1);  // n = 700: f16 little-endian, its last bit
  write_bytes(bin, data);
  const cli_result bad = verify(posenc_test::cat({"logn", "--table", bin, "--dtype", "f16"}, cfg));
  INFO(bad.out << bad.err);
  CHECK(bad.status == 1);
  CHECK(has(bad.out, "first entry beyond the allowed error: n = 700"));
}

TEST_CASE("verify attn-temperature: posenc's table passes with its laws; a step one position late fails, named",
          "[cli][verify]") {
  const cli_result own = verify({"attn-temperature", "--positions", "40000", "--dtype", "f64,f32,bf16,f16"});
  INFO(own.out << own.err);
  CHECK(own.status == 0);
  CHECK(has(own.out, "\nbf16   40000 "));
  CHECK(has(own.out, "temperature steps          holds"));

  temp_dir dir;
  const std::string bin = dir.file("temperature.bin");
  const strings cfg = {"--positions", "20000"};
  REQUIRE(
      posenc_test::emit(posenc_test::cat({"attn-temperature", "--dtype", "bf16", "--format", "bin", "-o", bin}, cfg))
          .status == 0);
  std::string data = read_bytes(bin);
  data[2 * 16383] = data[2 * 16382];  // p = 16383 keeps step 1's value: HF's + 1 forgotten
  data[2 * 16383 + 1] = data[2 * 16382 + 1];
  write_bytes(bin, data);
  const cli_result bad = verify(posenc_test::cat({"attn-temperature", "--table", bin, "--dtype", "bf16"}, cfg));
  INFO(bad.out << bad.err);
  CHECK(bad.status == 1);
  CHECK(has(bad.out, "first entry beyond the allowed error: position 16383"));
  CHECK(has(bad.out, "temperature steps          FAILS"));
}

TEST_CASE("verify <scheme>: bad input exits 2 with one line and leaves no file", "[cli][verify]") {
  temp_dir dir;
  const std::string out = dir.file("report.txt");
  bad_input({"sinusoidl", "-o", out}, "unknown table 'sinusoidl'", dir);
  bad_input({"alibi", "--heads", "16", "--klen", "4", "-o", out}, "flag --klen does not apply to 'verify alibi'", dir);
  bad_input({"alibi", "--heads", "16", "--table", dir.file("absent.bin"), "-o", out}, "absent.bin", dir);
  write_bytes(dir.file("short.bin"), std::string(12, '\0'));
  bad_input({"alibi", "--heads", "16", "--table", dir.file("short.bin"), "-o", out}, "has 12 bytes", dir);
  bad_input({"t5-bucket", "--hf-config", fixture("bloom-560m.json"), "-o", out}, "bloom-560m.json", dir);
  bad_input({"shaw", "--positions", "50", "--dtype", "f32", "-o", out}, "--dtype and --max-ulp do not apply", dir);
  bad_input({"attn-temperature", "--positions", "5", "--floor-scale", "0", "-o", out}, "floor_scale must be in", dir);
}

// ---- verify <table> --help: the table's flags only (issue 20) ----

namespace {

// The flags a help text lists: its lines "  --name ...".
std::vector<std::string> listed_flags(const std::string& help) {
  std::vector<std::string> out;
  for (const std::string& line : posenc_test::split(help, '\n'))
    if (line.rfind("  --", 0) == 0) out.push_back(line.substr(4, line.find(' ', 4) - 4));
  return out;
}

}  // namespace

TEST_CASE("verify <table> --help lists the table's flags and none of another table's", "[cli][verify][help]") {
  const std::vector<std::string> report = {"table", "shard", "threads", "json", "output", "quiet", "help"};
  // Each table's own flags, with the report's; real-valued tables add dtype and max-ulp.
  const std::vector<posenc_test::table_flags> tables = posenc_test::scheme_table_flags();
  for (const auto& t : tables) {
    const cli_result r = verify({t.table, "--help"});
    INFO(t.table << "\n" << r.out);
    REQUIRE(r.status == 0);
    CHECK(r.out.rfind("usage: posenc verify " + t.table + " ", 0) == 0);
    std::vector<std::string> want = t.own;
    want.insert(want.end(), report.begin(), report.end());
    if (t.real) want.insert(want.end(), {"dtype", "max-ulp"});
    std::vector<std::string> listed = listed_flags(r.out);
    std::sort(want.begin(), want.end());
    std::sort(listed.begin(), listed.end());
    CHECK(listed == want);
  }
  // verify's --range of t5-bucket is optional (emit's is required): its usage says so.
  CHECK(has(verify({"t5-bucket", "--help"}).out, "[--no-bidirectional] [--range R]\n"));
  const cli_result rope = verify({"rope", "--help"});
  REQUIRE(rope.status == 0);
  const std::vector<std::string> rope_flags = listed_flags(rope.out);
  for (const char* f : {"head-dim", "rope-theta", "shard", "threads", "layout", "fold-attention", "table"})
    CHECK(std::find(rope_flags.begin(), rope_flags.end(), f) != rope_flags.end());
  for (const char* f : {"dim", "klen", "heads", "num-buckets", "scale-base", "p", "distances"})
    CHECK(std::find(rope_flags.begin(), rope_flags.end(), f) == rope_flags.end());
}

TEST_CASE("verify: Python's dtype spellings read as the CLI's", "[cli][verify][spelling]") {
  const strings base = {"logn", "--positions", "4", "--json"};
  const cli_result a = verify(posenc_test::cat(base, {"--dtype", "f32,bf16"}));
  const cli_result b = verify(posenc_test::cat(base, {"--dtype", "float32,bfloat16"}));
  INFO(b.err);
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  // The reports differ only in their time: compare the dtypes they name.
  for (const char* d : {"\"f32\"", "\"bf16\""}) CHECK(has(b.out, d));
  CHECK(!has(b.out, "\"f64\""));
  CHECK(!has(b.out, "float32"));
}

TEST_CASE("verify <scheme> --shard K/N: the shards' reports merge into the unsharded report", "[cli][verify]") {
  temp_dir dir;
  const auto without_time = [](nlohmann::json j) {
    j.erase("seconds");
    return j;
  };
  // ALiBi's causal biases of 4 heads x 100 queries (20200 entries, 5 blocks) and T5's buckets of
  // -6000 .. 6000 (12001 entries, 3 blocks): real-valued and integer tables.
  const std::vector<strings> tables = {
      {"alibi", "--heads", "4", "--bias", "--positions", "100", "--dtype", "f32,bf16"},
      {"t5-bucket", "--num-buckets", "32", "--max-distance", "128", "--range", "6000"}};
  for (const strings& table : tables) {
    INFO(table[0]);
    const cli_result whole = verify(posenc_test::cat(table, {"--json", "--quiet"}));
    REQUIRE(whole.status == 0);
    strings reports;
    for (int k = 2; k >= 0; --k) {  // any order
      const std::string f = dir.file(table[0] + std::to_string(k) + ".json");
      const cli_result s = verify(posenc_test::cat(
          table, {"--json", "--quiet", "--shard", std::to_string(k) + "/3", "--threads", "2", "-o", f}));
      INFO(s.err);
      REQUIRE(s.status == 0);
      reports.push_back(f);
    }
    const cli_result merged = verify(posenc_test::cat({"merge", "--json"}, reports));
    INFO(merged.err);
    REQUIRE(merged.status == 0);
    CHECK(without_time(nlohmann::json::parse(merged.out)) == without_time(nlohmann::json::parse(whole.out)));
    const auto cut = [](const std::string& s) { return s.substr(0, s.find("\ntime: ")); };
    CHECK(cut(verify(posenc_test::cat({"merge"}, reports)).out) == cut(verify(table).out));
    // A missing shard is named.
    bad_input({"merge", reports[0], reports[2]}, "missing", dir);
  }
}
