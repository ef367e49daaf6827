// `posenc verify rope` and `posenc verify merge` (tools/cli/commands_verify.hpp): every shipped
// RoPE config's table passes; a table written by `posenc emit rope --format bin` passes, and fails
// (exit 1, naming the entry) once one entry is moved by one step or when it is HF's float32 table;
// the merged JSON reports of 4 shards equal the unsharded report; bad input exits 2 with one line
// and leaves no output file.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

#ifndef POSENC_SOURCE_DIR
#error "POSENC_SOURCE_DIR must name the source tree (tests/CMakeLists.txt defines it)"
#endif

using posenc_test::cat;
using posenc_test::cli_result;
using posenc_test::strings;
using posenc_test::temp_dir;

namespace {

cli_result verify(strings args) {
  args.insert(args.begin(), "verify");
  return posenc_test::run_cli(POSENC_CLI_PATH, args);
}

std::string fixture(const std::string& name) { return std::string(POSENC_SOURCE_DIR) + "/examples/configs/" + name; }

void write_bytes(const std::string& path, const std::string& data) {
  std::ofstream f(path, std::ios::binary);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
}

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

// Exit 2, nothing on stdout, one line naming the problem, no file left in dir.
void bad_input(const strings& args, const std::string& names, const temp_dir* dir = nullptr,
               std::size_t files_before = 0) {
  const cli_result r = verify(args);
  INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(lines(r.err) == 1);
  CHECK(r.err.rfind("posenc: error: ", 0) == 0);
  CHECK(r.err.find(names) != std::string::npos);
  if (dir != nullptr) CHECK(dir->files().size() == files_before);
}

nlohmann::json without_time(nlohmann::json j) {
  j.erase("seconds");
  return j;
}

}  // namespace

TEST_CASE("posenc verify rope: every shipped RoPE config passes", "[cli][verify]") {
  // 300 positions each: every config's frequencies and laws; docs/verify.md has the full tables.
  for (const char* model :
       {"llama-3.1-8b.json", "llama-3.2-1b.json", "qwen2.5-7b-instruct-yarn.json", "deepseek-v3.json",
        "phi-3.5-mini-instruct.json", "gpt-oss-20b.json", "gemma-2-2b.json", "pythia-160m.json", "gpt-j-6b.json"}) {
    INFO(model);
    const cli_result r = verify({"rope", "--hf-config", fixture(model), "--positions", "300", "--quiet"});
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(r.out.rfind("posenc verify rope: PASS\n", 0) == 0);
    CHECK(r.err.empty());
    CHECK(r.out.find("exactness") != std::string::npos);
  }
  // A config without RoPE is bad input, named.
  bad_input({"rope", "--hf-config", fixture("t5-small.json")}, "t5-small.json");
}

TEST_CASE("posenc verify rope --table: posenc's bin table passes; a changed entry fails where it is", "[cli][verify]") {
  temp_dir dir;
  const std::string table = dir.file("t.bin");
  const strings cfg = {"--head-dim", "64", "--rope-theta", "500000"};
  const cli_result e = posenc_test::emit(cat({"rope", "--positions", "1500", "--start", "10", "--dtype", "f32",
                                              "--format", "bin", "--layout", "interleaved", "-o", table},
                                             cfg));
  REQUIRE(e.status == 0);
  const strings args = cat({"rope", "--table", table, "--positions", "1500", "--start", "10", "--dtype", "f32",
                            "--layout", "interleaved", "--quiet"},
                           cfg);
  const cli_result ok = verify(args);
  INFO(ok.err);
  CHECK(ok.status == 0);
  CHECK(ok.out.find("f32    192000       0            0") != std::string::npos);  // 1500 x 64 x 2 entries

  // One entry one step up: row 1234 (position 1244), element 5, sin (bin: per element cos then sin).
  std::string bytes = posenc_test::read_all(table);
  const std::size_t at = ((1234 * 64 + 5) * 2 + 1) * 4;
  std::uint32_t bits = 0;
  std::memcpy(&bits, bytes.data() + at, 4);
  bits += (bits & 0x80000000u) != 0 ? 0xFFFFFFFFu : 1u;  // one representable step (a float is sign-magnitude)
  std::memcpy(bytes.data() + at, &bits, 4);
  write_bytes(table, bytes);
  const cli_result bad = verify(args);
  CHECK(bad.status == 1);
  CHECK(bad.out.rfind("posenc verify rope: FAIL\n", 0) == 0);
  CHECK(bad.out.find("first entry beyond the allowed error: position 1244, element 5, sin") != std::string::npos);
  // --max-ulp 1 allows the entry (still counted as not correctly rounded), but the law that the two
  // elements of a pair hold the same value fails there.
  const cli_result tolerant = verify(cat(args, {"--max-ulp", "1"}));
  CHECK(tolerant.status == 1);
  CHECK(tolerant.out.find("f32    192000       1            0") != std::string::npos);
  CHECK(tolerant.out.find("pair copies           FAILS") != std::string::npos);
  CHECK(tolerant.out.find("first failure at position 1244, pair 2") != std::string::npos);
  CHECK(tolerant.out.find("exactness             holds") != std::string::npos);
  // The wrong layout: most entries are in the wrong place.
  CHECK(
      verify(cat({"rope", "--table", table, "--positions", "1500", "--start", "10", "--dtype", "f32", "--quiet"}, cfg))
          .status == 1);
}

TEST_CASE("posenc verify rope --layout pairs: an emitted pair table passes; one flipped bit fails", "[cli][verify]") {
  temp_dir dir;
  const strings cfg = {"--head-dim", "32",          "--rope-theta", "10000",   "--partial-rotary-factor",
                       "0.5",        "--positions", "40",           "--dtype", "bf16",
                       "--layout",   "pairs"};
  for (const char* file : {"p.bin", "p.npy", "p.safetensors"}) {
    const std::string table = dir.file(file);
    REQUIRE(posenc_test::emit(cat(cat({"rope"}, cfg), {"-o", table, "--format", std::string(file).substr(2)})).status ==
            0);
    const strings args = cat({"rope", "--table", table, "--quiet"}, cfg);
    const cli_result ok = verify(args);
    INFO(file << "\n" << ok.out << ok.err);
    CHECK(ok.status == 0);
    // 40 rows x 8 pairs, each checked at both elements it rotates (rotary_dim 16, cos and sin).
    CHECK(ok.out.find("bf16   1280         0            0") != std::string::npos);
  }
  // The bin file: 40 x 8 pairs x (cos, sin) x 2 bytes; flip the low bit of row 17, pair 3's sin.
  const std::string table = dir.file("p.bin");
  std::string bytes = posenc_test::read_all(table);
  REQUIRE(bytes.size() == 40 * 8 * 2 * 2);
  bytes[((17 * 8 + 3) * 2 + 1) * 2] ^= 1;
  write_bytes(table, bytes);
  const cli_result bad = verify(cat({"rope", "--table", table, "--quiet"}, cfg));
  CHECK(bad.status == 1);
  CHECK(bad.out.find("first entry beyond the allowed error: position 17, element 3, sin") != std::string::npos);
  // A pairs file of other rows names the shape in pairs.
  const cli_result shape = verify({"rope", "--table", dir.file("p.npy"), "--quiet", "--head-dim", "32",
                                   "--partial-rotary-factor", "0.5", "--positions", "41", "--layout", "pairs"});
  CHECK(shape.status == 2);
  CHECK(shape.err.find("41 rows of 8 pairs are [2, 41, 8]") != std::string::npos);
  // Read as an expanded table of the same rows it has the wrong size: bad input, not a verdict.
  CHECK(verify({"rope", "--table", table, "--quiet", "--head-dim", "32", "--partial-rotary-factor", "0.5",
                "--positions", "40", "--dtype", "bf16"})
            .status == 2);
}

TEST_CASE("posenc verify rope --table: .npy and .safetensors files, their dtype read from the file", "[cli][verify]") {
  temp_dir dir;
  // Two blocks (1100 rows) of a small head: what is tested is the files, not the config (the
  // sanitizer build spent 12 s here verifying gpt-oss's 64-wide rows).
  const strings cfg = {"--head-dim", "16", "--rope-theta", "150000", "--positions", "1100", "--start", "5000"};
  for (const char* dt : {"f32", "bf16", "f16", "f64"})
    for (const char* fmt : {"npy", "safetensors"}) {
      INFO(dt << " " << fmt);
      const std::string f = dir.file(std::string("t_") + dt + "." + fmt);
      REQUIRE(posenc_test::emit(cat({"rope", "--dtype", dt, "--format", fmt, "-o", f}, cfg)).status == 0);
      // bf16 in a .npy is '<u2' bits: it needs --dtype bf16; every other file says its dtype.
      const bool needs_dtype = std::string(dt) == "bf16" && std::string(fmt) == "npy";
      const cli_result r =
          verify(cat({"rope", "--table", f, "--quiet"}, needs_dtype ? cat(cfg, {"--dtype", dt}) : cfg));
      INFO(r.err);
      CHECK(r.status == 0);
      CHECK(r.out.find(std::string("\n") + dt + std::string(7 - std::string(dt).size(), ' ') + "35200 ") !=
            std::string::npos);  // 1100 rows x 16 x 2 entries
      if (needs_dtype) bad_input(cat({"rope", "--table", f, "--quiet"}, cfg), "give --dtype bf16");
    }
  // The file's dtype must be the one --dtype names; the shape must be the table's.
  const std::string f32 = dir.file("t_f32.npy"), st = dir.file("t_f32.safetensors");
  bad_input(cat({"rope", "--table", f32, "--dtype", "f16", "--quiet"}, cfg), "t_f32.npy");
  bad_input(cat({"rope", "--table", st, "--dtype", "f64", "--quiet"}, cfg), "expected F64");
  bad_input(
      {"rope", "--head-dim", "16", "--rope-theta", "150000", "--positions", "1000", "--start", "5000", "--table", f32},
      "holds a [2, 1100, 16] tensor; 1000 rows of rotary_dim 16 are [2, 1000, 16]");
  const std::string freq = dir.file("freq.safetensors");
  REQUIRE(posenc_test::emit(cat({"rope-freq", "--format", "safetensors", "-o", freq}, {cfg[0], cfg[1]})).status == 0);
  bad_input(cat({"rope", "--table", freq, "--quiet"}, cfg), "missing tensor 'cos'");
  const std::string junk = dir.file("junk.npy");
  write_bytes(junk, "not an npy file");
  bad_input(cat({"rope", "--table", junk, "--quiet"}, cfg), "junk.npy");
}

TEST_CASE("posenc verify rope --table: HF's float32 table is not correctly rounded", "[cli][verify]") {
  temp_dir dir;
  const std::string table = dir.file("hf.bin");
  const strings cfg = {"--hf-config", fixture("llama-3.2-1b.json")};
  REQUIRE(posenc_test::emit(cat({"rope", "--positions", "1024", "--start", "20000", "--dtype", "f32", "--policy",
                                 "hf-float32", "--format", "bin", "-o", table},
                                cfg))
              .status == 0);
  const cli_result r = verify(
      cat({"rope", "--table", table, "--positions", "1024", "--start", "20000", "--dtype", "f32", "--json", "--quiet"},
          cfg));
  CHECK(r.status == 1);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["passed"] == false);
  CHECK(j["dtypes"][0]["not_correctly_rounded"].get<std::uint64_t>() > 1000);
  CHECK(j["dtypes"][0]["max_ulp"].get<double>() > 1.0);  // the float32 angle's error at position 20000+
}

TEST_CASE("posenc verify merge: 4 shards merge into the unsharded report", "[cli][verify]") {
  temp_dir dir;
  const strings base = {"rope",        "--hf-config", fixture("qwen2.5-7b-instruct-yarn.json"),
                        "--positions", "3500",        "--start",
                        "30000",       "--dtype",     "f32,f16",
                        "--json",      "--quiet"};
  const cli_result whole = verify(base);
  REQUIRE(whole.status == 0);
  strings reports;
  for (int k = 3; k >= 0; --k) {  // any order
    const std::string f = dir.file("shard" + std::to_string(k) + ".json");
    const cli_result s = verify(cat(base, {"--shard", std::to_string(k) + "/4", "-o", f}));
    INFO(s.err);
    REQUIRE(s.status == 0);
    CHECK(s.out.empty());
    reports.push_back(f);
  }
  const cli_result merged = verify(cat({"merge", "--json"}, reports));
  INFO(merged.err);
  REQUIRE(merged.status == 0);
  CHECK(without_time(nlohmann::json::parse(merged.out)) == without_time(nlohmann::json::parse(whole.out)));
  // And the text report, but for its time line.
  const cli_result text = verify(cat({"merge"}, reports));
  std::string whole_text = verify(strings(base.begin(), base.end() - 2)).out;  // without --json --quiet
  const auto cut = [](std::string s) { return s.substr(0, s.find("\ntime: ")); };
  CHECK(cut(text.out) == cut(whole_text));

  // A missing shard, a shard twice, a report of another table, a file that is not a report.
  const std::size_t n = dir.files().size();
  bad_input({"merge", reports[0], reports[1], reports[3]}, "missing", &dir, n);
  bad_input({"merge", reports[0], reports[1], reports[1], reports[2], reports[3]}, "a shard given twice", &dir, n);
  const std::string other = dir.file("other.json");
  REQUIRE(
      verify({"rope", "--head-dim", "64", "--positions", "3500", "--json", "--quiet", "--shard", "0/4", "-o", other})
          .status == 0);
  bad_input({"merge", other, reports[0], reports[1], reports[2]}, "different tables", &dir, n + 1);
  const std::string junk = dir.file("junk.json");
  write_bytes(junk, "{\"posenc_verify_report\": 1, \"scheme\": \"rope\"");
  bad_input({"merge", junk}, "not valid JSON", &dir, n + 2);
  write_bytes(junk, "{\"rows\": 3}");
  bad_input({"merge", junk}, "not a posenc verify report", &dir, n + 2);
  bad_input({"merge", dir.file("absent.json")}, "absent.json", &dir, n + 2);
  bad_input({"merge"}, "missing REPORT", &dir, n + 2);
}

TEST_CASE("posenc verify: bad input exits 2 with one line and no output file", "[cli][verify]") {
  temp_dir dir;
  const std::string out = dir.file("report.txt");
  const strings cfg = {"rope", "--head-dim", "64", "--positions", "2048", "--quiet", "-o", out};
  bad_input(cat(cfg, {"--shard", "5/4"}), "--shard must be K/N with 0 <= K < N, got '5/4'", &dir);
  bad_input(cat(cfg, {"--shard", "1/0"}), "N must be at least 1", &dir);
  bad_input(cat(cfg, {"--shard", "a/b"}), "'a/b'", &dir);
  bad_input(cat(cfg, {"--shard", "0/3"}), "only 2 blocks", &dir);
  bad_input(cat(cfg, {"--dtype", "f32,f32"}), "twice", &dir);
  bad_input(cat(cfg, {"--dtype", "f8"}), "'f8'", &dir);
  bad_input(cat(cfg, {"--start", "2097000"}), "past 2^21", &dir);
  bad_input(cat(cfg, {"--max-ulp", "-1"}), "--max-ulp", &dir);
  bad_input(cat(cfg, {"--rope-theta", "0.5"}), "rope_theta", &dir);
  bad_input(cat(cfg, {"--name", "x"}), "--name", &dir);
  bad_input({"rope", "--rope-theta", "10000"}, "--head-dim is required", &dir);
  bad_input({"rope", "--head-dim", "64"}, "--positions N is required", &dir);
  bad_input({"cosine"}, "unknown table 'cosine'", &dir);  // (sinusoidal is a table now: verify <scheme>)
  // --table: a missing file, a file of the wrong size, two dtypes.
  const std::string t = dir.file("t.bin");
  write_bytes(t, std::string(1000, '\0'));
  bad_input(cat(cfg, {"--table", dir.file("none.bin")}), "none.bin", &dir, 1);
  bad_input(cat(cfg, {"--table", t}), "has 1000 bytes; a f32 table of 2048 rows x 64 elements", &dir, 1);
  bad_input(cat(cfg, {"--table", t, "--dtype", "f32,bf16"}), "one dtype", &dir, 1);
  // An unwritable report path.
  bad_input({"rope", "--head-dim", "8", "--positions", "10", "--quiet", "-o", dir.file("no/such/dir.txt")},
            "no/such/dir.txt", &dir, 1);
}
