// registry/attn_temperature.hpp: the registry's descriptor of Llama-4's attention temperature (HF
// Llama4TextAttention, attn_temperature_tuning): representative configs, their scales of positions
// first .. first + rows - 1, and its three laws (laws/attn_temperature/: 1 before the first step,
// monotone, constant between steps). registry/scheme.hpp says what a descriptor is.
#pragma once

#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "posenc/attn_temperature.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/verify/registry/scheme.hpp"

namespace posenc::verify::registry {

namespace law {

// The laws read t.temperatures(), a laws::temperature_table view of the descriptor's tables.
struct temperature_one_before_step {
  static constexpr const char* name = "temperature 1 before step";
  static constexpr bool applies_to(const attn_temperature::config&) noexcept { return true; }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::temperature_one_before_step(t.temperatures());
  }
};

struct temperature_monotone {
  static constexpr const char* name = "temperature monotone";
  static constexpr bool applies_to(const attn_temperature::config&) noexcept { return true; }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::temperature_monotone(t.temperatures());
  }
};

struct temperature_steps {
  static constexpr const char* name = "temperature steps";
  static constexpr bool applies_to(const attn_temperature::config&) noexcept { return true; }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::temperature_steps(t.temperatures());
  }
};

}  // namespace law

struct attn_temperature_scheme {
  static constexpr std::string_view name = "attn-temperature";
  using config_type = attn_temperature::config;

  static constexpr std::array<example<config_type>, 2> examples{{
      // Llama-4 Scout / Maverick: 8192, 0.1; positions across the first two steps (8191, 16383)
      {"attn-temperature Llama-4 (8192, 0.1)", {}, 8000, 8500},
      // short steps: many of them in a small table, a binary slope
      {"attn-temperature floor_scale=7 attn_scale=0.375", {.floor_scale = 7, .attn_scale = 0.375}, 0, 4096},
  }};

  template <class T>
  struct tables : table_status {
    config_type config{};
    std::int64_t first = 0;
    std::vector<T> scales;

    posenc::laws::temperature_table<T> temperatures() const noexcept { return {scales, first, config.floor_scale}; }
  };

  template <class T>
  static tables<T> make_tables(const example<config_type>& e) {
    tables<T> t;
    t.config = e.config;
    t.first = e.first;
    t.scales.resize(e.rows);
    t.keep(attn_temperature::fill_scales<T>(e.config, e.first, std::span<T>(t.scales)));
    return t;
  }

  static constexpr auto laws() {
    return hana::tuple<hana::type<law::temperature_one_before_step>, hana::type<law::temperature_monotone>,
                       hana::type<law::temperature_steps>>{};
  }
};

}  // namespace posenc::verify::registry
