// registry/xpos.hpp: the registry's descriptor of XPOS (Sun et al. 2023; torchscale): a
// representative config, its tables (the scales and the inverse scales of positions first ..,
// with RoPE's interleaved rotation of the same rows), its law (relative scale, docs/laws.md section
// 9). registry/scheme.hpp says what a descriptor is.
#pragma once

#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "posenc/laws/law_result.hpp"
#include "posenc/laws/rotary/table_view.hpp"
#include "posenc/laws/xpos/relative_scale.hpp"
#include "posenc/rope/config.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/verify/registry/scheme.hpp"
#include "posenc/xpos.hpp"

namespace posenc::verify::registry {

namespace law {

struct xpos_relative_scale {
  static constexpr const char* name = "xpos relative scale";
  static constexpr bool applies_to(const xpos::config&) noexcept { return true; }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    const posenc::laws::span_table<float> v{t.rope_cos, t.rope_sin, static_cast<std::size_t>(t.config.head_dim),
                                            rope::layout::interleaved, 0};
    return posenc::laws::xpos_relative_scale(v, t.scale_span(), t.inverse_scale_span(),
                                             {.differences = {1, 17, 255, 0}});
  }
};

}  // namespace law

struct xpos_scheme {
  static constexpr std::string_view name = "xpos";
  using config_type = xpos::config;

  static constexpr std::array<example<config_type>, 1> examples{{
      // torchscale: head_dim 128, xpos_scale_base 512, centred positions
      {"XPOS head_dim=128 scale_base=512", {.head_dim = 128}, -256, 512},
  }};

  template <class T>
  struct tables : table_status {
    config_type config{};
    std::vector<float> rope_cos, rope_sin;  // RoPE's interleaved rotation (float) of rows 0 .. rows - 1
    std::vector<T> scales, inverse_scales;  // rows x head_dim / 2

    std::span<const T> scale_span() const noexcept { return scales; }
    std::span<const T> inverse_scale_span() const noexcept { return inverse_scales; }
  };

  // The rotation's rows are positions 0 .. rows - 1 (rope tables start at 0); the law pairs row r
  // of the rotation with row r of the scales, and depends on differences only.
  static void fill_rotation(const xpos::config& c, std::size_t rows, std::vector<float>& cos, std::vector<float>& sin,
                            table_status& st) {
    const auto d = static_cast<std::size_t>(c.head_dim);
    const rope::config rc{.head_dim = c.head_dim, .rope_theta = 10000.0};
    cos.resize(rows * d);
    sin.resize(rows * d);
    st.keep(rope::fill_table<float>(rc, std::span<float>(cos), std::span<float>(sin), rope::layout::interleaved));
  }

  template <class T>
  static tables<T> make_tables(const example<config_type>& e) {
    tables<T> t;
    t.config = e.config;
    const xpos::checked_config xc{e.config};
    fill_rotation(e.config, e.rows, t.rope_cos, t.rope_sin, t);
    const std::size_t half = e.rows * static_cast<std::size_t>(e.config.head_dim) / 2;
    t.scales.resize(half);
    t.inverse_scales.resize(half);
    t.keep(xpos::fill_scales<T>(xc, e.first, std::span<T>(t.scales)));
    t.keep(xpos::fill_scales<T>(xc, e.first, std::span<T>(t.inverse_scales), true));
    return t;
  }

  static constexpr auto laws() { return hana::tuple<hana::type<law::xpos_relative_scale>>{}; }
};

}  // namespace posenc::verify::registry
