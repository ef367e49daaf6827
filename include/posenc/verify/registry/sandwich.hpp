// registry/sandwich.hpp: the registry's descriptor of Sandwich (Chi et al. 2023; NeMo): a
// representative config and its table (heads x distances); no law of the registry reads it.
// registry/scheme.hpp says what a descriptor is.
#pragma once

#include <boost/hana/tuple.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "posenc/sandwich.hpp"
#include "posenc/verify/registry/scheme.hpp"

namespace posenc::verify::registry {

struct sandwich_scheme {
  static constexpr std::string_view name = "sandwich";
  using config_type = sandwich::config;

  static constexpr std::array<example<config_type>, 1> examples{{
      {"Sandwich d=64 heads=8", {.dim = 64, .heads = 8}, 0, 256},  // NeMo's Sandwich with 64-dim heads
  }};

  template <class T>
  struct tables : table_status {
    config_type config{};
    std::vector<T> by_distance;  // heads x distances 0 .. rows - 1
  };

  template <class T>
  static tables<T> make_tables(const example<config_type>& e) {
    tables<T> t;
    t.config = e.config;
    const sandwich::checked_config cc{e.config};
    for (int h = 0; h < e.config.heads; ++h)
      for (std::size_t k = 0; k < e.rows; ++k) {
        const auto b = sandwich::bias<T>(cc, h, static_cast<std::int64_t>(k));
        t.keep(b.error);
        t.by_distance.push_back(b.value);
      }
    return t;
  }

  static constexpr auto laws() { return hana::tuple<>{}; }
};

}  // namespace posenc::verify::registry
