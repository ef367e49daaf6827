// config_fields.hpp: the members of sandwich::config as one constexpr list (posenc/config_field.hpp):
// the posenc CLI's flags and help and Python's keyword arguments and defaults are derived from it.
#pragma once

#include <cstdint>
#include <tuple>

#include "posenc/config_field.hpp"
#include "posenc/sandwich/config.hpp"

namespace posenc::sandwich {

inline constexpr auto config_fields = std::make_tuple(
    config_field<config, int>{
        .name = "dim", .member = &config::dim, .help = "per-head dimension", .need = field_need::required},
    config_field<config, int>{
        .name = "heads", .member = &config::heads, .help = "number of heads", .need = field_need::required});

static_assert(posenc::detail::fields_cover_config<config>(config_fields),
              "posenc: sandwich::config_fields must list every member of sandwich::config");
static_assert(posenc::detail::field_names_snake_case(config_fields),
              "posenc: a field name of sandwich::config_fields is not snake_case");

}  // namespace posenc::sandwich
