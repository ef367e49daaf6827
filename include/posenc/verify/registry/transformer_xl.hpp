// registry/transformer_xl.hpp: the registry's descriptor of Transformer-XL's and XLNet's relative
// sinusoids: representative configs, their tables (rows at the relative positions the frameworks
// build, [sin | cos]), their laws (the sinusoid laws, registry/sinusoid_laws.hpp).
// registry/scheme.hpp says what a descriptor is.
#pragma once

#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "posenc/laws/sinusoid/table.hpp"
#include "posenc/sinusoidal.hpp"
#include "posenc/transformer_xl.hpp"
#include "posenc/verify/registry/scheme.hpp"
#include "posenc/verify/registry/sinusoid_laws.hpp"

namespace posenc::verify::registry {

struct transformer_xl_scheme {
  static constexpr std::string_view name = "transformer-xl";
  using config_type = transformer_xl::config;

  // The rows are the config's (transformer_xl::rows): first and rows are unused.
  static constexpr std::array<example<config_type>, 2> examples{{
      // Transformer-XL: klen = mem 256 + tgt 128 (wt103 eval: 384 x 512)
      {"Transformer-XL d=512 klen=384", {.d_model = 512, .klen = 384, .qlen = 128}, 0, 0},
      // XLNet: forward and backward halves, clamp_len 100
      {"XLNet d=64 bi_data clamp 100",
       {.d_model = 64,
        .klen = 192,
        .qlen = 64,
        .clamp_len = 100,
        .model = transformer_xl::model::xlnet,
        .bi_data = true},
       0,
       0},
  }};

  template <class T>
  struct tables : table_status {
    config_type config{};
    std::vector<T> values;                // rows x d_model
    std::vector<std::int64_t> positions;  // each row's relative position

    laws::sinusoid_table<T> sinusoids() const noexcept {
      return {values, {.dim = config.d_model, .layout = sinusoidal::layout::concat}, 0, positions};
    }
  };

  template <class T>
  static tables<T> make_tables(const example<config_type>& e) {
    tables<T> t;
    t.config = e.config;
    const auto rows = static_cast<std::size_t>(transformer_xl::rows(e.config));
    t.values.resize(rows * static_cast<std::size_t>(e.config.d_model));
    t.keep(transformer_xl::fill_table<T>(e.config, std::span<T>(t.values)));
    for (std::size_t r = 0; r < rows; ++r)
      t.positions.push_back(transformer_xl::position(e.config, static_cast<std::int64_t>(r)).value);
    return t;
  }

  static constexpr auto laws() {
    return hana::tuple<hana::type<law::sinusoid_shift>, hana::type<law::sinusoid_relative_dot>>{};
  }
};

}  // namespace posenc::verify::registry
