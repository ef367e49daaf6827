// models.hpp: the RoPE configurations of published models, as constexpr posenc::rope::config.
//
// Each preset copies the rotary fields of the model's Hugging Face config.json (rope_theta,
// head_dim or hidden_size / num_attention_heads, partial_rotary_factor or rotary_pct / rotary_dim,
// rope_scaling), as collected in shared/reference/pe-formulas.md sections 1.1-1.3. They are the
// curated configs that the tests, the proofs and the law registry check, so a preset and its
// checks can never drift apart.
#pragma once

#include <array>

#include "posenc/rope/config.hpp"

namespace posenc::rope::models {

// Meta Llama-2-7B: default RoPE, 32 heads of 128, theta 1e4.
inline constexpr config llama2_7b{.head_dim = 128, .rope_theta = 10000.0};

// Meta Llama-3.1-8B: llama3 scaling, factor 8, low 1, high 4, original context 8192, theta 5e5.
inline constexpr config llama3_1_8b{.head_dim = 128,
                                    .rope_theta = 500000.0,
                                    .rope_type = scaling::llama3,
                                    .factor = 8.0,
                                    .original_max_position_embeddings = 8192};

// Meta Llama-3.2-1B: head_dim 64, llama3 scaling with factor 32.
inline constexpr config llama3_2_1b{.head_dim = 64,
                                    .rope_theta = 500000.0,
                                    .rope_type = scaling::llama3,
                                    .factor = 32.0,
                                    .original_max_position_embeddings = 8192};

// Qwen2.5-7B with the YaRN block its model card recommends for long context: factor 4 over 32768.
inline constexpr config qwen2_5_7b_yarn{.head_dim = 128,
                                        .rope_theta = 1000000.0,
                                        .rope_type = scaling::yarn,
                                        .factor = 4.0,
                                        .original_max_position_embeddings = 32768};

// DeepSeek-V3: the 64-dim rope part of MLA (qk_rope_head_dim), YaRN factor 40 over 4096, mscale and
// mscale_all_dim 1 (so the cos/sin attention factor is exactly 1; the softmax scale gets mscale^2).
// Its rope part is interleaved (pe-formulas.md 1.2).
inline constexpr config deepseek_v3{.head_dim = 64,
                                    .rope_theta = 10000.0,
                                    .rope_type = scaling::yarn,
                                    .factor = 40.0,
                                    .original_max_position_embeddings = 4096,
                                    .mscale = 1.0,
                                    .mscale_all_dim = 1.0};

// OpenAI gpt-oss: head_dim 64, theta 150000, YaRN factor 32 over 4096, truncate false.
inline constexpr config gpt_oss{.head_dim = 64,
                                .rope_theta = 150000.0,
                                .rope_type = scaling::yarn,
                                .factor = 32.0,
                                .original_max_position_embeddings = 4096,
                                .truncate = false};

// EleutherAI Pythia: rotary_pct 0.25 of a 128-dim head.
inline constexpr config pythia{.head_dim = 128, .rope_theta = 10000.0, .partial_rotary_factor = 0.25};

// EleutherAI GPT-J-6B: rotary_dim 64 of a 256-dim head (interleaved layout).
inline constexpr config gpt_j{.head_dim = 256, .rope_theta = 10000.0, .rotary_dim = 64};

// Phi-3 LongRoPE factors. The config.json of microsoft/Phi-3-mini-128k-instruct was not among the
// stored sources; these are the published arrays of microsoft/Phi-3-vision-128k-instruct, whose
// text model has the same rotary shape (head_dim 96, theta 1e4, original context 4096, maximum
// 131072), as embedded in OmniGen's Phi3Config. The values are the float32 numbers of the JSON.
inline constexpr std::array<float, 48> phi3_vision_128k_long_factor{
    1.0299999713897705f, 1.0499999523162842f, 1.0499999523162842f, 1.0799999237060547f, 1.2299998998641968f,
    1.2299998998641968f, 1.2999999523162842f, 1.4499999284744263f, 1.5999999046325684f, 1.6499998569488525f,
    1.8999998569488525f, 2.859999895095825f,  3.68999981880188f,   5.419999599456787f,  5.489999771118164f,
    5.489999771118164f,  9.09000015258789f,   11.579999923706055f, 15.65999984741211f,  15.769999504089355f,
    15.789999961853027f, 18.360000610351562f, 21.989999771118164f, 23.079999923706055f, 30.009998321533203f,
    32.35000228881836f,  32.590003967285156f, 35.56000518798828f,  39.95000457763672f,  53.840003967285156f,
    56.20000457763672f,  57.95000457763672f,  59.29000473022461f,  59.77000427246094f,  59.920005798339844f,
    61.190006256103516f, 61.96000671386719f,  62.50000762939453f,  63.3700065612793f,   63.48000717163086f,
    63.48000717163086f,  63.66000747680664f,  63.850006103515625f, 64.08000946044922f,  64.760009765625f,
    64.80001068115234f,  64.81001281738281f,  64.81001281738281f};
inline constexpr std::array<float, 48> phi3_vision_128k_short_factor{1.05f,
                                                                     1.05f,
                                                                     1.05f,
                                                                     1.1f,
                                                                     1.1f,
                                                                     1.1f,
                                                                     1.2500000000000002f,
                                                                     1.2500000000000002f,
                                                                     1.4000000000000004f,
                                                                     1.4500000000000004f,
                                                                     1.5500000000000005f,
                                                                     1.8500000000000008f,
                                                                     1.9000000000000008f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.000000000000001f,
                                                                     2.1000000000000005f,
                                                                     2.1000000000000005f,
                                                                     2.2f,
                                                                     2.3499999999999996f,
                                                                     2.3499999999999996f,
                                                                     2.3499999999999996f,
                                                                     2.3499999999999996f,
                                                                     2.3999999999999995f,
                                                                     2.3999999999999995f,
                                                                     2.6499999999999986f,
                                                                     2.6999999999999984f,
                                                                     2.8999999999999977f,
                                                                     2.9499999999999975f,
                                                                     3.049999999999997f,
                                                                     3.049999999999997f,
                                                                     3.049999999999997f};

// Phi-3 (vision-128k text model) LongRoPE at a short sequence (short factors) and at its full
// 131072-token context (long factors: seq_len > original context).
inline constexpr config phi3_vision_128k_short{.head_dim = 96,
                                               .rope_theta = 10000.0,
                                               .rope_type = scaling::longrope,
                                               .original_max_position_embeddings = 4096,
                                               .max_position_embeddings = 131072,
                                               .short_factor = phi3_vision_128k_short_factor,
                                               .long_factor = phi3_vision_128k_long_factor};
inline constexpr config phi3_vision_128k_long{.head_dim = 96,
                                              .rope_theta = 10000.0,
                                              .rope_type = scaling::longrope,
                                              .original_max_position_embeddings = 4096,
                                              .max_position_embeddings = 131072,
                                              .seq_len = 131072,
                                              .short_factor = phi3_vision_128k_short_factor,
                                              .long_factor = phi3_vision_128k_long_factor};

}  // namespace posenc::rope::models
