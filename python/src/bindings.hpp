// bindings.hpp: the parts of posenc._core, each defined in its own source file. RoPE's bindings,
// with their config reader (rope_config.hpp), are rope.cpp; posenc.verify's, verify.cpp.
//
// Every other scheme is one source, python/src/schemes/<scheme>.cpp, that registers its binder:
//
//   namespace { void bind_logn(py::module_& m) { m.def("logn_factors", ...); } }
//   const scheme_binding logn_binding{"logn", &bind_logn};
//
// and module.cpp calls every registered binder, in name order. No list of the schemes exists in the
// sources (python/CMakeLists.txt compiles src/schemes/*.cpp): adding one is adding its file (the
// pattern of Catch2's TEST_CASE and Google Benchmark's BENCHMARK: registration by a static object).
#pragma once

#include <pybind11/pybind11.h>

#include <string_view>

namespace posenc::python {

void bind_rope(pybind11::module_& m);    // rope.cpp
void bind_verify(pybind11::module_& m);  // verify.cpp, when POSENC_PYTHON_HAVE_VERIFY

using scheme_binder = void (*)(pybind11::module_& m);

// Registers `bind` under `name` (a scheme's name, snake_case) when the module is loaded, before
// PyInit__core runs. Names are unique.
struct scheme_binding {
  scheme_binding(std::string_view name, scheme_binder bind);
};

// Calls every registered binder, in name order (module.cpp).
void bind_registered_schemes(pybind11::module_& m);

}  // namespace posenc::python
