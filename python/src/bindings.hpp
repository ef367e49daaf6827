// bindings.hpp: the parts of posenc._core, each defined in its own source file, and the one list
// that names the schemes bound in python/src/schemes/.
#pragma once

#include <pybind11/pybind11.h>

// Every scheme but RoPE, as X(scheme): python/src/schemes/<scheme>.cpp defines bind_<scheme>. The
// only place the schemes are listed: this header declares each bind_<scheme> from it and module.cpp
// calls each, in this order (the order the functions are added to posenc._core). RoPE's bindings,
// with their config reader (rope_config.hpp), are rope.cpp.
#define POSENC_PYTHON_SCHEMES(X) \
  X(alibi)                       \
  X(t5)                          \
  X(deberta)                     \
  X(logn)                        \
  X(sinusoidal)                  \
  X(xpos)                        \
  X(kerple)                      \
  X(sandwich)                    \
  X(shaw)                        \
  X(transformer_xl)

namespace posenc::python {

void bind_rope(pybind11::module_& m);  // rope.cpp
#define POSENC_PYTHON_DECLARE_BIND(scheme) void bind_##scheme(pybind11::module_& m);
POSENC_PYTHON_SCHEMES(POSENC_PYTHON_DECLARE_BIND)
#undef POSENC_PYTHON_DECLARE_BIND
void bind_verify(pybind11::module_& m);  // verify.cpp, when POSENC_PYTHON_HAVE_VERIFY

}  // namespace posenc::python
