// rope_streams.cpp: M-RoPE, ND axial RoPE and real positions, proved by compiling.
//  1. the stream maps are the derivations of pe-formulas-more.md 1.2 and 1.4: Qwen2-VL's sections,
//     and for Qwen3-VL's [24, 20, 20] HF's interleaving and ggml's IMROPE agree on pairs 0..60 and
//     63 and part at 61 and 62 (HF: t; ggml: the fourth stream, position 0);
//  2. an M-RoPE table's text tokens (t = h = w) hold the 1D RoPE rows, in every layout, and its
//     per-axis products depend on the offsets only (laws/streams/);
//  3. a real position is exact: p = m / 2 under the plain frequency is position m under linear
//     scaling by 2 (theta / 2 exactly), bit for bit, in float and double; sin is odd, cos even;
//  4. FLUX's text tokens at (0, 0, 0) are the identity in every axis, and FLUX.2's four axes hold
//     the per-axis law.
#include <array>
#include <cstdint>
#include <span>

#include <posenc/laws/streams/axis_identity_at_zero.hpp>
#include <posenc/laws/streams/axis_relative_dot.hpp>
#include <posenc/laws/streams/text_rows.hpp>
#include <posenc/rope/mrope.hpp>
#include <posenc/rope/nd.hpp>
#include <posenc/rope/real_position.hpp>

namespace {

namespace rope = posenc::rope;
namespace laws = posenc::laws;
using L = rope::mrope_layout;

// 1.
constexpr rope::config qwen3_text{.head_dim = 128, .rope_theta = 5e6};
constexpr rope::mrope_config qwen3_hf{qwen3_text, {24, 20, 20}, L::interleaved_hf};
constexpr rope::mrope_config qwen3_ggml{qwen3_text, {24, 20, 20}, L::interleaved_ggml};
constexpr bool maps_part_at_61_62() {
  for (int j = 0; j < 64; ++j) {
    const int hf = rope::mrope_stream(qwen3_hf, j), gg = rope::mrope_stream(qwen3_ggml, j);
    const bool expected_part = j == 61 || j == 62;
    if ((hf != gg) != expected_part) return false;
    if (expected_part && (hf != 0 || gg != -1)) return false;
  }
  return true;
}
static_assert(maps_part_at_61_62(), "Qwen3-VL: HF and ggml part at pairs 61 and 62 only");
constexpr rope::mrope_config qwen2{{.head_dim = 128, .rope_theta = 1e6}, {16, 24, 24}, L::sections};
static_assert(rope::mrope_stream(qwen2, 15) == 0 && rope::mrope_stream(qwen2, 16) == 1 &&
              rope::mrope_stream(qwen2, 39) == 1 && rope::mrope_stream(qwen2, 40) == 2);
static_assert(rope::validate(qwen2).ok() && !rope::validate(rope::mrope_config{qwen2.text, {16, 24, 16}}).ok());

// 2. Text, then a 2 x 2 image at s = 3 (HF get_rope_index), then text at 5.
constexpr std::array<std::uint64_t, 3 * 8> thw{0, 1, 2, 3, 3, 3, 3, 5,   // t
                                               0, 1, 2, 3, 3, 4, 4, 5,   // h
                                               0, 1, 2, 3, 4, 3, 4, 5};  // w
template <L Layout>
constexpr bool text_rows_hold() {
  constexpr rope::mrope_config c{{.head_dim = 32, .rope_theta = 1e6}, {6, 5, 5}, Layout};
  std::array<float, 8 * 32> cos{}, sin{};
  if (rope::fill_mrope_table<float>(c, thw, cos, sin) != posenc::status::ok) return false;
  const laws::mrope_view<float> v{&c, thw, cos, sin};
  return laws::mrope_text_rows(v).holds && laws::axis_identity_at_zero(v).holds && laws::axis_relative_dot(v).holds;
}
static_assert(text_rows_hold<L::sections>());
// The fill with scratch (the 1D rows of positions 0 .. 5, then a gather) is the fill without, bit
// for bit, in constant evaluation too.
constexpr bool scratch_fill_is_the_scalar_fill() {
  constexpr rope::mrope_config c{{.head_dim = 32, .rope_theta = 1e6}, {6, 5, 5}, L::interleaved_ggml};
  std::array<posenc::math::sincos_result<float>, 8 * 16> a{}, b{}, scratch{};
  if (rope::mrope_scratch_size(c, thw) != 6 * 16) return false;
  if (rope::fill_mrope_pair_table<float>(c, thw, a) != posenc::status::ok) return false;
  if (rope::fill_mrope_pair_table<float>(c, thw, b, std::span(scratch).first(6 * 16)) != posenc::status::ok)
    return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k].sin != b[k].sin || a[k].cos != b[k].cos) return false;
  return true;
}
static_assert(scratch_fill_is_the_scalar_fill());
// A 2 x 2 image at s = 3 alone, under ggml's map with a fourth stream (pairs 12 and 15 of [4, 6, 6]
// read position 0): the range is 0 .. 4 (80 entries of scratch), each stream's own rows are 26
// (t 4 pairs x 1 row, h and w 5 x 2, the fourth 2 x 1), so constant evaluation takes those, and
// the table is again the scalar fill's bit for bit.
constexpr bool per_stream_scratch_fill_is_the_scalar_fill() {
  constexpr rope::mrope_config c{{.head_dim = 32, .rope_theta = 1e6}, {4, 6, 6}, L::interleaved_ggml};
  constexpr std::array<std::uint64_t, 3 * 4> image{3, 3, 3, 3, 3, 3, 4, 4, 3, 4, 3, 4};
  if (rope::mrope_stream(c, 12) != -1 || rope::mrope_stream(c, 15) != -1 || rope::mrope_scratch_size(c, image) != 80 ||
      rope::detail::mrope_stream_plan(c, image).size != 26)  // so 26 entries of scratch take the per-stream fill
    return false;
  std::array<posenc::math::sincos_result<float>, 4 * 16> a{}, b{}, scratch{};
  if (rope::fill_mrope_pair_table<float>(c, image, a) != posenc::status::ok) return false;
  if (rope::fill_mrope_pair_table<float>(c, image, b, std::span(scratch).first(26)) != posenc::status::ok) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k].sin != b[k].sin || a[k].cos != b[k].cos) return false;
  return true;
}
static_assert(per_stream_scratch_fill_is_the_scalar_fill());
static_assert(text_rows_hold<L::interleaved_hf>());
static_assert(text_rows_hold<L::interleaved_ggml>());

// 3.
constexpr rope::config plain{.head_dim = 64, .rope_theta = 10000.0};
constexpr rope::config halved{.head_dim = 64, .rope_theta = 10000.0, .rope_type = rope::scaling::linear, .factor = 2.0};
template <class T>
constexpr bool half_positions_are_linear_scaling() {
  for (const std::uint64_t m : {1u, 3u, 1001u, 4095u})
    for (const int j : {0, 5, 31}) {
      const auto a = rope::sincos_at<T>(plain, static_cast<double>(m) / 2, j);
      const auto b = rope::sincos<T>(halved, m, j);
      if (!a.ok() || !b.ok() || a.value.sin != b.value.sin || a.value.cos != b.value.cos) return false;
      const auto n = rope::sincos_at<T>(plain, -static_cast<double>(m) / 2, j);
      if (n.value.sin != -a.value.sin || n.value.cos != a.value.cos) return false;
    }
  return true;
}
static_assert(half_positions_are_linear_scaling<float>(), "p = m/2 is position m at theta/2 (float)");
static_assert(half_positions_are_linear_scaling<double>(), "p = m/2 is position m at theta/2 (double)");

// 4.
constexpr int flux_axes[] = {16, 56, 56};
constexpr rope::nd_config flux{.axes_dim = flux_axes, .rope_theta = 10000.0};
constexpr std::array<double, 3 * 4> flux_ids{0, 0, 0, 1,   // axis 0 (Kontext's conditioning image: 1)
                                             0, 0, 7, 2,   // rows
                                             0, 0, 3, 5};  // columns
constexpr bool flux_holds() {
  std::array<float, 4 * 128> cos{}, sin{};
  if (rope::fill_nd_table<float>(flux, flux_ids, cos, sin) != posenc::status::ok) return false;
  const laws::nd_view<float> v{&flux, flux_ids, cos, sin};
  for (std::size_t k = 0; k < 2 * 128; ++k)  // the two text tokens: cos 1, sin +0 everywhere
    if (cos[k] != 1.0f || sin[k] != 0.0f) return false;
  return laws::axis_identity_at_zero(v).holds && laws::axis_relative_dot(v).holds;
}
static_assert(flux_holds());
constexpr int flux2_axes[] = {32, 32, 32, 32};
constexpr rope::nd_config flux2{.axes_dim = flux2_axes, .rope_theta = 2000.0};
static_assert(rope::nd_rotary_dim(flux2) == 128 && rope::validate(flux2).ok());

}  // namespace
