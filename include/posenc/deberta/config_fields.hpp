// config_fields.hpp: the members of deberta::config as one constexpr list (posenc/config_field.hpp):
// the posenc CLI's flags and help and Python's keyword arguments and defaults are derived from it.
#pragma once

#include <cstdint>
#include <tuple>

#include "posenc/config_field.hpp"
#include "posenc/deberta/config.hpp"

namespace posenc::deberta {

inline constexpr auto config_fields =
    std::make_tuple(config_field<config, int>{.name = "position_buckets",
                                              .member = &config::position_buckets,
                                              .help = "position_buckets (bucket_size)",
                                              .cli_alias = "bucket-size"},
                    config_field<config, std::int64_t>{.name = "max_relative_positions",
                                                       .member = &config::max_relative_positions,
                                                       .help = "max_relative_positions (max_position)",
                                                       .cli_alias = "max-position"});

static_assert(posenc::detail::fields_cover_config<config>(config_fields),
              "posenc: deberta::config_fields must list every member of deberta::config");
static_assert(posenc::detail::field_names_snake_case(config_fields),
              "posenc: a field name of deberta::config_fields is not snake_case");

}  // namespace posenc::deberta
