// registry/alibi.hpp: the registry's descriptor of ALiBi (Press et al. 2022; BLOOM, MPT, Falcon):
// representative configs, their tables (the slopes, and the dense heads x n x n biases), their laws
// (docs/laws.md section 7). registry/scheme.hpp says what a descriptor is.
//
// alibi_power_of_two_slopes needs a head whose exponent e_h is an integer (has_power_of_two_slope;
// every example has one, e.g. 2^-1 at head 3 of 5 heads with max_bias 1).
#pragma once

#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "posenc/alibi.hpp"
#include "posenc/laws/alibi/bias_table.hpp"
#include "posenc/laws/alibi/geometric_slopes.hpp"
#include "posenc/laws/alibi/monotone_bias.hpp"
#include "posenc/laws/alibi/power_of_two_slopes.hpp"
#include "posenc/laws/alibi/relative_bias.hpp"
#include "posenc/laws/law_result.hpp"
#include "posenc/verify/registry/scheme.hpp"

namespace posenc::verify::registry {

namespace law {

// Some head's exponent e_h is an integer (its slope a power of two).
constexpr bool has_power_of_two_slope(const alibi::config& c) noexcept {
  const alibi::checked_config cc{c};
  for (int h = 0; h < c.heads; ++h)
    if (alibi::slope_exponent_of(cc, h).value.den == 1) return true;
  return false;
}

struct alibi_geometric_slopes {
  static constexpr const char* name = "alibi geometric slopes";
  static constexpr bool fixed_point_too = true;  // per head, from the values (docs/fixed-point.md)
  static constexpr bool applies_to(const alibi::config&) noexcept { return true; }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::alibi_geometric_slopes(t.slope_span(), t.config);
  }
};
struct alibi_power_of_two_slopes {
  static constexpr const char* name = "alibi power-of-two slopes";
  static constexpr bool fixed_point_too = true;  // 2^-e, e <= F, is on the grid and below 1
  static constexpr bool applies_to(const alibi::config& c) noexcept { return has_power_of_two_slope(c); }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::alibi_power_of_two_slopes(t.slope_span(), t.config);
  }
};
struct alibi_relative_bias {
  static constexpr const char* name = "alibi relative bias";
  static constexpr bool applies_to(const alibi::config&) noexcept { return true; }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::alibi_relative_bias(t.biases(false));
  }
};
struct alibi_monotone_bias {
  static constexpr const char* name = "alibi monotone bias";
  static constexpr bool applies_to(const alibi::config&) noexcept { return true; }
  template <class Tables>
  static posenc::laws::law_result core(const Tables& t) {
    return posenc::laws::alibi_monotone_bias(t.biases(false));
  }
};

}  // namespace law

struct alibi_scheme {
  static constexpr std::string_view name = "alibi";
  using config_type = alibi::config;

  static constexpr std::array<example<config_type>, 4> examples{{
      {"ALiBi 16 heads (BLOOM)", {.heads = 16}, 0, 64},                    // BLOOM-176B/7B1 (build_alibi_tensor)
      {"ALiBi 12 heads", {.heads = 12}, 0, 64},                            // not a power of two: 8 + 4 interleaved
      {"ALiBi 32 heads (MPT-7B)", {.heads = 32}, 0, 48},                   // MPT-7B: alibi_bias_max 8
      {"ALiBi 5 heads max_bias 1", {.heads = 5, .max_bias = 1.0}, 0, 48},  // irrational slopes but the last
  }};

  template <class T>
  struct tables : table_status {
    config_type config{};
    std::size_t positions = 0;  // queries = keys of the biases
    std::vector<T> slopes;      // one per head
    std::vector<T> values;      // heads x positions x positions biases -m_h |i - j|

    std::span<const T> slope_span() const noexcept { return slopes; }
    laws::alibi_bias_table<T> biases(bool causal) const noexcept {
      return {values, static_cast<std::size_t>(config.heads), positions, positions, 0, 0, causal};
    }
  };

  template <class T>
  static tables<T> make_tables(const example<config_type>& e) {
    tables<T> t;
    t.config = e.config;
    t.positions = e.rows;
    const alibi::checked_config cc{e.config};
    const auto heads = static_cast<std::size_t>(e.config.heads), n = e.rows;
    t.slopes.resize(heads);
    t.keep(alibi::fill_slopes<T>(cc, std::span<T>(t.slopes)));
    t.values.resize(heads * n * n);
    std::vector<T> by_distance(n);
    for (std::size_t h = 0; h < heads; ++h) {
      t.keep(alibi::fill_bias_by_distance<T>(cc, static_cast<int>(h), std::span<T>(by_distance)));
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) t.values[(h * n + i) * n + j] = by_distance[i >= j ? i - j : j - i];
    }
    return t;
  }

  static constexpr auto laws() {
    return hana::tuple<hana::type<law::alibi_geometric_slopes>, hana::type<law::alibi_power_of_two_slopes>,
                       hana::type<law::alibi_relative_bias>, hana::type<law::alibi_monotone_bias>>{};
  }
};

}  // namespace posenc::verify::registry
