# Script mode: install posenc from the source tree into a scratch prefix and build the consumer.
foreach(_var POSENC_SOURCE_DIR POSENC_WORK_DIR POSENC_CXX_COMPILER POSENC_GENERATOR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "run.cmake: ${_var} is not set")
  endif()
endforeach()
file(REMOVE_RECURSE "${POSENC_WORK_DIR}")
set(_prefix "${POSENC_WORK_DIR}/prefix")

function(posenc_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "package test step failed (${_rc}): ${ARGN}")
  endif()
endfunction()

# Install posenc alone, headers only, without a build step: no tests, no tools, no Python module (its
# install rule needs the built module; python/tests/install_test.cmake installs that one).
posenc_step(${CMAKE_COMMAND} -S "${POSENC_SOURCE_DIR}" -B "${POSENC_WORK_DIR}/posenc-build"
            -G "${POSENC_GENERATOR}" -DCMAKE_CXX_COMPILER=${POSENC_CXX_COMPILER}
            -DPOSENC_BUILD_TESTS=OFF -DPOSENC_BUILD_TOOLS=OFF -DPOSENC_BUILD_PYTHON=OFF
            -DCMAKE_INSTALL_PREFIX=${_prefix})
posenc_step(${CMAKE_COMMAND} --install "${POSENC_WORK_DIR}/posenc-build")
# The tool too when asked (tests/add_table/ generates tables with it): this build's own, as the
# package's cli component, rather than compiling it again here.
if(POSENC_CLI_BUILD_DIR)
  posenc_step(${CMAKE_COMMAND} --install "${POSENC_CLI_BUILD_DIR}" --component cli --prefix "${_prefix}")
endif()

posenc_step(${CMAKE_COMMAND} -S "${POSENC_SOURCE_DIR}/tests/package_consumer"
            -B "${POSENC_WORK_DIR}/consumer-build" -G "${POSENC_GENERATOR}"
            -DCMAKE_CXX_COMPILER=${POSENC_CXX_COMPILER} -DCMAKE_PREFIX_PATH=${_prefix})
posenc_step(${CMAKE_COMMAND} --build "${POSENC_WORK_DIR}/consumer-build")
posenc_step("${POSENC_WORK_DIR}/consumer-build/consumer")
if(EXISTS "${POSENC_WORK_DIR}/consumer-build/io_consumer")
  posenc_step("${POSENC_WORK_DIR}/consumer-build/io_consumer")
endif()
