// config_fields.hpp: the members of transformer_xl::config as one constexpr list (posenc/config_field.hpp):
// the posenc CLI's flags and help and Python's keyword arguments and defaults are derived from it.
#pragma once

#include <cstdint>
#include <tuple>

#include "posenc/config_field.hpp"
#include "posenc/transformer_xl/config.hpp"

namespace posenc::transformer_xl {

inline constexpr auto config_fields = std::make_tuple(
    config_field<config, int>{
        .name = "d_model", .member = &config::d_model, .help = "d_model (even)", .need = field_need::required},
    config_field<config, std::int64_t>{
        .name = "klen", .member = &config::klen, .help = "memory + segment length", .need = field_need::required},
    config_field<config, transformer_xl::model, 2>{
        .name = "model",
        .member = &config::model,
        .help = "whose positions",
        .names = {{{"transformer-xl", model::transformer_xl}, {"xlnet", model::xlnet}}}},
    config_field<config, std::int64_t>{.name = "qlen", .member = &config::qlen, .help = "xlnet: segment length"},
    config_field<config, std::int64_t>{
        .name = "clamp_len", .member = &config::clamp_len, .help = "clamp_len (-1: no clamp)"},
    config_field<config, attention, 2>{.name = "attn_type",
                                       .member = &config::attn_type,
                                       .help = "xlnet: attn_type",
                                       .names = {{{"bi", attention::bi}, {"uni", attention::uni}}}},
    config_field<config, bool>{
        .name = "bi_data", .member = &config::bi_data, .help = "xlnet: forward and backward halves"});

static_assert(posenc::detail::fields_cover_config<config>(config_fields),
              "posenc: transformer_xl::config_fields must list every member of transformer_xl::config");
static_assert(posenc::detail::field_names_snake_case(config_fields),
              "posenc: a field name of transformer_xl::config_fields is not snake_case");

}  // namespace posenc::transformer_xl
