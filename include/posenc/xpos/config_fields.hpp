// config_fields.hpp: the members of xpos::config as one constexpr list (posenc/config_field.hpp):
// the posenc CLI's flags and help and Python's keyword arguments and defaults are derived from it.
#pragma once

#include <cstdint>
#include <tuple>

#include "posenc/config_field.hpp"
#include "posenc/xpos/config.hpp"

namespace posenc::xpos {

inline constexpr auto config_fields = std::make_tuple(
    config_field<config, int>{
        .name = "head_dim", .member = &config::head_dim, .help = "head dimension (even)", .need = field_need::required},
    config_field<config, int>{.name = "scale_base", .member = &config::scale_base, .help = "scale_base"});

static_assert(posenc::detail::fields_cover_config<config>(config_fields),
              "posenc: xpos::config_fields must list every member of xpos::config");
static_assert(posenc::detail::field_names_snake_case(config_fields),
              "posenc: a field name of xpos::config_fields is not snake_case");

}  // namespace posenc::xpos
