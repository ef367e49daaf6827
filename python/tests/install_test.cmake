# Script mode (ctest python_install): posenc's Python package installed two ways from this build
# tree, each then imported from where it was installed, with nothing of the build tree on the path:
#   1. cmake --install <build> --component python --prefix <work>/prefix
#   2. python3 -m pip install --no-build-isolation --no-deps --target <work>/pip <source>, with
#      POSENC_CMAKE_BUILD_DIR=<build> so that setup.py builds the already-built target (a fresh
#      `pip install .` configures its own CMake tree: docs/python.md shows it, with its time).
foreach(_var POSENC_SOURCE_DIR POSENC_BUILD_DIR POSENC_WORK_DIR PYTHON)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "install_test.cmake: ${_var} is not set")
  endif()
endforeach()
file(REMOVE_RECURSE "${POSENC_WORK_DIR}")
file(MAKE_DIRECTORY "${POSENC_WORK_DIR}")  # the steps run there: python3 -c puts its directory first on sys.path

function(posenc_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc WORKING_DIRECTORY "${POSENC_WORK_DIR}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "python install test step failed (${_rc}): ${ARGN}")
  endif()
endfunction()

set(_check "import sys, posenc, posenc.testing, numpy as np
root = sys.argv[1]
assert posenc.__file__.startswith(root), posenc.__file__
assert posenc._core.__file__.startswith(root), posenc._core.__file__
assert posenc.testing.__file__.startswith(root), posenc.testing.__file__
cos, sin = posenc.rope_table(None, 4, 'float32', head_dim=8)
assert cos.shape == (4, 8) and cos[0, 0] == 1.0
print('posenc', posenc.__version__, 'imported from', root)")

posenc_step(${CMAKE_COMMAND} --install "${POSENC_BUILD_DIR}" --component python --prefix "${POSENC_WORK_DIR}/prefix")
set(_site "${POSENC_WORK_DIR}/prefix/lib/python3/dist-packages")
posenc_step(${CMAKE_COMMAND} -E env "PYTHONPATH=${_site}" "${PYTHON}" -c "${_check}" "${_site}")

posenc_step(${CMAKE_COMMAND} -E env "POSENC_CMAKE_BUILD_DIR=${POSENC_BUILD_DIR}" PIP_NO_INDEX=1
            "${PYTHON}" -m pip install --no-build-isolation --no-deps --quiet --target "${POSENC_WORK_DIR}/pip"
            "${POSENC_SOURCE_DIR}")
posenc_step(${CMAKE_COMMAND} -E env "PYTHONPATH=${POSENC_WORK_DIR}/pip" "${PYTHON}" -c "${_check}"
            "${POSENC_WORK_DIR}/pip")
