// config_fields.hpp: the members of shaw::config as one constexpr list (posenc/config_field.hpp):
// the posenc CLI's flags and help and Python's keyword arguments and defaults are derived from it.
#pragma once

#include <cstdint>
#include <tuple>

#include "posenc/config_field.hpp"
#include "posenc/shaw/config.hpp"

namespace posenc::shaw {

inline constexpr auto config_fields = std::make_tuple(config_field<config, int>{
    .name = "max_relative_position", .member = &config::max_relative_position, .help = "the clip k"});

static_assert(posenc::detail::fields_cover_config<config>(config_fields),
              "posenc: shaw::config_fields must list every member of shaw::config");
static_assert(posenc::detail::field_names_snake_case(config_fields),
              "posenc: a field name of shaw::config_fields is not snake_case");

}  // namespace posenc::shaw
