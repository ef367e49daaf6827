// registry/sinusoidal.hpp: the registry's descriptor of the sinusoidal encodings (Vaswani et al.;
// fairseq, tensor2tensor, Marian): representative configs, their tables, their laws (the sinusoid
// laws, registry/sinusoid_laws.hpp). registry/scheme.hpp says what a descriptor is.
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
#include "posenc/verify/registry/scheme.hpp"
#include "posenc/verify/registry/sinusoid_laws.hpp"

namespace posenc::verify::registry {

struct sinusoidal_scheme {
  static constexpr std::string_view name = "sinusoidal";
  using config_type = sinusoidal::config;

  static constexpr std::array<example<config_type>, 3> examples{{
      // Vaswani et al. d_model 512; XLM, DistilBERT, Marian
      {"sinusoidal paper d=512", {.dim = 512}, 0, 512},
      // fairseq get_embedding / tensor2tensor, concat
      {"sinusoidal fairseq d=512",
       {.dim = 512, .exponent = sinusoidal::exponent::fairseq, .layout = sinusoidal::layout::concat},
       -256,
       512},
      // odd d, concat with the paper's exponent: a lone sin column
      {"sinusoidal concat d=15", {.dim = 15, .layout = sinusoidal::layout::concat}, 0, 300},
  }};

  // rows x dim values, row r at position first + r.
  template <class T>
  struct tables : table_status {
    config_type config{};
    std::int64_t first = 0;
    std::vector<T> values;

    laws::sinusoid_table<T> sinusoids() const noexcept { return {values, config, first}; }
  };

  template <class T>
  static tables<T> make_tables(const example<config_type>& e) {
    tables<T> t;
    t.config = e.config;
    t.first = e.first;
    t.values.resize(e.rows * static_cast<std::size_t>(e.config.dim));
    t.keep(sinusoidal::fill_table<T>(sinusoidal::checked_config{e.config}, e.first, std::span<T>(t.values)));
    return t;
  }

  static constexpr auto laws() {
    return hana::tuple<hana::type<law::sinusoid_shift>, hana::type<law::sinusoid_relative_dot>>{};
  }
};

}  // namespace posenc::verify::registry
