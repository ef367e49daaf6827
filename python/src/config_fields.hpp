// config_fields.hpp: a scheme's list of config fields (posenc/<scheme>/config_fields.hpp) published as
// posenc._core.config_fields[<scheme>], so that the Python layer's keyword arguments take their
// names and defaults from the list the CLI's flags come from (tools/cli/config_field_flags.hpp):
//
//   publish_config_fields(m, "logn", logn::config_fields);
//   >>> posenc._core.config_fields["logn"]
//   [{'name': 'base', 'default': 512, 'required': False, 'help': 'log base'}, ...]
//
// default: config{}'s member (an enumerated member's word, as the CLI spells it), or None for a
// field the caller must give.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <type_traits>

#include <posenc/config_field.hpp>

namespace posenc::python {

namespace py = pybind11;

template <class Field>
py::object field_default(const Field& f) {
  using M = typename Field::member_type;
  if (f.required()) return py::none();
  const M v = f.default_value();
  if constexpr (std::is_enum_v<M>) {
    for (const auto& w : f.names)
      if (w.value == v) return py::str(std::string(w.name));
    return py::none();
  } else if constexpr (std::is_same_v<M, bool>) {
    return py::bool_(v);
  } else if constexpr (std::is_integral_v<M>) {
    return py::int_(v);
  } else {
    return py::float_(static_cast<double>(v));
  }
}

template <class Fields>
void publish_config_fields(py::module_& m, const char* scheme, const Fields& fields) {
  if (!py::hasattr(m, "config_fields")) m.attr("config_fields") = py::dict();
  py::list list;
  for_each_field(fields, [&list](const auto& f) {
    py::dict d;
    d["name"] = std::string(f.name);
    d["default"] = field_default(f);
    d["required"] = f.required();
    d["help"] = std::string(f.help);
    list.append(d);
  });
  py::dict all = m.attr("config_fields");
  all[scheme] = list;
}

}  // namespace posenc::python
