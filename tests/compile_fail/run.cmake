# Script mode: compile one translation unit and check the outcome ({fmt}'s compile-error tests).
# A file whose first line is `// expect-error: <regex>` must fail to compile with a diagnostic that
# matches <regex> (the static_assert message that names the broken precondition); any other file is
# its compiling twin and must compile, proving the failure comes from the misuse and not the setup.
foreach(_var CXX SOURCE INCLUDE_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "run.cmake: ${_var} is not set")
  endif()
endforeach()
file(STRINGS "${SOURCE}" _first LIMIT_COUNT 1)
# PCH_FLAGS ("|"-separated, optional): the flags that force-include the cases' precompiled header
# (compile_fail/pch.hpp).
string(REPLACE "|" ";" _pch_flags "${PCH_FLAGS}")
execute_process(COMMAND ${CXX} -std=c++20 -fsyntax-only ${_pch_flags} -I${INCLUDE_DIR} ${SOURCE}
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(_first MATCHES "^// expect-error: (.*)$")
  set(_expected "${CMAKE_MATCH_1}")
  if(_rc EQUAL 0)
    message(FATAL_ERROR "${SOURCE} compiled, but it must fail with: ${_expected}")
  endif()
  if(NOT "${_out}${_err}" MATCHES "${_expected}")
    message(FATAL_ERROR "${SOURCE} failed, but without the expected message '${_expected}':\n${_err}")
  endif()
  message("failed to compile, as required, with: ${_expected}")
elseif(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} must compile (it is a twin of a compile-fail test):\n${_err}")
else()
  message("compiled, as required")
endif()
