// registry/deberta.hpp: the registry's descriptor of DeBERTa's log buckets (make_log_bucket_position):
// a representative config, its table (one bucket per relative position query - key), its laws (the
// bucket laws, registry/bucket_laws.hpp). registry/scheme.hpp says what a descriptor is.
#pragma once

#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "posenc/deberta.hpp"
#include "posenc/laws/bucket/table.hpp"
#include "posenc/verify/registry/bucket_laws.hpp"
#include "posenc/verify/registry/scheme.hpp"

namespace posenc::verify::registry {

struct deberta_scheme {
  static constexpr std::string_view name = "deberta-bucket";
  using config_type = deberta::config;

  static constexpr std::array<example<config_type>, 1> examples{{
      {"DeBERTa-v3 256/512", {}, -511, 1023},  // deberta-v3-base: 256 buckets, 512
  }};

  template <class T>
  struct tables : table_status {
    config_type config{};
    std::int64_t first = 0;
    std::vector<std::int64_t> buckets;

    laws::bucket_table<std::int64_t> bucket_view() const noexcept { return {buckets, first}; }
    laws::bucket_spec spec() const noexcept { return laws::deberta_bucket_spec(config); }
  };

  template <class T>
  static tables<T> make_tables(const example<config_type>& e) {
    tables<T> t;
    t.config = e.config;
    t.first = e.first;
    t.buckets.resize(e.rows);
    t.keep(deberta::fill_buckets(deberta::checked_config{e.config}, e.first, std::span<std::int64_t>(t.buckets)));
    return t;
  }

  static constexpr auto laws() {
    return hana::tuple<hana::type<law::bucket_monotone>, hana::type<law::bucket_bounded>,
                       hana::type<law::bucket_saturation>, hana::type<law::bucket_sign_partition>>{};
  }
};

}  // namespace posenc::verify::registry
