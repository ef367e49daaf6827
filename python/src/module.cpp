// module.cpp: posenc._core, the compiled part of the Python module `posenc` (python/posenc/). Its
// functions take a config.json's text and plain arguments and return numpy arrays; the package's
// __init__.py gives them their Python signatures (config dicts and paths, dtype names, keyword
// arguments) and their documentation (docs/python.md).
#include <pybind11/pybind11.h>

#include <posenc/version.hpp>

#include "bindings.hpp"

PYBIND11_MODULE(_core, m) {
  m.doc() = "posenc's compiled core (low level; use the posenc package's functions)";
  m.attr("__version__") = POSENC_VERSION_STRING;
  posenc::python::bind_rope(m);
#define POSENC_PYTHON_CALL_BIND(scheme) posenc::python::bind_##scheme(m);
  POSENC_PYTHON_SCHEMES(POSENC_PYTHON_CALL_BIND)
#undef POSENC_PYTHON_CALL_BIND
#if defined(POSENC_PYTHON_HAVE_VERIFY)
  posenc::python::bind_verify(m);
  m.attr("have_verify") = true;
#else
  m.attr("have_verify") = false;
#endif
}
