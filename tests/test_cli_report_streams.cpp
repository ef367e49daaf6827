// `posenc report precision mrope|rope-nd` (tools/cli/report_streams.hpp) on the shipped Qwen3-VL,
// Qwen2-VL and FLUX.1 configs: every figure of precision.md against the reference this test
// computes from MPFR (cli_report_reference.hpp), stream by stream and axis by axis; posenc's float32
// tables within half an ulp; the angle ggml's IMROPE map misses (pairs 61 and 62 of Qwen3-VL's
// [24, 20, 20], the finding of docs/rope-streams.md section 7) nonzero on the t stream and equal to
// t theta_j from MPFR, zero elsewhere and for the sections layout; FLUX's 128 x 128 image counts
// from an independent count; bad input: exit 2, one line, nothing created. Each checker is shown to
// fail on an altered report.
#include <catch2/catch.hpp>

#include <mpfr.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <posenc/rope/config.hpp>
#include <posenc/verify/rope_oracle.hpp>

#include "cli_report_reference.hpp"

namespace {

using namespace posenc_test::report;

const std::string configs = std::string(POSENC_SOURCE_DIR) + "/examples/configs/";

// ---- M-RoPE ----

// Qwen3-VL's text config and its streams in HF's interleaved map (docs/rope-streams.md section 1),
// written out here: h where j % 3 == 1 and j < 60, w where j % 3 == 2 and j < 60, t elsewhere; ggml's
// IMROPE keeps t only where j % 3 == 0 and j < 72, so 61 and 62 are at position 0.
const pr::config qwen3vl{.head_dim = 128, .rope_theta = 5e6, .max_position_embeddings = 262144};
ref_spec qwen3vl_spec() {
  ref_spec s;
  s.ggml_map = true;
  for (int j = 0; j < 64; ++j) {
    const bool h = j % 3 == 1 && j < 60, w = j % 3 == 2 && j < 60;
    s.pairs_label.push_back(h ? "h (20 pairs)" : w ? "w (20 pairs)" : "t (24 pairs)");
    s.map_zero.push_back(!h && !w && !(j % 3 == 0 && j < 72));
  }
  return s;
}
// --max-position 32768 --per-decade 3: every m < 1000, then floor(1000 * 10^(i/3)) and 32768.
const std::vector<std::uint64_t> qwen3vl_positions = [] {
  std::vector<std::uint64_t> v = positions_upto(999);
  v.insert(v.end(), {2154, 4641, 10000, 21544, 32768});
  return v;
}();

// Rows of precision.md whose pipeline is `pipeline`: (decade, pairs) -> the row's cells.
std::vector<std::pair<key, row_cells>> rows_of(const std::string& md, const std::string& pipeline) {
  std::vector<std::pair<key, row_cells>> r;
  for (const auto& [k, c] : parse_rows(md))
    if (std::get<2>(k) == pipeline) r.emplace_back(k, c);
  return r;
}

// posenc's tables: max ulp <= 0.5 in every row.
std::vector<std::string> check_exact_half_ulp(const std::string& md) {
  std::vector<std::string> problems;
  for (const char* p : {"exact-f32", "exact-bf16", "exact-f16"})
    for (const auto& [k, c] : rows_of(md, p))
      if (!(std::strtod(c.figures[2].c_str(), nullptr) <= 0.5))
        problems.push_back(std::get<0>(k) + " " + std::get<1>(k) + " " + p + ": max ulp " + c.figures[2]);
  if (rows_of(md, "exact-f32").empty()) problems.push_back("no exact-f32 row");
  return problems;
}

// ggml-map-f32: a nonzero max angle in the rows of `missing` (every decade), exactly 0 elsewhere.
std::vector<std::string> check_ggml_map(const std::string& md, const std::string& missing) {
  std::vector<std::string> problems;
  const auto rows = rows_of(md, "ggml-map-f32");
  if (rows.empty()) problems.push_back("no ggml-map-f32 row");
  for (const auto& [k, c] : rows) {
    const double a = std::strtod(c.figures[4].c_str(), nullptr);
    const bool want = std::get<1>(k) == missing;
    if (want ? !(a > 0) : a != 0.0)
      problems.push_back(std::get<0>(k) + " " + std::get<1>(k) + ": ggml-map-f32 max angle " + c.figures[4]);
  }
  return problems;
}

// m theta_j of Qwen3-VL from MPFR.
double exact_angle(std::uint64_t m, int j) {
  posenc::verify::rope_detail::M t(320);
  posenc::verify::rope_detail::ctx{320, qwen3vl}.inv_freq(t, j);
  mpfr_mul_ui(t.get(), t.get(), static_cast<unsigned long>(m), MPFR_RNDN);
  return mpfr_get_d(t.get(), MPFR_RNDN);
}

// The table of ggml's map: a row per t position 1024, 2048, ..., 32768 (the last is M), missing
// angles of pairs 61 and 62 and the largest cos/sin difference, each to the 4 digits printed.
std::vector<std::string> check_missing_angles(const std::string& md) {
  std::vector<std::string> problems;
  if (md.find("| t position | pair 61: missing angle (rad) | pair 62: missing angle (rad) | largest cos/sin "
              "difference |") == std::string::npos)
    problems.push_back("no table of pairs 61 and 62");
  int rows = 0;
  for (std::uint64_t p = 1024; p <= 32768; p *= 2, ++rows) {
    const std::string start = "| " + std::to_string(p) + " | ";
    const std::size_t at = md.find(start);
    if (at == std::string::npos) {
      problems.push_back("no row " + std::to_string(p));
      continue;
    }
    std::istringstream in(md.substr(at + start.size(), md.find('\n', at) - at - start.size()));
    double a61 = 0, a62 = 0, diff = 0;
    char bar = 0;
    in >> a61 >> bar >> a62 >> bar >> diff;
    const double w61 = exact_angle(p, 61), w62 = exact_angle(p, 62);
    const double wdiff = std::max(std::fabs(std::sin(w61)), 1 - std::cos(w61));  // pair 61 has the larger angle
    for (const auto& [got, want, what] :
         {std::tuple{a61, w61, "pair 61"}, std::tuple{a62, w62, "pair 62"}, std::tuple{diff, wdiff, "difference"}})
      if (!(std::fabs(got - want) <= 5e-4 * want))
        problems.push_back(std::to_string(p) + " " + what + ": report " + std::to_string(got) + ", MPFR " +
                           std::to_string(want));
  }
  return problems;
}

// ---- ND RoPE ----

// FLUX.1's axes: axis 0 of dim 16 and axes 1, 2 of dim 56, base 10000 (diffusers' FluxPosEmbed).
const pr::config flux_axis0{.head_dim = 16, .rope_theta = 10000.0};
const pr::config flux_axis12{.head_dim = 56, .rope_theta = 10000.0};
ref_spec flux_spec(const std::string& label) {
  ref_spec s;
  s.ggml = false;
  s.float64 = true;
  s.hf_name = "bfl-float32";
  s.pairs_label.assign(label == "axis 0 (pairs 0-7)" ? 8 : 28, label);
  return s;
}

// The image section's "| pipeline | wrong | of | largest |" figures.
struct image_row {
  long long wrong = -1, of = -1;
  double largest = -1;
};
image_row image_figures(const std::string& md, const std::string& pipeline) {
  image_row r;
  const std::size_t section = md.find("## A 128 x 128 latent image");
  if (section == std::string::npos) return r;
  const std::size_t at = md.find("| " + pipeline + " | ", section);
  if (at == std::string::npos) return r;
  std::istringstream in(md.substr(at + pipeline.size() + 4));
  char bar = 0;
  in >> r.wrong >> bar >> r.of >> bar >> r.largest;
  return r;
}

// The float32 entries of a 128 x 128 FLUX image (ids (0, row, col)) not correctly rounded, counted
// here: BFL's float32 values against the oracle's correct rounding, at positions 0 .. 127 of the
// dim-56 axes (each value in 128 tokens per axis) and at position 0 of axis 0 (all 16384 tokens).
long long flux_image_wrong() {
  long long wrong = 0;
  posenc::verify::rope_table_oracle::value v;
  for (const auto& [cfg, last, copies] :
       {std::tuple{flux_axis12, 127, 2 * 128}, std::tuple{flux_axis0, 0, 128 * 128}}) {
    const posenc::verify::rope_table_oracle oracle(cfg);
    const pr::checked_config cc(cfg);
    for (std::uint64_t m = 0; m <= static_cast<std::uint64_t>(last); ++m)
      for (int j = 0; j < cfg.head_dim / 2; ++j) {
        oracle.eval(m, j, true, v);
        const auto cr = v.round<float>();
        const auto f = pr::sincos<float>(pr::hf_float32, cc, m, j).value;
        wrong += copies * ((f.cos != cr.cos ? 1 : 0) + (f.sin != cr.sin ? 1 : 0));
      }
  }
  return wrong;
}

std::string replace_cell(std::string md, const std::string& row_start, std::size_t cell, const std::string& value) {
  std::size_t at = md.find(row_start);
  REQUIRE(at != std::string::npos);
  at += row_start.size();
  for (std::size_t i = 0; i < cell; ++i) at = md.find(" | ", at) + 3;
  md.replace(at, md.find(" |", at) - at, value);
  return md;
}

}  // namespace

TEST_CASE("report precision mrope: Qwen3-VL, every figure per stream against MPFR", "[cli][report][streams]") {
  const run_result r = run_form({"mrope", "--hf-config", configs + "qwen3-vl-30b-a3b-instruct.json", "--max-position",
                                 "32768", "--per-decade", "3", "--threads", "2"},
                                false);
  INFO(r.md);
  CHECK(r.files == strings{"angle.dat", "cos-sin.dat", "precision.gp", "precision.md"});
  const table ref = reference(qwen3vl, qwen3vl_positions, 32768, qwen3vl_spec());
  const std::vector<std::string> problems = check_report(r.md, ref);
  for (const std::string& p : problems) INFO(p);
  CHECK(problems.empty());
  CHECK(check_exact_half_ulp(r.md).empty());
  CHECK(check_ggml_map(r.md, "t (24 pairs)").empty());
  const std::vector<std::string> angles = check_missing_angles(r.md);
  for (const std::string& p : angles) INFO(p);
  CHECK(angles.empty());
  // The finding, as docs/rope-streams.md section 7 quotes it: 0.0135 and 0.0106 rad at 32K.
  CHECK(r.md.find("| 32768 | 0.0135 | 0.01061 | 0.0135 |") != std::string::npos);
  CHECK(r.md.find("Pairs 61, 62 are on HF's t stream") != std::string::npos);

  SECTION("each checker fails on an altered report") {
    const std::string row = "| [1000, 9999] | 2 | h (20 pairs) | hf-float32 | ";
    const std::string bad = replace_cell(r.md, row, 1, "1.0000e-05");  // mean abs
    const std::vector<std::string> found = check_report(bad, ref);
    REQUIRE(found.size() == 1);
    CHECK(found[0].find("[1000, 9999] h (20 pairs) hf-float32: column 4") != std::string::npos);
    const std::string count = replace_cell(r.md, row, 6, "1 of 80");  // not correctly rounded
    REQUIRE(check_report(count, ref).size() == 1);
    CHECK(check_report(count, ref)[0].find("not correctly rounded") != std::string::npos);
    CHECK(!check_exact_half_ulp(replace_cell(r.md, "| [10, 99] | 90 | w (20 pairs) | exact-bf16 | ", 2, "0.5001"))
               .empty());
    CHECK(!check_ggml_map(replace_cell(r.md, "| [100, 999] | 900 | h (20 pairs) | ggml-map-f32 | ", 4, "1.0000e-09"),
                          "t (24 pairs)")
               .empty());
    CHECK(!check_ggml_map(r.md, "h (20 pairs)").empty());  // zero where an angle is expected
    std::string angle = r.md;
    angle.replace(angle.find("| 32768 | 0.0135 |"), 18, "| 32768 | 0.0136 |");
    CHECK(check_missing_angles(angle).size() == 1);
  }
}

TEST_CASE("report precision mrope: Qwen2-VL sections, ggml's MROPE map is HF's", "[cli][report][streams]") {
  const run_result r =
      run_form({"mrope", "--hf-config", configs + "qwen2-vl-7b-instruct.json", "--max-position", "100"}, false);
  INFO(r.md);
  ref_spec spec;
  spec.ggml_map = true;
  for (int j = 0; j < 64; ++j) {
    spec.pairs_label.push_back(j < 16 ? "t (16 pairs)" : j < 40 ? "h (24 pairs)" : "w (24 pairs)");
    spec.map_zero.push_back(false);
  }
  const table ref = reference({.head_dim = 128, .rope_theta = 1e6}, positions_upto(100), 100, spec);
  const std::vector<std::string> problems = check_report(r.md, ref);
  for (const std::string& p : problems) INFO(p);
  CHECK(problems.empty());
  CHECK(check_ggml_map(r.md, "none").empty());  // angle 0 in every row
  CHECK(check_exact_half_ulp(r.md).empty());
  CHECK(r.md.find("no pair differs") != std::string::npos);
  CHECK(r.md.find("| t | 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 | 16 |") != std::string::npos);
}

TEST_CASE("report precision rope-nd: FLUX.1, every figure per axis and the image counts", "[cli][report][streams]") {
  const run_result r = run_form({"rope-nd", "--hf-config", configs + "flux.1-dev-transformer.json"}, false);
  INFO(r.md);
  table ref = reference(flux_axis0, positions_upto(127), 127, flux_spec("axis 0 (pairs 0-7)"));
  const table ref12 = reference(flux_axis12, positions_upto(127), 127, flux_spec("axes 1, 2 (pairs 8-35, 36-63)"));
  ref.insert(ref12.begin(), ref12.end());
  const std::vector<std::string> problems = check_report(r.md, ref);
  for (const std::string& p : problems) INFO(p);
  CHECK(problems.empty());
  CHECK(check_exact_half_ulp(r.md).empty());

  // The finding (docs/rope-streams.md section 7): float32 frequencies leave about half the entries
  // of a 2048 px image not correctly rounded, by at most 6.8e-6; float64 frequencies none.
  const long long wrong = flux_image_wrong();
  const image_row bfl = image_figures(r.md, "bfl-float32"), f64 = image_figures(r.md, "diffusers-float64");
  CHECK(bfl.wrong == wrong);
  CHECK(bfl.of == 2097152);
  CHECK(bfl.largest == Approx(6.8e-6).epsilon(0.01));
  CHECK(f64.wrong == 0);
  CHECK(image_figures(r.md, "exact-f32").wrong == 0);
  CHECK(wrong > 1000000);

  SECTION("the checkers fail on an altered report") {
    CHECK(check_report(
              replace_cell(r.md, "| [100, 127] | 28 | axis 0 (pairs 0-7) | diffusers-float64 | ", 4, "1.0000e-10"), ref)
              .size() == 1);
    std::string count = r.md;
    const std::string was = "| bfl-float32 | " + std::to_string(wrong) + " |";
    REQUIRE(count.find(was) != std::string::npos);
    count.replace(count.find(was), was.size(), "| bfl-float32 | " + std::to_string(wrong + 1) + " |");
    CHECK(image_figures(count, "bfl-float32").wrong != wrong);
  }
}

TEST_CASE("report precision mrope|rope-nd: bad input exits 2 with one line and creates nothing",
          "[cli][report][streams][errors]") {
  posenc_test::temp_dir parent;
  const std::string out = parent.file("rep");
  const std::string qwen3 = configs + "qwen3-vl-30b-a3b-instruct.json", flux = configs + "flux.1-dev-transformer.json";
  struct bad_case {
    strings args;
    std::string message;
  };
  const std::vector<bad_case> cases = {
      {{"mrope", "-o", out}, "--head-dim is required"},
      {{"mrope", "--head-dim", "128", "--mrope-section", "24,20", "-o", out}, "--mrope-section needs three values"},
      {{"mrope", "--head-dim", "128", "--mrope-section", "24,20,21", "-o", out}, "invalid M-RoPE config"},
      {{"mrope", "--hf-config", qwen3, "--mrope-layout", "diagonal", "-o", out}, "--mrope-layout"},
      {{"mrope", "--hf-config", configs + "llama-3.1-8b.json", "-o", out}, "mrope_section"},
      {{"mrope", "--hf-config", flux, "-o", out}, "--hf-config"},
      {{"mrope", "--hf-config", qwen3, "--axes-dim", "8,8", "-o", out},
       "flag --axes-dim does not apply to 'report precision mrope'"},
      {{"mrope", "--hf-config", qwen3, "--position-ids", "ids.csv", "-o", out}, "unknown flag '--position-ids'"},
      // DINOv3's angle in turns is not measured: neither its flags nor its config give another table.
      {{"rope-nd", "--axes-dim", "32,32", "--two-pi", "-o", out}, "unknown flag '--two-pi'"},
      {{"rope-nd", "--axes-dim", "32,32", "--grid", "14,14", "-o", out}, "unknown flag '--grid'"},
      {{"rope-nd", "--hf-config", configs + "dinov3-vitb16-pretrain-lvd1689m.json", "-o", out},
       "the angle in turns (DINOv3's 2 pi p theta) is not measured"},
      {{"mrope", "--hf-config", qwen3, "--max-position", "0", "-o", out}, "--max-position"},
      {{"mrope", "rope-nd", "--hf-config", qwen3, "-o", out}, "unexpected argument 'rope-nd'"},
      {{"rope-nd", "-o", out}, "--axes-dim is required"},
      {{"rope-nd", "--axes-dim", "16,55", "-o", out}, "invalid ND RoPE config"},
      {{"rope-nd", "--hf-config", qwen3, "-o", out}, "axes_dims_rope"},
      {{"rope-nd", "--axes-dim", "16,56", "--head-dim", "64", "-o", out},
       "flag --head-dim does not apply to 'report precision rope-nd'"},
      {{"rope-nd", "--axes-dim", "16,56", "--mrope-section", "1,1,1", "-o", out},
       "flag --mrope-section does not apply"},
      {{"rope-nd", "--axes-dim", "16,56", "-o", parent.file("no/such/dir")}, "No such file or directory"},
      {{"rope-3d", "--axes-dim", "16,56", "-o", out}, "unexpected argument 'rope-3d'"},
  };
  const auto check_case = [&](const strings& args, const std::string& message) {
    const auto r = report(args);
    INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.rfind("posenc: error: report", 0) == 0);
    CHECK(r.err.find(message) != std::string::npos);
    CHECK(parent.files().empty());
  };
  for (const bad_case& c : cases) check_case(c.args, c.message);

  // Without gnuplot on PATH (and no --no-plots) both forms refuse before creating anything.
  const char* old = std::getenv("PATH");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("PATH", parent.file("no-bin").c_str(), 1);
  check_case({"mrope", "--hf-config", qwen3, "--max-position", "10", "-o", out}, "gnuplot is not on PATH");
  check_case({"rope-nd", "--hf-config", flux, "-o", out}, "gnuplot is not on PATH");
  ::setenv("PATH", saved.c_str(), 1);
}
