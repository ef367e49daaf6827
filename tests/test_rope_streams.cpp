// Multi-stream RoPE: M-RoPE (rope/mrope.hpp), its position ids (rope/mrope_positions.hpp), ND axial
// RoPE (rope/nd.hpp) and real positions (rope/real_position.hpp), against the MPFR oracle
// (verify/rope_oracle.hpp) at 0 ULP, and the laws of laws/streams/ (each shown able to fail).
// Expected stream maps and position ids are those derived in ../shared/reference/pe-formulas-more.md
// sections 1.3 and 1.4 from HF's and ggml's code.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <mpfr.h>

#include "posenc/laws/streams/axis_identity_at_zero.hpp"
#include "posenc/laws/streams/axis_relative_dot.hpp"
#include "posenc/laws/streams/text_rows.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/dinov3.hpp"
#include "posenc/rope/mrope.hpp"
#include "posenc/rope/mrope_positions.hpp"
#include "posenc/rope/nd.hpp"
#include "posenc/rope/real_position.hpp"
#include "posenc/verify/rope_oracle.hpp"

using namespace posenc;

namespace {

using math_pair = posenc::math::sincos_result<float>;

template <class T>
std::uint64_t bits_of(T x) {
  return static_cast<std::uint64_t>(posenc::detail::float_format<T>::to_bits(x));
}

std::string stream_map(const rope::mrope_config& c) {
  std::string s;
  for (int j = 0; j < rope::rotary_dim(c.text) / 2; ++j) s += "ETHW"[rope::mrope_stream(c, j) + 1];
  return s;
}

std::string repeat(const std::string& s, int n) {
  std::string r;
  for (int i = 0; i < n; ++i) r += s;
  return r;
}

// Qwen2.5-VL-like sequence: text, an image, text, a video (the worked example's grid).
std::vector<std::uint64_t> sample_positions(std::uint64_t& next) {
  const rope::mrope_segment seq[] = {
      {.tokens = 3},
      {.kind = rope::mrope_segment::image, .grid_t = 1, .grid_h = 4, .grid_w = 6},
      {.tokens = 2},
      {.kind = rope::mrope_segment::video, .grid_t = 3, .grid_h = 2, .grid_w = 2, .second_per_grid_t = 1.0},
      {.tokens = 2}};
  std::vector<std::uint64_t> pos(3 * rope::mrope_token_count(seq));
  const auto r = rope::mrope_positions(seq, {.temporal = rope::mrope_temporal::seconds, .tokens_per_second = 2}, pos);
  REQUIRE(r.ok());
  next = r.value;
  return pos;
}

// Entries of an expanded M-RoPE table (head 128, theta 1e6) that differ from the MPFR value of
// their pair's stream position, both copies of each pair in the element layout given.
template <class T>
std::uint64_t mrope_mismatches(const rope::mrope_config& c, const std::vector<std::uint64_t>& pos,
                               const std::vector<T>& cos, const std::vector<T>& sin, rope::layout elements) {
  const std::size_t n = pos.size() / 3, d = 128;
  std::uint64_t mismatches = 0;
  for (int j = 0; j < 64; ++j) {
    const int s = rope::mrope_stream(c, j);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t p = s < 0 ? 0 : pos[static_cast<std::size_t>(s) * n + i];
      const auto e = verify::cr_rope_sincos<T>(p, 1e6, j, 128);
      for (int t = 0; t < 2; ++t) {
        const std::size_t k = i * d + rope::pair_index(elements, static_cast<std::size_t>(j), t, d);
        mismatches += bits_of(cos[k]) != bits_of(e.cos) || bits_of(sin[k]) != bits_of(e.sin);
      }
    }
  }
  return mismatches;
}

template <class T>
void check_mrope_against_oracle(rope::mrope_layout layout, std::array<int, 3> section) {
  const rope::mrope_config c{.text = {.head_dim = 128, .rope_theta = 1e6}, .mrope_section = section, .layout = layout};
  std::uint64_t next = 0;
  const auto pos = sample_positions(next);
  const std::size_t n = pos.size() / 3, d = 128;
  std::vector<T> cos(n * d), sin(n * d);
  REQUIRE(rope::fill_mrope_table<T>(c, pos, cos, sin) == status::ok);
  CHECK(mrope_mismatches<T>(c, pos, cos, sin, rope::layout::half_split) == 0);
}

// The MPFR value of pair j at position p (head 128 unless d is given, base 1e6), each (p, j) once:
// a table of thousands of tokens reads a few hundred distinct positions.
template <class T>
struct memo_oracle {
  double base = 1e6;
  int d = 128;
  std::map<std::pair<std::uint64_t, int>, math::sincos_result<T>> seen;
  math::sincos_result<T> operator()(std::uint64_t p, int j) {
    const auto key = std::make_pair(p, j);
    const auto it = seen.find(key);
    if (it != seen.end()) return it->second;
    return seen[key] = verify::cr_rope_sincos<T>(p, base, j, d);
  }
};

// Entries of a compact M-RoPE table that differ from the MPFR value of their pair's stream position.
template <class T>
std::uint64_t mrope_pair_mismatches(const rope::mrope_config& c, const std::vector<std::uint64_t>& pos,
                                    const std::vector<math::sincos_result<T>>& out, memo_oracle<T>& oracle) {
  const std::size_t n = pos.size() / 3, pairs = static_cast<std::size_t>(rope::rotary_dim(c.text) / 2);
  std::uint64_t mismatches = 0;
  for (std::size_t j = 0; j < pairs; ++j) {
    const int s = rope::mrope_stream(c, static_cast<int>(j));
    for (std::size_t i = 0; i < n; ++i) {
      const auto e = oracle(s < 0 ? 0 : pos[static_cast<std::size_t>(s) * n + i], static_cast<int>(j));
      const auto& v = out[i * pairs + j];
      mismatches += bits_of(v.cos) != bits_of(e.cos) || bits_of(v.sin) != bits_of(e.sin);
    }
  }
  return mismatches;
}

}  // namespace

TEST_CASE("M-RoPE stream maps: sections, HF interleaved and ggml IMROPE", "[mrope]") {
  using L = rope::mrope_layout;
  const rope::config text{.head_dim = 128, .rope_theta = 1e6};
  // Qwen2-VL [16, 24, 24]: t for j < 16, h for j < 40, w after (HF mrope_section * 2 split).
  CHECK(stream_map({text, {16, 24, 24}, L::sections}) == repeat("T", 16) + repeat("H", 24) + repeat("W", 24));
  // Qwen3-VL [24, 20, 20] (pe-formulas-more.md 1.4): HF THW x 20 then TTTT, ggml THW x 20 then TEET.
  CHECK(stream_map({text, {24, 20, 20}, L::interleaved_hf}) == repeat("THW", 20) + "TTTT");
  CHECK(stream_map({text, {24, 20, 20}, L::interleaved_ggml}) == repeat("THW", 20) + "TEET");
  // Qwen3.5 [11, 11, 10] over 32 pairs (rotary dim 64 of head 256): both THW x 10 then TH.
  const rope::config q35{.head_dim = 256, .rope_theta = 1e7, .partial_rotary_factor = 0.25};
  CHECK(stream_map({q35, {11, 11, 10}, L::interleaved_hf}) == repeat("THW", 10) + "TH");
  CHECK(stream_map({q35, {11, 11, 10}, L::interleaved_ggml}) == repeat("THW", 10) + "TH");
}

TEST_CASE("M-RoPE tables are the MPFR values at each pair's stream position (0 ULP)", "[mrope][oracle]") {
  using L = rope::mrope_layout;
  check_mrope_against_oracle<float>(L::sections, {16, 24, 24});
  check_mrope_against_oracle<double>(L::sections, {16, 24, 24});
  check_mrope_against_oracle<bfloat16>(L::interleaved_hf, {24, 20, 20});
  check_mrope_against_oracle<float16>(L::interleaved_ggml, {24, 20, 20});
  check_mrope_against_oracle<float>(L::interleaved_ggml, {24, 20, 20});
}

TEST_CASE("M-RoPE of text alone (the 1D fill it takes) is the MPFR values (0 ULP)", "[mrope][oracle]") {
  // t = h = w = 7 + i: the fill hands the rows to the 1D engine; ggml's map with fourth-stream
  // pairs (Qwen3-VL's [24, 20, 20]: 61 and 62 read position 0) must not take that path, and
  // without them ([22, 21, 21]) it does.
  std::vector<std::uint64_t> pos(3 * 20);
  for (std::size_t i = 0; i < 20; ++i) pos[i] = pos[20 + i] = pos[40 + i] = 7 + i;
  using L = rope::mrope_layout;
  for (const auto& [layout, section] :
       {std::pair{L::sections, std::array{16, 24, 24}}, std::pair{L::interleaved_hf, std::array{24, 20, 20}},
        std::pair{L::interleaved_ggml, std::array{24, 20, 20}},
        std::pair{L::interleaved_ggml, std::array{22, 21, 21}}}) {
    const rope::mrope_config c{
        .text = {.head_dim = 128, .rope_theta = 1e6}, .mrope_section = section, .layout = layout};
    std::vector<math_pair> out(20 * 64);
    REQUIRE(rope::fill_mrope_pair_table<float>(c, pos, out) == status::ok);
    std::uint64_t mismatches = 0;
    for (std::size_t i = 0; i < 20; ++i)
      for (int j = 0; j < 64; ++j) {
        const auto e = verify::cr_rope_sincos<float>(rope::mrope_stream(c, j) < 0 ? 0 : 7 + i, 1e6, j, 128);
        const math_pair got = out[i * 64 + static_cast<std::size_t>(j)];
        mismatches += bits_of(got.cos) != bits_of(e.cos) || bits_of(got.sin) != bits_of(e.sin);
      }
    CHECK(mismatches == 0);
  }
}

// Text runs long enough to be filled as the 1D rows they equal (20 and 40 tokens), a short one
// that stays in the block around it (3), an image and a video block: with scratch and without, in
// both element layouts (the row kernels write a half-split row's first half and copy it, which
// must land in the run's own rows), every entry is the MPFR value of its stream's position.
template <class T>
void check_text_runs_against_oracle(rope::mrope_layout mlayout, rope::layout elements, bool with_scratch) {
  const rope::mrope_config c{
      .text = {.head_dim = 128, .rope_theta = 1e6}, .mrope_section = {16, 24, 24}, .layout = mlayout};
  const rope::mrope_segment seq[] = {{.tokens = 20},
                                     {.kind = rope::mrope_segment::image, .grid_h = 4, .grid_w = 6},
                                     {.tokens = 3},
                                     {.kind = rope::mrope_segment::video, .grid_t = 2, .grid_h = 2, .grid_w = 2},
                                     {.tokens = 40}};
  std::vector<std::uint64_t> pos(3 * rope::mrope_token_count(seq));
  REQUIRE(rope::mrope_positions(seq, {}, pos).ok());
  const std::size_t n = pos.size() / 3, d = 128;
  std::vector<T> cos(n * d), sin(n * d);
  std::vector<posenc::math::sincos_result<T>> scratch(with_scratch ? rope::mrope_scratch_size(c, pos) : 0);
  REQUIRE(rope::fill_mrope_table<T>(c, pos, cos, sin, scratch, elements) == status::ok);
  CHECK(mrope_mismatches<T>(c, pos, cos, sin, elements) == 0);
}

TEST_CASE("M-RoPE text runs between vision blocks are the MPFR values (0 ULP)", "[mrope][oracle]") {
  using L = rope::mrope_layout;
  for (const bool with_scratch : {true, false})
    for (const auto elements : {rope::layout::half_split, rope::layout::interleaved}) {
      CAPTURE(with_scratch, static_cast<int>(elements));
      check_text_runs_against_oracle<float>(L::sections, elements, with_scratch);
      check_text_runs_against_oracle<bfloat16>(L::interleaved_hf, elements, with_scratch);
      check_text_runs_against_oracle<float>(L::interleaved_ggml, elements, with_scratch);  // a fourth stream: no runs
    }
  check_text_runs_against_oracle<double>(L::sections, rope::layout::half_split, true);
}

TEST_CASE("M-RoPE position ids follow get_rope_index (the worked example of section 1.3)", "[mrope]") {
  // 3 text tokens, then a Qwen2.5-VL video with LLM grid (4, 2, 2) at 1 s per grid and 2 tokens per
  // second: text 0, 1, 2; the video t in {3, 5, 7, 9}, h and w in {3, 4}; the next text at 10.
  const rope::mrope_segment seq[] = {
      {.tokens = 3},
      {.kind = rope::mrope_segment::video, .grid_t = 4, .grid_h = 2, .grid_w = 2, .second_per_grid_t = 1.0}};
  std::vector<std::uint64_t> pos(3 * 19);
  const auto r = rope::mrope_positions(seq, {.temporal = rope::mrope_temporal::seconds, .tokens_per_second = 2}, pos);
  REQUIRE(r.ok());
  CHECK(r.value == 10);
  const std::vector<std::uint64_t> t(pos.begin(), pos.begin() + 19), h(pos.begin() + 19, pos.begin() + 38),
      w(pos.begin() + 38, pos.end());
  CHECK(t == std::vector<std::uint64_t>{0, 1, 2, 3, 3, 3, 3, 5, 5, 5, 5, 7, 7, 7, 7, 9, 9, 9, 9});
  CHECK(h == std::vector<std::uint64_t>{0, 1, 2, 3, 3, 4, 4, 3, 3, 4, 4, 3, 3, 4, 4, 3, 3, 4, 4});
  CHECK(w == std::vector<std::uint64_t>{0, 1, 2, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4, 3, 4});
  // PR #48669: 0.5 s per grid at 2 tokens per second steps by 1 (the truncated-first code gave 0).
  const rope::mrope_segment half[] = {
      {.kind = rope::mrope_segment::video, .grid_t = 4, .grid_h = 1, .grid_w = 1, .second_per_grid_t = 0.5}};
  std::vector<std::uint64_t> p2(12);
  REQUIRE(rope::mrope_positions(half, {.temporal = rope::mrope_temporal::seconds, .tokens_per_second = 2}, p2).ok());
  CHECK(std::vector<std::uint64_t>(p2.begin(), p2.begin() + 4) == std::vector<std::uint64_t>{0, 1, 2, 3});
  // Qwen2-VL: the temporal index; an image advances by max(H, W).
  const rope::mrope_segment img[] = {{.kind = rope::mrope_segment::image, .grid_h = 2, .grid_w = 3}, {.tokens = 1}};
  std::vector<std::uint64_t> p3(21);
  const auto r3 = rope::mrope_positions(img, {}, p3);
  REQUIRE(r3.ok());
  CHECK(p3[6] == 3);  // the text token after a 2 x 3 image starts at 0 + max(2, 3)
  CHECK(r3.value == 4);
  // seconds without tokens_per_second (HF's class default 4 vs the released 2): refused.
  CHECK(rope::mrope_positions(seq, {.temporal = rope::mrope_temporal::seconds}, pos).error == status::domain_error);
  CHECK(rope::mrope_positions(seq, {}, std::span<std::uint64_t>(pos).first(10)).error == status::domain_error);
}

TEST_CASE("M-RoPE text tokens hold the 1D RoPE row: the law holds and can fail", "[mrope][laws]") {
  using L = rope::mrope_layout;
  std::uint64_t next = 0;
  const auto pos = sample_positions(next);
  const std::size_t n = pos.size() / 3;
  for (const auto layout : {L::sections, L::interleaved_hf, L::interleaved_ggml}) {
    const rope::mrope_config c{
        .text = {.head_dim = 128, .rope_theta = 5e6}, .mrope_section = {24, 20, 20}, .layout = layout};
    std::vector<float> cos(n * 128), sin(n * 128);
    REQUIRE(rope::fill_mrope_table<float>(c, pos, cos, sin) == status::ok);
    const laws::mrope_view<float> v{&c, pos, cos, sin};
    const auto r = laws::mrope_text_rows(v);
    CHECK(r.holds);
    // 7 text tokens, and the first token of the image and of the video, at (s, s, s): the law's
    // rows are those with equal positions, whatever their modality.
    CHECK(r.checked == 9 * 128);
    CHECK(laws::axis_identity_at_zero(v).holds);
    CHECK(laws::axis_relative_dot(v).holds);
    // The text rows equal rope::fill_table's 1D rows at the same positions.
    std::vector<std::uint64_t> text_pos;
    std::vector<float> expect_c, got_c;
    for (std::size_t i = 0; i < n; ++i)
      if (pos[i] == pos[n + i] && pos[i] == pos[2 * n + i]) text_pos.push_back(pos[i]);
    std::vector<float> c1(text_pos.size() * 128), s1(text_pos.size() * 128);
    REQUIRE(rope::fill_table<float>(c.text, text_pos, c1, s1) == status::ok);
    std::size_t t = 0, differ = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (pos[i] == pos[n + i] && pos[i] == pos[2 * n + i]) {
        for (std::size_t k = 0; k < 128; ++k) {
          const bool on_e = rope::mrope_stream(c, static_cast<int>(k % 64)) < 0;
          if (!on_e) differ += bits_of(cos[i * 128 + k]) != bits_of(c1[t * 128 + k]);
        }
        ++t;
      }
    CHECK(differ == 0);
    // A text row off by one position fails the law, named at its position.
    std::vector<float> bad_text = cos;
    for (std::size_t k = 0; k < 128; ++k) bad_text[1 * 128 + k] = cos[2 * 128 + k];  // text token 1 gets token 2's row
    const auto f = laws::mrope_text_rows(laws::mrope_view<float>{&c, pos, bad_text, sin});
    CHECK_FALSE(f.holds);
    CHECK(f.first_failure.position == 1);
  }
  // ggml's fourth stream: Qwen3-VL's pairs 61 and 62 sit at position 0 in every row.
  const rope::mrope_config g{
      .text = {.head_dim = 128, .rope_theta = 5e6}, .mrope_section = {24, 20, 20}, .layout = L::interleaved_ggml};
  std::vector<float> cos(n * 128), sin(n * 128);
  REQUIRE(rope::fill_mrope_table<float>(g, pos, cos, sin) == status::ok);
  for (std::size_t i = 0; i < n; ++i) {
    CHECK(cos[i * 128 + 61] == 1.0f);
    CHECK(sin[i * 128 + 62] == 0.0f);
  }
}

TEST_CASE("Real positions: fractional and negative positions are the MPFR values (0 ULP)", "[nd][oracle]") {
  const rope::config c{.head_dim = 64, .rope_theta = 10000.0};
  for (const double p : {0.5, -0.5, 1.25, -3.0, 1e-9, 0.1, 2097151.75, -2097152.0, 12345.6789})
    for (const int j : {0, 1, 7, 31}) {
      const auto got = rope::sincos_at<double>(c, p, j);
      REQUIRE(got.ok());
      const auto e = verify::cr_rope_sincos_at<double>(p, 10000.0, j, 64);
      CHECK(bits_of(got.value.cos) == bits_of(e.cos));
      CHECK(bits_of(got.value.sin) == bits_of(e.sin));
      const auto gf = rope::sincos_at<float>(c, p, j);
      const auto ef = verify::cr_rope_sincos_at<float>(p, 10000.0, j, 64);
      CHECK(bits_of(gf.value.sin) == bits_of(ef.sin));
      CHECK(bits_of(gf.value.cos) == bits_of(ef.cos));
    }
  // Integers go through the integer path: the same bits as rope::sincos.
  CHECK(bits_of(rope::sincos_at<float>(c, 4096.0, 3).value.sin) == bits_of(rope::sincos<float>(c, 4096, 3).value.sin));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(rope::sincos_at<float>(c, nan, 0).error == status::domain_error);
  CHECK(rope::sincos_at<float>(c, 4194304.0, 0).error == status::domain_error);
}

TEST_CASE("ND axial RoPE (FLUX EmbedND): entries are the MPFR values per axis (0 ULP)", "[nd][oracle]") {
  static constexpr int axes[] = {16, 56, 56};
  const rope::nd_config flux{.axes_dim = axes, .rope_theta = 10000.0};
  REQUIRE(rope::nd_rotary_dim(flux) == 128);
  // Tokens: two text tokens at (0, 0, 0), a 3 x 4 image at (0, r, c), a Kontext token at (1, 2, 3),
  // and EVA-02-style fractional and negative positions.
  std::vector<double> a0, a1, a2;
  for (int i = 0; i < 2; ++i) a0.push_back(0), a1.push_back(0), a2.push_back(0);
  for (int r = 0; r < 3; ++r)
    for (int col = 0; col < 4; ++col) a0.push_back(0), a1.push_back(r), a2.push_back(col);
  a0.push_back(1), a1.push_back(2), a2.push_back(3);
  a0.push_back(0.5), a1.push_back(-1.5), a2.push_back(31.75);
  std::vector<double> pos = a0;
  pos.insert(pos.end(), a1.begin(), a1.end());
  pos.insert(pos.end(), a2.begin(), a2.end());
  const std::size_t n = a0.size();
  std::vector<float> cos(n * 128), sin(n * 128);
  REQUIRE(rope::fill_nd_table<float>(flux, pos, cos, sin) == status::ok);
  std::uint64_t mismatches = 0;
  for (int j = 0; j < 64; ++j) {
    const int axis = j < 8 ? 0 : (j < 36 ? 1 : 2), k = j < 8 ? j : (j < 36 ? j - 8 : j - 36);
    for (std::size_t i = 0; i < n; ++i) {
      const auto e =
          verify::cr_rope_sincos_at<float>(pos[static_cast<std::size_t>(axis) * n + i], 10000.0, k, axes[axis]);
      for (const std::size_t el : {std::size_t(2 * j), std::size_t(2 * j + 1)})  // interleaved
        mismatches += bits_of(cos[i * 128 + el]) != bits_of(e.cos) || bits_of(sin[i * 128 + el]) != bits_of(e.sin);
    }
  }
  CHECK(mismatches == 0);
  const laws::nd_view<float> v{&flux, pos, cos, sin};
  const auto z = laws::axis_identity_at_zero(v);
  CHECK(z.holds);
  CHECK(z.checked > 0);
  const auto rd = laws::axis_relative_dot(v);
  CHECK(rd.holds);
  CHECK(rd.checked > 0);
  // A text token rotated (sin not +0) fails identity at zero; a row at a shifted position fails
  // the per-axis relative law.
  auto bad = sin;
  bad[0 * 128 + 20] = 0x1p-30f;
  const auto zf = laws::axis_identity_at_zero(laws::nd_view<float>{&flux, pos, cos, bad});
  CHECK_FALSE(zf.holds);
  CHECK(zf.first_failure.pair == 10);
  auto shifted_pos = pos;
  shifted_pos[n + 5] += 1;  // the table says row 1, the positions say row 2: the table is wrong
  const auto rf = laws::axis_relative_dot(laws::nd_view<float>{&flux, shifted_pos, cos, sin});
  CHECK_FALSE(rf.holds);
}

// The entries of a two-axis ND table (EVA-02: head 64, axes {32, 32}, theta 1e4) at grid
// positions, against MPFR: every storage type, compact rows without scratch (stack windows at run
// time) and with, expanded rows in both layouts.
template <class T>
std::size_t nd_grid_mismatches(const rope::nd_config& c, const std::vector<double>& pos) {
  const std::size_t n = pos.size() / 2;
  std::vector<math::sincos_result<T>> bare(n * 32), with(n * 32), scratch(rope::nd_scratch_size(c, pos));
  std::vector<T> hc(n * 64), hs(n * 64), ic(n * 64), is(n * 64);
  REQUIRE(rope::fill_nd_pair_table<T>(c, pos, bare) == status::ok);
  REQUIRE(rope::fill_nd_pair_table<T>(c, pos, with, scratch) == status::ok);
  REQUIRE(rope::fill_nd_table<T>(c, pos, hc, hs, rope::layout::half_split) == status::ok);
  REQUIRE(rope::fill_nd_table<T>(c, pos, ic, is, rope::layout::interleaved) == status::ok);
  std::size_t bad = 0;
  for (std::size_t j = 0; j < 32; ++j)
    for (std::size_t i = 0; i < n; ++i) {
      const auto e = verify::cr_rope_sincos_at<T>(pos[(j / 16) * n + i], 1e4, static_cast<int>(j % 16), 32);
      const auto off = [&](const math::sincos_result<T>& x) {
        return bits_of(x.sin) != bits_of(e.sin) || bits_of(x.cos) != bits_of(e.cos);
      };
      bad += static_cast<std::size_t>(off(bare[i * 32 + j])) + static_cast<std::size_t>(off(with[i * 32 + j]));
      for (const std::size_t k : {i * 64 + j, i * 64 + j + 32})
        bad += bits_of(hc[k]) != bits_of(e.cos) || bits_of(hs[k]) != bits_of(e.sin);
      for (const std::size_t k : {i * 64 + 2 * j, i * 64 + 2 * j + 1})
        bad += bits_of(ic[k]) != bits_of(e.cos) || bits_of(is[k]) != bits_of(e.sin);
    }
  return bad;
}

TEST_CASE("ND tables at fractional and negative grid positions (EVA-02) are the MPFR values (0 ULP)", "[nd][oracle]") {
  // Positions n 2^-s take the 1D row kernels as integer positions n of the axis config with its
  // frequencies divided by 2^s (rope/nd.hpp, grid_axis); a negative one negates sin. Positions off
  // any such grid but near a progression r h take them at step h theta_k, their deviations from r h
  // in the test's bound (near_grid_axis) or, in doubles, each row turned by its own offset
  // cis(delta_r theta_k) where |delta_r theta_k| <= 2^-30 (sincos_table_rows_double.hpp). A 12 x 12 grid at
  // i * 0.75 (EVA-02's i * pt / ft), the same grid centred, (i - 5.5) / 4; off any grid: i * 16 / 14
  // and i / 24 * 16 (EVA-02 at pt / ft = 2 / 3) in doubles, (i - 5.5) * (2 / 3), i * 0.1, and rows
  // at 2i / 3 whose columns are i * (2 / 3): the same grid points rounded two ways, so some tokens
  // differ from their row's first in the last bit and take their own scalar entries; rows at
  // 1000.25 and 1000.2505 (one row, r = 1, 2^-21 h apart), whose second tokens' values differ; and
  // (i - 5.5) 2^-23, where float16's sin underflows: -0 at a negative position, not +0; and
  // 100 i + 6e-8 i^2, whose deviations (up to 6.6e-6) put delta_r theta_k above 2^-30 in the high
  // frequencies (those columns of a double table take the scalar entries) and below in the low.
  static constexpr int axes[] = {32, 32};
  const rope::nd_config eva{.axes_dim = axes, .rope_theta = 1e4};
  for (const int shape : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
    std::vector<double> pos(2 * 144);
    for (std::size_t r = 0; r < 12; ++r)
      for (std::size_t col = 0; col < 12; ++col) {
        const auto at = [shape](std::size_t i, bool column) {
          const double x = static_cast<double>(i);
          switch (shape) {
            case 0: return x * 0.75;
            case 1: return (x - 5.5) / 4;
            case 2: return x * 16.0 / 14.0;
            case 3: return x / 24 * 16;
            case 4: return (x - 5.5) * (2.0 / 3);
            case 5: return x * 0.1;
            case 6: return column ? x * (2.0 / 3) : 2 * x / 3;
            case 7: return column ? x * 0.1 : i % 2 == 0 ? 1000.25 : 1000.2505;
            case 8: return (x - 5.5) * 0x1p-23;  // tiny: float16's sin underflows to -0 at negative x
            default: return x * 100 + 6e-8 * x * x;
          }
        };
        pos[r * 12 + col] = at(r, false), pos[144 + r * 12 + col] = at(col, true);
      }
    INFO("shape " << shape);
    CHECK(rope::nd_scratch_size(eva, pos) == (shape == 0   ? 34 * 16
                                              : shape == 1 ? 11 * 16
                                                           : 0));  // n = 0 .. 33; 1 .. 11
    CHECK(nd_grid_mismatches<float>(eva, pos) == 0);
    CHECK(nd_grid_mismatches<double>(eva, pos) == 0);
    CHECK(nd_grid_mismatches<bfloat16>(eva, pos) == 0);
    CHECK(nd_grid_mismatches<float16>(eva, pos) == 0);
    if (shape >= 2) {  // near a progression, and the bound on the deviations holds (MPFR, exactly)
      for (std::size_t a = 0; a < 2; ++a) {
        rope::detail::near_grid g{};
        REQUIRE(rope::detail::near_grid_axis(pos.data() + a * 144, 144, g));
        mpfr_t d;
        mpfr_init2(d, 256);
        for (std::size_t i = 0; i < 144; ++i) {
          const double x = std::fabs(pos[a * 144 + i]);
          mpfr_set_d(d, g.h, MPFR_RNDN);
          mpfr_mul_ui(d, d, static_cast<unsigned long>(g.row(x)), MPFR_RNDN);
          mpfr_d_sub(d, x, d, MPFR_RNDN);  // exact at 256 bits
          CHECK(std::fabs(mpfr_get_d(d, MPFR_RNDU)) <= g.max_delta);
        }
        mpfr_clear(d);
      }
    }
  }
}

TEST_CASE("ND tables in turns (DINOv3) near a progression are the MPFR values (0 ULP)", "[nd][oracle]") {
  // DINOv3's coordinates (2i + 1) / H - 1, H = 14 and 16 (off any grid for 14), and i / 8 (a grid,
  // with quarter turns whose zeros must stay +0 at negative positions: -i / 8 too; and tiny
  // positions, whose float16 sin underflows to -0 at negative ones) take the row
  // kernels at step 2 pi h theta_k (rope/nd.hpp, near_grid_axis; doubles turn each row by its
  // offset): each entry against MPFR, in every storage type, compact and expanded.
  static constexpr int axes[] = {32, 32};
  const rope::nd_config dino{.axes_dim = axes, .rope_theta = 100.0, .angle = rope::angle_unit::turns};
  for (const int shape : {14, 16, 8, 0}) {
    const std::size_t side = shape == 8 ? 17 : shape == 0 ? 12 : static_cast<std::size_t>(shape), n = side * side;
    std::vector<double> pos(2 * n);
    for (std::size_t r = 0; r < side; ++r)
      for (std::size_t col = 0; col < side; ++col) {
        const auto at = [shape](std::size_t i) {
          const double x = static_cast<double>(i);
          if (shape == 0) return (x - 5.5) * 0x1p-23;  // float16's sin underflows: -0 at a negative x
          return shape == 8 ? (x - 8) / 8 : rope::dinov3_coord(i, static_cast<std::size_t>(shape));
        };
        pos[r * side + col] = at(r), pos[n + r * side + col] = at(col);
      }
    INFO("shape " << shape);
    const auto mismatches = [&](auto tag) {
      using T = decltype(tag);
      std::vector<math::sincos_result<T>> out(n * 32);
      std::vector<T> c(n * 64), s(n * 64);
      REQUIRE(rope::fill_nd_pair_table<T>(dino, pos, out) == status::ok);
      REQUIRE(rope::fill_nd_table<T>(dino, pos, c, s, rope::layout::half_split) == status::ok);
      std::size_t bad = 0;
      for (std::size_t j = 0; j < 32; ++j)
        for (std::size_t i = 0; i < n; ++i) {
          const auto e = verify::cr_rope_turns_sincos_at<T>(pos[(j / 16) * n + i], 100.0, static_cast<int>(j % 16), 32);
          const auto& x = out[i * 32 + j];
          bad += bits_of(x.sin) != bits_of(e.sin) || bits_of(x.cos) != bits_of(e.cos);
          for (const std::size_t k : {i * 64 + j, i * 64 + j + 32})
            bad += bits_of(c[k]) != bits_of(e.cos) || bits_of(s[k]) != bits_of(e.sin);
        }
      return bad;
    };
    CHECK(mismatches(float{}) == 0);
    CHECK(mismatches(double{}) == 0);
    CHECK(mismatches(bfloat16{}) == 0);
    CHECK(mismatches(float16{}) == 0);
    rope::detail::near_grid g{};
    CHECK(rope::detail::near_grid_axis(pos.data(), n, g));
  }
}

// Every entry of a two-axis ND table (axes {32, 32}, theta 1e4, radians or turns) against MPFR, in
// compact rows and in both expanded layouts; positions axis-major.
template <class T>
std::size_t nd_mismatches(const rope::nd_config& c, const std::vector<double>& pos) {
  const std::size_t n = pos.size() / 2;
  std::vector<math::sincos_result<T>> out(n * 32);
  std::vector<T> hc(n * 64), hs(n * 64), ic(n * 64), is(n * 64);
  REQUIRE(rope::fill_nd_pair_table<T>(c, pos, out) == status::ok);
  REQUIRE(rope::fill_nd_table<T>(c, pos, hc, hs, rope::layout::half_split) == status::ok);
  REQUIRE(rope::fill_nd_table<T>(c, pos, ic, is, rope::layout::interleaved) == status::ok);
  const bool turns = c.angle == rope::angle_unit::turns;
  std::size_t bad = 0;
  for (std::size_t j = 0; j < 32; ++j)
    for (std::size_t i = 0; i < n; ++i) {
      const double x = pos[(j / 16) * n + i];
      const int k = static_cast<int>(j % 16);
      const auto e = turns ? verify::cr_rope_turns_sincos_at<T>(x, c.rope_theta, k, 32)
                           : verify::cr_rope_sincos_at<T>(x, c.rope_theta, k, 32);
      const auto& v = out[i * 32 + j];
      bad += bits_of(v.sin) != bits_of(e.sin) || bits_of(v.cos) != bits_of(e.cos);
      for (const std::size_t el : {i * 64 + j, i * 64 + j + 32})
        bad += bits_of(hc[el]) != bits_of(e.cos) || bits_of(hs[el]) != bits_of(e.sin);
      for (const std::size_t el : {i * 64 + 2 * j, i * 64 + 2 * j + 1})
        bad += bits_of(ic[el]) != bits_of(e.cos) || bits_of(is[el]) != bits_of(e.sin);
    }
  return bad;
}

TEST_CASE(
    "ND axes whose rows never go back along the tokens: one fill into the tokens' rows is the MPFR values (0 ULP)",
    "[nd][oracle]") {
  // At run time an axis whose row index (|x| on its grid, or its row near a progression) never
  // decreases along the tokens takes one fill of the row kernels over its rows, each row written
  // straight into the rows of the tokens at it (rope/detail/token_rows.hpp), where every token
  // has its own row (a 1D stream on an axis) or W tokens do (a grid's row axis). Axis 0 takes the
  // shapes below; axis 1 is (i mod 7) / 8 (windows). Shapes: integers i from -0.0; -i (|x| grows, sin
  // negated); i * 0.75 and -(i / 4) (grids of 2^-2); floor(i / 3) (rows read by three tokens); off
  // any grid i * 16 / 14 and -(i * 2 / 3); rows at (k + 1) * 0.1 whose second
  // token sits one ulp above (its own scalar entries after the fill); 100 i + 6e-8 (i mod 12)^2
  // (some columns' offsets too large for the double kernel: scalar entries there). In turns (DINOv3's
  // angle): -(i / 64), whose exact quarter turns keep sin +0 at negative positions, and i * 0.01.
  const std::size_t n = 150;
  static constexpr int axes[] = {32, 32};
  for (const bool turns : {false, true})
    for (int shape = 0; shape < (turns ? 2 : 9); ++shape) {
      const rope::nd_config c{.axes_dim = axes,
                              .rope_theta = turns ? 100.0 : 1e4,
                              .angle = turns ? rope::angle_unit::turns : rope::angle_unit::radians};
      std::vector<double> pos(2 * n);
      for (std::size_t i = 0; i < n; ++i) {
        const double x = static_cast<double>(i);
        double p = 0;
        if (turns) {
          p = shape == 0 ? -(x / 64) : x * 0.01;  // |p| < 2.5: base 100's quarter turns (rope/turns.hpp)
        } else {
          switch (shape) {
            case 0: p = i == 0 ? -0.0 : x; break;
            case 1: p = -x; break;
            case 2: p = x * 0.75; break;
            case 3: p = -(x / 4); break;
            case 4: p = static_cast<double>(i / 3); break;
            case 5: p = x * 16.0 / 14.0; break;
            case 6: p = -(x * 2.0 / 3); break;
            case 7:
              p = i % 2 == 0 ? static_cast<double>(i / 2) * 0.1 + 0.1
                             : std::nextafter(static_cast<double>(i / 2) * 0.1 + 0.1, 1e9);
              break;
            default: p = x * 100 + 6e-8 * static_cast<double>((i % 12) * (i % 12)); break;
          }
        }
        pos[i] = p;
        pos[n + i] = static_cast<double>(i % 7) / 8;
      }
      INFO("turns " << turns << " shape " << shape);
      // The axis's rows never go back (on its grid or near its progression), and one fill pays.
      rope::detail::near_grid g{};
      rope::detail::axis_grid on{};
      // Each token its own row, in steps of one (the walk's shortcut), but for i * 0.75 (n = 3i),
      // floor(i / 3) and the rows read by two tokens (shapes 2, 4, 7).
      using rope::detail::row_order;
      const row_order expected =
          !turns && (shape == 2 || shape == 4 || shape == 7) ? row_order::nondecreasing : row_order::consecutive;
      if (!turns && rope::detail::grid_axis(pos, n, 0, on)) {
        CHECK(on.order == expected);
        CHECK(rope::detail::direct_rows_pay(on.lo, on.hi, n));
        // Axis 1, (i mod 7) / 8, goes back every 7 tokens: the windows' path.
        REQUIRE(rope::detail::grid_axis(pos, n, 1, on));
        CHECK(on.order == row_order::goes_back);
        CHECK_FALSE(on.progression);
      } else {
        REQUIRE(rope::detail::near_grid_axis(pos.data(), n, g));
        CHECK(g.order == expected);
        CHECK(rope::detail::direct_rows_pay(g.lo, g.hi, n));
      }
      CHECK(nd_mismatches<float>(c, pos) == 0);
      CHECK(nd_mismatches<double>(c, pos) == 0);
      CHECK(nd_mismatches<bfloat16>(c, pos) == 0);
      CHECK(nd_mismatches<float16>(c, pos) == 0);
    }
  // Positions near a progression of step 2^-1000: below the 2^-900 near_grid_axis takes (its
  // deviation bound assumes normal products), so the scalar entries, still correctly rounded.
  {
    std::vector<double> tiny(2 * n);
    for (std::size_t i = 0; i < n; ++i)
      tiny[i] = static_cast<double>(i) * 0x1p-1000 * 1.1, tiny[n + i] = static_cast<double>(i % 7) / 8;
    rope::detail::near_grid g{};
    CHECK_FALSE(rope::detail::near_grid_axis(tiny.data(), n, g));
    const rope::nd_config c{.axes_dim = axes, .rope_theta = 1e4};
    CHECK(nd_mismatches<float>(c, tiny) == 0);
    CHECK(nd_mismatches<double>(c, tiny) == 0);
  }
  // Long: 4096 tokens at their own rows, in doubles (the windows' limit made these scalar before:
  // rows past 4 x width windows), integer and off any grid, against MPFR at every 5th token.
  const std::size_t m = 4096;
  for (const bool off : {false, true}) {
    std::vector<double> pos(2 * m);
    for (std::size_t i = 0; i < m; ++i)
      pos[i] = off ? static_cast<double>(i) * 16.0 / 14.0 : static_cast<double>(i), pos[m + i] = 0;
    const rope::nd_config c{.axes_dim = axes, .rope_theta = 1e4};
    std::vector<math::sincos_result<double>> out(m * 32);
    REQUIRE(rope::fill_nd_pair_table<double>(c, pos, out) == status::ok);
    std::size_t bad = 0;
    for (std::size_t i = 0; i < m; i += 5)
      for (int k = 0; k < 16; ++k) {
        const auto e = verify::cr_rope_sincos_at<double>(pos[i], 1e4, k, 32);
        const auto& v = out[i * 32 + static_cast<std::size_t>(k)];
        bad += bits_of(v.sin) != bits_of(e.sin) || bits_of(v.cos) != bits_of(e.cos);
      }
    INFO("off grid " << off);
    CHECK(bad == 0);
  }
}

TEST_CASE("ND grid axes: the least grid, the rows' range, order and progression, with a finer position anywhere",
          "[nd]") {
  // grid_axis takes n = |x| 2^shift in one pass at the shift found so far; a position finer than
  // that raises the shift and scales the rows seen before it. Each case's grid, range, order and
  // progression (n = first + step i) worked by hand: e.g. {0, 1, 1.5} is on the grid of halves,
  // n = 0, 2, 3 (no longer steps of one, nor a progression).
  using rope::detail::row_order;
  struct grid_case {
    std::vector<double> x;
    bool on_grid;
    int shift;
    std::uint64_t lo, hi;
    row_order order;
    bool progression;
    std::uint64_t first, step;
  };
  constexpr double big = 1048576.0;  // 2^20
  constexpr auto last = static_cast<std::uint64_t>(2 * big);
  constexpr auto goes_back = row_order::goes_back;
  const grid_case cases[] = {
      {{0, 1, 2, 3}, true, 0, 0, 3, row_order::consecutive, true, 0, 1},
      {{0, 0.5, 1, 1.5}, true, 1, 0, 3, row_order::consecutive, true, 0, 1},  // finer at token 1: no step yet
      {{0, 1, 1.5}, true, 1, 0, 3, row_order::nondecreasing, false, 0, 2},    // n = 0, 2, 3
      {{0, 1, 2, 2.5}, true, 1, 0, 5, row_order::nondecreasing, false, 0, 2},
      {{0, 1, 2, 3.5}, true, 1, 0, 7, row_order::nondecreasing, false, 0, 2},  // n = 0, 2, 4, 7
      {{1.5, 3}, true, 1, 3, 6, row_order::nondecreasing, true, 3, 3},
      {{7, 7, 7}, true, 0, 7, 7, row_order::nondecreasing, true, 7, 0},  // held at 7: step 0
      {{2, 5, 8, 11}, true, 0, 2, 11, row_order::nondecreasing, true, 2, 3},
      {{-2, -5, 8}, true, 0, 2, 8, row_order::nondecreasing, true, 2, 3},          // |x|
      {{0.5, 0.25}, true, 2, 1, 2, goes_back, false, 2, 0},                        // n = 2, 1
      {{-3, 0.125, 4}, true, 3, 1, 32, goes_back, false, 24, 0},                   // n = 24, 1, 32
      {{-0.0, -0.75, -1.5}, true, 2, 0, 6, row_order::nondecreasing, true, 0, 3},  // |x|: n = 0, 3, 6
      {{big, 0.5}, true, 1, 1, last, goes_back, false, last, 0},                   // 2^21: the last row
      {{big, 0.25}, false, 0, 0, 0, goes_back, false, 0, 0},                       // 2^20 in quarters: 2^22
      {{0.5, 2 * big}, false, 0, 0, 0, goes_back, false, 0, 0},                    // 2^21 in halves
      {{1, 0x1p-22}, false, 0, 0, 0, goes_back, false, 0, 0},                      // finer than 2^-21
      {{0, 4 * big}, false, 0, 0, 0, goes_back, false, 0, 0},                      // past 2^21
      {{0, std::nan("")}, false, 0, 0, 0, goes_back, false, 0, 0},
      {{0, -HUGE_VAL}, false, 0, 0, 0, goes_back, false, 0, 0},
  };
  for (const grid_case& g : cases) {
    rope::detail::axis_grid on{};
    on.shift = -1;
    INFO("first position " << g.x[0] << ", second " << g.x[1]);
    REQUIRE(rope::detail::grid_axis(g.x, g.x.size(), 0, on) == g.on_grid);
    if (!g.on_grid) continue;
    CHECK(on.shift == g.shift);
    CHECK(on.lo == g.lo);
    CHECK(on.hi == g.hi);
    CHECK(on.order == g.order);
    CHECK(on.progression == g.progression);
    CHECK(on.first == g.first);
    if (g.progression) CHECK(on.step == g.step);
  }
}

namespace {

// Axis-major positions of N tokens on two axes (three for shapes 2 and 5). Shapes 0-4: each axis a
// progression on its grid, n = first + step i (every token its own row, or all at one). 9, 10, 12:
// axes near a progression off any grid (EVA-02's i / 24 * 16, i * 0.1; in 12 every third position
// is 1e-10 off its row, which the walk's bound must take: without it 3 entries differ). 5-8 and
// 11, not quite: a descending axis, a coordinate negative, an axis that wraps, an axis held at 0,
// an axis off any grid held at one row. The first axes x N are the table's.
template <std::size_t N>
constexpr std::array<double, 3 * N> progression_positions(int shape) {
  std::array<double, 3 * N> p{};
  for (std::size_t i = 0; i < N; ++i) {
    const double x = static_cast<double>(i);
    if (shape == 0) p[i] = x, p[N + i] = x;              // (i, i)
    if (shape == 1) p[i] = x / 2, p[N + i] = 3 + x / 4;  // n = i and 12 + i
    if (shape == 2) p[i] = x + 5, p[N + i] = i == 0 ? -0.0 : x, p[2 * N + i] = x / 8 + 1000;
    if (shape == 3) p[i] = x, p[N + i] = x * 3 + 0.5;                           // n = i; 6i + 1 in halves
    if (shape == 4) p[i] = 7, p[N + i] = x * 0.75;                              // held at 7; n = 3i
    if (shape == 5) p[i] = x * 1000, p[N + i] = 2000000 - x, p[2 * N + i] = x;  // not ordered: axis 1
    if (shape == 6) p[i] = x, p[N + i] = i == 7 ? -7.0 : x;
    if (shape == 7) p[i] = x, p[N + i] = static_cast<double>(i % 7);
    if (shape == 8) p[i] = 0, p[N + i] = x;
    if (shape == 9) p[i] = x / 24 * 16, p[N + i] = x * 0.1;
    if (shape == 10) p[i] = x / 2, p[N + i] = 0.1 + x * 0.2;  // rows 1 + 2i of 0.1
    if (shape == 11) p[i] = 0.1, p[N + i] = x;
    if (shape == 12) p[i] = x, p[N + i] = x * 0.1 + (i % 3 == 2 ? 1e-10 : 0.0);  // 1e-10 off its row
  }
  return p;
}

}  // namespace

TEST_CASE("ND tables whose axes are progressions: whole rows in constant evaluation, the run-time bits", "[nd]") {
  // In constant evaluation (compact float, radians) an ND table whose every axis is a progression
  // n = first + step i on its grid (not held at 0), or near a progression off any grid with its
  // own row a token, at positions >= 0, is one fill of the row kernel over whole token rows, each
  // column walking its own progression (rope/nd.hpp, fill_progression_axes;
  // sincos_table_rows_constexpr.hpp, has_column_progressions). Shapes 5-8 and 11 look alike and
  // must not take it; every shape gives the run-time bits.
  static constexpr int two[] = {64, 64}, three[] = {16, 56, 56};
  static constexpr rope::nd_config c2{.axes_dim = two, .rope_theta = 1e4};
  static constexpr rope::nd_config c3{.axes_dim = three, .rope_theta = 1e4};
  static constexpr std::size_t n = 80;
  static constexpr auto config_of = [](int shape) -> const rope::nd_config& {
    return shape == 2 || shape == 5 ? c3 : c2;
  };
  static constexpr auto ct = [](int shape) {
    std::array<math_pair, n * 64> t{};
    const auto p = progression_positions<n>(shape);
    const rope::nd_config& c = config_of(shape);
    static_cast<void>(rope::fill_nd_pair_table<float>(c, std::span(p).first(c.axes_dim.size() * n), t));
    return t;
  };
  static constexpr auto takes = [](int shape) {  // whether the whole-row fill takes the table
    std::array<math_pair, n * 64> t{};
    const rope::nd_config& c = config_of(shape);
    const std::size_t axes = c.axes_dim.size();
    const auto all = progression_positions<n>(shape);
    const std::span<const double> p = std::span(all).first(axes * n);
    const rope::detail::nd_axes_found found = rope::detail::find_axes(c, p, n);
    rope::detail::table_dest<float> dest{nullptr, nullptr, t.data(), 64, rope::layout::half_split};
    status st = status::ok;
    return rope::detail::fill_progression_axes<float>(c, found, p, n, dest, st) && st == status::ok;
  };
  static_assert(takes(0) && takes(1) && takes(2) && takes(3) && takes(4), "every axis a progression: whole rows");
  static_assert(takes(9) && takes(10) && takes(12), "axes near a progression off any grid: whole rows");
  static_assert(!takes(5) && !takes(6) && !takes(7) && !takes(8) && !takes(11),
                "descending, negative, wrapping, held at 0, held off any grid");
  static constexpr auto t0 = ct(0), t1 = ct(1), t2 = ct(2), t3 = ct(3), t4 = ct(4), t5 = ct(5), t6 = ct(6), t7 = ct(7),
                        t8 = ct(8), t9 = ct(9), t10 = ct(10), t11 = ct(11), t12 = ct(12);
  const std::array<math_pair, n * 64>* const tables[] = {&t0, &t1, &t2, &t3,  &t4,  &t5, &t6,
                                                         &t7, &t8, &t9, &t10, &t11, &t12};
  for (int shape = 0; shape < 13; ++shape) {
    std::vector<math_pair> rt(n * 64);
    const auto p = progression_positions<n>(shape);
    const rope::nd_config& c = config_of(shape);
    REQUIRE(rope::fill_nd_pair_table<float>(c, std::span(p).first(c.axes_dim.size() * n), rt) == status::ok);
    std::size_t differ = 0;
    for (std::size_t e = 0; e < rt.size(); ++e) {
      const math_pair& x = (*tables[static_cast<std::size_t>(shape)])[e];
      differ += bits_of(rt[e].sin) != bits_of(x.sin) || bits_of(rt[e].cos) != bits_of(x.cos);
    }
    INFO("shape " << shape);
    CHECK(differ == 0);
  }
  // The kernel with column progressions over more rows than one block of its walk (2048: a second
  // anchor a column, on its own progression), run at run time: the run-time fill's bits, for
  // (i / 2, 3 + i / 4), (i, 3 i + 0.5) and (i / 2, 0.1 + i * 0.2), the last off any grid.
  static constexpr std::size_t m = 2100;
  for (const int shape : {1, 3, 10}) {
    const auto p = progression_positions<m>(shape);
    const std::span<const double> pos = std::span(p).first(2 * m);
    std::vector<math_pair> whole(m * 64), rt(m * 64);
    const rope::detail::nd_axes_found found = rope::detail::find_axes(c2, pos, m);
    REQUIRE(rope::detail::progression_axes(c2, found, pos));
    std::vector<math::frequency_value> theta(64);
    rope::detail::table_dest<float> dest{nullptr, nullptr, whole.data(), 64, rope::layout::half_split};
    REQUIRE(rope::detail::fill_progression_rows(c2, found, pos, m, dest, theta.data()) == status::ok);
    REQUIRE(rope::fill_nd_pair_table<float>(c2, pos, rt) == status::ok);
    std::size_t differ = 0;
    for (std::size_t e = 0; e < rt.size(); ++e)
      differ += bits_of(rt[e].sin) != bits_of(whole[e].sin) || bits_of(rt[e].cos) != bits_of(whole[e].cos);
    INFO("shape " << shape);
    CHECK(differ == 0);
  }
}

TEST_CASE("Multi-stream tables: constant evaluation gives the run-time bits", "[mrope][nd]") {
  static constexpr rope::mrope_config q3{.text = {.head_dim = 64, .rope_theta = 5e6},
                                         .mrope_section = {12, 10, 10},
                                         .layout = rope::mrope_layout::interleaved_hf};
  static constexpr std::array<std::uint64_t, 12> pos{0, 1, 5, 9, 0, 1, 6, 7, 0, 1, 5, 8};
  static constexpr auto ct = [] {
    std::array<float, 4 * 64> c{}, s{};
    static_cast<void>(rope::fill_mrope_table<float>(q3, pos, c, s));
    return std::array<std::array<float, 4 * 64>, 2>{c, s};
  }();
  static_assert(laws::mrope_text_rows(laws::mrope_view<float>{&q3, pos, ct[0], ct[1]}).holds);
  std::vector<float> c(4 * 64), s(4 * 64);
  REQUIRE(rope::fill_mrope_table<float>(q3, pos, c, s) == status::ok);
  std::size_t differ = 0;
  for (std::size_t k = 0; k < c.size(); ++k)
    differ += bits_of(c[k]) != bits_of(ct[0][k]) || bits_of(s[k]) != bits_of(ct[1][k]);
  CHECK(differ == 0);
  // Compact float blocks whose streams move by small steps take the token-by-token walk in
  // constant evaluation on GCC (t = i, h = i / 2, w = i / 3; text with an image token every 8
  // tokens, whose t and h stay and whose text neighbours step by 2; ggml's fourth stream; a start
  // past 0 and a jump back), the others the rows and the gather; on Clang, blocks whose streams
  // never go back (the first two) have each stream's rows written straight into the tokens'
  // rows (fill_mrope_block_direct), the others the rows and the gather: the same bits as at run
  // time. The walk itself is run on both compilers below.
  static constexpr rope::mrope_config qwen{.text = {.head_dim = 128, .rope_theta = 1e6}, .mrope_section = {16, 24, 24}};
  static constexpr rope::mrope_config ggml{.text = {.head_dim = 128, .rope_theta = 1e6},
                                           .mrope_section = {24, 20, 20},
                                           .layout = rope::mrope_layout::interleaved_ggml};
  static constexpr std::size_t wn = 96;
  static constexpr auto walk_positions = [](int shape) {
    std::array<std::uint64_t, 3 * wn> p{};
    for (std::size_t i = 0; i < wn; ++i) {
      p[i] = p[wn + i] = p[2 * wn + i] = 1000 + i;
      if (shape == 0) p[i] = 7 + i, p[wn + i] = 7 + i / 2, p[2 * wn + i] = 7 + i / 3;
      if (shape == 1 && i % 8 == 7) p[i] = p[wn + i] = 1000 + i - 1;
      if (shape == 2) p[i] = i < 60 ? 7 + i : i - 57, p[wn + i] = 7 + i / 2, p[2 * wn + i] = 7 + i / 3;  // t jumps back
    }
    return p;
  };
  static constexpr auto walk_table = [](int k) {  // one constant expression a table: Clang's step limit
    std::array<math_pair, wn * 64> t{};
    static_cast<void>(rope::fill_mrope_pair_table<float>(k < 3 ? qwen : ggml, walk_positions(k < 3 ? k : 1), t));
    return t;
  };
  static constexpr auto walk_alone = [](int k) {  // the walk's kernel on the whole table, both compilers
    std::array<math_pair, wn * 64> t{};
    const auto pos3 = walk_positions(k < 3 ? k : 1);
    const rope::detail::mrope_tokens tk{pos3.data(), wn, 0, wn};
    const auto plan = rope::detail::mrope_walk_pays(k < 3 ? qwen : ggml, tk);
    static_cast<void>(rope::detail::fill_mrope_block_walk(k < 3 ? qwen : ggml, tk, plan.top, t.data(), 64, nullptr));
    return t;
  };
  static constexpr auto a0 = walk_alone(0), a1 = walk_alone(1), a2 = walk_alone(2), a3 = walk_alone(3);
  const std::array<math_pair, wn * 64>* const alone[] = {&a0, &a1, &a2, &a3};
  static constexpr auto w0 = walk_table(0), w1 = walk_table(1), w2 = walk_table(2), w3 = walk_table(3);
  const std::array<math_pair, wn * 64>* const walk_tables[] = {&w0, &w1, &w2, &w3};
  for (int k = 0; k < 4; ++k) {
    const auto pos3 = walk_positions(k < 3 ? k : 1);
    CHECK(rope::detail::mrope_walk_pays(k < 3 ? qwen : ggml, {pos3.data(), wn, 0, wn}).pays);
    std::vector<math_pair> rt(wn * 64);
    REQUIRE(rope::fill_mrope_pair_table<float>(k < 3 ? qwen : ggml, pos3, rt) == status::ok);
    std::size_t walk_differ = 0, alone_differ = 0;
    for (std::size_t e = 0; e < rt.size(); ++e) {
      const math_pair& w = (*walk_tables[static_cast<std::size_t>(k)])[e];
      const math_pair& x = (*alone[static_cast<std::size_t>(k)])[e];
      walk_differ += bits_of(rt[e].sin) != bits_of(w.sin) || bits_of(rt[e].cos) != bits_of(w.cos);
      alone_differ += bits_of(rt[e].sin) != bits_of(x.sin) || bits_of(rt[e].cos) != bits_of(x.cos);
    }
    CHECK(walk_differ == 0);
    CHECK(alone_differ == 0);
  }
  // An interleaved map whose pairs read t, h, then t again (HF's map with sections [7, 1, 0]): its
  // streams change only twice, but t's pairs are not one run, so Clang's direct rows must not take
  // it; positions that never go back, as the direct rows would want.
  static constexpr rope::mrope_config thin{.text = {.head_dim = 16, .rope_theta = 1e4},
                                           .mrope_section = {7, 1, 0},
                                           .layout = rope::mrope_layout::interleaved_hf};
  static constexpr std::size_t tn = 32;
  static constexpr auto thin_positions = [] {
    std::array<std::uint64_t, 3 * tn> p{};
    for (std::size_t i = 0; i < tn; ++i) p[i] = 3 + i, p[tn + i] = 3 + i / 2, p[2 * tn + i] = 3 + i / 3;
    return p;
  }();
  static constexpr auto thin_table = [] {
    std::array<math_pair, tn * 8> t{};
    static_cast<void>(rope::fill_mrope_pair_table<float>(thin, thin_positions, t));
    return t;
  }();
  std::vector<math_pair> thin_rt(tn * 8);
  REQUIRE(rope::fill_mrope_pair_table<float>(thin, thin_positions, thin_rt) == status::ok);
  std::size_t thin_differ = 0;
  for (std::size_t e = 0; e < thin_rt.size(); ++e)
    thin_differ +=
        bits_of(thin_rt[e].sin) != bits_of(thin_table[e].sin) || bits_of(thin_rt[e].cos) != bits_of(thin_table[e].cos);
  CHECK(thin_differ == 0);
  static constexpr int axes[] = {32, 32, 32, 32};  // FLUX.2
  static constexpr rope::nd_config flux2{.axes_dim = axes, .rope_theta = 2000.0};
  static constexpr std::array<double, 8> p2{0, 3, 0, 1.5, 2, -1, 0, 7};
  static constexpr auto nd = [] {
    std::array<float, 2 * 128> cc{}, ss{};
    static_cast<void>(rope::fill_nd_table<float>(flux2, p2, cc, ss));
    return std::array<std::array<float, 2 * 128>, 2>{cc, ss};
  }();
  static_assert(laws::axis_identity_at_zero(laws::nd_view<float>{&flux2, p2, nd[0], nd[1]}).holds);
  std::vector<float> c2(256), s2(256);
  REQUIRE(rope::fill_nd_table<float>(flux2, p2, c2, s2) == status::ok);
  differ = 0;
  for (std::size_t k = 0; k < c2.size(); ++k)
    differ += bits_of(c2[k]) != bits_of(nd[0][k]) || bits_of(s2[k]) != bits_of(nd[1][k]);
  CHECK(differ == 0);
  // ND axes on a grid of 2^-s and near a progression off any grid (EVA-02 at 2 / 3, centred), in
  // constant evaluation (rows allocated for it) as at run time (stack windows).
  static constexpr int eva_axes[] = {32, 32};
  static constexpr rope::nd_config eva{.axes_dim = eva_axes, .rope_theta = 1e4};
  static constexpr std::size_t et = 24;
  static constexpr auto eva_positions = [](int shape) {
    std::array<double, 2 * et> p{};
    for (std::size_t i = 0; i < et; ++i) {
      const double x = static_cast<double>(i);
      p[i] = shape == 0 ? x * 0.75 : x / 24 * 16;
      p[et + i] = shape == 0 ? (x - 11.5) / 8 : (x - 11.5) * (2.0 / 3);
    }
    return p;
  };
  static constexpr auto eva_table = [](int shape) {
    std::array<math_pair, et * 32> t{};
    static_cast<void>(rope::fill_nd_pair_table<float>(eva, eva_positions(shape), t));
    return t;
  };
  static constexpr rope::nd_config dino{.axes_dim = eva_axes, .rope_theta = 100.0, .angle = rope::angle_unit::turns};
  static constexpr auto dino_table = [] {  // DINOv3's coordinates of a 24-token row, both axes
    std::array<double, 2 * et> p{};
    for (std::size_t i = 0; i < et; ++i)
      p[i] = rope::dinov3_coord(i, et), p[et + i] = rope::dinov3_coord(et - 1 - i, et);
    std::array<math_pair, et * 32> t{};
    static_cast<void>(rope::fill_nd_pair_table<float>(dino, p, t));
    return t;
  };
  static constexpr auto e0 = eva_table(0), e1 = eva_table(1), e2 = dino_table();
  for (int shape : {0, 1, 2}) {
    std::vector<math_pair> rt(et * 32);
    std::array<double, 2 * et> dp{};
    for (std::size_t i = 0; i < et; ++i)
      dp[i] = rope::dinov3_coord(i, et), dp[et + i] = rope::dinov3_coord(et - 1 - i, et);
    REQUIRE(rope::fill_nd_pair_table<float>(shape == 2 ? dino : eva, shape == 2 ? dp : eva_positions(shape), rt) ==
            status::ok);
    const auto& eva_ct = shape == 0 ? e0 : shape == 1 ? e1 : e2;
    differ = 0;
    for (std::size_t k = 0; k < rt.size(); ++k)
      differ += bits_of(rt[k].sin) != bits_of(eva_ct[k].sin) || bits_of(rt[k].cos) != bits_of(eva_ct[k].cos);
    CHECK(differ == 0);
  }
  // Axes whose rows never go back along the tokens: compact float rows written in place by one
  // fill in constant evaluation too (rope/detail/token_rows.hpp: row_pairs, then end_row copies a
  // row to its other tokens and negates sin at negative coordinates, the first token's last).
  // Axis 0: -(i / 4); -floor(i / 3) (three tokens a row, the first at -0.0); rows at (k + 1) * 0.1
  // whose second token is one ulp above (its own scalar entries); -(floor(i / 2) * 2 / 3) off any
  // grid; in turns -(i / 64) (quarter turns: sin +0 at negative positions). Axis 1: (i mod 5) / 8.
  static constexpr auto ordered_positions = [](int shape) {
    std::array<double, 2 * et> p{};
    for (std::size_t i = 0; i < et; ++i) {
      const double x = static_cast<double>(i);
      switch (shape) {
        case 0: p[i] = -(x / 4); break;
        case 1: p[i] = -static_cast<double>(i / 3); break;
        case 2: {
          const double r = static_cast<double>(i / 2 + 1) * 0.1;
          p[i] = i % 2 == 0 ? r : r + r * 0x1p-52;  // one ulp above (r in [0.1, 1.2]: ulp <= 2^-52 r)
          break;
        }
        case 3: p[i] = -(static_cast<double>(i / 2) * 2.0 / 3); break;
        default: p[i] = -(x / 64); break;
      }
      p[et + i] = static_cast<double>(i % 5) / 8;
    }
    return p;
  };
  static constexpr auto ordered_table = [](int shape) {
    std::array<math_pair, et * 32> t{};
    static_cast<void>(rope::fill_nd_pair_table<float>(shape == 4 ? dino : eva, ordered_positions(shape), t));
    return t;
  };
  static constexpr auto o0 = ordered_table(0), o1 = ordered_table(1), o2 = ordered_table(2), o3 = ordered_table(3),
                        o4 = ordered_table(4);
  const std::array<math_pair, et * 32>* const ordered[] = {&o0, &o1, &o2, &o3, &o4};
  for (int shape = 0; shape < 5; ++shape) {
    INFO("ordered shape " << shape);
    std::vector<math_pair> rt(et * 32);
    REQUIRE(rope::fill_nd_pair_table<float>(shape == 4 ? dino : eva, ordered_positions(shape), rt) == status::ok);
    differ = 0;
    for (std::size_t k = 0; k < rt.size(); ++k) {
      const math_pair& at_ct = (*ordered[static_cast<std::size_t>(shape)])[k];
      differ += bits_of(rt[k].sin) != bits_of(at_ct.sin) || bits_of(rt[k].cos) != bits_of(at_ct.cos);
    }
    CHECK(differ == 0);
  }
}

TEST_CASE("The constexpr M-RoPE walk, run at run time on a long block, gives the fills' bits", "[mrope]") {
  // The walk (fill_mrope_block_walk) is a constant-evaluation kernel, but it is plain constexpr
  // code: run here on blocks too long for a constant expression in a test. 3000 tokens: text with
  // an image token every 8 (the walk's text-run loop, its copies and its steps by 2) and t = i,
  // h = i/2, w = i/3, both past the 2048 products after which a stream re-anchors, and enough
  // entries (192,000) that the float test leaves some undecided inside the text runs (their
  // scalar entries need the run's position). Compared bit for bit with the run-time fill, itself
  // checked against MPFR above.
  const rope::mrope_config qwen{.text = {.head_dim = 128, .rope_theta = 1e6}, .mrope_section = {16, 24, 24}};
  constexpr std::size_t n = 3000;
  for (int shape = 0; shape < 2; ++shape) {
    std::vector<std::uint64_t> pos(3 * n);
    for (std::size_t i = 0; i < n; ++i) {
      pos[i] = pos[n + i] = pos[2 * n + i] = 5 + i;
      if (shape == 0 && i % 8 == 7) pos[i] = pos[n + i] = 5 + i - 1;
      if (shape == 1) pos[n + i] = 5 + i / 2, pos[2 * n + i] = 5 + i / 3;
    }
    const rope::detail::mrope_tokens tk{pos.data(), n, 0, n};
    const auto plan = rope::detail::mrope_walk_pays(qwen, tk);
    CHECK(plan.pays);
    CHECK(plan.top == 5 + n - 1);
    std::vector<math_pair> walk(n * 64), fill(n * 64);
    REQUIRE(rope::detail::fill_mrope_block_walk(qwen, tk, plan.top, walk.data(), 64, nullptr) == status::ok);
    REQUIRE(rope::fill_mrope_pair_table<float>(qwen, pos, fill) == status::ok);
    std::size_t differ = 0;
    for (std::size_t e = 0; e < fill.size(); ++e)
      differ += bits_of(fill[e].sin) != bits_of(walk[e].sin) || bits_of(fill[e].cos) != bits_of(walk[e].cos);
    CHECK(differ == 0);
  }
}

TEST_CASE("Multi-stream configs and shapes: errors name the precondition", "[mrope][nd]") {
  const rope::mrope_config bad_sum{.text = {.head_dim = 128}, .mrope_section = {16, 24, 16}};
  CHECK(std::string(rope::validate(bad_sum).message) ==
        "mrope_section must sum to rotary_dim / 2 (the number of pairs)");
  const rope::mrope_config neg{.text = {.head_dim = 128}, .mrope_section = {-8, 40, 32}};
  CHECK_FALSE(rope::validate(neg).ok());
  const rope::mrope_config ok{.text = {.head_dim = 8}, .mrope_section = {2, 1, 1}};
  std::vector<float> c(8), s(8);
  const std::vector<std::uint64_t> far{1, 1, 3000000};
  CHECK(rope::fill_mrope_table<float>(ok, far, c, s) == status::domain_error);
  const std::vector<std::uint64_t> two{1, 1};
  CHECK(rope::fill_mrope_table<float>(ok, two, c, s) == status::domain_error);
  const std::vector<std::uint64_t> one{1, 2, 3};
  CHECK(rope::fill_mrope_table<float>(ok, one, c, s) == status::ok);
  CHECK(rope::fill_mrope_table<float>(ok, one, std::span<float>(c).first(6), std::span<float>(s).first(6)) ==
        status::domain_error);
  static constexpr int odd[] = {16, 7};
  CHECK(std::string(rope::validate(rope::nd_config{.axes_dim = odd}).message) ==
        "axes_dim entries must be even and positive");
  static constexpr int axes[] = {4, 4};
  const rope::nd_config two_axes{.axes_dim = axes};
  std::vector<float> c2(8), s2(8);
  const std::vector<double> nanpos{0, std::numeric_limits<double>::quiet_NaN()};
  CHECK(rope::fill_nd_table<float>(two_axes, nanpos, c2, s2) == status::domain_error);
  const std::vector<double> fine{0.25, -7};
  CHECK(rope::fill_nd_table<float>(two_axes, fine, c2, s2) == status::ok);
}

TEST_CASE("Multi-stream tables with scratch: the 1D row kernels and a gather give the same bits", "[mrope][nd]") {
  std::uint64_t next = 0;
  const auto mixed = sample_positions(next);
  // A 2 x 5 x 7 video block after 40 text tokens: t spans 40 .. 41, h 40 .. 44, w 40 .. 46, so
  // each stream's rows are fewer than the whole range's.
  std::vector<std::uint64_t> block(3 * 70);
  for (std::size_t k = 0; k < 70; ++k)
    block[k] = 40 + k / 35, block[70 + k] = 40 + (k / 7) % 5, block[140 + k] = 40 + k % 7;
  for (const auto& pos : {mixed, block})
    for (const auto layout : {rope::mrope_layout::sections, rope::mrope_layout::interleaved_ggml}) {
      const std::size_t n = pos.size() / 3;
      const rope::mrope_config c{
          .text = {.head_dim = 128, .rope_theta = 1e6}, .mrope_section = {16, 24, 24}, .layout = layout};
      std::vector<math_pair> slow(n * 64), fast(n * 64), scratch(rope::mrope_scratch_size(c, pos));
      // The 1D rows of the positions' range, from 0 when ggml's fourth stream (pairs 48, 51, .., 63
      // here) reads position 0.
      const bool fourth = layout == rope::mrope_layout::interleaved_ggml;
      const std::uint64_t lo = fourth ? 0 : *std::min_element(pos.begin(), pos.end());
      REQUIRE(scratch.size() == (*std::max_element(pos.begin(), pos.end()) - lo + 1) * 64);
      REQUIRE(rope::fill_mrope_pair_table<float>(c, pos, slow) == status::ok);
      REQUIRE(rope::fill_mrope_pair_table<float>(c, pos, fast, scratch) == status::ok);
      std::size_t differ = 0;
      for (std::size_t k = 0; k < slow.size(); ++k)
        differ += bits_of(slow[k].sin) != bits_of(fast[k].sin) || bits_of(slow[k].cos) != bits_of(fast[k].cos);
      CHECK(differ == 0);
      // Too little scratch: stack windows of 1D rows at run time (or the scalar entries), the same table.
      std::vector<math_pair> small(scratch.size() - 1), again(n * 64);
      REQUIRE(rope::fill_mrope_pair_table<float>(c, pos, again, small) == status::ok);
      CHECK(std::equal(again.begin(), again.end(), slow.begin(),
                       [](const math_pair& a, const math_pair& b) { return a.sin == b.sin && a.cos == b.cos; }));
    }
  // ND: every axis through the row kernels, with scratch and without (stack windows): an integer
  // axis, a fractional one (the grid of halves: rows n = 2p), a negative one (sin negated); each
  // entry the scalar nd_sincos, bit for bit.
  static constexpr int axes[] = {16, 56, 56};
  const rope::nd_config flux{.axes_dim = axes};
  const std::vector<double> ids{0, 1, 2, 7, /* integer */ 0, 0.5, 3, 9, /* fraction */ -4, 0, 5, 2 /* negative */};
  std::vector<math_pair> slow(4 * 64), fast(4 * 64), scratch(rope::nd_scratch_size(flux, ids));
  CHECK(scratch.size() == 19 * 28);  // the largest axis's rows: axis 1's n = 0 .. 18, 28 pairs
  REQUIRE(rope::fill_nd_pair_table<float>(flux, ids, slow) == status::ok);
  REQUIRE(rope::fill_nd_pair_table<float>(flux, ids, fast, scratch) == status::ok);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < 4; ++i)
    for (int j = 0; j < 64; ++j) {
      const double at[] = {ids[i], ids[4 + i], ids[8 + i]};
      const auto e = rope::nd_sincos<float>(flux, at, j).value;
      for (const math_pair& x :
           {slow[i * 64 + static_cast<std::size_t>(j)], fast[i * 64 + static_cast<std::size_t>(j)]})
        differ += bits_of(x.sin) != bits_of(e.sin) || bits_of(x.cos) != bits_of(e.cos);
    }
  CHECK(differ == 0);
}

TEST_CASE("Multi-stream tables without scratch at run time: stack windows of 1D rows give the MPFR values (0 ULP)",
          "[mrope][nd][oracle]") {
  // Text, a 48 x 50 image, text, a 6-frame video, text: the image block's h and w streams need
  // more 1D rows than one window holds (24 pairs x 48 or 50 rows; a window: 1024 float or 512
  // double pairs), so the fill takes two windows (float) or three (double) per stream.
  const rope::mrope_segment seq[] = {
      {.tokens = 20},
      {.kind = rope::mrope_segment::image, .grid_t = 1, .grid_h = 48, .grid_w = 50},
      {.tokens = 5},
      {.kind = rope::mrope_segment::video, .grid_t = 6, .grid_h = 4, .grid_w = 6, .second_per_grid_t = 2.0},
      {.tokens = 30}};
  std::vector<std::uint64_t> pos(3 * rope::mrope_token_count(seq));
  REQUIRE(rope::mrope_positions(seq, {.temporal = rope::mrope_temporal::seconds, .tokens_per_second = 2}, pos).ok());
  const std::size_t n = pos.size() / 3;
  CHECK(rope::detail::stream_window_entries<float> / 24 < 48);
  CHECK(rope::detail::stream_windows_pay<float>(20, 20 + 49, 24, 2400));
  CHECK(rope::detail::stream_windows_pay<double>(20, 20 + 49, 24, 2400));
  memo_oracle<float> of;
  memo_oracle<double> od;
  for (const auto layout :
       {rope::mrope_layout::sections, rope::mrope_layout::interleaved_hf, rope::mrope_layout::interleaved_ggml}) {
    const rope::mrope_config c{
        .text = {.head_dim = 128, .rope_theta = 1e6}, .mrope_section = {16, 24, 24}, .layout = layout};
    std::vector<math::sincos_result<float>> f(n * 64);
    std::vector<math::sincos_result<double>> d(n * 64);
    REQUIRE(rope::fill_mrope_pair_table<float>(c, pos, f) == status::ok);
    REQUIRE(rope::fill_mrope_pair_table<double>(c, pos, d) == status::ok);
    CHECK(mrope_pair_mismatches(c, pos, f, of) == 0);
    CHECK(mrope_pair_mismatches(c, pos, d, od) == 0);
    // Expanded rows (the sink's store, each pair's two elements), interleaved elements.
    std::vector<float> cos(n * 128), sin(n * 128);
    REQUIRE(rope::fill_mrope_table<float>(c, pos, cos, sin, rope::layout::interleaved) == status::ok);
    CHECK(mrope_mismatches<float>(c, pos, cos, sin, rope::layout::interleaved) == 0);
  }
  // Where windows do not pay, the scalar entries: tokens far apart (5001 rows for 3 tokens), and
  // rows wider than a chunk of the sink's element offsets (head 512: 256 pairs; each stream's 64 or
  // 96 would fit a window).
  const std::vector<std::uint64_t> sparse{0, 5000, 17, 0, 5000, 2, 0, 5000, 40};
  CHECK_FALSE(rope::detail::stream_windows_pay<float>(0, 5000, 24, 3));
  for (const auto layout : {rope::mrope_layout::sections, rope::mrope_layout::interleaved_ggml}) {
    // (ggml's fourth stream reads position 0: the scalar path's stream < 0.)
    const rope::mrope_config qwen{
        .text = {.head_dim = 128, .rope_theta = 1e6}, .mrope_section = {16, 24, 24}, .layout = layout};
    std::vector<math::sincos_result<float>> few(3 * 64);
    REQUIRE(rope::fill_mrope_pair_table<float>(qwen, sparse, few) == status::ok);
    CHECK(mrope_pair_mismatches(qwen, sparse, few, of) == 0);
  }
  const rope::mrope_config wide{.text = {.head_dim = 512, .rope_theta = 1e6}, .mrope_section = {64, 96, 96}};
  std::vector<math::sincos_result<float>> w(n * 256);
  REQUIRE(rope::fill_mrope_pair_table<float>(wide, pos, w) == status::ok);
  memo_oracle<float> o512;
  o512.d = 512;
  CHECK(mrope_pair_mismatches(wide, pos, w, o512) == 0);
  {
    std::vector<float> cos(n * 512), sin(n * 512);
    REQUIRE(rope::fill_mrope_table<float>(wide, pos, cos, sin) == status::ok);
    std::size_t differ = 0;  // each element against the compact table's pair, checked above
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < 256; ++j)
        for (int e = 0; e < 2; ++e) {
          const std::size_t k = i * 512 + rope::pair_index(rope::layout::half_split, j, e, 512);
          differ += bits_of(cos[k]) != bits_of(w[i * 256 + j].cos) || bits_of(sin[k]) != bits_of(w[i * 256 + j].sin);
        }
    CHECK(differ == 0);
  }

  // ND (FLUX): 256 text tokens at (0, 0, 0) and a 48 x 50 latent grid; axis 1 needs 48 rows of 28
  // pairs, two float windows.
  static constexpr int axes[] = {16, 56, 56};
  const rope::nd_config flux{.axes_dim = axes, .rope_theta = 10000.0};
  const std::size_t t = 256 + 48 * 50;
  std::vector<double> ids(3 * t, 0.0);
  for (std::size_t k = 0; k < 48 * 50; ++k)
    ids[t + 256 + k] = static_cast<double>(k / 50), ids[2 * t + 256 + k] = static_cast<double>(k % 50);
  std::vector<float> cos(t * 128), sin(t * 128);
  std::vector<math::sincos_result<double>> nd(t * 64);
  REQUIRE(rope::fill_nd_table<float>(flux, ids, cos, sin) == status::ok);
  REQUIRE(rope::fill_nd_pair_table<double>(flux, ids, nd) == status::ok);
  std::map<std::pair<std::size_t, int>, std::pair<math::sincos_result<float>, math::sincos_result<double>>> seen;
  std::uint64_t mismatches = 0;
  for (int j = 0; j < 64; ++j) {
    const int axis = j < 8 ? 0 : (j < 36 ? 1 : 2), k = j < 8 ? j : (j < 36 ? j - 8 : j - 36);
    for (std::size_t i = 0; i < t; ++i) {
      const double p = ids[static_cast<std::size_t>(axis) * t + i];
      const auto key = std::make_pair(static_cast<std::size_t>(p), j);
      if (seen.find(key) == seen.end())
        seen[key] = {verify::cr_rope_sincos_at<float>(p, 10000.0, k, axes[axis]),
                     verify::cr_rope_sincos_at<double>(p, 10000.0, k, axes[axis])};
      const auto& [ef, ed] = seen[key];
      for (const std::size_t el : {std::size_t(2 * j), std::size_t(2 * j + 1)})  // interleaved
        mismatches += bits_of(cos[i * 128 + el]) != bits_of(ef.cos) || bits_of(sin[i * 128 + el]) != bits_of(ef.sin);
      const auto& v = nd[i * 64 + static_cast<std::size_t>(j)];
      mismatches += bits_of(v.cos) != bits_of(ed.cos) || bits_of(v.sin) != bits_of(ed.sin);
    }
  }
  CHECK(mismatches == 0);
}
