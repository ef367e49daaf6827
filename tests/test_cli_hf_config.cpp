// `posenc emit ... --hf-config FILE` (tools/cli/hf_config_flag.hpp): the file's values equal the
// explicit flags, flags given override the file, every shipped fixture (examples/configs/) emits
// its table, and bad input exits 2 with one line naming the problem and no output file.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <posenc/rope/models.hpp>

#include "cli_test_util.hpp"

#ifndef POSENC_SOURCE_DIR
#error "POSENC_SOURCE_DIR must name the source tree (tests/CMakeLists.txt defines it)"
#endif

using posenc_test::cat;
using posenc_test::cli_result;
using posenc_test::emit;
using posenc_test::strings;

namespace {

std::string fixture(const std::string& name) { return std::string(POSENC_SOURCE_DIR) + "/examples/configs/" + name; }

// Runs both command lines; both succeed with the same output.
void check_same_output(const strings& a, const strings& b) {
  const cli_result x = emit(a), y = emit(b);
  INFO(posenc_test::describe_cli(a) << "\nstderr: " << x.err << "\n"
                                    << posenc_test::describe_cli(b) << "\nstderr: " << y.err);
  REQUIRE(x.status == 0);
  REQUIRE(y.status == 0);
  CHECK(!x.out.empty());
  CHECK(x.out == y.out);
}

// A list flag's value: each double printed with 17 significant digits (reads back to itself).
std::string list(const auto& values) {
  std::string s;
  for (const double v : values) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    if (!s.empty()) s += ',';  // (not "," + string: GCC 12's -Wrestrict false positive)
    s += buf;
  }
  return s;
}

const strings llama31_flags = {"--head-dim",
                               "128",
                               "--rope-theta",
                               "500000",
                               "--rope-type",
                               "llama3",
                               "--factor",
                               "8",
                               "--low-freq-factor",
                               "1",
                               "--high-freq-factor",
                               "4",
                               "--original-max-position-embeddings",
                               "8192",
                               "--max-position-embeddings",
                               "131072"};

}  // namespace

TEST_CASE("emit --hf-config: the file's values equal the explicit flags", "[cli][hf-config]") {
  const std::string llama = fixture("llama-3.1-8b.json");
  for (const strings& out :
       {strings{"rope-freq"}, strings{"rope", "--positions", "8", "--start", "8190"},
        strings{"rope", "--positions", "3", "--dtype", "bf16", "--format", "c"},
        strings{"rope", "--positions", "3", "--dtype", "q15", "--layout", "pairs", "--format", "c"},
        strings{"rope", "--positions", "5", "--dtype", "f32", "--layout", "pairs", "--format", "bin"}}) {
    check_same_output(cat(out, {"--hf-config", llama}), cat(out, llama31_flags));
  }
  // YaRN with truncate false (gpt-oss) and DeepSeek's mscale pair, folded attention.
  check_same_output(
      {"rope", "--positions", "4", "--start", "100000", "--fold-attention", "--hf-config", fixture("gpt-oss-20b.json")},
      {"rope", "--positions", "4", "--start", "100000", "--fold-attention", "--head-dim", "64", "--rope-theta",
       "150000", "--rope-type", "yarn", "--factor", "32", "--original-max-position-embeddings", "4096",
       "--max-position-embeddings", "131072", "--no-truncate"});
  check_same_output({"rope-freq", "--hf-config", fixture("deepseek-v3.json")},
                    {"rope-freq", "--head-dim", "64", "--rope-type", "yarn", "--factor", "40",
                     "--original-max-position-embeddings", "4096", "--mscale", "1", "--mscale-all-dim", "1"});
  // LongRoPE: the lists as flags, each entry the same double.
  namespace m = posenc::rope::models;
  const strings phi_flags = {"--head-dim",
                             "96",
                             "--rope-type",
                             "longrope",
                             "--original-max-position-embeddings",
                             "4096",
                             "--max-position-embeddings",
                             "131072",
                             "--short-factor",
                             list(m::phi3_5_mini_short_factor),
                             "--long-factor",
                             list(m::phi3_5_mini_long_factor)};
  for (const char* seq : {"4096", "4097"})
    for (const char* policy : {"exact", "hf-float32"})
      check_same_output(
          {"rope-freq", "--policy", policy, "--seq-len", seq, "--hf-config", fixture("phi-3.5-mini-instruct.json")},
          cat({"rope-freq", "--policy", policy, "--seq-len", seq}, phi_flags));
  check_same_output(
      {"rope-freq", "--hf-config", fixture("pythia-160m.json")},
      {"rope-freq", "--head-dim", "64", "--partial-rotary-factor", "0.25", "--max-position-embeddings", "2048"});
  check_same_output(
      {"rope", "--positions", "4", "--layout", "pairs", "--format", "npy", "--hf-config", fixture("pythia-160m.json")},
      {"rope", "--positions", "4", "--layout", "pairs", "--format", "npy", "--head-dim", "64",
       "--partial-rotary-factor", "0.25", "--max-position-embeddings", "2048"});
  check_same_output({"alibi", "--hf-config", fixture("bloom-560m.json")}, {"alibi", "--heads", "16"});
  check_same_output({"alibi", "--bias", "--positions", "5", "--hf-config", fixture("bloom-560m.json")},
                    {"alibi", "--bias", "--positions", "5", "--heads", "16", "--max-bias", "8"});
  check_same_output({"t5-bucket", "--range", "300", "--hf-config", fixture("t5-small.json")},
                    {"t5-bucket", "--range", "300", "--num-buckets", "32", "--max-distance", "128"});
}

TEST_CASE("emit --hf-config: explicit flags override the file's values", "[cli][hf-config]") {
  const std::string llama = fixture("llama-3.1-8b.json");
  strings changed = llama31_flags;
  changed[3] = "10000";  // --rope-theta
  check_same_output({"rope-freq", "--hf-config", llama, "--rope-theta", "10000"}, cat({"rope-freq"}, changed));
  strings no_scaling = llama31_flags;
  no_scaling[5] = "default";  // --rope-type
  check_same_output({"rope-freq", "--hf-config", llama, "--rope-type", "default"}, cat({"rope-freq"}, no_scaling));
  check_same_output({"alibi", "--hf-config", fixture("bloom-560m.json"), "--heads", "12", "--max-bias", "4"},
                    {"alibi", "--heads", "12", "--max-bias", "4"});
  check_same_output(
      {"t5-bucket", "--range", "40", "--causal", "--max-distance", "64", "--hf-config", fixture("t5-small.json")},
      {"t5-bucket", "--range", "40", "--causal", "--num-buckets", "32", "--max-distance", "64"});
  // A flag's list replaces the file's list (both lists must then have rotary_dim/2 entries).
  std::string one_list = "1";
  for (int i = 1; i < 48; ++i) one_list += ",1";
  check_same_output({"rope-freq", "--hf-config", fixture("phi-3.5-mini-instruct.json"), "--short-factor", one_list},
                    {"rope-freq", "--head-dim", "96", "--rope-type", "longrope", "--original-max-position-embeddings",
                     "4096", "--max-position-embeddings", "131072", "--short-factor", one_list, "--long-factor",
                     list(posenc::rope::models::phi3_5_mini_long_factor)});
}

TEST_CASE("emit rope: LongRoPE without --seq-len takes HF's sequence length, the last position + 1",
          "[cli][hf-config]") {
  // HF's dynamic_rope_update: seq_len = max(position_ids) + 1; the long factors iff seq_len > 4096.
  const std::string phi = fixture("phi-3.5-mini-instruct.json");
  const strings up_to_4095 = {"rope", "--hf-config", phi, "--start", "4094", "--positions", "2", "--dtype", "f32"};
  const strings up_to_4096 = {"rope", "--hf-config", phi, "--start", "4095", "--positions", "2", "--dtype", "f32"};
  check_same_output(up_to_4095, cat(up_to_4095, {"--seq-len", "4096"}));  // short factors
  check_same_output(up_to_4096, cat(up_to_4096, {"--seq-len", "4097"}));  // long factors
  const cli_result short_factors = emit(cat(up_to_4096, {"--seq-len", "4096"})), hf = emit(up_to_4096);
  REQUIRE(short_factors.status == 0);
  CHECK(short_factors.out != hf.out);  // so the two checks above can tell the factors apart
  CHECK(hf.err.empty());               // no warning inside max_position_embeddings
}

TEST_CASE("emit and verify rope: positions past max_position_embeddings get one warning line", "[cli][hf-config]") {
  const std::string phi = fixture("phi-3.5-mini-instruct.json");  // max_position_embeddings 131072
  const cli_result inside = emit({"rope", "--hf-config", phi, "--start", "131071", "--positions", "1"});
  CHECK(inside.status == 0);
  CHECK(inside.err.empty());
  const cli_result past = emit({"rope", "--hf-config", phi, "--start", "131071", "--positions", "2"});
  CHECK(past.status == 0);
  CHECK(!past.out.empty());
  CHECK(past.err ==
        "posenc: warning: emit rope: position 131072 is past max_position_embeddings 131072 (positions 0 .. 131071)\n");
  const cli_result verified = posenc_test::run_cli(POSENC_CLI_PATH, {"verify", "rope", "--hf-config", phi, "--start",
                                                                     "131071", "--positions", "2", "--dtype", "f32"});
  CHECK(verified.status == 0);
  CHECK(verified.err.find("posenc: warning: verify rope: position 131072 is past max_position_embeddings 131072") == 0);
  CHECK(verified.err.find("warning", 20) == std::string::npos);  // once (verify's progress line follows it)
}

TEST_CASE("emit --hf-config: every shipped fixture emits its table", "[cli][hf-config][fixtures]") {
  for (const char* f :
       {"llama-3.1-8b.json", "llama-3.2-1b.json", "qwen2.5-7b-instruct-yarn.json", "deepseek-v3.json",
        "phi-3.5-mini-instruct.json", "gpt-oss-20b.json", "gemma-2-2b.json", "pythia-160m.json", "gpt-j-6b.json"}) {
    for (const strings& what : {strings{"rope-freq"}, strings{"rope", "--positions", "16", "--dtype", "f32"}}) {
      const strings args = cat(what, {"--hf-config", fixture(f)});
      const cli_result r = emit(args);
      INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
      CHECK(r.status == 0);
      CHECK(r.err.empty());
      CHECK(!r.out.empty());
    }
  }
  const cli_result bloom = emit({"alibi", "--hf-config", fixture("bloom-560m.json")});
  CHECK(bloom.status == 0);
  CHECK(std::count(bloom.out.begin(), bloom.out.end(), '\n') == 17);  // header + 16 heads
  const cli_result t5 = emit({"t5-bucket", "--range", "10", "--hf-config", fixture("t5-small.json")});
  CHECK(t5.status == 0);
  CHECK(std::count(t5.out.begin(), t5.out.end(), '\n') == 22);  // header + 21 relative positions
}

TEST_CASE("emit --hf-config: bad input exits 2, one line naming the problem, no file", "[cli][hf-config][errors]") {
  posenc_test::temp_dir inputs;
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(inputs.file(name), std::ios::binary) << text;
    return inputs.file(name);
  };
  struct bad_case {
    strings args;
    std::string needle;
  };
  const std::vector<bad_case> cases = {
      {{"rope-freq", "--hf-config", write("malformed.json", "{\"head_dim\": 64, rope}")},
       "malformed.json: malformed JSON: parse error at line 1, column 18"},
      {{"rope-freq", "--hf-config", write("incomplete.json", "{\"head_dim\": 64, \"rope_scaling\": {\"factor\": 8")},
       "incomplete.json: malformed JSON: parse error at line 1, column 46: syntax error while parsing object - "
       "unexpected end of input"},
      {{"rope-freq", "--hf-config", write("empty.json", "")}, "empty.json: malformed JSON"},
      {{"rope-freq", "--hf-config", write("type.json", R"({"head_dim": 64, "rope_scaling": {"rope_type": "bogus"}})")},
       "type.json: rope_scaling.rope_type: unknown rope type \"bogus\""},
      {{"rope-freq", "--hf-config", write("wrong.json", R"({"head_dim": 64, "rope_theta": "10000"})")},
       "wrong.json: rope_theta: expected a number, got a string"},
      {{"rope-freq", "--hf-config", write("gemma3.json", R"({"head_dim": 256, "rope_local_base_freq": 10000.0})")},
       "gemma3.json: layer_types: missing: rope_local_base_freq needs the sliding layers"},
      {{"rope", "--positions", "4", "--hf-config", fixture("gemma-3-4b-it.json")},
       "gemma-3-4b-it.json: rope_local_base_freq: per-layer RoPE (2 distinct tables over 34 layers): choose one with "
       "--layer N"},
      {{"rope", "--positions", "4", "--hf-config", fixture("llama-4-scout-17b-16e.json"), "--layer", "7"},
       "llama-4-scout-17b-16e.json: layer 7 has no RoPE (NoPE layer)"},
      {{"rope", "--positions", "4", "--hf-config", fixture("cohere2-command-r7b.json"), "--layer", "32"},
       "cohere2-command-r7b.json: --layer 32 is past the model's 32 layers"},
      {{"rope", "--positions", "4", "--hf-config", fixture("glm-4-9b-chat.json")},
       "glm-4-9b-chat.json: rope_ratio: means base x rope_ratio (ChatGLM3, GLM-4) or positions / rope_ratio "
       "(ChatGLM2-6B-32K), and the config cannot say which: choose with --rope-ratio-meaning base|positions"},
      {{"rope", "--positions", "4", "--head-dim", "8", "--layer", "1"}, "emit rope: --layer needs --hf-config FILE"},
      {{"rope-freq", "--hf-config", inputs.file("missing.json")}, "missing.json: cannot open for reading"},
      {{"rope-freq", "--hf-config", ""}, "--hf-config has an empty value"},
      // The file's config fails validation: the same sentence as for flags.
      {{"rope-freq", "--hf-config", write("invalid.json", R"({"head_dim": 64, "rope_theta": 1.0})")},
       "invalid RoPE config: rope_theta (the base) must be finite and > 1"},
      {{"alibi", "--hf-config", fixture("t5-small.json")}, "t5-small.json: alibi: no ALiBi settings"},
      {{"t5-bucket", "--range", "4", "--hf-config", fixture("bloom-560m.json")},
       "bloom-560m.json: relative_attention_num_buckets: missing"},
      {{"rope-freq", "--hf-config", fixture("bloom-560m.json")},
       "bloom-560m.json: model_type: an ALiBi config, not RoPE"},
      {{"sinusoidal", "--dim", "8", "--positions", "2", "--hf-config", fixture("bloom-560m.json")},
       "flag --hf-config does not apply to 'emit sinusoidal'"},
  };
  for (const auto& c : cases) {
    posenc_test::temp_dir dir;
    for (const bool to_file : {false, true}) {
      const strings args = to_file ? cat(c.args, {"-o", dir.file("out.csv")}) : c.args;
      const cli_result r = emit(args);
      INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
      CHECK(r.status == 2);
      CHECK(r.out.empty());
      CHECK(r.err.rfind("posenc: error: ", 0) == 0);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK(r.err.find(c.needle) != std::string::npos);
      CHECK(dir.files().empty());
    }
  }
}

// Per-layer models and GLM (docs/rope-layers.md): each layer's table equals the explicit flags of
// the config HF builds for it (pe-formulas-more.md sections 2, 3 and 5), and the layout follows the
// model unless --layout says otherwise.
TEST_CASE("emit/verify --hf-config --layer: the layer's table, the model's layout", "[cli][hf-config][layers]") {
  const std::string gemma3 = fixture("gemma-3-4b-it.json"), llama4 = fixture("llama-4-scout-17b-16e.json");
  const strings rows = {"rope", "--positions", "4", "--start", "4000", "--dtype", "f32"};
  // Gemma-3 layer 5 (full attention): base 1e6, linear 8; layer 0 (sliding): base 1e4, unscaled.
  check_same_output(
      cat(rows, {"--hf-config", gemma3, "--layer", "5"}),
      cat(rows, {"--head-dim", "256", "--rope-theta", "1000000", "--rope-type", "linear", "--factor", "8"}));
  check_same_output(cat(rows, {"--hf-config", gemma3, "--layer", "0"}),
                    cat(rows, {"--head-dim", "256", "--rope-theta", "10000"}));
  // The two differ (the check above can tell the tables apart).
  CHECK(emit(cat(rows, {"--hf-config", gemma3, "--layer", "5"})).out !=
        emit(cat(rows, {"--hf-config", gemma3, "--layer", "4"})).out);
  // Llama-4: interleaved by default, in the C header's element order; --layout overrides it.
  const strings c_rows = {"rope", "--positions", "2", "--format", "c"};
  const strings llama4_flags = {"--head-dim",
                                "128",
                                "--rope-theta",
                                "500000",
                                "--rope-type",
                                "llama3",
                                "--factor",
                                "8",
                                "--original-max-position-embeddings",
                                "8192",
                                "--max-position-embeddings",
                                "262144"};
  check_same_output(cat(c_rows, {"--hf-config", llama4, "--layer", "0"}),
                    cat(cat(c_rows, llama4_flags), {"--layout", "interleaved"}));
  check_same_output(cat(c_rows, {"--hf-config", llama4, "--layer", "0", "--layout", "half-split"}),
                    cat(c_rows, llama4_flags));
  // GLM-4 (ChatGLM format): 64 of 128 dims, interleaved, base 10000 x 500 or positions / 500.
  const std::string glm = fixture("glm-4-9b-chat.json");
  check_same_output(cat(rows, {"--hf-config", glm, "--rope-ratio-meaning", "base"}),
                    cat(rows, {"--head-dim", "128", "--partial-rotary-factor", "0.5", "--rope-theta", "5000000"}));
  check_same_output(
      cat(rows, {"--hf-config", glm, "--rope-ratio-meaning", "positions"}),
      cat(rows, {"--head-dim", "128", "--partial-rotary-factor", "0.5", "--rope-type", "linear", "--factor", "500"}));
  CHECK(emit(cat(c_rows, {"--hf-config", glm, "--rope-ratio-meaning", "base"})).out.find("layout interleaved") !=
        std::string::npos);
  // Qwen2-VL: the text tokens' table (t = h = w) is the 1D table of the text config.
  check_same_output(cat(rows, {"--hf-config", fixture("qwen2-vl-7b-instruct.json")}),
                    cat(rows, {"--head-dim", "128", "--rope-theta", "1000000"}));
  // Llama-3 scaling with low_freq_factor == high_freq_factor (as reported for Llama-4): accepted.
  posenc_test::temp_dir dir;
  const std::string equal = dir.file("llama4-equal.json");
  std::ofstream(equal, std::ios::binary) << R"({"model_type": "llama4_text", "num_hidden_layers": 4,
      "rope_scaling": {"rope_type": "llama3", "factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 1.0,
      "original_max_position_embeddings": 8192}})";
  check_same_output(
      cat(rows, {"--hf-config", equal, "--layer", "2"}),
      cat(rows, {"--head-dim", "128", "--rope-theta", "500000", "--rope-type", "llama3", "--factor", "16",
                 "--low-freq-factor", "1", "--high-freq-factor", "1", "--original-max-position-embeddings", "8192"}));
  // verify rope checks each shipped per-layer table against MPFR.
  for (const strings& v :
       {strings{"--hf-config", gemma3, "--layer", "5"}, strings{"--hf-config", gemma3, "--layer", "0"},
        strings{"--hf-config", llama4, "--layer", "0"},
        strings{"--hf-config", fixture("cohere2-command-r7b.json"), "--layer", "0"},
        strings{"--hf-config", glm, "--rope-ratio-meaning", "base"},
        strings{"--hf-config", fixture("qwen2-vl-7b-instruct.json")}}) {
    const strings args = cat({"verify", "rope", "--positions", "64", "--dtype", "f32,bf16"}, v);
    const cli_result r = posenc_test::run_cli(POSENC_CLI_PATH, args);
    INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err << "\nstdout: " << r.out);
    CHECK(r.status == 0);
  }
  const cli_result nope = posenc_test::run_cli(POSENC_CLI_PATH, {"verify", "rope", "--positions", "4", "--hf-config",
                                                                 fixture("cohere2-command-r7b.json"), "--layer", "3"});
  CHECK(nope.status == 2);
  CHECK(nope.err == "posenc: error: verify rope: --hf-config " + fixture("cohere2-command-r7b.json") +
                        ": layer 3 has no RoPE (NoPE layer)\n");
}

// ---- Llama-4's attention temperature (io/attn_temperature_hf_config.hpp) ----------------------

TEST_CASE("emit attn-temperature --hf-config: a Llama-4 config's temperature, or one line naming the key",
          "[cli][hf-config][attn-temperature]") {
  posenc_test::temp_dir inputs;
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(inputs.file(name), std::ios::binary) << text;
    return inputs.file(name);
  };
  const strings table = {"attn-temperature", "--positions", "3", "--start", "16382", "--dtype", "f32"};
  // The released checkpoints: a Llama4Config with the text model's keys under text_config, and
  // attn_temperature_tuning stored as the int 4 (truthy).
  const std::string scout = write("scout.json", R"({"model_type": "llama4", "text_config": {
      "model_type": "llama4_text", "attn_temperature_tuning": 4, "floor_scale": 8192, "attn_scale": 0.1,
      "no_rope_layers": [1, 1, 1, 0]}})");
  check_same_output(cat(table, {"--hf-config", scout}), table);
  // HF v5 types it bool; a Llama4TextConfig alone has the keys at the top level.
  const std::string v5 =
      write("v5.json", R"({"attn_temperature_tuning": true, "floor_scale": 1024, "attn_scale": 0.25})");
  check_same_output(cat(table, {"--hf-config", v5}), cat(table, {"--floor-scale", "1024", "--attn-scale", "0.25"}));
  // Without the key, a Llama-4 model type means HF's default (on); floor_scale may be 8192.0.
  const std::string bare = write("bare.json", R"({"model_type": "llama4_text", "floor_scale": 8192.0})");
  check_same_output(cat(table, {"--hf-config", bare}), table);
  // Flags override the file.
  check_same_output(cat(table, {"--hf-config", v5, "--floor-scale", "16"}),
                    cat(table, {"--floor-scale", "16", "--attn-scale", "0.25"}));

  struct bad_case {
    std::string file, needle;
  };
  const std::vector<bad_case> cases = {
      {write("off.json", R"({"text_config": {"attn_temperature_tuning": 0}})"),
       "off.json: text_config.attn_temperature_tuning: false: this model does not scale q"},
      {write("false.json", R"({"attn_temperature_tuning": false})"),
       "false.json: attn_temperature_tuning: false: this model does not scale q"},
      {fixture("bloom-560m.json"), "bloom-560m.json: attn_temperature_tuning: missing: not a Llama-4 config"},
      {write("text.json", R"({"attn_temperature_tuning": "yes"})"),
       "text.json: attn_temperature_tuning: expected true, false or an integer, got a string"},
      {write("negative.json", R"({"attn_temperature_tuning": 4, "attn_scale": -0.1})"),
       "negative.json: attn_scale: attn_scale must be finite and >= 0"},
      {write("zero.json", R"({"attn_temperature_tuning": 4, "floor_scale": 0})"),
       "zero.json: floor_scale: integer out of range [1, 9007199254740992]"},
      {write("half.json", R"({"attn_temperature_tuning": 4, "floor_scale": 8192.5})"),
       "half.json: floor_scale: expected an integer in [1, 2^53]"},
  };
  for (const auto& c : cases) {
    posenc_test::temp_dir dir;
    const strings args = cat(table, {"--hf-config", c.file, "-o", dir.file("out.csv")});
    const cli_result r = emit(args);
    INFO(posenc_test::describe_cli(args) << "\nstderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("posenc: error: ", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.find(c.needle) != std::string::npos);
    CHECK(dir.files().empty());
  }
}

// ---- the layer map of a per-layer model (docs/rope-layers.md) ---------------------------------

TEST_CASE("emit rope --hf-config --layer-map: every layer's distinct table, NoPE layers as -1",
          "[cli][hf-config][layers]") {
  // Gemma-3 4B (34 layers, pattern 6): full attention at layers 5, 11, ..., 29 (base 1e6, linear 8),
  // sliding elsewhere (base 1e4, unscaled), per Gemma3TextConfig's layer_types rule.
  const cli_result g = emit({"rope", "--hf-config", fixture("gemma-3-4b-it.json"), "--layer-map"});
  INFO(g.err);
  REQUIRE(g.status == 0);
  const auto lines = posenc_test::split(g.out, '\n');
  REQUIRE(lines[0] == "layer,table,name,rotary_dim,rope_theta,rope_type,factor");
  REQUIRE(lines.size() == 1 + 34 + 1);
  std::set<std::string> rows_of_full, rows_of_sliding;
  for (std::size_t l = 0; l < 34; ++l) {
    const auto f = posenc_test::split(lines[1 + l], ',');
    REQUIRE(f.size() == 7);
    CHECK(f[0] == std::to_string(l));
    const bool full = (l + 1) % 6 == 0;
    (full ? rows_of_full : rows_of_sliding).insert(lines[1 + l].substr(lines[1 + l].find(',') + 1));
    CHECK(f[3] == "256");
    CHECK(f[4] == (full ? "1000000" : "10000"));
    CHECK(f[5] == (full ? "linear" : "default"));
    CHECK(f[6] == (full ? "8" : ""));
  }
  CHECK(rows_of_full.size() == 1);  // one distinct table for each layer type
  CHECK(rows_of_sliding.size() == 1);
  // Llama-4 Scout: NoPE every 4th layer ("1 means RoPE").
  const cli_result l4 = emit({"rope", "--hf-config", fixture("llama-4-scout-17b-16e.json"), "--layer-map"});
  REQUIRE(l4.status == 0);
  const auto l4_lines = posenc_test::split(l4.out, '\n');
  for (std::size_t l = 0; l + 2 < l4_lines.size(); ++l) {
    const auto f = posenc_test::split(l4_lines[1 + l], ',');
    CHECK((f[1] == "-1") == ((l + 1) % 4 == 0));
  }
  // A single-table model: every layer (Llama-3.1-8B's 32) has table 0.
  const cli_result one = emit({"rope", "--hf-config", fixture("llama-3.1-8b.json"), "--layer-map"});
  std::string want = "layer,table,name,rotary_dim,rope_theta,rope_type,factor\n";
  for (int l = 0; l < 32; ++l) want += std::to_string(l) + ",0,rope,128,500000,llama3,8\n";
  CHECK(one.out == want);
  // Not with a table's flags; not without a config.
  const cli_result bad =
      emit({"rope", "--hf-config", fixture("gemma-3-4b-it.json"), "--layer-map", "--positions", "4"});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--positions does not apply") != std::string::npos);
  const cli_result none = emit({"rope", "--layer-map"});
  CHECK(none.status == 2);
}

TEST_CASE("emit attn-temperature --hf-config: the shipped Llama-4 Scout config", "[cli][hf-config][attn-temperature]") {
  // text_config: attn_temperature_tuning 4 (truthy), floor_scale 8192, attn_scale 0.1: the step at
  // p = 8191, 1.069315 there (pe-formulas-more.md section 3, the published figure to 6 decimals).
  const cli_result r = emit({"attn-temperature", "--hf-config", fixture("llama-4-scout-17b-16e.json"), "--positions",
                             "2", "--start", "8190", "--decimal"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto lines = posenc_test::split(r.out, '\n');
  REQUIRE(lines.size() >= 3);
  CHECK(lines[1] == "8190,1");
  REQUIRE(lines[2].rfind("8191,1.069314", 0) == 0);
  const double v = std::stod(lines[2].substr(5));
  CHECK(std::abs(v - 1.069315) < 5e-7);
}
