// registry/kerple.hpp: the registry's descriptors of KERPLE (Chi et al. 2022), its log and power
// kernels: representative heads and their tables (heads x distances); no law of the registry reads
// them. registry/scheme.hpp says what a descriptor is.
//
// The heads have parameters in the ranges trained models settle in (chijames/KERPLE: p, a
// initialised from U(0, 2), U(0, 1), clamped at 0.01); binary fractions, so they are the exact
// values a checkpoint would hold after rounding to these many bits.
#pragma once

#include <boost/hana/tuple.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "posenc/kerple.hpp"
#include "posenc/status.hpp"
#include "posenc/verify/registry/scheme.hpp"

namespace posenc::verify::registry {

// The heads of a KERPLE config (Head: kerple::log_config or kerple::power_config).
template <class Head>
struct kerple_heads {
  std::array<Head, 4> head{};
  std::size_t count = 0;
};

namespace detail {

// One KERPLE kernel's descriptor; Fill::fill(head, row) is its generator.
template <class Head, class Fill>
struct kerple_kernel {
  using config_type = kerple_heads<Head>;

  template <class T>
  struct tables : table_status {
    config_type config{};
    std::vector<T> by_distance;  // heads x distances 0 .. rows - 1
  };

  template <class T>
  static tables<T> make_tables(const example<config_type>& e) {
    tables<T> t;
    t.config = e.config;
    t.by_distance.resize(e.config.count * e.rows);
    for (std::size_t h = 0; h < e.config.count; ++h)
      t.keep(Fill::fill(e.config.head[h], std::span<T>(t.by_distance.data() + h * e.rows, e.rows)));
    return t;
  }

  static constexpr auto laws() { return hana::tuple<>{}; }
};

struct fill_log {
  template <class T>
  static posenc::status fill(const kerple::log_config& c, std::span<T> row) {
    return kerple::fill_log_bias<T>(c, row);
  }
};
struct fill_power {
  template <class T>
  static posenc::status fill(const kerple::power_config& c, std::span<T> row) {
    return kerple::fill_power_bias<T>(c, row);
  }
};

}  // namespace detail

struct kerple_log_scheme : detail::kerple_kernel<kerple::log_config, detail::fill_log> {
  static constexpr std::string_view name = "kerple-log";
  static constexpr std::array<example<config_type>, 1> examples{{
      {"KERPLE-log 4 heads",
       {{{{.p = 1.5, .a = 0.5}, {.p = 0.75, .a = 0.125}, {.p = 0x1.8p-2, .a = 0x1.4p-5}, {.p = 0.01, .a = 0.01}}}, 4},
       0,
       512},
  }};
};

struct kerple_power_scheme : detail::kerple_kernel<kerple::power_config, detail::fill_power> {
  static constexpr std::string_view name = "kerple-power";
  static constexpr std::array<example<config_type>, 1> examples{{
      {"KERPLE-power 4 heads",
       {{{{.a = 0.5, .p = 1.0}, {.a = 0.25, .p = 0.5}, {.a = 0x1.4p-3, .p = 1.25}, {.a = 0.01, .p = 2.0}}}, 4},
       0,
       512},
  }};
};

}  // namespace posenc::verify::registry
