// config_fields.hpp: the members of alibi::config as one constexpr list (posenc/config_field.hpp):
// the posenc CLI's flags and help and Python's keyword arguments and defaults are derived from it.
#pragma once

#include <cstdint>
#include <tuple>

#include "posenc/alibi/config.hpp"
#include "posenc/config_field.hpp"

namespace posenc::alibi {

inline constexpr auto config_fields = std::make_tuple(
    config_field<config, int>{
        .name = "heads", .member = &config::heads, .help = "number of heads", .need = field_need::required},
    config_field<config, double>{.name = "max_bias", .member = &config::max_bias, .help = "max_bias"});

static_assert(posenc::detail::fields_cover_config<config>(config_fields),
              "posenc: alibi::config_fields must list every member of alibi::config");
static_assert(posenc::detail::field_names_snake_case(config_fields),
              "posenc: a field name of alibi::config_fields is not snake_case");

}  // namespace posenc::alibi
