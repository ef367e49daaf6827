// test_cli_streams.cpp: `posenc emit mrope|rope-nd|leaky-rerope` and `posenc verify` of the same run
// as the built executable (POSENC_CLI_PATH). Expected values come from MPFR (verify/rope_oracle.hpp) at each
// pair's stream position (the maps of ../shared/reference/pe-formulas-more.md 1.2-1.4 and 6.1), and
// the checksum of a C header from its own bin bytes; bad input gets exit 2 and one line.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <posenc/numeric/bits.hpp>

#include "cli_test_util.hpp"
#include "posenc/verify/rope_oracle.hpp"

namespace {

using posenc_test::cli_result;
using posenc_test::emit;
using posenc_test::parse_hex;
using posenc_test::split;
using posenc_test::strings;

std::string scratch(const std::string& name, const std::string& text) {
  const std::string path = "test_cli_streams_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

cli_result verify(strings args) {
  args.insert(args.begin(), "verify");
  return posenc_test::run_cli(POSENC_CLI_PATH, args);
}

}  // namespace

TEST_CASE("emit mrope: each row is the MPFR value at its stream's position", "[cli][mrope]") {
  // Text tokens 0..2, then a 2 x 2 image at s = 3, then text at 5 (get_rope_index).
  const std::string ids = scratch("mrope.csv", "t,h,w\n0,0,0\n1,1,1\n2,2,2\n3,3,3\n3,3,4\n3,4,3\n3,4,4\n5,5,5\n");
  const std::vector<std::uint64_t> t{0, 1, 2, 3, 3, 3, 3, 5}, h{0, 1, 2, 3, 3, 4, 4, 5}, w{0, 1, 2, 3, 4, 3, 4, 5};
  for (const char* layout : {"sections", "interleaved-hf", "interleaved-ggml"}) {
    const cli_result r = emit({"mrope", "--head-dim", "128", "--rope-theta", "5e6", "--mrope-section", "24,20,20",
                               "--mrope-layout", layout, "--position-ids", ids});
    INFO(layout << "\n" << r.err);
    REQUIRE(r.status == 0);
    const auto lines = split(r.out, '\n');
    REQUIRE(lines[0] == "token,pair,cos,sin");
    REQUIRE(lines.size() == 1 + 8 * 64 + 1);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < 8; ++i)
      for (int j = 0; j < 64; ++j) {
        // The stream of pair j, written out from the derivation (not the core's function).
        const std::string L = layout;
        char s = 't';
        if (L == "sections") {
          s = j < 24 ? 't' : (j < 44 ? 'h' : 'w');
        } else {
          if (j % 3 == 1 && j < 60) s = 'h';
          if (j % 3 == 2 && j < 60) s = 'w';
          if (L == "interleaved-ggml" && (j == 61 || j == 62)) s = 'e';
        }
        const std::uint64_t p = s == 't' ? t[i] : s == 'h' ? h[i] : s == 'w' ? w[i] : 0;
        const auto e = posenc::verify::cr_rope_sincos<double>(p, 5e6, j, 128);
        const auto f = split(lines[1 + i * 64 + static_cast<std::size_t>(j)], ',');
        bad += f[0] != std::to_string(i) || f[1] != std::to_string(j) || parse_hex(f[2]) != e.cos ||
               parse_hex(f[3]) != e.sin;
      }
    CHECK(bad == 0);
  }
}

TEST_CASE("emit rope-nd: fractional and negative positions, FLUX axes", "[cli][nd]") {
  const std::string ids = scratch("nd.csv", "p0,p1,p2\n0,0,0\n0,1.5,-2\n1,2,0x1p-3\n");
  const double pos[3][3] = {{0, 0, 0}, {0, 1.5, -2}, {1, 2, 0.125}};
  const cli_result r = emit({"rope-nd", "--axes-dim", "16,56,56", "--position-ids", ids, "--dtype", "f32"});
  REQUIRE(r.status == 0);
  const auto lines = split(r.out, '\n');
  std::size_t bad = 0;
  for (std::size_t i = 0; i < 3; ++i)
    for (int j = 0; j < 64; ++j) {
      const int axis = j < 8 ? 0 : (j < 36 ? 1 : 2), k = j < 8 ? j : (j < 36 ? j - 8 : j - 36);
      const int dim = axis == 0 ? 16 : 56;
      const auto e = posenc::verify::cr_rope_sincos_at<float>(pos[i][axis], 10000.0, k, dim);
      const auto f = split(lines[1 + i * 64 + static_cast<std::size_t>(j)], ',');
      bad += parse_hex(f[2]) != static_cast<double>(e.cos) || parse_hex(f[3]) != static_cast<double>(e.sin);
    }
  CHECK(bad == 0);
  // The C header states the FNV-1a of the bin bytes.
  const cli_result c = emit({"rope-nd", "--axes-dim", "16,56,56", "--position-ids", ids, "--format", "c"});
  const cli_result b = emit({"rope-nd", "--axes-dim", "16,56,56", "--position-ids", ids, "--format", "bin"});
  REQUIRE(c.status == 0);
  REQUIRE(b.status == 0);
  CHECK(b.out.size() == 2 * 3 * 64 * 8);
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%016llx", static_cast<unsigned long long>(posenc_test::fnv1a64(b.out)));
  CHECK(c.out.find(hex) != std::string::npos);
}

TEST_CASE("emit mrope and rope-nd: bad input is one line and exit 2", "[cli][mrope][nd]") {
  const std::string ids = scratch("ok.csv", "t,h,w\n0,0,0\n");
  const auto fails = [](const strings& args, const std::string& says) {
    const cli_result r = emit(args);
    INFO(r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find(says) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  };
  fails({"mrope", "--head-dim", "128", "--mrope-section", "16,24,16", "--position-ids", ids},
        "mrope_section must sum to rotary_dim / 2");
  fails({"mrope", "--head-dim", "128", "--mrope-section", "16,24", "--position-ids", ids}, "three values");
  fails(
      {"mrope", "--head-dim", "8", "--mrope-section", "2,1,1", "--position-ids", scratch("hdr.csv", "t,w,h\n0,0,0\n")},
      "the header");
  fails(
      {"mrope", "--head-dim", "8", "--mrope-section", "2,1,1", "--position-ids", scratch("neg.csv", "t,h,w\n0,-1,0\n")},
      "position must be in [0, 2097152], got '-1'");
  fails(
      {"mrope", "--head-dim", "8", "--mrope-section", "2,1,1", "--position-ids", scratch("short.csv", "t,h,w\n0,1\n")},
      "line 2: expected 3 values");
  fails({"mrope", "--head-dim", "8", "--mrope-section", "2,1,1", "--mrope-layout", "zigzag", "--position-ids", ids},
        "zigzag");
  fails({"rope-nd", "--axes-dim", "16,7", "--position-ids", scratch("nd2.csv", "p0,p1\n0,0\n")}, "even and positive");
  fails({"rope-nd", "--axes-dim", "4,4", "--position-ids", scratch("nan.csv", "p0,p1\n0,nan\n")}, "must be finite");
  fails({"rope-nd", "--axes-dim", "4,4", "--position-ids", scratch("far.csv", "p0,p1\n0,3000000\n")}, "2^21");
}

TEST_CASE("verify mrope and rope-nd: posenc's table passes; a wrong table fails at its entry", "[cli][verify][mrope]") {
  const std::string ids = scratch("v.csv", "t,h,w\n0,0,0\n1,1,1\n3,3,4\n3,4,4\n");
  const strings cfg = {"--head-dim", "64", "--rope-theta", "1e6", "--mrope-section", "8,12,12", "--position-ids", ids};
  const cli_result own = verify(posenc_test::cat({"mrope"}, cfg));
  INFO(own.out << own.err);
  CHECK(own.status == 0);
  CHECK(own.out.find("PASS") != std::string::npos);
  CHECK(own.out.find("M-RoPE text rows") != std::string::npos);
  // The bin table, with one sin entry made one ulp larger: found, named.
  cli_result b = emit(posenc_test::cat({"mrope", "--format", "bin", "--dtype", "f32"}, cfg));
  REQUIRE(b.status == 0);
  const std::size_t at = (4 * 32 + 2 * 32 + 5) * 4;  // sin of token 2, pair 5
  b.out[at] = static_cast<char>(b.out[at] + 1);
  const std::string table = scratch("bad.bin", b.out);
  const cli_result bad = verify(posenc_test::cat({"mrope", "--table", table, "--dtype", "f32"}, cfg));
  CHECK(bad.status == 1);
  CHECK(bad.out.find("sin of token 2, pair 5") != std::string::npos);
  const std::string nd = scratch("vnd.csv", "p0,p1\n0,0\n0.5,-1\n2,3\n");
  const cli_result ndr = verify({"rope-nd", "--axes-dim", "8,8", "--position-ids", nd});
  INFO(ndr.out);
  CHECK(ndr.status == 0);
  CHECK(ndr.out.find("axis relative dot") != std::string::npos);
}

TEST_CASE("emit and verify mrope / rope-nd --hf-config: the shipped Qwen-VL and FLUX configs", "[cli][mrope][nd][hf]") {
  const std::string dir = std::string(POSENC_SOURCE_DIR) + "/examples/configs/";
  const std::string ids = scratch("hf.csv", "t,h,w\n0,0,0\n1,1,1\n2,2,3\n2,3,2\n4,4,4\n");
  struct shipped {
    std::string file, layout, theta;
  };
  // Qwen2-VL: rope_scaling type mrope, sections [16, 24, 24], theta 1e6 (HF keeps sections);
  // Qwen3-VL: text_config, mrope_interleaved, [24, 20, 20], theta 5e6 (HF's class interleaves).
  for (const shipped& s : {shipped{"qwen2-vl-7b-instruct.json", "sections", "0x1.e848p+19"},
                           shipped{"qwen3-vl-30b-a3b-instruct.json", "interleaved-hf", "0x1.312dp+22"}}) {
    INFO(s.file);
    const cli_result c = emit({"mrope", "--hf-config", dir + s.file, "--position-ids", ids, "--format", "c"});
    REQUIRE(c.status == 0);
    CHECK(c.out.find("mrope_layout = " + s.layout) != std::string::npos);
    CHECK(c.out.find("rope_theta = " + s.theta) != std::string::npos);
    const cli_result v = verify({"mrope", "--hf-config", dir + s.file, "--position-ids", ids});
    INFO(v.out << v.err);
    CHECK(v.status == 0);
    CHECK(v.out.find("PASS") != std::string::npos);
  }
  // A flag overrides the file: ggml's layout for the Qwen3-VL config.
  const cli_result g = emit({"mrope", "--hf-config", dir + "qwen3-vl-30b-a3b-instruct.json", "--mrope-layout",
                             "interleaved-ggml", "--position-ids", ids, "--format", "c"});
  CHECK(g.out.find("mrope_layout = interleaved-ggml") != std::string::npos);
  // FLUX.1: axes_dims_rope [16, 56, 56], theta 10000 (the value FluxPosEmbed is built with).
  const std::string nd = scratch("flux.csv", "p0,p1,p2\n0,0,0\n0,3,5\n");
  const cli_result f =
      emit({"rope-nd", "--hf-config", dir + "flux.1-dev-transformer.json", "--position-ids", nd, "--format", "c"});
  REQUIRE(f.status == 0);
  CHECK(f.out.find("axes_dim = 16,56,56") != std::string::npos);
  CHECK(f.out.find("rope_theta = 0x1.388p+13") != std::string::npos);
  const cli_result fv = verify({"rope-nd", "--hf-config", dir + "flux.1-dev-transformer.json", "--position-ids", nd});
  CHECK(fv.status == 0);
  // Not an M-RoPE config: exit 2, one line naming mrope_section.
  const cli_result bad = emit({"mrope", "--hf-config", dir + "llama-3.1-8b.json", "--position-ids", ids});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("mrope_section") != std::string::npos);
  const cli_result bad_nd = emit({"rope-nd", "--hf-config", dir + "llama-3.1-8b.json", "--position-ids", nd});
  CHECK(bad_nd.status == 2);
  CHECK(bad_nd.err.find("axes_dims_rope") != std::string::npos);
}

TEST_CASE("emit and verify leaky-rerope: rel' = w + (rel - w) / k from its definition", "[cli][leaky-rerope]") {
  // w = 8, k = 16: rel' = 8 + (rel - 8) / 16 is a dyadic number, so the MPFR value at the real
  // position rel' (rope_oracle.hpp) is an independent check of posenc's integer row of the scaled table.
  const cli_result r = emit(
      {"leaky-rerope", "--head-dim", "64", "--window", "8", "--leak", "16", "--positions", "40", "--dtype", "f32"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto lines = split(r.out, '\n');
  REQUIRE(lines[0] == "rel,pair,cos,sin");
  std::size_t bad = 0;
  for (std::size_t rel = 0; rel < 40; ++rel)
    for (int j = 0; j < 32; ++j) {
      const double p = rel < 8 ? static_cast<double>(rel) : 8.0 + static_cast<double>(rel - 8) / 16.0;
      const auto e = posenc::verify::cr_rope_sincos_at<float>(p, 10000.0, j, 64);
      const auto f = split(lines[1 + rel * 32 + static_cast<std::size_t>(j)], ',');
      bad += f[0] != std::to_string(rel) || parse_hex(f[2]) != static_cast<double>(e.cos) ||
             parse_hex(f[3]) != static_cast<double>(e.sin);
    }
  CHECK(bad == 0);
  const strings cfg = {"--head-dim", "64", "--window", "8", "--leak", "16", "--positions", "40"};
  const cli_result v = verify(posenc_test::cat({"leaky-rerope", "--dtype", "f32,bf16"}, cfg));
  INFO(v.out << v.err);
  CHECK(v.status == 0);
  // One entry of the bin table one ulp off: found and named.
  cli_result b = emit(posenc_test::cat({"leaky-rerope", "--format", "bin", "--dtype", "f32"}, cfg));
  REQUIRE(b.status == 0);
  const std::size_t at = (20 * 32 + 3) * 4;  // cos of rel 20, pair 3
  b.out[at] = static_cast<char>(b.out[at] ^ 1);
  const cli_result bad_v =
      verify(posenc_test::cat({"leaky-rerope", "--table", scratch("leaky.bin", b.out), "--dtype", "f32"}, cfg));
  CHECK(bad_v.status == 1);
  CHECK(bad_v.out.find("cos of rel 20, pair 3") != std::string::npos);
  // Bad input: one line, exit 2.
  const cli_result k1 = emit({"leaky-rerope", "--head-dim", "64", "--leak", "1", "--positions", "4"});
  CHECK(k1.status == 2);
  CHECK(k1.err.find("--leak") != std::string::npos);
  const cli_result yarn =
      emit({"leaky-rerope", "--hf-config",
            std::string(POSENC_SOURCE_DIR) + "/examples/configs/qwen2.5-7b-instruct-yarn.json", "--positions", "4"});
  CHECK(yarn.status == 2);
  CHECK(yarn.err.find("default or linear") != std::string::npos);
}

TEST_CASE("emit and verify rope-nd --two-pi / --grid: DINOv3's 2 pi coord / period, and its shipped config",
          "[cli][nd][turns]") {
  // A 3 x 2 grid of a head dim 16 model (two axes of 8, theta 100): coordinates (2i + 1)/n - 1 written
  // out, each entry against MPFR's 2 pi variant (rope_oracle.hpp cr_rope_turns_sincos_at).
  const cli_result r = emit({"rope-nd", "--axes-dim", "8,8", "--rope-theta", "100", "--two-pi", "--grid", "3,2"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto lines = split(r.out, '\n');
  REQUIRE(lines.size() == 1 + 6 * 8 + 1);
  const double ys[3] = {-2.0 / 3, 0.0, 2.0 / 3}, xs[2] = {-0.5, 0.5};
  std::size_t bad = 0;
  for (std::size_t i = 0; i < 6; ++i)
    for (int j = 0; j < 8; ++j) {
      const double p = j < 4 ? ys[i / 2] : xs[i % 2];
      const auto e = posenc::verify::cr_rope_turns_sincos_at<double>(p, 100.0, j % 4, 8);
      const auto f = split(lines[1 + i * 8 + static_cast<std::size_t>(j)], ',');
      bad += parse_hex(f[2]) != e.cos || parse_hex(f[3]) != e.sin;
    }
  CHECK(bad == 0);
  // x = +-1/2 at k = 0 is half a turn: cos -1, sin +0 exactly.
  CHECK(split(lines[1 + 0 * 8 + 4], ',')[2] == "-0x1p+0");
  // The same positions from a file give the same table; without --two-pi it is another table.
  const std::string ids = scratch("dino.csv",
                                  "p0,p1\n-0.6666666666666666,-0.5\n-0.6666666666666666,0.5\n"
                                  "0,-0.5\n0,0.5\n0.6666666666666666,-0.5\n0.6666666666666666,0.5\n");
  const cli_result fr =
      emit({"rope-nd", "--axes-dim", "8,8", "--rope-theta", "100", "--two-pi", "--position-ids", ids});
  CHECK(fr.out == r.out);
  const cli_result rad = emit({"rope-nd", "--axes-dim", "8,8", "--rope-theta", "100", "--position-ids", ids});
  CHECK(rad.out != r.out);
  const cli_result v = verify({"rope-nd", "--axes-dim", "8,8", "--rope-theta", "100", "--two-pi", "--grid", "3,2"});
  INFO(v.out << v.err);
  CHECK(v.status == 0);
  CHECK(v.out.find("PASS") != std::string::npos);
  // A table in radians checked as turns fails.
  const cli_result b = emit(
      {"rope-nd", "--axes-dim", "8,8", "--rope-theta", "100", "--grid", "3,2", "--format", "bin", "--dtype", "f32"});
  REQUIRE(b.status == 0);
  const cli_result wrong = verify({"rope-nd", "--axes-dim", "8,8", "--rope-theta", "100", "--two-pi", "--grid", "3,2",
                                   "--table", scratch("rad.bin", b.out), "--dtype", "f32"});
  CHECK(wrong.status == 1);
  // The shipped DINOv3 ViT-B/16 config: two axes of 32, theta 100, turns, the 14 x 14 grid of 224 / 16.
  const std::string cfg = std::string(POSENC_SOURCE_DIR) + "/examples/configs/dinov3-vitb16-pretrain-lvd1689m.json";
  const cli_result h = emit({"rope-nd", "--hf-config", cfg, "--format", "c", "--dtype", "bf16"});
  INFO(h.err);
  REQUIRE(h.status == 0);
  CHECK(h.out.find("axes_dim = 32,32") != std::string::npos);
  CHECK(h.out.find("rope_theta = 0x1.9p+6") != std::string::npos);
  CHECK(h.out.find("angle = turns") != std::string::npos);
  const cli_result hc = emit({"rope-nd", "--hf-config", cfg, "--dtype", "f32"});
  REQUIRE(hc.status == 0);
  CHECK(split(hc.out, '\n').size() == 1 + 196 * 32 + 1);
  const cli_result hv = verify({"rope-nd", "--hf-config", cfg, "--dtype", "f32,bf16"});
  INFO(hv.out << hv.err);
  CHECK(hv.status == 0);
  // Bad input: one line, exit 2.
  const auto fails = [](const strings& args, const std::string& says) {
    const cli_result f = emit(args);
    INFO(f.err);
    CHECK(f.status == 2);
    CHECK(f.err.find(says) != std::string::npos);
    CHECK(std::count(f.err.begin(), f.err.end(), '\n') == 1);
  };
  fails({"rope-nd", "--axes-dim", "8,8,8", "--two-pi", "--grid", "3,2"}, "--grid needs two axes");
  fails({"rope-nd", "--axes-dim", "8,8", "--grid", "3"}, "--grid takes two sizes");
  fails({"rope-nd", "--axes-dim", "8,8", "--grid", "3,2", "--position-ids", ids}, "exclude each other");
  fails({"rope-nd", "--axes-dim", "8,8", "--grid", "0,2"}, "--grid");
  const std::string scaled = scratch("dino-scaled.json",
                                     "{\"model_type\": \"dinov3_vit\", \"hidden_size\": 768, "
                                     "\"num_attention_heads\": 12, \"rope_scaling\": {\"type\": \"linear\"}}");
  fails({"rope-nd", "--hf-config", scaled}, "rope_scaling");
  const std::string odd = scratch("dino-odd.json",
                                  "{\"model_type\": \"dinov3_vit\", \"hidden_size\": 60, "
                                  "\"num_attention_heads\": 6}");
  fails({"rope-nd", "--hf-config", odd}, "num_attention_heads");
}
