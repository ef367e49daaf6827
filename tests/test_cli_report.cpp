// `posenc report precision` (tools/cli/commands_report.hpp): the figures of precision.md against
// values this test computes itself from MPFR (rope_table_oracle's 320-bit cos/sin, rope_oracle's
// exact frequencies; the exact tables' values are the oracle's own correct roundings, not posenc's
// tables), the exact tables within half an ulp, HF's angle error nonzero and growing, ggml "not
// applicable" outside default/linear, and bad input: exit 2, one line, no directory left behind.
// The checker is shown to fail on a report with one altered figure.
#include <catch2/catch.hpp>

#include <dirent.h>
#include <mpfr.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/rope/config.hpp>
#include <posenc/rope/frequencies.hpp>
#include <posenc/rope/policy.hpp>
#include <posenc/verify/rope_oracle.hpp>
#include <posenc/verify/rope_table_oracle.hpp>

#include "cli_spawn.hpp"

#ifndef POSENC_CLI_PATH
#error "POSENC_CLI_PATH must name the posenc executable (tests/CMakeLists.txt defines it)"
#endif

namespace {

using strings = std::vector<std::string>;
namespace pr = posenc::rope;

posenc_test::cli_result report(const strings& args) {
  strings a{"report", "precision"};
  a.insert(a.end(), args.begin(), args.end());
  return posenc_test::run_cli(POSENC_CLI_PATH, a);
}

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// The figures of one (decade, pipeline) row.
struct figures {
  double max_abs = 0, sum_abs = 0, max_ulp = 0, sum_ulp = 0, max_angle = 0, sum_angle = 0;
  long values = 0, angles = 0, positions = 0;
  bool applicable = true;
  void value(double abs, double ulp) {
    max_abs = std::max(max_abs, abs), sum_abs += abs, max_ulp = std::max(max_ulp, ulp), sum_ulp += ulp, ++values;
  }
  void angle(double e) { max_angle = std::max(max_angle, e), sum_angle += e, ++angles; }
};
using key = std::pair<std::string, std::string>;  // decade label, pipeline
using table = std::map<key, figures>;

std::string decade_of(std::uint64_t m) {
  std::uint64_t lo = 0, hi = 9;
  while (m > hi) lo = hi + 1, hi = hi * 10 + 9;
  hi = std::min<std::uint64_t>(hi, 1000);  // the runs below stop at 1000
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

// |v - x| for the 320-bit x, rounded to double.
double abs_error(mpfr_srcptr x, double v) {
  posenc::verify::rope_detail::M d(320);
  mpfr_sub_d(d.get(), x, v, MPFR_RNDN);
  return std::fabs(mpfr_get_d(d.get(), MPFR_RNDN));
}
// The ulp of x in a format of precision p and minimum normal exponent emin.
double ulp(mpfr_srcptr x, int p, long emin) {
  long e = emin;
  if (!mpfr_zero_p(x)) e = std::max(emin, static_cast<long>(mpfr_get_exp(x)) - 1);  // |x| in [2^e, 2^(e+1))
  return std::ldexp(1.0, static_cast<int>(e) - (p - 1));
}

// The reference figures of every position 0..1000, computed here.
table reference(const pr::config& c) {
  const posenc::verify::rope_table_oracle oracle(c);
  const pr::checked_config cc(c);
  const int pairs = static_cast<int>(pr::rotary_dim(c) / 2);
  std::vector<std::unique_ptr<posenc::verify::rope_detail::M>> theta;
  for (int j = 0; j < pairs; ++j) {
    theta.push_back(std::make_unique<posenc::verify::rope_detail::M>(320));
    posenc::verify::rope_detail::ctx{320, c}.inv_freq(*theta.back(), j);
  }
  const bool ggml = pr::angle(pr::ggml_float32, cc, 0, 0).ok();
  table t;
  posenc::verify::rope_detail::M x(320);
  posenc::verify::rope_table_oracle::value v;
  for (std::uint64_t m = 0; m <= 1000; ++m) {
    const std::string d = decade_of(m);
    auto& hf = t[{d, "hf-float32"}];
    auto& gg = t[{d, "ggml-float32"}];
    auto& f32 = t[{d, "exact-f32"}];
    auto& b16 = t[{d, "exact-bf16"}];
    auto& h16 = t[{d, "exact-f16"}];
    for (auto* f : {&hf, &gg, &f32, &b16, &h16}) ++f->positions;
    gg.applicable = ggml;
    for (int j = 0; j < pairs; ++j) {
      oracle.eval(m, j, true, v);
      mpfr_mul_ui(x.get(), theta[static_cast<std::size_t>(j)]->get(), static_cast<unsigned long>(m), MPFR_RNDN);
      const auto both = [&](figures& f, double cv, double sv, int p, long emin) {
        const double ac = abs_error(v.cos.get(), cv), as = abs_error(v.sin.get(), sv);
        f.value(ac, ac / ulp(v.cos.get(), p, emin));
        f.value(as, as / ulp(v.sin.get(), p, emin));
      };
      const auto h = pr::sincos<float>(pr::hf_float32, cc, m, j).value;
      both(hf, h.cos, h.sin, 24, -126);
      hf.angle(abs_error(x.get(), pr::angle(pr::hf_float32, cc, m, j).value));
      if (ggml) {
        const auto g = pr::sincos<float>(pr::ggml_float32, cc, m, j).value;
        both(gg, g.cos, g.sin, 24, -126);
        gg.angle(abs_error(x.get(), pr::angle(pr::ggml_float32, cc, m, j).value));
      }
      const auto r32 = v.round<float>();
      both(f32, r32.cos, r32.sin, 24, -126);
      const auto rb = v.round<posenc::bfloat16>();
      both(b16, rb.cos.to_float(), rb.sin.to_float(), 8, -126);
      const auto rh = v.round<posenc::float16>();
      both(h16, rh.cos.to_float(), rh.sin.to_float(), 11, -14);
    }
  }
  return t;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// The rows "| [lo, hi] | n | pipeline | 6 figures |" of precision.md.
std::map<key, std::vector<std::string>> parse_rows(const std::string& md) {
  std::map<key, std::vector<std::string>> rows;
  std::istringstream in(md);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| [", 0) != 0) continue;
    std::vector<std::string> cells;
    std::size_t pos = 1;
    for (std::size_t bar; (bar = line.find('|', pos)) != std::string::npos; pos = bar + 1)
      cells.push_back(trim(line.substr(pos, bar - pos)));
    if (cells.size() != 9) continue;
    rows[{cells[0], cells[2]}] = cells;
  }
  return rows;
}

// Every disagreement between the report and the reference, one line each (empty: they agree).
std::vector<std::string> check_report(const std::string& md, const table& ref) {
  std::vector<std::string> problems;
  const auto rows = parse_rows(md);
  if (rows.size() != ref.size())
    problems.push_back("rows: " + std::to_string(rows.size()) + " in the report, " + std::to_string(ref.size()) +
                       " expected");
  for (const auto& [k, f] : ref) {
    const auto it = rows.find(k);
    const std::string where = k.first + " " + k.second + ": ";
    if (it == rows.end()) {
      problems.push_back(where + "missing");
      continue;
    }
    const auto& c = it->second;
    if (c[1] != std::to_string(f.positions)) problems.push_back(where + "sampled " + c[1]);
    if (!f.applicable) {
      if (c[3] != "not applicable") problems.push_back(where + "expected 'not applicable', got " + c[3]);
      continue;
    }
    const bool angle = f.angles > 0;
    const std::array<double, 6> want = {f.max_abs,   f.sum_abs / static_cast<double>(f.values),
                                        f.max_ulp,   f.sum_ulp / static_cast<double>(f.values),
                                        f.max_angle, angle ? f.sum_angle / static_cast<double>(f.angles) : 0.0};
    for (std::size_t i = 0; i < 6; ++i) {
      const std::string& cell = c[3 + i];
      if (i >= 4 && !angle) {
        if (cell != "-") problems.push_back(where + "column " + std::to_string(3 + i) + ": expected '-'");
        continue;
      }
      char* end = nullptr;
      const double got = std::strtod(cell.c_str(), &end);
      if (end == cell.c_str() || *end != '\0' || std::fabs(got - want[i]) > 1e-3 * std::fabs(want[i]) + 1e-300) {
        std::ostringstream o;
        o.precision(6);
        o << where << "column " << (3 + i) << ": report " << cell << ", reference " << want[i];
        problems.push_back(o.str());
      }
    }
  }
  return problems;
}

double cell(const std::string& md, const std::string& decade, const std::string& pipeline, std::size_t column) {
  const auto rows = parse_rows(md);
  const auto it = rows.find({decade, pipeline});
  REQUIRE(it != rows.end());
  return std::strtod(it->second.at(column).c_str(), nullptr);
}

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

strings list_dir(const std::string& path) {
  strings names;
  if (DIR* d = ::opendir(path.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    ::closedir(d);
  }
  return names;
}

struct run_result {
  std::string md;
  std::vector<std::string> files;
};
run_result run_report(const strings& flags, bool plots) {
  posenc_test::temp_dir parent;
  const std::string out = parent.file("rep");
  strings args = flags;
  for (const char* a : {"--max-position", "1000", "-o"}) args.emplace_back(a);
  args.push_back(out);
  if (!plots) args.emplace_back("--no-plots");
  const auto r = report(args);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  run_result res{read_file(out + "/precision.md"), {}};
  res.files = list_dir(out);
  for (const std::string& f : res.files) std::remove((out + "/" + f).c_str());
  ::rmdir(out.c_str());
  std::sort(res.files.begin(), res.files.end());
  return res;
}

}  // namespace

TEST_CASE("report precision: the figures equal the MPFR reference (default rope, ggml applicable)", "[cli][report]") {
  const bool gnuplot = std::system("gnuplot --version > /dev/null 2>&1") == 0;
  const run_result r = run_report(llama2_small_flags, gnuplot);
  const strings data = {"angle.dat", "cos-sin.dat", "precision.gp", "precision.md"};
  const strings with_plots = {"angle-error.png", "angle.dat",    "cos-sin-error.png",
                              "cos-sin.dat",     "precision.gp", "precision.md"};
  CHECK(r.files == (gnuplot ? with_plots : data));
  const table ref = reference(llama2_small);
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
  const table ref = reference(yarn_small);
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
