// `posenc report precision` (tools/cli/commands_report.hpp) of 1D RoPE: the figures of precision.md
// against values this test computes itself from MPFR (cli_report_reference.hpp), the exact tables
// within half an ulp, HF's angle error nonzero and growing, ggml "not
// applicable" outside default/linear, and bad input: exit 2, one line, no directory left behind.
// The checker is shown to fail on a report with one altered figure.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <posenc/rope/config.hpp>

#include "cli_report_reference.hpp"

namespace {

using namespace posenc_test::report;

const pr::config llama2_small{.head_dim = 64, .rope_theta = 10000.0};
const strings llama2_small_flags = {"--head-dim", "64", "--rope-theta", "10000"};
const pr::config yarn_small{.head_dim = 32,
                            .rope_theta = 1000000.0,
                            .rope_type = pr::scaling::yarn,
                            .factor = 4.0,
                            .original_max_position_embeddings = 32768};
const strings yarn_small_flags = {"--head-dim", "32",          "--rope-theta",
                                  "1000000",    "--rope-type", "yarn",
                                  "--factor",   "4",           "--original-max-position-embeddings",
                                  "32768"};

}  // namespace

TEST_CASE("report precision: the figures equal the MPFR reference (default rope, ggml applicable)", "[cli][report]") {
  const bool gnuplot = std::system("gnuplot --version > /dev/null 2>&1") == 0;
  const run_result r = run_report(llama2_small_flags, gnuplot);
  const strings data = {"angle.dat", "cos-sin.dat", "precision.gp", "precision.md"};
  const strings with_plots = {"angle-error.png", "angle.dat",    "cos-sin-error.png",
                              "cos-sin.dat",     "precision.gp", "precision.md"};
  CHECK(r.files == (gnuplot ? with_plots : data));
  const table ref = reference(llama2_small, positions_upto(1000), 1000);
  const std::vector<std::string> problems = check_report(r.md, ref);
  INFO(r.md);
  for (const std::string& p : problems) INFO(p);
  CHECK(problems.empty());

  // posenc's tables are correctly rounded: at most half an ulp; HF's angle error grows.
  for (const char* d : {"[0, 9]", "[10, 99]", "[100, 999]", "[1000, 1000]"})
    for (const char* p : {"exact-f32", "exact-bf16", "exact-f16"}) CHECK(cell(r.md, d, p, 5) <= 0.5);
  const double a0 = cell(r.md, "[0, 9]", "hf-float32", 7), a1 = cell(r.md, "[10, 99]", "hf-float32", 7),
               a2 = cell(r.md, "[100, 999]", "hf-float32", 7);
  CHECK(a0 > 0);
  CHECK(a1 > 2 * a0);
  CHECK(a2 > 2 * a1);

  SECTION("the checker fails on a report with one altered figure") {
    std::string bad = r.md;
    const std::string row = "| [100, 999] | 900 | hf-float32 | ";
    const std::size_t at = bad.find(row);
    REQUIRE(at != std::string::npos);
    const std::size_t b = at + row.size(), e = bad.find(' ', b);
    const std::string orig = bad.substr(b, e - b);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4e", std::strtod(orig.c_str(), nullptr) * 1.01);
    bad.replace(b, e - b, buf);
    const std::vector<std::string> found = check_report(bad, ref);
    REQUIRE(found.size() == 1);
    CHECK(found[0].find("[100, 999] hf-float32: column 3") != std::string::npos);
    // and on a report that lost a row
    std::string short_md = r.md;
    short_md.erase(short_md.find("| [10, 99] | 90 | exact-f16 |"), 1);
    CHECK(!check_report(short_md, ref).empty());
  }
}

TEST_CASE("report precision: YaRN (attention factor folded), ggml not applicable", "[cli][report]") {
  const run_result r = run_report(yarn_small_flags, false);
  const table ref = reference(yarn_small, positions_upto(1000), 1000);
  const std::vector<std::string> problems = check_report(r.md, ref);
  INFO(r.md);
  for (const std::string& p : problems) INFO(p);
  CHECK(problems.empty());
  // The reason is rope::applies' (the words emit and Python give too).
  CHECK(r.md.find("| ggml-float32 | not applicable: ggml's float32 recurrence covers rope_type default and linear "
                  "only (this config: rope_type yarn) |") != std::string::npos);
}

TEST_CASE("report precision: bad input exits 2 with one line and leaves no directory", "[cli][report][errors]") {
  posenc_test::temp_dir parent;
  const std::string out = parent.file("rep");
  { std::ofstream(parent.file("a-file")) << "x"; }
  ::mkdir(parent.file("full").c_str(), 0700);
  { std::ofstream(parent.file("full") + "/keep") << "x"; }
  struct bad_case {
    strings args;
    std::string message;
  };
  const std::vector<bad_case> cases = {
      {{"--head-dim", "64"}, "-o DIR is required"},
      {{"-o", out}, "--head-dim is required"},
      {{"--head-dim", "63", "-o", out}, "invalid RoPE config"},
      {{"--head-dim", "64", "--rope-type", "nope", "-o", out}, "--rope-type"},
      {{"--hf-config", parent.file("missing.json"), "-o", out}, "--hf-config"},
      {{"--head-dim", "64", "--max-position", "0", "-o", out}, "--max-position"},
      {{"--head-dim", "64", "-o", parent.file("a-file")}, "exists and is not a directory"},
      {{"--head-dim", "64", "-o", parent.file("full")}, "exists and is not empty"},
      {{"--head-dim", "64", "-o", parent.file("a-file") + "/sub"}, "Not a directory"},
      {{"--head-dim", "64", "-o", parent.file("no/such/dir")}, "No such file or directory"},
      {{"--head-dim", "64", "-o", out, "extra"}, "unexpected argument"},
      {{"--head-dim", "64", "--axes-dim", "8,8", "-o", out}, "flag --axes-dim does not apply to 'report precision'"},
      {{"--head-dim", "64", "--mrope-section", "8,12,12", "-o", out}, "flag --mrope-section does not apply"},
  };
  const auto check_case = [&](const strings& args, const std::string& message) {
    const auto r = report(args);
    INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.rfind("posenc: error: report", 0) == 0);
    CHECK(r.err.find(message) != std::string::npos);
    std::vector<std::string> files = parent.files();
    std::sort(files.begin(), files.end());
    CHECK(files == strings{"a-file", "full"});
  };
  for (const bad_case& c : cases) check_case(c.args, c.message);

  // Without gnuplot on PATH (and no --no-plots) the command refuses before creating anything.
  const char* old = std::getenv("PATH");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("PATH", parent.file("no-bin").c_str(), 1);
  check_case({"--head-dim", "64", "--max-position", "10", "-o", out}, "gnuplot is not on PATH");
  ::setenv("PATH", saved.c_str(), 1);
  std::remove((parent.file("full") + "/keep").c_str());
  ::rmdir(parent.file("full").c_str());
}

TEST_CASE("report: help", "[cli][report]") {
  for (const strings& args : {strings{"help", "report"}, strings{"report", "--help"}}) {
    const auto r = posenc_test::run_cli(POSENC_CLI_PATH, args);
    INFO(posenc_test::describe_cli(args));
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out.find("usage: posenc report precision") != std::string::npos);
    CHECK(r.out.find("--no-plots") != std::string::npos);
    CHECK(r.out.find("posenc report precision mrope") != std::string::npos);
    CHECK(r.out.find("--axes-dim") != std::string::npos);
    CHECK(r.out.find("--position-ids") == std::string::npos);  // the report samples the positions
  }
  const auto top = posenc_test::run_cli(POSENC_CLI_PATH, {"--help"});
  CHECK(top.out.find("  report") != std::string::npos);
}

TEST_CASE("report precision: -o may name an empty directory, with a trailing slash", "[cli][report]") {
  posenc_test::temp_dir parent;
  const std::string out = parent.file("rep");
  REQUIRE(::mkdir(out.c_str(), 0700) == 0);
  const auto r = report({"--head-dim", "8", "--max-position", "20", "--no-plots", "-o", out + "/"});
  INFO(r.err);
  CHECK(r.status == 0);
  strings files = list_dir(out);
  std::sort(files.begin(), files.end());
  CHECK(files == strings{"angle.dat", "cos-sin.dat", "precision.gp", "precision.md"});
  for (const std::string& f : files) std::remove((out + "/" + f).c_str());
  ::rmdir(out.c_str());
  CHECK(parent.files().empty());  // no temporary directory left beside it
}
