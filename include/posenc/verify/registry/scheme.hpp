// registry/scheme.hpp: what a scheme descriptor of the registry is, and the runner of its laws.
// Each scheme other than RoPE has one descriptor (registry/<scheme>.hpp), and everything above the
// core iterates the list of them (registry/schemes.hpp: every_scheme) instead of switching on a
// scheme: the law runner here, the tests, the verify engines (which build the descriptor's tables
// from a request and run its laws). RoPE's registry is registry/configs.hpp and registry/laws.hpp.
//
// A descriptor D:
//   static constexpr std::string_view name;               // the CLI's table name ("alibi")
//   using config_type = ...;                                // its config (alibi::config)
//   static constexpr std::array<example<config_type>, N> examples;   // representative configs
//   template <class T> struct tables;                       // its tables in dtype T (std::vector),
//                                                           // with .config and .status
//   template <class T> static tables<T> make_tables(const example<config_type>&);   // posenc's
//   static constexpr auto laws();                           // hana::tuple of hana::type<law>
// and a law L:
//   static constexpr const char* name;
//   template <class C> static constexpr bool applies_to(const C& config);   // which configs obey it
//   template <class Tables> static posenc::laws::law_result core(const Tables&);   // its constexpr law
// A scheme whose tables no law reads (KERPLE, Sandwich, log-n) lists none: its tables are still
// built in every dtype by the registry test, so their generators run. verify layer (not core): the
// tables are built at run time, in std::vector, at sizes past constant evaluation's.
#pragma once

#include <boost/hana/for_each.hpp>
#include <boost/hana/length.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "posenc/laws/law_result.hpp"
#include "posenc/status.hpp"

namespace posenc::verify::registry {

namespace hana = boost::hana;

// One representative config of a scheme and the range its tables cover.
template <class Config>
struct example {
  const char* name = "";
  Config config{};
  std::int64_t first = 0;  // first position (sinusoidal, XPOS, log-n) or relative position (buckets: -range)
  std::size_t rows = 0;    // positions (sinusoidal, XPOS, log-n), queries = keys (ALiBi), relative
                           // positions (buckets), distances 0 .. rows - 1 (KERPLE, Sandwich)
};

// What a law of a descriptor did on a table: ran (with its result) or does not apply to its config.
struct scheme_outcome {
  const char* law = "";
  bool ran = false;
  posenc::laws::law_result result{};
};

// The tables' status: the first error of the generators that built them, or ok.
struct table_status {
  posenc::status status = posenc::status::ok;
  void keep(posenc::status e) noexcept {
    if (status == posenc::status::ok) status = e;
  }
};

// Every law of descriptor D on its tables t, in D::laws() order.
template <class D, class Tables>
std::vector<scheme_outcome> run_scheme_laws(const Tables& t) {
  std::vector<scheme_outcome> out;
  hana::for_each(D::laws(), [&](auto l) {
    using L = typename decltype(l)::type;
    scheme_outcome o{L::name, false, {}};
    if (L::applies_to(t.config)) o.ran = true, o.result = L::core(t);
    out.push_back(o);
  });
  return out;
}

// The number of laws D lists.
template <class D>
inline constexpr std::size_t law_count = decltype(hana::length(D::laws()))::value;

}  // namespace posenc::verify::registry
