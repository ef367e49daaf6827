// rope_streams.cpp: M-RoPE, ND axial RoPE and real positions, proved by compiling.
//  1. the stream maps are the derivations of pe-formulas-more.md 1.2 and 1.4: Qwen2-VL's sections,
//     and for Qwen3-VL's [24, 20, 20] HF's interleaving and ggml's IMROPE agree on pairs 0..60 and
//     63 and part at 61 and 62 (HF: t; ggml: the fourth stream, position 0);
//  2. an M-RoPE table's text tokens (t = h = w) hold the 1D RoPE rows, in every layout, and its
//     per-axis products depend on the offsets only (laws/streams/); every entry of a constant-
//     evaluated table is the scalar entry rope::mrope_sincos, with scratch or without, through
//     the per-stream rows, and with text runs filled as 1D rows between vision blocks;
//  3. a real position is exact: p = m / 2 under the plain frequency is position m under linear
//     scaling by 2 (theta / 2 exactly), bit for bit, in float and double; sin is odd, cos even;
//  4. FLUX's text tokens at (0, 0, 0) are the identity in every axis, a constant-evaluated FLUX
//     table (integer axes gathered from 1D rows) is the scalar entries rope::nd_sincos, and
//     FLUX.2's four axes hold the per-axis law;
//  5. RoPE in turns (rope/turns.hpp, DINOv3's 2 pi coord / period) is exact where the reals are:
//     at theta_0 = 1 a quarter turn is cos = +0, sin = 1 and a half turn cos = -1, sin = +0; the
//     phase is reduced mod 1 exactly (p and p + 1 give the same bits at theta_0 = 1); p = m/2 is
//     m under linear scaling by 2; sin is odd, cos even; a compile-time DINOv3 table (4 x 4 grid,
//     head dim 64) holds those exact quarter turns in its k = 0 columns and mirrors its rows
//     through the centre; a 3 x 3 one holds the per-axis laws.
#include <array>
#include <bit>
#include <cstdint>
#include <span>

#include <posenc/laws/streams/axis_identity_at_zero.hpp>
#include <posenc/laws/streams/axis_relative_dot.hpp>
#include <posenc/laws/streams/text_rows.hpp>
#include <posenc/rope/dinov3.hpp>
#include <posenc/rope/mrope.hpp>
#include <posenc/rope/mrope_positions.hpp>
#include <posenc/rope/nd.hpp>
#include <posenc/rope/real_position.hpp>
#include <posenc/rope/turns.hpp>

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
// Each entry of a constant-evaluated M-RoPE table is the scalar entry rope::mrope_sincos of its
// token and pair, bit for bit, whichever way the fill took: with the caller's scratch or its own
// (constant evaluation allocates what it needs), the 1D rows of the whole range or each stream's
// own, a text run filled as the 1D rows it equals.
template <std::size_t Tokens, std::size_t Pairs>
constexpr bool is_the_scalar_entries(const rope::mrope_config& c, const std::array<std::uint64_t, 3 * Tokens>& ids,
                                     const std::array<posenc::math::sincos_result<float>, Tokens * Pairs>& t) {
  for (std::size_t i = 0; i < Tokens; ++i)
    for (std::size_t j = 0; j < Pairs; ++j) {
      const auto e = rope::mrope_sincos<float>(c, {ids[i], ids[Tokens + i], ids[2 * Tokens + i]}, static_cast<int>(j));
      if (!e.ok() || e.value.sin != t[i * Pairs + j].sin || e.value.cos != t[i * Pairs + j].cos) return false;
    }
  return true;
}
// The 1D rows of positions 0 .. 5 (ggml's fourth stream reads 0), then a gather.
constexpr bool scratch_fill_is_the_scalar_entries() {
  constexpr rope::mrope_config c{{.head_dim = 32, .rope_theta = 1e6}, {6, 5, 5}, L::interleaved_ggml};
  std::array<posenc::math::sincos_result<float>, 8 * 16> a{}, b{}, scratch{};
  if (rope::mrope_scratch_size(c, thw) != 6 * 16) return false;
  if (rope::fill_mrope_pair_table<float>(c, thw, a) != posenc::status::ok) return false;
  if (rope::fill_mrope_pair_table<float>(c, thw, b, std::span(scratch).first(6 * 16)) != posenc::status::ok)
    return false;
  return is_the_scalar_entries<8, 16>(c, thw, a) && is_the_scalar_entries<8, 16>(c, thw, b);
}
static_assert(scratch_fill_is_the_scalar_entries());
// A 2 x 2 image at s = 3 alone, under ggml's map with a fourth stream (pairs 12 and 15 of [4, 6, 6]
// read position 0): the range is 0 .. 4 (80 entries of scratch), each stream's own rows are 26
// (t 4 pairs x 1 row, h and w 5 x 2, the fourth 2 x 1), so constant evaluation takes those.
constexpr bool per_stream_scratch_fill_is_the_scalar_entries() {
  constexpr rope::mrope_config c{{.head_dim = 32, .rope_theta = 1e6}, {4, 6, 6}, L::interleaved_ggml};
  constexpr std::array<std::uint64_t, 3 * 4> image{3, 3, 3, 3, 3, 3, 4, 4, 3, 4, 3, 4};
  if (rope::mrope_stream(c, 12) != -1 || rope::mrope_stream(c, 15) != -1 || rope::mrope_scratch_size(c, image) != 80 ||
      rope::mrope_stream_scratch_size(c, image) != 26)  // so 26 entries of scratch take the per-stream fill
    return false;
  std::array<posenc::math::sincos_result<float>, 4 * 16> a{}, b{}, scratch{};
  if (rope::fill_mrope_pair_table<float>(c, image, a) != posenc::status::ok) return false;
  if (rope::fill_mrope_pair_table<float>(c, image, b, std::span(scratch).first(26)) != posenc::status::ok) return false;
  return is_the_scalar_entries<4, 16>(c, image, a) && is_the_scalar_entries<4, 16>(c, image, b);
}
static_assert(per_stream_scratch_fill_is_the_scalar_entries());
// get_rope_index's ids of 16 text tokens, a 2 x 3 image, 17 text tokens: the two text runs (16 and
// 17 tokens, rope::detail's threshold) are filled as 1D rows, the image block between them gathered.
constexpr auto text_image_text = [] {
  std::array<std::uint64_t, 3 * 39> p{};
  const rope::mrope_segment seq[] = {
      {.tokens = 16}, {.kind = rope::mrope_segment::image, .grid_h = 2, .grid_w = 3}, {.tokens = 17}};
  return rope::mrope_positions(seq, {}, p).ok() ? p : std::array<std::uint64_t, 3 * 39>{};
}();
static_assert(text_image_text[16] == 16 && text_image_text[39 + 19] == 17 && text_image_text[22] == 19,
              "the ids of get_rope_index: the image at 16 (h 16 .. 17, w 16 .. 18), text again at 19");
// Clang's step budget allows a few hundred scalar entries per assertion: the tokens at both ends
// of each run and the image are checked against them, and every text token against the 1D rows.
template <L Layout, int T, int H, int W>
constexpr bool text_runs_are_the_scalar_entries() {
  constexpr rope::mrope_config c{{.head_dim = 32, .rope_theta = 1e6}, {T, H, W}, Layout};
  bool fourth = false;  // a pair on ggml's fourth stream: its text rows read position 0 there
  for (int j = 0; j < 16; ++j) fourth = fourth || rope::mrope_stream(c, j) < 0;
  std::array<posenc::math::sincos_result<float>, 39 * 16> t{}, rows{};
  if (rope::fill_mrope_pair_table<float>(c, text_image_text, t) != posenc::status::ok) return false;
  for (const std::size_t i : {0u, 15u, 16u, 17u, 18u, 19u, 20u, 21u, 22u, 38u})
    for (std::size_t j = 0; j < 16; ++j) {
      const auto& ids = text_image_text;
      const auto e = rope::mrope_sincos<float>(c, {ids[i], ids[39 + i], ids[78 + i]}, static_cast<int>(j));
      if (!e.ok() || e.value.sin != t[i * 16 + j].sin || e.value.cos != t[i * 16 + j].cos) return false;
    }
  if (fourth) return true;
  if (rope::fill_pair_table<float>(c.text, std::span(rows).first(36 * 16)) != posenc::status::ok) return false;
  for (std::size_t i = 0; i < 39; ++i) {
    if (i >= 16 && i < 22) continue;           // the image
    const std::size_t p = i < 16 ? i : i - 3;  // text resumes at 19 on token 22
    for (std::size_t j = 0; j < 16; ++j)
      if (t[i * 16 + j].sin != rows[p * 16 + j].sin || t[i * 16 + j].cos != rows[p * 16 + j].cos) return false;
  }
  return true;
}
static_assert(text_runs_are_the_scalar_entries<L::sections, 6, 5, 5>());
static_assert(text_runs_are_the_scalar_entries<L::interleaved_ggml, 6, 5, 5>());  // ggml's map, no fourth stream
static_assert(text_runs_are_the_scalar_entries<L::interleaved_ggml, 4, 6, 6>());  // pairs 12, 15 on it: no text runs
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
// The same table compact: its integer axes are gathered from 1D rows in constant evaluation (the
// fill allocates them), so each entry is checked against the scalar entry rope::nd_sincos.
constexpr bool flux_is_the_scalar_entries() {
  std::array<posenc::math::sincos_result<float>, 4 * 64> t{};
  if (rope::fill_nd_pair_table<float>(flux, flux_ids, t) != posenc::status::ok) return false;
  for (std::size_t i = 0; i < 4; ++i) {
    const double at[] = {flux_ids[i], flux_ids[4 + i], flux_ids[8 + i]};
    for (int j = 0; j < 64; ++j) {
      const auto e = rope::nd_sincos<float>(flux, at, j);
      const auto& got = t[i * 64 + static_cast<std::size_t>(j)];
      if (!e.ok() || std::bit_cast<std::uint32_t>(e.value.cos) != std::bit_cast<std::uint32_t>(got.cos) ||
          std::bit_cast<std::uint32_t>(e.value.sin) != std::bit_cast<std::uint32_t>(got.sin))
        return false;
    }
  }
  return true;
}
static_assert(flux_is_the_scalar_entries());
constexpr int flux2_axes[] = {32, 32, 32, 32};
constexpr rope::nd_config flux2{.axes_dim = flux2_axes, .rope_theta = 2000.0};
static_assert(rope::nd_rotary_dim(flux2) == 128 && rope::validate(flux2).ok());

// 5.
constexpr rope::config dino_axis{.head_dim = 32, .rope_theta = 100.0};  // an axis of DINOv3 ViT-S/B/L
template <class T>
constexpr bool is(posenc::result<posenc::math::sincos_result<T>> r, T c, T s) {
  return r.ok() &&
         std::bit_cast<std::uint32_t>(static_cast<float>(r.value.cos)) ==
             std::bit_cast<std::uint32_t>(static_cast<float>(c)) &&
         std::bit_cast<std::uint32_t>(static_cast<float>(r.value.sin)) ==
             std::bit_cast<std::uint32_t>(static_cast<float>(s));
}
static_assert(is<double>(rope::sincos_turns_at<double>(dino_axis, 0.25, 0), 0.0, 1.0),
              "2 pi / 4 = pi/2: cos +0, sin 1");
static_assert(is<float>(rope::sincos_turns_at<float>(dino_axis, 0.25, 0), 0.0f, 1.0f), "pi/2 in float");
static_assert(is<double>(rope::sincos_turns_at<double>(dino_axis, 0.5, 0), -1.0, 0.0), "2 pi / 2 = pi: cos -1, sin +0");
static_assert(is<float>(rope::sincos_turns_at<float>(dino_axis, -0.5, 0), -1.0f, 0.0f), "-pi: sin is +0, not -0");
static_assert(is<double>(rope::sincos_turns_at<double>(dino_axis, -0.25, 0), 0.0, -1.0), "-pi/2: sin -1");
static_assert(is<double>(rope::sincos_turns<double>(dino_axis, 3, 0), 1.0, 0.0), "three whole turns");
// base 16 on an axis of 8: theta_k = 16^(-2k/8) = 2^-k exactly, so p = 2^k / 4 is a quarter turn.
constexpr rope::config pow2_axis{.head_dim = 8, .rope_theta = 16.0};
static_assert(is<double>(rope::sincos_turns_at<double>(pow2_axis, 1.0, 2), 0.0, 1.0), "1 * 2^-2 = 1/4 turn");
static_assert(is<float>(rope::sincos_turns_at<float>(pow2_axis, -4.0, 3), -1.0f, 0.0f), "-4 * 2^-3 = -1/2 turn");
static_assert(is<double>(rope::sincos_turns_at<double>(pow2_axis, 5.0, 1), -1.0, 0.0), "5 * 2^-1 = 2.5 turns");
template <class T>
constexpr bool turns_laws() {
  constexpr rope::config halved32{
      .head_dim = 32, .rope_theta = 100.0, .rope_type = rope::scaling::linear, .factor = 2.0};
  for (const double p : {0.1, -0.3, 0.0625, -0.6875, 12.375})
    for (const int k : {0, 3, 15}) {
      const auto a = rope::sincos_turns_at<T>(dino_axis, p, k), n = rope::sincos_turns_at<T>(dino_axis, -p, k);
      if (!a.ok() || !n.ok() || n.value.sin != -a.value.sin || n.value.cos != a.value.cos) return false;
      if (k == 0 && (p + 1) - 1 == p) {  // theta_0 = 1: one turn later (p + 1 exact), the same bits
        const auto b = rope::sincos_turns_at<T>(dino_axis, p + 1, k);
        if (b.value.sin != a.value.sin || b.value.cos != a.value.cos) return false;
      }
    }
  for (const std::uint64_t m : {1u, 3u, 7u, 1001u})
    for (const int k : {1, 9}) {  // p = m/2 at theta is m at theta/2 (linear scaling by 2: exact)
      const auto a = rope::sincos_turns_at<T>(dino_axis, static_cast<double>(m) / 2, k);
      const auto b = rope::sincos_turns<T>(halved32, m, k);
      if (!a.ok() || !b.ok() || a.value.sin != b.value.sin || a.value.cos != b.value.cos) return false;
    }
  return true;
}
static_assert(turns_laws<float>(), "turns: sin odd, cos even, period 1 at theta_0 = 1, m/2 = m at theta/2 (float)");
static_assert(turns_laws<double>(), "the same in double");

constexpr int dino_axes[] = {32, 32};
constexpr rope::nd_config dino = rope::dinov3_config(dino_axes);
constexpr auto dino_pos = [] {
  std::array<double, 2 * 16> pos{};
  static_cast<void>(rope::dinov3_positions(4, 4, pos));
  return pos;
}();
static_assert(dino_pos[0] == -0.75 && dino_pos[5] == -0.25 && dino_pos[16 + 3] == 0.75, "(2i + 1)/4 - 1");
struct dino_table {
  posenc::status st;
  std::array<float, 16 * 64> cos, sin;
};
constexpr dino_table dino_t = [] {
  dino_table t{};
  t.st = rope::fill_nd_table<float>(dino, dino_pos, t.cos, t.sin, rope::layout::half_split);
  return t;
}();
constexpr bool dinov3_table_exact() {
  constexpr float s_of[4] = {1.0f, -1.0f, 1.0f, -1.0f};  // sin(2 pi c), c = -3/4, -1/4, 1/4, 3/4
  const auto& cos = dino_t.cos;
  const auto& sin = dino_t.sin;
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t c = 0; c < 4; ++c) {
      const std::size_t i = r * 4 + c, mirror = (3 - r) * 4 + (3 - c);
      // k = 0 of the y axis (pair 0: elements 0 and 32) and of the x axis (pair 16: 16 and 48).
      if (cos[i * 64] != 0.0f || sin[i * 64] != s_of[r] || sin[i * 64 + 32] != s_of[r]) return false;
      if (cos[i * 64 + 16] != 0.0f || sin[i * 64 + 16] != s_of[c] || sin[i * 64 + 48] != s_of[c]) return false;
      for (std::size_t e = 0; e < 64; ++e)  // the patch at (-y, -x): cos equal, sin negated
        if (cos[mirror * 64 + e] != cos[i * 64 + e] || sin[mirror * 64 + e] != -sin[i * 64 + e]) return false;
    }
  return true;
}
static_assert(dino_t.st == posenc::status::ok && dinov3_table_exact(),
              "DINOv3 4 x 4, head dim 64: exact quarter turns at k = 0, rows mirrored through the centre");
// The laws on a 3 x 3 grid (coordinates -2/3, 0, 2/3; head dim 32): the centre row and column
// are at coordinate 0, the identity on their axis.
constexpr int dino_small_axes[] = {16, 16};
constexpr rope::nd_config dino_small = rope::dinov3_config(dino_small_axes);
constexpr bool dinov3_laws_hold() {
  std::array<double, 2 * 9> pos{};
  std::array<float, 9 * 32> cos{}, sin{};
  if (rope::dinov3_positions(3, 3, pos) != posenc::status::ok || pos[4] != 0.0) return false;
  if (rope::fill_nd_table<float>(dino_small, pos, cos, sin, rope::layout::half_split) != posenc::status::ok)
    return false;
  const laws::nd_view<float> v{&dino_small, pos, cos, sin, posenc::rotary_layout::half_split};
  return laws::axis_identity_at_zero(v).holds && laws::axis_relative_dot(v).holds;
}
static_assert(dinov3_laws_hold(), "DINOv3 3 x 3: identity at coordinate 0 and the per-axis relative law");

}  // namespace
