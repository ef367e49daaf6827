// config_fields.hpp: the members of sinusoidal::config as one constexpr list (posenc/config_field.hpp):
// the posenc CLI's flags and help and Python's keyword arguments and defaults are derived from it.
#pragma once

#include <cstdint>
#include <tuple>

#include "posenc/config_field.hpp"
#include "posenc/sinusoidal/config.hpp"

namespace posenc::sinusoidal {

inline constexpr auto config_fields = std::make_tuple(
    config_field<config, int>{
        .name = "dim", .member = &config::dim, .help = "model dimension (even)", .need = field_need::required},
    config_field<config, double>{.name = "base", .member = &config::base, .help = "frequency base"},
    config_field<config, sinusoidal::exponent, 2>{
        .name = "exponent",
        .member = &config::exponent,
        .help = "2i/d (paper) or i/(d/2 - 1) (fairseq)",
        .names = {{{"paper", exponent::paper}, {"fairseq", exponent::fairseq}}}},
    config_field<config, sinusoidal::layout, 2>{
        .name = "layout",
        .member = &config::layout,
        .help = "sin, cos, ... (interleaved) or sin... | cos... (concat)",
        .names = {{{"interleaved", layout::interleaved}, {"concat", layout::concat}}}});

static_assert(posenc::detail::fields_cover_config<config>(config_fields),
              "posenc: sinusoidal::config_fields must list every member of sinusoidal::config");
static_assert(posenc::detail::field_names_snake_case(config_fields),
              "posenc: a field name of sinusoidal::config_fields is not snake_case");

}  // namespace posenc::sinusoidal
