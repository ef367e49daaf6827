// registry/shaw.hpp: the registry's descriptor of Shaw et al.'s clipped relative indices:
// a representative config, its table (one index per relative position key - query), its laws (the
// bucket laws, registry/bucket_laws.hpp). registry/scheme.hpp says what a descriptor is.
#pragma once

#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "posenc/laws/bucket/table.hpp"
#include "posenc/shaw.hpp"
#include "posenc/verify/registry/bucket_laws.hpp"
#include "posenc/verify/registry/scheme.hpp"

namespace posenc::verify::registry {

struct shaw_scheme {
  static constexpr std::string_view name = "shaw";
  using config_type = shaw::config;

  static constexpr std::array<example<config_type>, 1> examples{{
      {"Shaw k=20", {}, -64, 129},  // tensor2tensor's default max_relative_position 20
  }};

  template <class T>
  struct tables : table_status {
    config_type config{};
    std::int64_t first = 0;
    std::vector<std::int64_t> buckets;

    laws::bucket_table<std::int64_t> bucket_view() const noexcept { return {buckets, first}; }
    laws::bucket_spec spec() const noexcept { return laws::shaw_bucket_spec(config.max_relative_position); }
  };

  template <class T>
  static tables<T> make_tables(const example<config_type>& e) {
    tables<T> t;
    t.config = e.config;
    t.first = e.first;
    for (std::size_t k = 0; k < e.rows; ++k) {
      const auto b = shaw::relative_index(e.config, 0, e.first + static_cast<std::int64_t>(k));
      t.keep(b.error);
      t.buckets.push_back(b.value);
    }
    return t;
  }

  static constexpr auto laws() {
    return hana::tuple<hana::type<law::bucket_monotone>, hana::type<law::bucket_bounded>,
                       hana::type<law::bucket_saturation>, hana::type<law::bucket_sign_partition>>{};
  }
};

}  // namespace posenc::verify::registry
