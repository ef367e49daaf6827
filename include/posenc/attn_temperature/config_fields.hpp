// config_fields.hpp: the members of attn_temperature::config as one constexpr list
// (posenc/config_field.hpp): the posenc CLI's flags and help and Python's keyword arguments and
// defaults are derived from it.
#pragma once

#include <cstdint>
#include <tuple>

#include "posenc/attn_temperature/config.hpp"
#include "posenc/config_field.hpp"

namespace posenc::attn_temperature {

inline constexpr auto config_fields = std::make_tuple(
    config_field<config, std::int64_t>{
        .name = "floor_scale", .member = &config::floor_scale, .help = "positions per step of the temperature"},
    config_field<config, double>{
        .name = "attn_scale", .member = &config::attn_scale, .help = "slope: 1 + attn_scale log(1 + step)"});

static_assert(posenc::detail::fields_cover_config<config>(config_fields),
              "posenc: attn_temperature::config_fields must list every member of attn_temperature::config");
static_assert(posenc::detail::field_names_snake_case(config_fields),
              "posenc: a field name of attn_temperature::config_fields is not snake_case");

}  // namespace posenc::attn_temperature
