// config_fields.hpp: the members of t5::config as one constexpr list (posenc/config_field.hpp):
// the posenc CLI's flags and help and Python's keyword arguments and defaults are derived from it.
#pragma once

#include <cstdint>
#include <tuple>

#include "posenc/config_field.hpp"
#include "posenc/t5/config.hpp"

namespace posenc::t5 {

inline constexpr auto config_fields =
    std::make_tuple(config_field<config, int>{.name = "num_buckets",
                                              .member = &config::relative_attention_num_buckets,
                                              .help = "relative_attention_num_buckets",
                                              .need = field_need::required},
                    config_field<config, std::int64_t>{.name = "max_distance",
                                                       .member = &config::relative_attention_max_distance,
                                                       .help = "relative_attention_max_distance",
                                                       .need = field_need::required},
                    config_field<config, bool>{.name = "bidirectional",
                                               .member = &config::bidirectional,
                                               .help = "encoder buckets (off: decoder self-attention, HF is_decoder)",
                                               .cli_alias = "causal"});

static_assert(posenc::detail::fields_cover_config<config>(config_fields),
              "posenc: t5::config_fields must list every member of t5::config");
static_assert(posenc::detail::field_names_snake_case(config_fields),
              "posenc: a field name of t5::config_fields is not snake_case");

}  // namespace posenc::t5
