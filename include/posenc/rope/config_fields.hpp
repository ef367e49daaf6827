// config_fields.hpp: the members of rope::config as one constexpr list, with their HuggingFace
// names, so that every reader and writer of a config (the posenc CLI's flags, its config reader and
// the config comment it writes; a config.json reader) is derived from one place.
//
//   rope::config_fields       a std::tuple of rope::config_field<M>: {name, &config::member,
//                             source, help}, one per member, in declaration order
//   rope::for_each_config_field(f)   calls f(field) for each, in that order
//
// The pattern of Boost.Hana's BOOST_HANA_ADAPT_STRUCT (hana/adapt_struct.hpp): one list of
// members from which both the names and the accessors come, so that a new member is one line here
// and every consumer follows. The member pointers have different types (int, double, scaling,
// std::optional<double>, std::span<const double>, ...), hence a tuple and a visitor rather than an
// array; a consumer dispatches on the member's type.
//
// name is HF's key exactly (config.json's top level, its rope_scaling dict, or v5's
// rope_parameters) when source == field_source::hf_key. Two members have no key of their own:
// seq_len is an argument of HF's forward (dynamic NTK's and LongRoPE's sequence length), and
// proportional is v5's rope_type "proportional" (with rope_type default_, or linear when a factor
// divides the frequencies). Their names are then posenc's member names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>

#include "posenc/config_field.hpp"
#include "posenc/rope/config.hpp"

namespace posenc::rope {

enum class field_source : unsigned char {
  hf_key,           // name is a key of HF's config.json / rope_scaling / rope_parameters
  forward_arg,      // not in config.json: an argument of the model's forward (seq_len)
  rope_type_value,  // not a key: HF writes it as a value of rope_type (proportional)
};

template <class M>
struct config_field {
  using member_type = M;
  std::string_view name;  // HF's key (see source), snake_case
  M config::*member;
  field_source source;
  std::string_view help;  // one line, for help texts and generated comments
};

// The list. Order: config.hpp's declaration order (a comment or a help text lists fields in it).
inline constexpr auto config_fields = std::make_tuple(
    config_field<int>{"head_dim", &config::head_dim, field_source::hf_key,
                      "head dimension (or hidden_size / num_attention_heads)"},
    config_field<double>{"rope_theta", &config::rope_theta, field_source::hf_key, "the base b (default 10000)"},
    config_field<double>{"partial_rotary_factor", &config::partial_rotary_factor, field_source::hf_key,
                         "rotary dim = floor(head_dim * this) (default 1)"},
    config_field<int>{"rotary_dim", &config::rotary_dim, field_source::hf_key,
                      "the rotary dim itself, if > 0 (GPT-J's key; default 0: unset)"},
    config_field<scaling>{"rope_type", &config::rope_type, field_source::hf_key, "the scaling (default: default)"},
    config_field<double>{"factor", &config::factor, field_source::hf_key,
                         "scaling factor s (0: unset; yarn/longrope then use max / original max)"},
    config_field<std::int64_t>{"original_max_position_embeddings", &config::original_max_position_embeddings,
                               field_source::hf_key, "pre-training context length L0"},
    config_field<std::int64_t>{"max_position_embeddings", &config::max_position_embeddings, field_source::hf_key,
                               "context length"},
    config_field<std::int64_t>{"seq_len", &config::seq_len, field_source::forward_arg,
                               "dynamic: the sequence length; longrope: long factors iff > L0"},
    config_field<double>{"beta_fast", &config::beta_fast, field_source::hf_key, "yarn (default 32)"},
    config_field<double>{"beta_slow", &config::beta_slow, field_source::hf_key, "yarn (default 1)"},
    config_field<double>{"mscale", &config::mscale, field_source::hf_key, "yarn (DeepSeek; 0: unset)"},
    config_field<double>{"mscale_all_dim", &config::mscale_all_dim, field_source::hf_key, "yarn (DeepSeek; 0: unset)"},
    config_field<std::optional<double>>{"attention_factor", &config::attention_factor, field_source::hf_key,
                                        "yarn/longrope: explicit attention factor (default: computed)"},
    config_field<bool>{"truncate", &config::truncate, field_source::hf_key,
                       "yarn: floor/ceil the correction range (default true)"},
    config_field<double>{"low_freq_factor", &config::low_freq_factor, field_source::hf_key, "llama3 (default 1)"},
    config_field<double>{"high_freq_factor", &config::high_freq_factor, field_source::hf_key, "llama3 (default 4)"},
    config_field<std::span<const double>>{"short_factor", &config::short_factor, field_source::hf_key,
                                          "longrope: rotary_dim/2 factors (short contexts)"},
    config_field<std::span<const double>>{"long_factor", &config::long_factor, field_source::hf_key,
                                          "longrope: rotary_dim/2 factors (seq_len > original max)"},
    config_field<bool>{"proportional", &config::proportional, field_source::rope_type_value,
                       "exponents 2j/head_dim, pairs from floor(partial_rotary_factor * head_dim / 2) on "
                       "unrotated (HF v5 rope_type proportional; default/linear only)"});

// f(field) for every field, in order. f is called with config_field<M> for each member type M, so
// it is typically a generic lambda that dispatches on decltype(field)::member_type.
template <class F>
constexpr void for_each_config_field(F&& f) {
  std::apply([&f](const auto&... field) { (f(field), ...); }, config_fields);
}

inline constexpr std::size_t config_field_count = std::tuple_size_v<decltype(config_fields)>;

}  // namespace posenc::rope

namespace posenc::rope::detail {

// A member added to rope::config without its line in config_fields stops the build here (and a
// line for a member that went away, at its &config::member). The count is config_field.hpp's, the
// one every scheme's list is checked with.
static_assert(posenc::detail::aggregate_member_count<rope::config>() == rope::config_field_count,
              "posenc: rope::config_fields must list every member of rope::config");

}  // namespace posenc::rope::detail
