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
// 131072), as embedded in OmniGen's Phi3Config. The values are the JSON's decimals, each read as
// the double it rounds to (the exact tables use these; hf_float32 rounds them to float32, as HF does).
inline constexpr std::array<double, 48> phi3_vision_128k_long_factor{
    1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0799999237060547, 1.2299998998641968,
    1.2299998998641968, 1.2999999523162842, 1.4499999284744263, 1.5999999046325684, 1.6499998569488525,
    1.8999998569488525, 2.859999895095825,  3.68999981880188,   5.419999599456787,  5.489999771118164,
    5.489999771118164,  9.09000015258789,   11.579999923706055, 15.65999984741211,  15.769999504089355,
    15.789999961853027, 18.360000610351562, 21.989999771118164, 23.079999923706055, 30.009998321533203,
    32.35000228881836,  32.590003967285156, 35.56000518798828,  39.95000457763672,  53.840003967285156,
    56.20000457763672,  57.95000457763672,  59.29000473022461,  59.77000427246094,  59.920005798339844,
    61.190006256103516, 61.96000671386719,  62.50000762939453,  63.3700065612793,   63.48000717163086,
    63.48000717163086,  63.66000747680664,  63.850006103515625, 64.08000946044922,  64.760009765625,
    64.80001068115234,  64.81001281738281,  64.81001281738281};
inline constexpr std::array<double, 48> phi3_vision_128k_short_factor{1.05,
                                                                      1.05,
                                                                      1.05,
                                                                      1.1,
                                                                      1.1,
                                                                      1.1,
                                                                      1.2500000000000002,
                                                                      1.2500000000000002,
                                                                      1.4000000000000004,
                                                                      1.4500000000000004,
                                                                      1.5500000000000005,
                                                                      1.8500000000000008,
                                                                      1.9000000000000008,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.000000000000001,
                                                                      2.1000000000000005,
                                                                      2.1000000000000005,
                                                                      2.2,
                                                                      2.3499999999999996,
                                                                      2.3499999999999996,
                                                                      2.3499999999999996,
                                                                      2.3499999999999996,
                                                                      2.3999999999999995,
                                                                      2.3999999999999995,
                                                                      2.6499999999999986,
                                                                      2.6999999999999984,
                                                                      2.8999999999999977,
                                                                      2.9499999999999975,
                                                                      3.049999999999997,
                                                                      3.049999999999997,
                                                                      3.049999999999997};

// Phi-3 (vision-128k text model) LongRoPE at a short sequence (short factors) and at its full
// 131072-token context (long factors: seq_len > original context). The short preset pins seq_len
// to the original context: unset, a table past position 4095 would take the long factors by HF's
// rule (seq_len.hpp).
inline constexpr config phi3_vision_128k_short{.head_dim = 96,
                                               .rope_theta = 10000.0,
                                               .rope_type = scaling::longrope,
                                               .original_max_position_embeddings = 4096,
                                               .max_position_embeddings = 131072,
                                               .seq_len = 4096,
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

// Microsoft Phi-3.5-mini-instruct LongRoPE (head_dim 3072/32 = 96, theta 1e4, original context
// 4096, maximum 131072): the short_factor / long_factor arrays of its published config.json (as
// examples/configs/phi-3.5-mini-instruct.json has them; the README there says where they were
// checked). Each is the JSON's decimal read as the double it rounds to: HF wrote float32 values
// as Python floats, so these are float32 numbers, and hf_float32's rounding to float32 is exact.
inline constexpr std::array<double, 48> phi3_5_mini_long_factor{
    1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601,  1.5899999141693115,
    1.600000023841858,  1.6200000047683716, 2.620000123977661,  3.2300000190734863, 3.2300000190734863,
    4.789999961853027,  7.400000095367432,  7.700000286102295,  9.09000015258789,   12.199999809265137,
    17.670000076293945, 24.46000099182129,  28.57000160217285,  30.420001983642578, 30.840002059936523,
    32.590003967285156, 32.93000411987305,  42.320003509521484, 44.96000289916992,  50.340003967285156,
    50.45000457763672,  57.55000305175781,  57.93000411987305,  58.21000289916992,  60.1400032043457,
    62.61000442504883,  62.62000274658203,  62.71000289916992,  63.1400032043457,   63.1400032043457,
    63.77000427246094,  63.93000411987305,  63.96000289916992,  63.970001220703125, 64.02999877929688,
    64.06999969482422,  64.08000183105469,  64.12000274658203,  64.41000366210938,  64.4800033569336,
    64.51000213623047,  64.52999877929688,  64.83999633789062};
inline constexpr std::array<double, 48> phi3_5_mini_short_factor{1.0,
                                                                 1.0199999809265137,
                                                                 1.0299999713897705,
                                                                 1.0299999713897705,
                                                                 1.0499999523162842,
                                                                 1.0499999523162842,
                                                                 1.0499999523162842,
                                                                 1.0499999523162842,
                                                                 1.0499999523162842,
                                                                 1.0699999332427979,
                                                                 1.0999999046325684,
                                                                 1.1099998950958252,
                                                                 1.1599998474121094,
                                                                 1.1599998474121094,
                                                                 1.1699998378753662,
                                                                 1.2899998426437378,
                                                                 1.339999794960022,
                                                                 1.679999828338623,
                                                                 1.7899998426437378,
                                                                 1.8199998140335083,
                                                                 1.8499997854232788,
                                                                 1.8799997568130493,
                                                                 1.9099997282028198,
                                                                 1.9399996995925903,
                                                                 1.9899996519088745,
                                                                 2.0199997425079346,
                                                                 2.0199997425079346,
                                                                 2.0199997425079346,
                                                                 2.0199997425079346,
                                                                 2.0199997425079346,
                                                                 2.0199997425079346,
                                                                 2.0299997329711914,
                                                                 2.0299997329711914,
                                                                 2.0299997329711914,
                                                                 2.0299997329711914,
                                                                 2.0299997329711914,
                                                                 2.0299997329711914,
                                                                 2.0299997329711914,
                                                                 2.0299997329711914,
                                                                 2.0299997329711914,
                                                                 2.0799996852874756,
                                                                 2.0899996757507324,
                                                                 2.189999580383301,
                                                                 2.2199995517730713,
                                                                 2.5899994373321533,
                                                                 2.729999542236328,
                                                                 2.749999523162842,
                                                                 2.8399994373321533};

// Phi-3.5-mini-instruct at a short sequence (short factors) and at its full 131072-token context.
inline constexpr config phi3_5_mini_short{.head_dim = 96,
                                          .rope_theta = 10000.0,
                                          .rope_type = scaling::longrope,
                                          .original_max_position_embeddings = 4096,
                                          .max_position_embeddings = 131072,
                                          .seq_len = 4096,  // the short factors at any length
                                          .short_factor = phi3_5_mini_short_factor,
                                          .long_factor = phi3_5_mini_long_factor};
inline constexpr config phi3_5_mini_long{.head_dim = 96,
                                         .rope_theta = 10000.0,
                                         .rope_type = scaling::longrope,
                                         .original_max_position_embeddings = 4096,
                                         .max_position_embeddings = 131072,
                                         .seq_len = 131072,
                                         .short_factor = phi3_5_mini_short_factor,
                                         .long_factor = phi3_5_mini_long_factor};

}  // namespace posenc::rope::models
