// posenc::io's config.json reader (include/posenc/io/rope_hf_config.hpp and its peers): the numbers are the JSON's
// decimals rounded once (checked against hex literals), every key maps to its rope::config field,
// each shipped fixture (examples/configs/) equals the library's preset or the explicit config of
// its model, and every bad input is a one-line error naming the field, never an exception.
#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <posenc/alibi/config.hpp>
#include <posenc/io/alibi_hf_config.hpp>
#include <posenc/io/read_text_file.hpp>
#include <posenc/io/rope_hf_config.hpp>
#include <posenc/io/rope_nd_hf_config.hpp>
#include <posenc/io/t5_hf_config.hpp>
#include <posenc/rope/config.hpp>
#include <posenc/rope/config_fields.hpp>
#include <posenc/rope/frequencies.hpp>
#include <posenc/rope/layers.hpp>
#include <posenc/rope/models.hpp>
#include <posenc/rope/policy.hpp>
#include <posenc/rope/validate.hpp>
#include <posenc/t5/config.hpp>
#include <posenc/verify/oracle.hpp>
#include <posenc/verify/rope_oracle.hpp>

#ifndef POSENC_SOURCE_DIR
#error "POSENC_SOURCE_DIR must name the source tree (tests/CMakeLists.txt defines it)"
#endif

namespace io = posenc::io;
namespace rope = posenc::rope;

namespace {

rope::config read_rope(const std::string& json, io::parse_result<io::rope_settings>& keep) {
  keep = io::rope_from_hf_config(json);
  INFO(keep.error());
  REQUIRE(keep.ok());
  return keep.value().config();
}

std::string fixture(const std::string& name) {
  const auto text = io::read_text_file(std::string(POSENC_SOURCE_DIR) + "/examples/configs/" + name);
  INFO(text.error());
  REQUIRE(text.ok());
  return text.value();
}

// Every field of rope::config equal (lists element by element), named on failure.
void check_same_config(const rope::config& got, const rope::config& want) {
  rope::for_each_config_field([&](const auto& f) {
    using M = typename std::remove_cvref_t<decltype(f)>::member_type;
    INFO("field " << f.name);
    if constexpr (std::is_same_v<M, std::span<const double>>) {
      const M a = got.*f.member, b = want.*f.member;
      REQUIRE(a.size() == b.size());
      for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == b[i]);
    } else {
      CHECK((got.*f.member == want.*f.member));
    }
  });
}

// inv_freq of every pair and the attention factor: identical bits, and the oracle's.
void check_same_table(const rope::config& got, const rope::config& want) {
  REQUIRE(rope::validate(got).ok());
  const int half = rope::rotary_dim(got) / 2;
  REQUIRE(half == rope::rotary_dim(want) / 2);
  for (int j = 0; j < half; ++j) {
    INFO("pair " << j);
    const double a = rope::inv_freq<double>(got, j).value;
    CHECK(a == rope::inv_freq<double>(want, j).value);
    CHECK(a == posenc::verify::cr_rope_inv_freq<double>(want, j));
  }
  CHECK(rope::attention_factor<double>(got).value == rope::attention_factor<double>(want).value);
}

}  // namespace

static_assert(noexcept(io::rope_from_hf_config("")), "no exception escapes the reader");
static_assert(noexcept(io::alibi_from_hf_config("")), "no exception escapes the reader");
static_assert(noexcept(io::t5_from_hf_config("")), "no exception escapes the reader");

TEST_CASE("io: a JSON number is its decimal rounded once to double (strtod, correctly rounded)", "[io]") {
  io::parse_result<io::rope_settings> keep = io::parse_result<io::rope_settings>::failure("");
  const rope::config c = read_rope(R"({"head_dim": 12, "rope_theta": 500000,
      "rope_scaling": {"rope_type": "longrope", "original_max_position_embeddings": 4096,
        "short_factor": [1.02, 1.0199999809265137, 0.1, 2.2250738585072011e-308, 9007199254740993.0000000001, 1e0],
        "long_factor": [9007199254740993, 9007199254740993.0, 1E+2, 0.30000000000000004, 5e-324, 1]}})",
                                   keep);
  CHECK(c.head_dim == 12);
  CHECK(c.rope_theta == 500000.0);  // an integer token, exactly
  const auto s = c.short_factor, l = c.long_factor;
  REQUIRE(s.size() == 6);
  REQUIRE(l.size() == 6);
  CHECK(s[0] == 0x1.051eb851eb852p+0);        // 1.02, not float32's 1.0199999809265137
  CHECK(s[1] == static_cast<double>(1.02f));  // the float32 value HF prints
  CHECK(s[0] != s[1]);
  CHECK(s[2] == 0x1.999999999999ap-4);     // 0.1
  CHECK(s[3] == 0x0.fffffffffffffp-1022);  // the largest subnormal (a strtod classic)
  CHECK(s[4] == 0x1.0000000000001p+53);    // just above the tie 2^53 + 1: rounds up
  CHECK(s[5] == 1.0);
  CHECK(l[0] == 0x1p+53);  // integer token 2^53 + 1: the tie goes to even
  CHECK(l[1] == 0x1p+53);  // the same as a real token
  CHECK(l[2] == 100.0);
  CHECK(l[3] == 0x1.3333333333334p-2);
  CHECK(l[4] == 0x1p-1074);
  CHECK(l[5] == 1.0);
}

TEST_CASE("io: LongRoPE's exact table uses 1.02, hf_float32 its float32 (the MPFR oracle decides)", "[io][rope]") {
  io::parse_result<io::rope_settings> keep = io::parse_result<io::rope_settings>::failure("");
  const rope::config c = read_rope(R"({"head_dim": 4, "rope_theta": 10000.0, "max_position_embeddings": 8192,
      "original_max_position_embeddings": 4096,
      "rope_scaling": {"type": "su", "short_factor": [1.02, 1.1], "long_factor": [3.3, 7.7]}})",
                                   keep);
  REQUIRE(c.rope_type == rope::scaling::longrope);  // "su" is HF's old name for it
  const std::array<double, 2> short32{static_cast<double>(1.02f), static_cast<double>(1.1f)};
  rope::config as_float32 = c;
  as_float32.short_factor = short32;
  for (int j = 0; j < 2; ++j) {
    INFO("pair " << j);
    const double exact = rope::inv_freq<double>(c, j).value;
    CHECK(exact == posenc::verify::cr_rope_inv_freq<double>(c, j));
    CHECK(exact != posenc::verify::cr_rope_inv_freq<double>(as_float32, j));  // 1.02 is not 1.0199999809
    // HF rounds each factor to float32 first: the same bits either way.
    const auto hf = rope::inv_freq(rope::hf_float32, c, j), hf32 = rope::inv_freq(rope::hf_float32, as_float32, j);
    REQUIRE(hf.ok());
    CHECK(hf.value == hf32.value);
  }
}

TEST_CASE("io: keys map to rope::config fields (v4 rope_scaling, v5 rope_parameters, aliases)", "[io][rope]") {
  io::parse_result<io::rope_settings> keep = io::parse_result<io::rope_settings>::failure("");
  SECTION("v5 rope_parameters carries rope_theta and partial_rotary_factor") {
    const rope::config c = read_rope(R"({"hidden_size": 1024, "num_attention_heads": 8, "rope_theta": 3.0,
        "rope_parameters": {"rope_type": "yarn", "rope_theta": 1000000.0, "factor": 4.0, "partial_rotary_factor": 0.5,
          "original_max_position_embeddings": 32768, "beta_fast": 16, "beta_slow": 2, "mscale": 0.5,
          "mscale_all_dim": 0.25, "attention_factor": 1.5, "truncate": false}})",
                                     keep);
    check_same_config(c, {.head_dim = 128,
                          .rope_theta = 1000000.0,
                          .partial_rotary_factor = 0.5,
                          .rope_type = rope::scaling::yarn,
                          .factor = 4.0,
                          .original_max_position_embeddings = 32768,
                          .beta_fast = 16.0,
                          .beta_slow = 2.0,
                          .mscale = 0.5,
                          .mscale_all_dim = 0.25,
                          .attention_factor = 1.5,
                          .truncate = false});
  }
  SECTION("llama3, linear, dynamic, ntk, proportional") {
    check_same_config(read_rope(R"({"head_dim": 64, "rope_scaling": {"rope_type": "llama3", "factor": 8,
        "low_freq_factor": 2, "high_freq_factor": 8, "original_max_position_embeddings": 8192}})",
                                keep),
                      {.head_dim = 64,
                       .rope_type = rope::scaling::llama3,
                       .factor = 8.0,
                       .original_max_position_embeddings = 8192,
                       .low_freq_factor = 2.0,
                       .high_freq_factor = 8.0});
    check_same_config(read_rope(R"({"head_dim": 64, "rope_scaling": {"type": "linear", "factor": 2}})", keep),
                      {.head_dim = 64, .rope_type = rope::scaling::linear, .factor = 2.0});
    check_same_config(
        read_rope(
            R"({"head_dim": 64, "max_position_embeddings": 2048, "rope_scaling": {"type": "dynamic", "factor": 2}})",
            keep),
        {.head_dim = 64, .rope_type = rope::scaling::dynamic, .factor = 2.0, .max_position_embeddings = 2048});
    check_same_config(read_rope(R"({"head_dim": 64, "rope_scaling": {"rope_type": "ntk", "factor": 4}})", keep),
                      {.head_dim = 64, .rope_type = rope::scaling::ntk, .factor = 4.0});
    check_same_config(read_rope(R"({"head_dim": 256, "rope_parameters": {"rope_type": "proportional",
        "rope_theta": 1000000.0, "partial_rotary_factor": 0.25}})",
                                keep),
                      {.head_dim = 256, .rope_theta = 1000000.0, .partial_rotary_factor = 0.25, .proportional = true});
  }
  SECTION("null is absent; a head_dim wins over hidden_size / heads") {
    check_same_config(read_rope(R"({"head_dim": null, "hidden_size": 768, "num_attention_heads": 12,
        "rope_scaling": null, "rope_theta": 10000})",
                                keep),
                      {.head_dim = 64});
    check_same_config(read_rope(R"({"head_dim": 80, "hidden_size": 768, "num_attention_heads": 12})", keep),
                      {.head_dim = 80});
  }
}

TEST_CASE("io: each shipped fixture is its model's preset or explicit config", "[io][rope][fixtures]") {
  namespace m = rope::models;
  const auto with_max = [](rope::config c, std::int64_t max) {
    c.max_position_embeddings = max;
    return c;
  };
  const auto with_seq_len = [](rope::config c, std::int64_t seq_len) {
    c.seq_len = seq_len;
    return c;
  };
  struct fixture_case {
    const char* file;
    rope::config want;
  };
  const fixture_case cases[] = {
      {"llama-3.1-8b.json", with_max(m::llama3_1_8b, 131072)},
      {"llama-3.2-1b.json", with_max(m::llama3_2_1b, 131072)},
      {"qwen2.5-7b-instruct-yarn.json", with_max(m::qwen2_5_7b_yarn, 32768)},
      {"deepseek-v3.json", with_max(m::deepseek_v3, 163840)},
      {"gpt-oss-20b.json", with_max(m::gpt_oss, 131072)},
      // The file leaves seq_len to HF's rule (0); the preset pins the short factors (4096).
      {"phi-3.5-mini-instruct.json", with_seq_len(m::phi3_5_mini_short, 0)},
      {"gpt-j-6b.json", with_max(m::gpt_j, 2048)},  // n_positions
      // No preset: the config the model card states.
      {"gemma-2-2b.json", {.head_dim = 256, .rope_theta = 10000.0, .max_position_embeddings = 8192}},
      {"pythia-160m.json",
       {.head_dim = 64, .rope_theta = 10000.0, .partial_rotary_factor = 0.25, .max_position_embeddings = 2048}},
  };
  for (const auto& fc : cases) {
    INFO(fc.file);
    io::parse_result<io::rope_settings> keep = io::parse_result<io::rope_settings>::failure("");
    const rope::config c = read_rope(fixture(fc.file), keep);
    check_same_config(c, fc.want);
    check_same_table(c, fc.want);
  }
  // Phi-3.5 past its original context: the long factors, as the preset at that length.
  io::parse_result<io::rope_settings> keep = io::parse_result<io::rope_settings>::failure("");
  rope::config phi = read_rope(fixture("phi-3.5-mini-instruct.json"), keep);
  phi.seq_len = 131072;
  check_same_table(phi, m::phi3_5_mini_long);

  const auto bloom = io::alibi_from_hf_config(fixture("bloom-560m.json"));
  REQUIRE(bloom.ok());
  CHECK(bloom.value().heads == 16);
  CHECK(bloom.value().max_bias == 8.0);
  const auto t5 = io::t5_from_hf_config(fixture("t5-small.json"));
  REQUIRE(t5.ok());
  CHECK(t5.value().relative_attention_num_buckets == 32);
  CHECK(t5.value().relative_attention_max_distance == 128);  // T5Config's default: t5-small has no key
  CHECK(t5.value().bidirectional);
}

TEST_CASE("io: ALiBi of BLOOM, MPT and Falcon; T5's decoder", "[io]") {
  const auto mpt = io::alibi_from_hf_config(
      R"({"model_type": "mpt", "d_model": 4096, "n_heads": 32, "attn_config": {"alibi": true, "alibi_bias_max": 16}})");
  REQUIRE(mpt.ok());
  CHECK(mpt.value().heads == 32);
  CHECK(mpt.value().max_bias == 16.0);
  const auto falcon = io::alibi_from_hf_config(R"({"alibi": true, "num_attention_heads": 71})");
  REQUIRE(falcon.ok());
  CHECK(falcon.value().heads == 71);
  const auto dec = io::t5_from_hf_config(
      R"({"relative_attention_num_buckets": 16, "relative_attention_max_distance": 64, "is_decoder": true})");
  REQUIRE(dec.ok());
  CHECK(dec.value().relative_attention_num_buckets == 16);
  CHECK(dec.value().relative_attention_max_distance == 64);
  CHECK(!dec.value().bidirectional);
}

// An absent key takes the default of the framework the config comes from, never posenc's usual
// 10000: HF's DINOv3ViTConfig (configuration_dinov3_vit.py, rope_theta: float = 100.0), diffusers'
// FluxTransformer2DModel (theta 10000 written in its code) and Flux2Transformer2DModel (class
// default 2000). A stated rope_theta wins over each; no class and no key is refused.
TEST_CASE("io: ND RoPE's rope_theta when absent follows DINOv3, FLUX.1 and FLUX.2", "[io][rope_nd]") {
  const auto dino = io::rope_nd_from_hf_config(R"({"model_type": "dinov3_vit", "hidden_size": 768,
                                                   "num_attention_heads": 12})");
  REQUIRE(dino.ok());
  CHECK(dino.value().rope_theta == 100.0);
  CHECK(dino.value().axes_dim == std::vector<int>{32, 32});
  CHECK(dino.value().turns);
  const auto dino_stated = io::rope_nd_from_hf_config(R"({"model_type": "dinov3_vit", "rope_theta": 10000})");
  REQUIRE(dino_stated.ok());
  CHECK(dino_stated.value().rope_theta == 10000.0);

  const auto flux1 =
      io::rope_nd_from_hf_config(R"({"_class_name": "FluxTransformer2DModel", "axes_dims_rope": [16, 56, 56]})");
  REQUIRE(flux1.ok());
  CHECK(flux1.value().rope_theta == 10000.0);
  const auto flux2 =
      io::rope_nd_from_hf_config(R"({"_class_name": "Flux2Transformer2DModel", "axes_dims_rope": [32, 32, 32, 32]})");
  REQUIRE(flux2.ok());
  CHECK(flux2.value().rope_theta == 2000.0);
  const auto flux2_stated = io::rope_nd_from_hf_config(
      R"({"_class_name": "Flux2Transformer2DModel", "axes_dims_rope": [32, 32, 32, 32], "rope_theta": 10000})");
  REQUIRE(flux2_stated.ok());
  CHECK(flux2_stated.value().rope_theta == 10000.0);
  const auto unknown = io::rope_nd_from_hf_config(R"({"axes_dims_rope": [16, 56, 56]})");
  REQUIRE_FALSE(unknown.ok());
  CHECK_THAT(unknown.error(), Catch::Matchers::Contains("rope_theta"));
}

TEST_CASE("io: every bad input is one line naming the field", "[io][errors]") {
  struct bad {
    const char* json;
    const char* message;  // exactly
  };
  const bad rope_cases[] = {
      {R"({"head_dim": 64, "rope_theta": 1e4)",
       "malformed JSON: parse error at line 1, column 35: syntax error while parsing object - unexpected end of "
       "input; expected '}'"},
      {"",
       "malformed JSON: parse error at line 1, column 1: syntax error while parsing value - unexpected end of "
       "input; expected '[', '{', or a literal"},
      {R"({"head_dim": 64,, })",
       "malformed JSON: parse error at line 1, column 17: syntax error while parsing object key - unexpected ','; "
       "expected string literal"},
      {"[1, 2]", "config.json: expected an object at the top level, got an array"},
      {R"({"head_dim": 64, "rope_theta": "1e4"})", "rope_theta: expected a number, got a string"},
      {R"({"head_dim": 64.0})", "head_dim: expected an integer, got a number"},
      {R"({"head_dim": -4})", "head_dim: integer out of range [1, 16777216]"},
      {R"({"head_dim": 0})", "head_dim: integer out of range [1, 16777216]"},  // an unsigned token
      {R"({"head_dim": 18446744073709551615})", "head_dim: integer out of range [1, 16777216]"},
      // nlohmann refuses it while parsing, before any field is read: the token is named instead.
      {R"({"head_dim": 64, "rope_theta": 1e400})", "config.json: number overflow parsing '1e400'"},
      {R"({"head_dim": 64, "rope_scaling": [1]})", "rope_scaling: expected an object, got an array"},
      {R"({"head_dim": 64, "rope_scaling": {"rope_type": "yarn", "truncate": "no"}})",
       "rope_scaling.truncate: expected true or false, got a string"},
      {R"({"head_dim": 64, "rope_scaling": {"rope_type": "longrope", "short_factor": [1, "2"]}})",
       "rope_scaling.short_factor[1]: expected a number, got a string"},
      {R"({"head_dim": 64, "rope_scaling": {"rope_type": "longrope", "long_factor": 2}})",
       "rope_scaling.long_factor: expected an array of numbers, got a number"},
      {R"({"head_dim": 64, "rope_scaling": {"rope_type": 3}})",
       "rope_scaling.rope_type: expected a string, got a number"},
      {R"({"head_dim": 64, "rope_scaling": {"rope_type": "ntk-by-parts"}})",
       "rope_scaling.rope_type: unknown rope type \"ntk-by-parts\" (posenc has: default, linear, ntk, dynamic, yarn, "
       "longrope, llama3, su, proportional)"},
      {R"({"head_dim": 256, "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0})",
       "layer_types: missing: rope_local_base_freq needs the sliding layers"},
      {R"({"head_dim": 128, "no_rope_layers": [1, 1, 1, 0]})",
       "no_rope_layers: per-layer RoPE (1 distinct table, 1 of 4 layers without RoPE): pick a layer (posenc "
       "--layer N, Python layer=N)"},
      {R"({"head_dim": 256, "rope_parameters": {"full_attention": {"rope_type": "default"}}})",
       "rope_parameters: is per layer type, and the config has no layer_types"},
      {R"({"model_type": "chatglm", "kv_channels": 128, "rope_ratio": 500})",
       "rope_ratio: means base x rope_ratio (ChatGLM3, GLM-4) or positions / rope_ratio (ChatGLM2-6B-32K), and the "
       "config cannot say which: choose with --rope-ratio-meaning base|positions (Python: rope_ratio_meaning=)"},
      {R"({"model_type": "chatglm", "kv_channels": 128, "position_encoding_2d": true})",
       "position_encoding_2d: ChatGLM-6B's 2D position encoding is not supported by posenc"},
      {R"({"head_dim": 8, "num_hidden_layers": 2, "layer_types": ["full_attention"]})",
       "layer_types: has 1 entries for 2 layers (num_hidden_layers)"},
      {R"({"rope_theta": 10000.0})",
       "head_dim: missing (and no hidden_size with num_attention_heads to derive it from)"},
      {R"({"d_model": 512, "num_heads": 8, "relative_attention_num_buckets": 32})",
       "relative_attention_num_buckets: a T5-style config (relative position buckets), not RoPE"},
      {R"({"model_type": "bloom", "n_head": 16, "hidden_size": 1024})", "model_type: an ALiBi config, not RoPE"},
      {R"({"d_model": 4096, "n_heads": 32, "attn_config": {"alibi": true}})",
       "attn_config.alibi: an ALiBi config, not RoPE"},
  };
  for (const auto& b : rope_cases) {
    INFO(b.json);
    const auto r = io::rope_from_hf_config(b.json);
    REQUIRE(!r.ok());
    CHECK(r.error() == b.message);
    CHECK(r.error().find('\n') == std::string::npos);
  }
  CHECK(io::alibi_from_hf_config(R"({"n_heads": 8, "attn_config": {"alibi": false}})").error() ==
        "attn_config.alibi: not true: this model does not use ALiBi");
  CHECK(io::alibi_from_hf_config(R"({"hidden_size": 8})").error() ==
        "alibi: no ALiBi settings (BLOOM's n_head, MPT's attn_config.alibi or Falcon's alibi)");
  CHECK(io::alibi_from_hf_config(R"({"model_type": "bloom"})").error() ==
        "num_attention_heads: missing (the number of attention heads)");
  CHECK(io::t5_from_hf_config(R"({"d_model": 512})").error() ==
        "relative_attention_num_buckets: missing: not a T5-style config");
  CHECK(io::t5_from_hf_config(R"({"relative_attention_num_buckets": 32, "is_decoder": 1})").error() ==
        "is_decoder: expected true or false, got a number");
  CHECK(io::read_text_file("/no/such/dir/config.json").error() == "/no/such/dir/config.json: cannot open for reading");
}

namespace {

io::rope_model_settings read_model(const std::string& json, const io::hf_rope_options& opt = {}) {
  auto r = io::rope_model_from_hf_config(json, opt);
  INFO(r.error());
  REQUIRE(r.ok());
  return r.value();
}

std::vector<int> layers_with(const io::rope_model_settings& m, int table) {
  std::vector<int> r;
  for (int i = 0; i < m.layer_count(); ++i)
    if (m.table_of_layer(i) == table) r.push_back(i);
  return r;
}

}  // namespace

// Gemma-3 (pe-formulas-more.md section 2): full layers i = 5, 11, ... ((i + 1) % 6 == 0) use
// rope_theta 1e6 with linear 8; the sliding layers the plain table of base 1e4, bit for bit.
TEST_CASE("io: Gemma-3's two tables and its layer map, v4 flat keys and v5 per-layer-type", "[io][layers]") {
  const io::rope_model_settings m = read_model(fixture("gemma-3-4b-it.json"));
  REQUIRE(m.tables.size() == 2);
  REQUIRE(m.layer_count() == 34);
  CHECK(m.per_layer_key == "rope_local_base_freq");
  CHECK(m.layout == rope::layout::half_split);
  CHECK(m.model_type == "gemma3");
  CHECK(layers_with(m, 0) == std::vector<int>{5, 11, 17, 23, 29});
  CHECK(m.table_names[0] == "full_attention");
  check_same_table(m.tables[0].config(), {.head_dim = 256,
                                          .rope_theta = 1e6,
                                          .rope_type = rope::scaling::linear,
                                          .factor = 8.0,
                                          .max_position_embeddings = 131072});
  check_same_table(m.tables[1].config(), {.head_dim = 256, .rope_theta = 1e4});
  REQUIRE(m.query_pre_attn_scalar);
  CHECK(rope::score_scale(*m.query_pre_attn_scalar) == 0.0625);
  CHECK(rope::score_scale(168.0) == posenc::verify::cr_pow<double>(168.0, -0.5));  // Gemma-3 27B
  // The same model in v5's per-layer-type rope_parameters with layer_types written out.
  std::string types;
  for (int i = 0; i < 34; ++i)
    types += std::string(i ? "," : "") + ((i + 1) % 6 ? "\"sliding_attention\"" : "\"full_attention\"");
  const io::rope_model_settings v5 = read_model(R"({"model_type": "gemma3_text", "head_dim": 256,
      "num_hidden_layers": 34, "max_position_embeddings": 131072, "layer_types": [)" +
                                                types + R"(],
      "rope_parameters": {"sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                          "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1000000.0}}})");
  REQUIRE(v5.tables.size() == 2);
  for (int i = 0; i < 34; ++i) {
    INFO("layer " << i);
    check_same_config(v5.tables[static_cast<std::size_t>(v5.table_of_layer(i))].config(),
                      m.tables[static_cast<std::size_t>(m.table_of_layer(i))].config());
  }
  // A single-config read names the key rather than picking a table.
  CHECK(io::rope_from_hf_config(fixture("gemma-3-4b-it.json")).error().rfind("rope_local_base_freq: per-layer", 0) ==
        0);
  // Gemma-2: one table on every layer, so the single-config reader keeps working.
  const io::rope_model_settings g2 = read_model(fixture("gemma-2-2b.json"));
  CHECK(!g2.per_layer());
  CHECK(g2.tables.size() == 1);
}

// Llama-4 (section 3): no_rope_layers, 1 = RoPE; NoPE at i = 3, 7, ...; interleaved pairs; an
// empty list means the default interval 4, as Llama4TextConfig derives it.
TEST_CASE("io: Llama-4's NoPE layers and Cohere2's RoPE on sliding layers only", "[io][layers]") {
  const io::rope_model_settings m = read_model(fixture("llama-4-scout-17b-16e.json"));
  REQUIRE(m.tables.size() == 1);
  REQUIRE(m.layer_count() == 48);
  CHECK(m.layout == rope::layout::interleaved);
  CHECK(m.per_layer_key == "no_rope_layers");
  std::vector<int> nope;
  for (int i = 3; i < 48; i += 4) nope.push_back(i);
  CHECK(layers_with(m, rope::no_rope) == nope);
  check_same_config(m.tables[0].config(), {.head_dim = 128,
                                           .rope_theta = 500000.0,
                                           .rope_type = rope::scaling::llama3,
                                           .factor = 8.0,
                                           .original_max_position_embeddings = 8192,
                                           .max_position_embeddings = 262144});
  const io::rope_model_settings d = read_model(
      R"({"model_type": "llama4_text", "num_hidden_layers": 8, "no_rope_layers": [], "rope_scaling": {"rope_type":
          "llama3", "factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 1.0, "original_max_position_embeddings": 8192}})");
  CHECK(layers_with(d, rope::no_rope) == std::vector<int>{3, 7});
  CHECK(d.tables[0].base.head_dim == 128);  // Llama4TextConfig's defaults
  CHECK(d.tables[0].base.rope_theta == 500000.0);
  CHECK(rope::validate(d.tables[0].config()).ok());  // low_freq_factor == high_freq_factor
  const io::rope_model_settings c = read_model(fixture("cohere2-command-r7b.json"));
  REQUIRE(c.layer_count() == 32);
  CHECK(c.layout == rope::layout::interleaved);
  std::vector<int> full;
  for (int i = 3; i < 32; i += 4) full.push_back(i);
  CHECK(layers_with(c, rope::no_rope) == full);
  // gpt-oss: layer_types alternate, one table: not per layer.
  CHECK(!read_model(fixture("gpt-oss-20b.json")).per_layer());
}

// ChatGLM (section 5): rotary on kv_channels / 2, interleaved, rope_ratio in one of two meanings.
TEST_CASE("io: GLM-4 in ChatGLM format, both rope_ratio meanings; M-RoPE text tables", "[io][layers]") {
  using rope::rope_ratio_meaning;
  const std::string glm = fixture("glm-4-9b-chat.json");
  CHECK(!io::rope_from_hf_config(glm).ok());  // the meaning must be chosen
  const auto base = io::rope_from_hf_config(glm, {rope_ratio_meaning::base_times_ratio});
  REQUIRE(base.ok());
  CHECK(base.value().layout == rope::layout::interleaved);
  check_same_table(
      base.value().config(),
      {.head_dim = 128, .rope_theta = 5e6, .partial_rotary_factor = 0.5, .max_position_embeddings = 131072});
  CHECK(rope::rotary_dim(base.value().config()) == 64);
  const auto pos = io::rope_from_hf_config(glm, {rope_ratio_meaning::positions_divided});
  REQUIRE(pos.ok());
  check_same_table(
      pos.value().config(),
      {.head_dim = 128, .partial_rotary_factor = 0.5, .rope_type = rope::scaling::linear, .factor = 500.0});
  // rope_ratio 1 (ChatGLM2/3-6B): both meanings agree, nothing to choose.
  CHECK(io::rope_from_hf_config(R"({"model_type": "chatglm", "kv_channels": 128, "rope_ratio": 1})").ok());
  // HF's glm format: partial_rotary_factor 0.5, interleaved.
  const auto hf_glm =
      io::rope_from_hf_config(R"({"model_type": "glm", "head_dim": 128, "partial_rotary_factor": 0.5})");
  REQUIRE(hf_glm.ok());
  CHECK(hf_glm.value().layout == rope::layout::interleaved);
  // M-RoPE: the sections and flag are kept, the rest is the 1D text table (type mrope = default).
  const auto vl = io::rope_from_hf_config(fixture("qwen2-vl-7b-instruct.json"));
  REQUIRE(vl.ok());
  CHECK(vl.value().mrope_section == std::vector<int>{16, 24, 24});
  CHECK(!vl.value().mrope_interleaved);
  CHECK(vl.value().model_type == "qwen2_vl");
  check_same_table(vl.value().config(), {.head_dim = 128, .rope_theta = 1e6, .max_position_embeddings = 32768});
  const auto q3 = io::rope_from_hf_config(R"({"model_type": "qwen3_vl", "text_config": {"model_type":
      "qwen3_vl_text", "head_dim": 128, "rope_theta": 5000000, "rope_scaling": {"rope_type": "default",
      "mrope_section": [24, 20, 20], "mrope_interleaved": true}}})");
  REQUIRE(q3.ok());
  CHECK(q3.value().mrope_section == std::vector<int>{24, 20, 20});
  CHECK(q3.value().mrope_interleaved);
  CHECK(q3.value().model_type == "qwen3_vl");
  CHECK(q3.value().base.rope_theta == 5e6);
  CHECK(io::rope_from_hf_config(R"({"head_dim": 8, "mrope_section": [1, "2"]})").error() ==
        "mrope_section[1]: expected an integer in [0, 2^24]");
}
