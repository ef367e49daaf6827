// module.cpp: posenc._core, the compiled part of the Python module `posenc` (python/posenc/). Its
// functions take a config.json's text and plain arguments and return numpy arrays; the package's
// __init__.py gives them their Python signatures (config dicts and paths, dtype names, keyword
// arguments) and their documentation (docs/python.md).
#include <pybind11/pybind11.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <posenc/version.hpp>

#include "bindings.hpp"

namespace posenc::python {

namespace {

// The registered binders: filled by the schemes' static scheme_binding objects as the module's
// sources are initialised (first use constructs it, whichever source comes first).
std::vector<std::pair<std::string, scheme_binder>>& registered() {
  static std::vector<std::pair<std::string, scheme_binder>> all;
  return all;
}

}  // namespace

scheme_binding::scheme_binding(std::string_view name, scheme_binder bind) {
  registered().emplace_back(std::string(name), bind);
}

void bind_registered_schemes(pybind11::module_& m) {
  auto all = registered();
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 1; i < all.size(); ++i)
    if (all[i].first == all[i - 1].first) throw std::logic_error("posenc._core: scheme bound twice: " + all[i].first);
  for (const auto& [name, bind] : all) bind(m);
}

}  // namespace posenc::python

PYBIND11_MODULE(_core, m) {
  m.doc() = "posenc's compiled core (low level; use the posenc package's functions)";
  m.attr("__version__") = POSENC_VERSION_STRING;
  posenc::python::bind_rope(m);
  posenc::python::bind_registered_schemes(m);
#if defined(POSENC_PYTHON_HAVE_VERIFY)
  posenc::python::bind_verify(m);
  m.attr("have_verify") = true;
#else
  m.attr("have_verify") = false;
#endif
}
