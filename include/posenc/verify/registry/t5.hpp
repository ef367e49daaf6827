// registry/t5.hpp: the registry's descriptor of T5's relative buckets (Raffel et al.; HF's
// _relative_position_bucket): representative configs, their table (one bucket per relative position
// key - query), their laws (the bucket laws, registry/bucket_laws.hpp; a causal config has no sign
// partition). registry/scheme.hpp says what a descriptor is.
#pragma once

#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "posenc/laws/bucket/table.hpp"
#include "posenc/t5.hpp"
#include "posenc/verify/registry/bucket_laws.hpp"
#include "posenc/verify/registry/scheme.hpp"

namespace posenc::verify::registry {

struct t5_scheme {
  static constexpr std::string_view name = "t5-bucket";
  using config_type = t5::config;

  static constexpr std::array<example<config_type>, 2> examples{{
      {"T5 32/128 bidirectional", {}, -400, 801},                 // T5-small encoder: 32 buckets, 128
      {"T5 32/128 causal", {.bidirectional = false}, -400, 801},  // T5-small decoder self-attention
  }};

  template <class T>
  struct tables : table_status {
    config_type config{};
    std::int64_t first = 0;             // the relative position of buckets[0]
    std::vector<std::int64_t> buckets;  // one per relative position first, first + 1, ...

    laws::bucket_table<std::int64_t> bucket_view() const noexcept { return {buckets, first}; }
    laws::bucket_spec spec() const noexcept { return laws::t5_bucket_spec(config); }
  };

  template <class T>
  static tables<T> make_tables(const example<config_type>& e) {
    tables<T> t;
    t.config = e.config;
    t.first = e.first;
    for (std::size_t k = 0; k < e.rows; ++k) {
      const auto b = t5::bucket(t5::checked_config{e.config}, e.first + static_cast<std::int64_t>(k));
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
