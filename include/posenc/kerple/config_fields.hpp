// config_fields.hpp: the members of KERPLE's one-head configs (kerple::log_config, power_config) as
// constexpr lists (posenc/config_field.hpp). A KERPLE table has a config per head, so the posenc CLI
// reads each field as a list with one value per head (--p P0,P1,... --a A0,A1,...) and Python takes
// a sequence per keyword (p=[...], a=[...]); the names, the help and the need come from here.
#pragma once

#include <tuple>

#include "posenc/config_field.hpp"
#include "posenc/kerple/config.hpp"

namespace posenc::kerple {

// p first in both, as KERPLE's papers and the CLI's usage line write them.
inline constexpr auto log_config_fields = std::make_tuple(
    config_field<log_config, double>{
        .name = "p", .member = &log_config::p, .help = "p of each head: -p log(1 + a k)", .need = field_need::required},
    config_field<log_config, double>{
        .name = "a", .member = &log_config::a, .help = "a of each head", .need = field_need::required});

inline constexpr auto power_config_fields = std::make_tuple(
    config_field<power_config, double>{
        .name = "p", .member = &power_config::p, .help = "p of each head: -a k^p", .need = field_need::required},
    config_field<power_config, double>{
        .name = "a", .member = &power_config::a, .help = "a of each head", .need = field_need::required});

static_assert(posenc::detail::fields_cover_config<log_config>(log_config_fields),
              "posenc: kerple::log_config_fields must list every member of kerple::log_config");
static_assert(posenc::detail::fields_cover_config<power_config>(power_config_fields),
              "posenc: kerple::power_config_fields must list every member of kerple::power_config");
static_assert(posenc::detail::field_names_snake_case(log_config_fields) &&
                  posenc::detail::field_names_snake_case(power_config_fields),
              "posenc: a field name of kerple's config fields is not snake_case");

}  // namespace posenc::kerple
