// RoPE frequencies and attention factors (posenc/rope/frequencies.hpp) against MPFR
// (posenc/verify/rope_oracle.hpp), published figures (pe-formulas.md sections 1.1-1.3, which cite
// HF modeling_rope_utils.py and vLLM #28244), and the laws of each scaling.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/models.hpp"
#include "posenc/rope/policy.hpp"
#include "posenc/verify/law_measures/llama3_bands.hpp"
#include "posenc/verify/rope_oracle.hpp"

using posenc::bfloat16;
using posenc::float16;
namespace rope = posenc::rope;
using rope::scaling;

namespace {

constexpr rope::config llama2 = rope::models::llama2_7b;
constexpr rope::config llama31 = rope::models::llama3_1_8b;
constexpr rope::config llama32 = rope::models::llama3_2_1b;
constexpr rope::config qwen25 = rope::models::qwen2_5_7b_yarn;
constexpr rope::config deepseek_v3 = rope::models::deepseek_v3;
constexpr rope::config phi3_short_cfg = rope::models::phi3_vision_128k_short;
constexpr rope::config phi3_long_cfg = rope::models::phi3_vision_128k_long;
constexpr rope::config gpt_oss = rope::models::gpt_oss;
constexpr rope::config pythia = rope::models::pythia;
constexpr rope::config gptj = rope::models::gpt_j;
// Variants without a curated model: linear (PI), static NTK, dynamic NTK, a plain YaRN, proportional.
constexpr rope::config linear4{.head_dim = 128, .rope_theta = 10000.0, .rope_type = scaling::linear, .factor = 4.0};
constexpr rope::config ntk4{.head_dim = 128, .rope_theta = 10000.0, .rope_type = scaling::ntk, .factor = 4.0};
constexpr rope::config dynamic2{.head_dim = 128,
                                .rope_theta = 10000.0,
                                .rope_type = scaling::dynamic,
                                .factor = 2.0,
                                .max_position_embeddings = 4096,
                                .seq_len = 10000};
constexpr rope::config yarn_llama2{.head_dim = 128,
                                   .rope_theta = 10000.0,
                                   .rope_type = scaling::yarn,
                                   .factor = 4.0,
                                   .original_max_position_embeddings = 4096};
constexpr rope::config yarn_40{.head_dim = 64,
                               .rope_theta = 10000.0,
                               .rope_type = scaling::yarn,
                               .factor = 40.0,
                               .original_max_position_embeddings = 4096};
// Llama-3 scaling with low_freq_factor == high_freq_factor, as the issue reports for Llama-4
// Scout's rope_scaling (factor 16, both factors 1, L0 8192; theta 5e5, head_dim 128): no smoothed
// band. HF's _compute_llama3_parameters accepts it (the smoothed values are computed, then masked).
constexpr rope::config llama4_equal_factors{.head_dim = 128,
                                            .rope_theta = 500000.0,
                                            .rope_type = scaling::llama3,
                                            .factor = 16.0,
                                            .original_max_position_embeddings = 8192,
                                            .low_freq_factor = 1.0,
                                            .high_freq_factor = 1.0};
constexpr rope::config gemma_prop{
    .head_dim = 256, .rope_theta = 1000000.0, .partial_rotary_factor = 0.25, .proportional = true};

struct named {
  const char* name;
  rope::config cfg;
};
const std::vector<named> curated{{"Llama-2-7B", llama2},
                                 {"Llama-3.1-8B", llama31},
                                 {"Llama-3.2-1B", llama32},
                                 {"Llama-4 lff == hff", llama4_equal_factors},
                                 {"Qwen2.5-7B yarn", qwen25},
                                 {"DeepSeek-V3", deepseek_v3},
                                 {"Phi-3 short", phi3_short_cfg},
                                 {"Phi-3 long", phi3_long_cfg},
                                 {"gpt-oss", gpt_oss},
                                 {"Pythia", pythia},
                                 {"GPT-J", gptj},
                                 {"linear 4", linear4},
                                 {"ntk 4", ntk4},
                                 {"dynamic 2", dynamic2},
                                 {"yarn llama2", yarn_llama2},
                                 {"yarn 40", yarn_40},
                                 {"proportional", gemma_prop}};

template <class T>
std::uint64_t bits(T x) {
  return static_cast<std::uint64_t>(posenc::detail::float_format<T>::to_bits(x));
}

template <class T>
int check_config(const rope::config& c, const char* name) {
  int n = 0;
  const int half = rope::rotary_dim(c) / 2;
  for (int j = 0; j < half; ++j) {
    const auto got = rope::inv_freq<T>(c, j);
    const T want = posenc::verify::cr_rope_inv_freq<T>(c, j);
    INFO(name << " j=" << j << " dtype bits " << sizeof(T) * 8);
    REQUIRE(got.ok());
    CHECK(bits(got.value) == bits(want));
    ++n;
  }
  const auto a = rope::attention_factor<T>(c);
  INFO(name << " attention factor");
  REQUIRE(a.ok());
  CHECK(bits(a.value) == bits(posenc::verify::cr_rope_attention_factor<T>(c)));
  const auto m = rope::softmax_scale_factor<T>(c);
  REQUIRE(m.ok());
  CHECK(bits(m.value) == bits(posenc::verify::cr_rope_softmax_scale_factor<T>(c)));
  return n + 2;
}

}  // namespace

TEST_CASE("inv_freq and attention factors of the curated configs are correctly rounded", "[rope][oracle]") {
  int n = 0;
  for (const auto& m : curated) {
    INFO(m.name << ": " << rope::validate(m.cfg).message);
    REQUIRE(rope::validate(m.cfg).ok());
    n += check_config<double>(m.cfg, m.name);
    n += check_config<float>(m.cfg, m.name);
    n += check_config<bfloat16>(m.cfg, m.name);
    n += check_config<float16>(m.cfg, m.name);
  }
  WARN("values compared bit for bit with MPFR: " << n);
}

TEST_CASE("compile-time values equal run-time values", "[rope]") {
  constexpr auto a = rope::inv_freq<float>(llama31, 31);
  constexpr auto b = rope::inv_freq<double>(gpt_oss, 12);
  constexpr auto c = rope::inv_freq<bfloat16>(phi3_long_cfg, 40);
  constexpr auto d = rope::attention_factor<double>(phi3_short_cfg);
  constexpr auto e = rope::softmax_scale_factor<float>(deepseek_v3);
  volatile int j = 31;
  CHECK(bits(a.value) == bits(rope::inv_freq<float>(llama31, j).value));
  CHECK(bits(b.value) == bits(rope::inv_freq<double>(gpt_oss, j - 19).value));
  CHECK(bits(c.value) == bits(rope::inv_freq<bfloat16>(phi3_long_cfg, j + 9).value));
  CHECK(bits(d.value) == bits(rope::attention_factor<double>(phi3_short_cfg).value));
  CHECK(bits(e.value) == bits(rope::softmax_scale_factor<float>(deepseek_v3).value));
}

TEST_CASE("published figures", "[rope]") {
  // pe-formulas.md 1.2, "Computed correction ranges".
  auto r = rope::yarn_correction_range(yarn_llama2);
  REQUIRE(r.error == posenc::status::ok);
  CHECK(r.low == 20.0);
  CHECK(r.high == 46.0);
  r = rope::yarn_correction_range(qwen25);
  CHECK(r.low == 23.0);
  CHECK(r.high == 40.0);
  r = rope::yarn_correction_range(deepseek_v3);
  CHECK(r.low == 10.0);
  CHECK(r.high == 23.0);
  r = rope::yarn_correction_range(gpt_oss);  // vLLM #28244: 8.0928 / 17.3980
  CHECK(!r.truncated);
  CHECK(std::fabs(r.low - 8.0928) < 5e-5);
  CHECK(std::fabs(r.high - 17.3980) < 5e-5);
  double lo = 0, hi = 0;  // and the untruncated bounds are RN of the exact reals
  posenc::verify::exact_yarn_range(gpt_oss, lo, hi);
  CHECK(r.low == lo);
  CHECK(r.high == hi);
  // get_mscale values (pe-formulas.md 1.2): s = 4, 32, 40.
  CHECK(std::fabs(rope::attention_factor(qwen25).value - 1.138629) < 1e-6);
  CHECK(std::fabs(rope::attention_factor(gpt_oss).value - 1.346574) < 1e-6);
  CHECK(std::fabs(rope::attention_factor(yarn_40).value - 1.368888) < 1e-6);
  CHECK(rope::attention_factor(deepseek_v3).value == 1.0);  // mscale == mscale_all_dim
  CHECK(std::fabs(rope::softmax_scale_factor(deepseek_v3).value - 1.8739) < 5e-5);
  // LongRoPE: sqrt(1 + ln 32 / ln 4096) = sqrt(17/12) (pe-formulas.md 1.1).
  CHECK(std::fabs(rope::attention_factor(phi3_short_cfg).value - std::sqrt(17.0 / 12.0)) < 1e-15);
  // Explicit attention factor wins for yarn.
  rope::config y = qwen25;
  y.attention_factor = 1.25;
  CHECK(rope::attention_factor(y).value == 1.25);
  CHECK(bits(rope::attention_factor<bfloat16>(y).value) == 0x3FA0u);
}

TEST_CASE("Llama-3.1 bands: 0..28 keep, 29..34 smoothed, 35..63 divided", "[rope]") {
  for (int j = 0; j < 64; ++j) {
    const auto b = rope::llama3_band_of(llama31, j);
    REQUIRE(b.ok());
    const auto want = j <= 28   ? rope::llama3_band::keep
                      : j <= 34 ? rope::llama3_band::smoothed
                                : rope::llama3_band::divided;
    INFO("j=" << j);
    CHECK(b.value == want);
    // keep = the default frequency; divided = the linear (factor 8) frequency; smoothed strictly between.
    const double f = rope::inv_freq(llama31, j).value;
    const double ext = rope::inv_freq(rope::config{.head_dim = 128, .rope_theta = 500000.0}, j).value;
    const double itp =
        rope::inv_freq(
            rope::config{.head_dim = 128, .rope_theta = 500000.0, .rope_type = scaling::linear, .factor = 8.0}, j)
            .value;
    if (j <= 28) CHECK(f == ext);
    if (j >= 35) CHECK(f == itp);
    if (j > 28 && j < 35) CHECK((itp < f && f < ext));
  }
}

TEST_CASE("laws: decreasing frequencies, YaRN between its two ends", "[rope][laws]") {
  for (const auto& m : curated) {
    if (m.cfg.rope_type == scaling::longrope || m.cfg.proportional) continue;  // not monotone by formula
    const int half = rope::rotary_dim(m.cfg) / 2;
    for (int j = 1; j < half; ++j) {
      INFO(m.name << " j=" << j);
      CHECK(rope::inv_freq(m.cfg, j).value < rope::inv_freq(m.cfg, j - 1).value);
    }
  }
  for (const rope::config& y : {yarn_llama2, qwen25, deepseek_v3, gpt_oss}) {
    rope::config ext{.head_dim = y.head_dim, .rope_theta = y.rope_theta};
    rope::config itp = ext;
    itp.rope_type = scaling::linear;
    itp.factor = y.factor;
    const auto r = rope::yarn_correction_range(y);
    REQUIRE(r.ok());
    int below = 0, inside = 0, above = 0;
    for (int j = 0; j < y.head_dim / 2; ++j) {
      const double f = rope::inv_freq(y, j).value, e = rope::inv_freq(ext, j).value, i = rope::inv_freq(itp, j).value;
      INFO("d=" << y.head_dim << " j=" << j << " range " << r.low << ".." << r.high);
      if (j <= r.low) {
        CHECK(f == e);
        ++below;
      } else if (j >= r.high) {
        CHECK(f == i);
        ++above;
      } else {
        CHECK((i < f && f < e));
        ++inside;
      }
    }
    CHECK(below > 0);
    CHECK(inside > 0);
    CHECK(above > 0);
  }
  // Partial rotary: Pythia's 32 and GPT-J's 64 rotary dims use exponent 2j/rotary_dim.
  CHECK(rope::rotary_dim(pythia) == 32);
  CHECK(rope::rotary_dim(gptj) == 64);
  CHECK(rope::inv_freq(pythia, 8).value == rope::inv_freq(rope::config{.head_dim = 32}, 8).value);
  // Proportional: exponent over head_dim, zero past rope_angles = 32.
  CHECK(rope::rotary_dim(gemma_prop) == 256);
  CHECK(rope::inv_freq(gemma_prop, 31).value ==
        rope::inv_freq(rope::config{.head_dim = 256, .rope_theta = 1e6}, 31).value);
  CHECK(rope::inv_freq(gemma_prop, 32).value == 0.0);
  CHECK(rope::inv_freq(gemma_prop, 127).ok());
  // LongRoPE picks the long factors only past L0.
  CHECK(rope::longrope_factors(phi3_short_cfg).data() == rope::models::phi3_vision_128k_short_factor.data());
  CHECK(rope::longrope_factors(phi3_long_cfg).data() == rope::models::phi3_vision_128k_long_factor.data());
}

TEST_CASE("bad input: each precondition names itself", "[rope][validate]") {
  auto msg = [](const rope::config& c) { return std::string(rope::validate(c).message); };
  CHECK(msg(rope::config{}) == "head_dim must be positive");
  CHECK(msg(rope::config{.head_dim = 127}) == "rotary dim must be even");
  CHECK(msg(rope::config{.head_dim = 128, .rotary_dim = 63}) == "rotary dim must be even");
  CHECK(msg(rope::config{.head_dim = 1, .partial_rotary_factor = 0.5}) == "rotary dim is zero");
  CHECK(msg(rope::config{.head_dim = 128, .partial_rotary_factor = 0.0}) == "partial_rotary_factor must be in (0, 1]");
  CHECK(msg(rope::config{.head_dim = 128, .rope_theta = 1.0}) == "rope_theta (the base) must be finite and > 1");
  CHECK(msg(rope::config{.head_dim = 128, .rope_theta = 0.5}) == "rope_theta (the base) must be finite and > 1");
  CHECK(msg(rope::config{.head_dim = 128, .rope_type = scaling::linear}) == "factor must be positive and finite");
  CHECK(msg(rope::config{.head_dim = 128, .rope_type = scaling::linear, .factor = -2.0}) ==
        "factor must be positive and finite");
  rope::config y = qwen25;
  y.beta_fast = 1.0;
  CHECK(msg(y) == "beta_fast must exceed beta_slow");
  y.beta_fast = 0.0;
  CHECK(msg(y) == "beta_fast and beta_slow must be positive");
  rope::config l = phi3_long_cfg;
  l.long_factor = std::span<const double>(rope::models::phi3_vision_128k_long_factor.data(), 47);
  CHECK(msg(l) == "long_factor must have rotary_dim/2 entries");
  l = phi3_long_cfg;
  l.short_factor = std::span<const double>(rope::models::phi3_vision_128k_short_factor.data(), 40);
  CHECK(msg(l) == "short_factor must have rotary_dim/2 entries");
  rope::config l3 = llama31;
  l3.high_freq_factor = 0.5;
  CHECK(msg(l3) == "high_freq_factor must not be below low_freq_factor");
  CHECK(msg(rope::config{.head_dim = 2, .rope_type = scaling::ntk, .factor = 2.0}) ==
        "ntk and dynamic need a rotary dim above 2 (exponent d/(d-2))");
  rope::config a = qwen25;
  a.attention_factor = 0.0;
  CHECK(msg(a) == "attention_factor must be positive and finite");
  // Every entry point reports the error instead of a value.
  CHECK(rope::inv_freq(rope::config{.head_dim = 127}, 0).error == posenc::status::domain_error);
  CHECK(rope::inv_freq(llama2, 64).error == posenc::status::domain_error);
  CHECK(rope::attention_factor(y).error == posenc::status::domain_error);
  CHECK(rope::yarn_correction_range(llama2).error == posenc::status::domain_error);
  for (const auto& m : curated) CHECK(rope::validate(m.cfg).ok());
}

TEST_CASE("frequency providers agree with the rounded frequency", "[rope]") {
  for (const auto& m : curated) {
    for (int j = 0; j < rope::rotary_dim(m.cfg) / 2; ++j) {
      const auto f = rope::frequency_dd(m.cfg, j);
      REQUIRE(f.ok());
      INFO(m.name << " j=" << j);
      CHECK(f.rel_err <= 0x1p-60);
      CHECK(posenc::detail::round_dd<double>(f.value.hi, f.value.lo) ==
            posenc::verify::cr_rope_inv_freq<double>(m.cfg, j));
      if (j < posenc::rope::detail::rotating_pairs(m.cfg)) {
        const auto a = rope::frequency_mp<4>(m.cfg, j);
        double out = 0;
        REQUIRE(posenc::detail::mp::round_checked<double>(a.v, a.err, out));
        CHECK(out == posenc::verify::cr_rope_inv_freq<double>(m.cfg, j));
      }
    }
  }
}

// Derivation (docs/rope-layers.md): with lff == hff == 1 the pair keeps b^(-2j/d) iff
// wavelen = 2 pi b^(2j/d) < L0, i.e. j < (d/2) ln(L0 / 2 pi) / ln b = 64 * 7.17313 / 13.12236 = 34.98,
// and is divided by the factor otherwise: keep j <= 34, divided j >= 35, nothing smoothed.
TEST_CASE("Llama-3 scaling with low_freq_factor == high_freq_factor (Llama-4): two bands, exact", "[rope][oracle]") {
  const rope::config c = llama4_equal_factors;
  REQUIRE(rope::validate(c).ok());
  rope::config keep = c, divided = c;
  keep.rope_type = scaling::default_;
  divided.rope_type = scaling::linear;
  for (int j = 0; j < 64; ++j) {
    INFO("j=" << j);
    const auto band = rope::llama3_band_of(c, j);
    REQUIRE(band.ok());
    CHECK(band.value == (j <= 34 ? rope::llama3_band::keep : rope::llama3_band::divided));
    const double want = rope::inv_freq<double>(j <= 34 ? keep : divided, j).value;
    CHECK(bits(rope::inv_freq<double>(c, j).value) == bits(want));
  }
  // The band law passes with the smoothed band allowed empty, and its "all three bands" form
  // fails here: the checker sees the empty band.
  CHECK(posenc::verify::law_measures::check_llama3_bands(c, false).passed);
  CHECK(!posenc::verify::law_measures::check_llama3_bands(c, true).passed);
  // HF's float32 pipeline, evaluated by the compiler: no division by zero is reached (GCC stops
  // constant evaluation on an inf or NaN produced by arithmetic).
  constexpr auto hf34 = rope::inv_freq(rope::hf_float32, rope::checked_config(llama4_equal_factors), 34);
  constexpr auto hf35 = rope::inv_freq(rope::hf_float32, rope::checked_config(llama4_equal_factors), 35);
  static_assert(hf34.ok() && hf35.ok() && hf34.value > 0 && hf35.value > 0, "finite HF float32 frequencies");
  CHECK(hf34.value / hf35.value > 16.0f);  // the step of the divided band at j = 35
}
