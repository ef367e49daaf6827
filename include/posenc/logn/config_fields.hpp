// config_fields.hpp: the members of logn::config as one constexpr list (posenc/config_field.hpp):
// the posenc CLI's flags and help and Python's keyword arguments and defaults are derived from it.
#pragma once

#include <cstdint>
#include <tuple>

#include "posenc/config_field.hpp"
#include "posenc/logn/config.hpp"

namespace posenc::logn {

inline constexpr auto config_fields =
    std::make_tuple(config_field<config, std::int64_t>{.name = "base", .member = &config::base, .help = "log base"},
                    config_field<config, bool>{.name = "at_least_one",
                                               .member = &config::at_least_one,
                                               .help = "1 for n <= base (Qwen's logn; default: Su's log_base n)"});

static_assert(posenc::detail::fields_cover_config<config>(config_fields),
              "posenc: logn::config_fields must list every member of logn::config");
static_assert(posenc::detail::field_names_snake_case(config_fields),
              "posenc: a field name of logn::config_fields is not snake_case");

}  // namespace posenc::logn
