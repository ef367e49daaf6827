// Published figures are rounded, so each is checked to half a unit of its last digit.
// Compile-time proofs for posenc/rope/frequencies.hpp: the YaRN correction ranges and attention
// factors published in pe-formulas.md 1.2 (d = 128, b = 1e4, L0 = 4096 -> [20, 46]; Qwen2.5
// [23, 40]; DeepSeek-V3 rope part [10, 23]; gpt-oss untruncated 8.0928... / 17.3980... as vLLM
// #28244 reports; get_mscale(40) = 0.1 ln 40 + 1 = 1.368888...; DeepSeek-V3 softmax multiplier
// 1.8739; Phi-3 LongRoPE sqrt(17/12) = 1.19024), Llama-3.1's bands, and validate()'s messages.
#include "posenc/rope/frequencies.hpp"

namespace {

using posenc::rope::config;
using posenc::rope::scaling;

constexpr bool same(const char* a, const char* b) {
  while (*a != 0 && *a == *b) ++a, ++b;
  return *a == *b;
}

constexpr config yarn_llama2{.head_dim = 128,
                             .rope_theta = 1e4,
                             .rope_type = scaling::yarn,
                             .factor = 4.0,
                             .original_max_position_embeddings = 4096};
constexpr config qwen25{.head_dim = 128,
                        .rope_theta = 1e6,
                        .rope_type = scaling::yarn,
                        .factor = 4.0,
                        .original_max_position_embeddings = 32768};
constexpr config deepseek_v3{.head_dim = 64,
                             .rope_theta = 1e4,
                             .rope_type = scaling::yarn,
                             .factor = 40.0,
                             .original_max_position_embeddings = 4096,
                             .mscale = 1.0,
                             .mscale_all_dim = 1.0};
constexpr config yarn40{.head_dim = 64,
                        .rope_theta = 1e4,
                        .rope_type = scaling::yarn,
                        .factor = 40.0,
                        .original_max_position_embeddings = 4096};
constexpr config gpt_oss{.head_dim = 64,
                         .rope_theta = 150000.0,
                         .rope_type = scaling::yarn,
                         .factor = 32.0,
                         .original_max_position_embeddings = 4096,
                         .truncate = false};
constexpr config llama31{.head_dim = 128,
                         .rope_theta = 500000.0,
                         .rope_type = scaling::llama3,
                         .factor = 8.0,
                         .original_max_position_embeddings = 8192};
constexpr double ones[48] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                             1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
constexpr config phi3{.head_dim = 96,
                      .rope_theta = 1e4,
                      .rope_type = scaling::longrope,
                      .original_max_position_embeddings = 4096,
                      .max_position_embeddings = 131072,
                      .short_factor = ones,
                      .long_factor = ones};

constexpr auto r1 = posenc::rope::yarn_correction_range(yarn_llama2);
static_assert(r1.ok() && r1.truncated && r1.low == 20.0 && r1.high == 46.0);
constexpr auto r2 = posenc::rope::yarn_correction_range(qwen25);
static_assert(r2.ok() && r2.low == 23.0 && r2.high == 40.0);
constexpr auto r3 = posenc::rope::yarn_correction_range(deepseek_v3);
static_assert(r3.ok() && r3.low == 10.0 && r3.high == 23.0);
constexpr auto r4 = posenc::rope::yarn_correction_range(gpt_oss);
static_assert(r4.ok() && !r4.truncated && r4.low > 8.09275 && r4.low < 8.09285 && r4.high > 17.39795 &&
              r4.high < 17.39805);

constexpr auto m40 = posenc::rope::attention_factor<double>(yarn40);
static_assert(m40.ok() && m40.value > 1.3688875 && m40.value < 1.3688885);
static_assert(posenc::rope::attention_factor<double>(deepseek_v3).value == 1.0);
constexpr auto sm = posenc::rope::softmax_scale_factor<double>(deepseek_v3);
static_assert(sm.ok() && sm.value > 1.87385 && sm.value < 1.87395);
constexpr auto lr = posenc::rope::attention_factor<float>(phi3);
static_assert(lr.ok() && lr.value > 1.190235f && lr.value < 1.190245f);

static_assert(posenc::rope::llama3_band_of(llama31, 28).value == posenc::rope::llama3_band::keep);
static_assert(posenc::rope::llama3_band_of(llama31, 29).value == posenc::rope::llama3_band::smoothed);
static_assert(posenc::rope::llama3_band_of(llama31, 34).value == posenc::rope::llama3_band::smoothed);
static_assert(posenc::rope::llama3_band_of(llama31, 35).value == posenc::rope::llama3_band::divided);
static_assert(posenc::rope::inv_freq<float>(llama31, 0).value == 1.0f);

static_assert(same(posenc::rope::validate(config{.head_dim = 127}).message, "rotary dim must be even"));
static_assert(same(posenc::rope::validate(config{.head_dim = 128, .rope_theta = 1.0}).message,
                   "rope_theta (the base) must be finite and > 1"));
static_assert(same(posenc::rope::validate(config{.head_dim = 128, .rope_type = scaling::linear}).message,
                   "factor must be positive and finite"));
static_assert(same(posenc::rope::validate(config{.head_dim = 128,
                                                 .rope_type = scaling::yarn,
                                                 .factor = 4.0,
                                                 .original_max_position_embeddings = 4096,
                                                 .beta_fast = 1.0})
                       .message,
                   "beta_fast must exceed beta_slow"));
static_assert(same(posenc::rope::validate(config{.head_dim = 96,
                                                 .rope_type = scaling::longrope,
                                                 .original_max_position_embeddings = 4096,
                                                 .max_position_embeddings = 131072,
                                                 .short_factor = ones})
                       .message,
                   "long_factor must have rotary_dim/2 entries"));
static_assert(posenc::rope::validate(phi3).ok());

}  // namespace
