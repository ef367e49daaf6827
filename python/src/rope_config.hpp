// rope_config.hpp: a RoPE config for the bindings: a config.json's text read by posenc::io (or
// rope::config's defaults when there is none), then keyword overrides by rope::config's field names
// (HF's keys, plus seq_len and proportional: rope/config_fields.hpp), then rope::validate. The same
// order as the CLI's --hf-config and flags.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <posenc/io/rope_hf_config.hpp>
#include <posenc/rope/chatglm.hpp>
#include <posenc/rope/config.hpp>
#include <posenc/rope/config_fields.hpp>
#include <posenc/rope/layers.hpp>
#include <posenc/rope/scaling_names.hpp>
#include <posenc/rope/validate.hpp>

#include "common.hpp"

namespace posenc::python {

inline rope::scaling rope_type_of(const std::string& name) {
  if (const std::optional<rope::scaling> s = rope::scaling_from_name(name)) return *s;
  std::string names;
  for (const auto& e : rope::scaling_names) names += (names.empty() ? "" : ", ") + std::string(e.name);
  fail("rope_type: unknown rope type \"" + name + "\" (posenc has: " + names + ")");
}

// One override: value cast to the field's type; a wrong type is a TypeError naming the field.
template <class M>
M override_value(const std::string& name, const py::handle& value) {
  try {
    if constexpr (std::is_same_v<M, rope::scaling>) {
      return rope_type_of(py::cast<std::string>(value));
    } else if constexpr (std::is_same_v<M, std::optional<double>>) {
      if (value.is_none()) return std::nullopt;
      return py::cast<double>(value);
    } else if constexpr (std::is_same_v<M, bool>) {
      if (!py::isinstance<py::bool_>(value)) throw py::cast_error();
      return py::cast<bool>(value);
    } else if constexpr (std::is_integral_v<M>) {
      if (py::isinstance<py::bool_>(value) || py::isinstance<py::float_>(value)) throw py::cast_error();
      return py::cast<M>(value);
    } else {
      return py::cast<M>(value);
    }
  } catch (const py::cast_error&) {
    throw py::type_error(name + ": expected " +
                         (std::is_same_v<M, rope::scaling> ? "a rope type name"
                          : std::is_same_v<M, bool>        ? "a bool"
                          : std::is_integral_v<M>          ? "an integer"
                                                           : "a number") +
                         ", got " + std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  }
}

// The config.json text (empty: none) with the overrides applied and validated; throws ValueError
// with posenc's message otherwise. `ctx` prefixes messages ("rope_table").
// Two keywords pick a table out of the config rather than set a field: layer=N (a per-layer model:
// Gemma-3, Llama-4, Cohere2; a NoPE layer is a ValueError) and rope_ratio_meaning="base"|"positions"
// (ChatGLM's rope_ratio; posenc/rope/chatglm.hpp). None is the same as absent.
inline io::rope_settings settings_of_layer(const std::string& json_text, const py::dict& all, py::dict& overrides,
                                           const std::string& ctx) {
  std::optional<long long> layer;
  io::hf_rope_options opt;
  for (const auto& item : all) {
    const std::string key = py::cast<std::string>(item.first);
    if (key == "layer") {
      if (!item.second.is_none()) layer = py::cast<long long>(item.second);
    } else if (key == "rope_ratio_meaning") {
      if (item.second.is_none()) continue;
      const std::string m = py::cast<std::string>(item.second);
      if (m != "base" && m != "positions") fail(ctx + ": rope_ratio_meaning must be 'base' or 'positions'");
      opt.rope_ratio_meaning =
          m == "base" ? rope::rope_ratio_meaning::base_times_ratio : rope::rope_ratio_meaning::positions_divided;
    } else {
      overrides[item.first] = item.second;
    }
  }
  if (json_text.empty()) {
    if (layer || opt.rope_ratio_meaning) fail(ctx + ": layer and rope_ratio_meaning need a config.json");
    return {};
  }
  auto r = io::rope_model_from_hf_config(json_text, opt);
  if (!r) fail(ctx + ": " + r.error());
  const io::rope_model_settings& m = r.value();
  if (!layer) {
    if (!m.per_layer()) return m.tables[0];
    fail(ctx + ": " + m.per_layer_key + ": per-layer RoPE (" + std::to_string(m.tables.size()) +
         " distinct tables over " + std::to_string(m.layer_count()) + " layers): choose one with layer=N");
  }
  const int t = *layer < 0 || *layer >= (1LL << 20) ? -2 : m.table_of_layer(static_cast<int>(*layer));
  if (t == rope::no_rope) fail(ctx + ": layer " + std::to_string(*layer) + " has no RoPE (NoPE layer)");
  if (t < 0)
    fail(ctx + ": layer " + std::to_string(*layer) + " is past the model's " + std::to_string(m.layer_count()) +
         " layers");
  return m.tables[static_cast<std::size_t>(t)];
}

inline io::rope_settings read_rope_config(const std::string& json_text, const py::dict& all_overrides,
                                          const std::string& ctx) {
  py::dict overrides;
  io::rope_settings s = settings_of_layer(json_text, all_overrides, overrides, ctx);
  std::size_t used = 0;
  rope::for_each_config_field([&](const auto& f) {
    using M = typename std::remove_cvref_t<decltype(f)>::member_type;
    const std::string name(f.name);
    if (!overrides.contains(name)) return;
    ++used;
    const py::handle v = overrides[py::str(name)];
    if constexpr (std::is_same_v<M, std::span<const double>>) {
      std::vector<double> list;
      try {
        list = py::cast<std::vector<double>>(v);
      } catch (const py::cast_error&) {
        throw py::type_error(name + ": expected a sequence of numbers");
      }
      (name == "short_factor" ? s.short_factor : s.long_factor) = std::move(list);
    } else {
      s.base.*f.member = override_value<M>(name, v);
    }
  });
  if (used != overrides.size()) {
    for (const auto& item : overrides) {
      const std::string key = py::cast<std::string>(item.first);
      bool known = false;
      rope::for_each_config_field([&](const auto& f) { known = known || f.name == key; });
      if (!known) throw py::type_error(ctx + ": unknown RoPE config field '" + key + "'");
    }
  }
  if (json_text.empty() && s.base.head_dim == 0 && s.base.rotary_dim == 0)
    fail(ctx + ": head_dim is required (or a config.json)");
  if (const rope::validation v = rope::validate(s.config()); !v) fail(ctx + ": invalid RoPE config: " + v.message);
  return s;
}

// The config as a dict of rope::config's fields (what posenc read), for posenc.rope_config().
inline py::dict rope_config_dict(const io::rope_settings& s) {
  py::dict d;
  const rope::config c = s.config();
  rope::for_each_config_field([&](const auto& f) {
    using M = typename std::remove_cvref_t<decltype(f)>::member_type;
    const M& m = c.*f.member;
    const py::str key(std::string(f.name));
    if constexpr (std::is_same_v<M, rope::scaling>)
      d[key] = std::string(rope::scaling_name(m));
    else if constexpr (std::is_same_v<M, std::optional<double>>)
      d[key] = m ? py::object(py::float_(*m)) : py::object(py::none());
    else if constexpr (std::is_same_v<M, std::span<const double>>)
      d[key] = py::cast(std::vector<double>(m.begin(), m.end()));
    else
      d[key] = m;
  });
  return d;
}

}  // namespace posenc::python
