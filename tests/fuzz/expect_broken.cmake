# Script mode: the property checks of tests/fuzz/ can fail. Runs posenc_fuzz_replay on a twin
# harness (one that hands a check what a broken reader would return) and requires the run to fail
# naming the property:
#   cmake -DPROGRAM=<posenc_fuzz_replay> -DTWIN=<twin> -DINPUT=<file> -DPROPERTY=<text> -P expect_broken.cmake
foreach(_var PROGRAM TWIN INPUT PROPERTY)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "expect_broken.cmake: ${_var} is not set")
  endif()
endforeach()
execute_process(COMMAND "${PROGRAM}" "${TWIN}" "${INPUT}" RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(_rc EQUAL 0)
  message(FATAL_ERROR "${TWIN}: the replay passed, but the property '${PROPERTY}' must be reported broken")
endif()
if(NOT _err MATCHES "property broken: ${PROPERTY}")
  message(FATAL_ERROR "${TWIN}: the replay failed (${_rc}) without naming '${PROPERTY}':\n${_err}")
endif()
message("${TWIN}: reported broken, as required: ${PROPERTY}")
