// registry.hpp: the Boost.Hana registry of the RoPE configs (registry/configs.hpp) and of every law
// of their tables, listed once with the configs it applies to (registry/laws.hpp).
//
//   namespace reg = posenc::verify::registry;
//   hana::for_each(reg::all, [](auto c) {
//     using C = typename decltype(c)::type;      // C::name, C::config (constexpr rope::config)
//     hana::for_each(reg::every_law, [](auto l) {
//       using L = typename decltype(l)::type;    // L::name, L::core (posenc/laws/), L::measured (MPFR)
//       if constexpr (reg::applies_v<C, L>) { ... }
//     });
//   });
//
// applies(hana::type_c<C>, hana::type_c<L>) is a hana::bool_, applies_v<C, L> its value: the law's
// own predicate on the config (L::applies_to(C::config)), so that the list of which law holds where
// is written once, and the run-time runner (verify/law_measures/table_laws.hpp) reads the same predicate
// for a config known only at run time.
#pragma once

#include <boost/hana/bool.hpp>
#include <boost/hana/type.hpp>

#include "posenc/verify/registry/configs.hpp"
#include "posenc/verify/registry/laws.hpp"

namespace posenc::verify::registry {

template <class Config, class Law>
inline constexpr bool applies_v = Law::applies_to(Config::config);

template <class Config, class Law>
constexpr auto applies(hana::basic_type<Config>, hana::basic_type<Law>) {
  return hana::bool_c<applies_v<Config, Law>>;
}

}  // namespace posenc::verify::registry
