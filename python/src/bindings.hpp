// bindings.hpp: the parts of posenc._core, each defined in its own source file.
#pragma once

#include <pybind11/pybind11.h>

namespace posenc::python {

void bind_rope(pybind11::module_& m);      // rope.cpp
void bind_schemes(pybind11::module_& m);   // schemes.cpp
void bind_relative(pybind11::module_& m);  // relative.cpp
void bind_verify(pybind11::module_& m);    // verify.cpp, when POSENC_PYTHON_HAVE_VERIFY

}  // namespace posenc::python
