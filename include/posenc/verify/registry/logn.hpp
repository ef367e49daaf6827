// registry/logn.hpp: the registry's descriptor of the log-n attention scaling (Su; Qwen's logn):
// representative configs and their factors of n = first .. first + rows - 1; no law of the
// registry reads them. registry/scheme.hpp says what a descriptor is.
#pragma once

#include <boost/hana/tuple.hpp>

#include <array>
#include <span>
#include <string_view>
#include <vector>

#include "posenc/logn.hpp"
#include "posenc/verify/registry/scheme.hpp"

namespace posenc::verify::registry {

struct logn_scheme {
  static constexpr std::string_view name = "logn";
  using config_type = logn::config;

  static constexpr std::array<example<config_type>, 2> examples{{
      {"log-n log_512 n (Su)", {}, 1, 4096},  // Su's log_512(n), n = 1 .. 4096
      // Qwen-7B: seq_length 2048, 1 below it, log_2048(i) past it
      {"log-n log_2048 i, at least 1 (Qwen)", {.base = 2048, .at_least_one = true}, 1, 8192},
  }};

  template <class T>
  struct tables : table_status {
    config_type config{};
    std::vector<T> factors;
  };

  template <class T>
  static tables<T> make_tables(const example<config_type>& e) {
    tables<T> t;
    t.config = e.config;
    t.factors.resize(e.rows);
    t.keep(logn::fill_factors<T>(e.config, e.first, std::span<T>(t.factors)));
    return t;
  }

  static constexpr auto laws() { return hana::tuple<>{}; }
};

}  // namespace posenc::verify::registry
