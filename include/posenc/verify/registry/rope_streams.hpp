// registry/rope_streams.hpp: the registry's descriptors of the multi-stream rotary tables, M-RoPE
// (rope/mrope.hpp) and ND axial RoPE (rope/nd.hpp): representative configs (Qwen2-VL, Qwen3-VL in
// HF's and ggml's layouts; FLUX.1, FLUX.2, a 2D ViT at EVA-02's half-step positions), their tables
// over a representative sequence, and their laws (laws/streams/). registry/scheme.hpp says what a
// descriptor is.
#pragma once

#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "posenc/laws/streams/axis_identity_at_zero.hpp"
#include "posenc/laws/streams/axis_relative_dot.hpp"
#include "posenc/laws/streams/text_rows.hpp"
#include "posenc/rope/dinov3.hpp"
#include "posenc/rope/mrope.hpp"
#include "posenc/rope/mrope_positions.hpp"
#include "posenc/rope/nd.hpp"
#include "posenc/verify/registry/scheme.hpp"

namespace posenc::verify::registry {

namespace law {

// The laws of laws/streams/ on a descriptor's tables, which give view() (a laws::stream_table).
struct mrope_text_rows {
  static constexpr const char* name = "M-RoPE text rows";
  template <class C>
  static constexpr bool applies_to(const C&) noexcept {
    return true;
  }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::mrope_text_rows(t.view());
  }
};

struct axis_identity_at_zero {
  static constexpr const char* name = "axis identity at zero";
  template <class C>
  static constexpr bool applies_to(const C&) noexcept {
    return true;
  }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::axis_identity_at_zero(t.view());
  }
};

struct axis_relative_dot {
  static constexpr const char* name = "axis relative dot";
  template <class C>
  static constexpr bool applies_to(const C&) noexcept {
    return true;
  }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::axis_relative_dot(t.view());
  }
};

}  // namespace law

struct mrope_scheme {
  static constexpr std::string_view name = "mrope";
  using config_type = rope::mrope_config;

  // rows: the tokens of 8 text tokens, a 4 x 6 image, then text (get_rope_index's ids).
  static constexpr std::array<example<config_type>, 3> examples{{
      {"M-RoPE Qwen2-VL sections [16, 24, 24]", {{.head_dim = 128, .rope_theta = 1e6}, {16, 24, 24}}, 0, 64},
      {"M-RoPE Qwen3-VL interleaved (HF) [24, 20, 20]",
       {{.head_dim = 128, .rope_theta = 5e6}, {24, 20, 20}, rope::mrope_layout::interleaved_hf},
       0,
       64},
      {"M-RoPE Qwen3-VL interleaved (ggml IMROPE) [24, 20, 20]",
       {{.head_dim = 128, .rope_theta = 5e6}, {24, 20, 20}, rope::mrope_layout::interleaved_ggml},
       0,
       64},
  }};

  template <class T>
  struct tables : table_status {
    config_type config{};
    std::vector<std::uint64_t> positions;  // 3 x tokens
    std::vector<T> cos, sin;               // half-split rows, as Qwen applies them
    posenc::laws::mrope_view<T> view() const noexcept { return {&config, positions, cos, sin}; }
  };

  template <class T>
  static tables<T> make_tables(const example<config_type>& e) {
    tables<T> t;
    t.config = e.config;
    const rope::mrope_segment seq[] = {{.tokens = 8},
                                       {.kind = rope::mrope_segment::image, .grid_t = 1, .grid_h = 4, .grid_w = 6},
                                       {.tokens = e.rows - 32}};
    t.positions.resize(3 * e.rows);
    t.keep(rope::mrope_positions(seq, {}, t.positions).error);
    const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(e.config.text));
    t.cos.resize(e.rows * d);
    t.sin.resize(e.rows * d);
    t.keep(rope::fill_mrope_table<T>(e.config, t.positions, std::span<T>(t.cos), std::span<T>(t.sin)));
    return t;
  }

  static constexpr auto laws() {
    return hana::tuple<hana::type<law::mrope_text_rows>, hana::type<law::axis_identity_at_zero>,
                       hana::type<law::axis_relative_dot>>{};
  }
};

namespace detail {
inline constexpr int flux1_axes[] = {16, 56, 56};
inline constexpr int flux2_axes[] = {32, 32, 32, 32};
inline constexpr int vit_axes[] = {32, 32};
inline constexpr int dinov3_axes[] = {32, 32};  // DINOv3 ViT-S/B/L: head dim 64
}  // namespace detail

struct rope_nd_scheme {
  static constexpr std::string_view name = "rope-nd";
  using config_type = rope::nd_config;

  // rows: 8 tokens at position 0 on every axis (FLUX's text), then a grid over the last two axes
  // (the first, if more, at 1: FLUX Kontext's conditioning image); first: the grid's step is
  // 2^-first (EVA-02 fine-tuned at twice the size: 0, 0.5, 1, ...). A config in turns (DINOv3)
  // takes the same rows with its own grid coordinates (2i + 1)/8 - 1 (rope/dinov3.hpp).
  static constexpr std::array<example<config_type>, 4> examples{{
      {"ND RoPE FLUX.1 [16, 56, 56]", {.axes_dim = detail::flux1_axes, .rope_theta = 10000.0}, 0, 64},
      {"ND RoPE FLUX.2 [32, 32, 32, 32] theta 2000", {.axes_dim = detail::flux2_axes, .rope_theta = 2000.0}, 0, 64},
      {"ND RoPE 2D ViT [32, 32] at half steps", {.axes_dim = detail::vit_axes, .rope_theta = 10000.0}, 1, 64},
      {"ND RoPE DINOv3 [32, 32] theta 100, 2 pi coord / period", rope::dinov3_config(detail::dinov3_axes), 0, 64},
  }};

  template <class T>
  struct tables : table_status {
    config_type config{};
    std::vector<double> positions;  // axes x tokens
    std::vector<T> cos, sin;        // interleaved rows, as FLUX applies them
    posenc::laws::nd_view<T> view() const noexcept { return {&config, positions, cos, sin}; }
  };

  template <class T>
  static tables<T> make_tables(const example<config_type>& e) {
    tables<T> t;
    t.config = e.config;
    const std::size_t axes = e.config.axes_dim.size(), n = e.rows;
    const double step = e.first == 0 ? 1.0 : 0.5;
    t.positions.assign(axes * n, 0.0);
    for (std::size_t i = 8; i < n; ++i) {
      const std::size_t g = i - 8;
      const bool turns = e.config.angle == rope::angle_unit::turns;
      t.positions[(axes - 2) * n + i] = turns ? rope::dinov3_coord(g / 8, 8) : static_cast<double>(g / 8) * step;
      t.positions[(axes - 1) * n + i] = turns ? rope::dinov3_coord(g % 8, 8) : static_cast<double>(g % 8) * step;
      if (axes > 2) t.positions[i] = 1.0;
    }
    const std::size_t d = static_cast<std::size_t>(rope::nd_rotary_dim(e.config));
    t.cos.resize(n * d);
    t.sin.resize(n * d);
    t.keep(rope::fill_nd_table<T>(e.config, t.positions, std::span<T>(t.cos), std::span<T>(t.sin)));
    return t;
  }

  static constexpr auto laws() {
    return hana::tuple<hana::type<law::axis_identity_at_zero>, hana::type<law::axis_relative_dot>>{};
  }
};

}  // namespace posenc::verify::registry
