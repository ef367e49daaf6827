// registry/schemes.hpp: the list of the registry's scheme descriptors (every scheme but RoPE, whose
// registry is registry/configs.hpp and registry/laws.hpp), and the one place the verify layer lists
// the schemes: with each descriptor (registry/<scheme>.hpp: its representative configs, its tables,
// its laws) it includes the scheme's verify engine (verify/<scheme>_verify.hpp: the MPFR oracle, the
// request, verify_<scheme>), so that verify/scheme_verify.hpp, the umbrella of the engines, names
// none. registry/scheme.hpp says what a descriptor is. Adding a scheme: its descriptor and engine,
// their includes and one entry of every_scheme here.
//
//   hana::for_each(registry::every_scheme, [](auto d) {
//     using D = typename decltype(d)::type;
//     for (const auto& e : D::examples) {
//       const auto tables = D::template make_tables<float>(e);
//       for (const auto& o : registry::run_scheme_laws<D>(tables)) ...
//     }
//   });
#pragma once

#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include "posenc/verify/alibi_verify.hpp"
#include "posenc/verify/attn_temperature_verify.hpp"
#include "posenc/verify/deberta_verify.hpp"
#include "posenc/verify/kerple_verify.hpp"
#include "posenc/verify/logn_verify.hpp"
#include "posenc/verify/registry/alibi.hpp"
#include "posenc/verify/registry/attn_temperature.hpp"
#include "posenc/verify/registry/deberta.hpp"
#include "posenc/verify/registry/kerple.hpp"
#include "posenc/verify/registry/logn.hpp"
#include "posenc/verify/registry/rope_streams.hpp"
#include "posenc/verify/registry/sandwich.hpp"
#include "posenc/verify/registry/scheme.hpp"
#include "posenc/verify/registry/shaw.hpp"
#include "posenc/verify/registry/sinusoidal.hpp"
#include "posenc/verify/registry/t5.hpp"
#include "posenc/verify/registry/transformer_xl.hpp"
#include "posenc/verify/registry/xpos.hpp"
#include "posenc/verify/rope_streams_verify.hpp"
#include "posenc/verify/sandwich_verify.hpp"
#include "posenc/verify/shaw_verify.hpp"
#include "posenc/verify/sinusoidal_verify.hpp"
#include "posenc/verify/t5_verify.hpp"
#include "posenc/verify/transformer_xl_verify.hpp"
#include "posenc/verify/xpos_verify.hpp"

namespace posenc::verify::registry {

inline constexpr auto every_scheme =
    hana::tuple<hana::type<sinusoidal_scheme>, hana::type<transformer_xl_scheme>, hana::type<alibi_scheme>,
                hana::type<t5_scheme>, hana::type<deberta_scheme>, hana::type<shaw_scheme>, hana::type<xpos_scheme>,
                hana::type<kerple_log_scheme>, hana::type<kerple_power_scheme>, hana::type<sandwich_scheme>,
                hana::type<logn_scheme>, hana::type<attn_temperature_scheme>, hana::type<mrope_scheme>,
                hana::type<rope_nd_scheme>>{};

}  // namespace posenc::verify::registry
