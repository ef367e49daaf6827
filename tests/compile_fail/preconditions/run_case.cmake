# Script mode: compile case CASE of a precondition file (-DPOSENC_CASE=CASE) and check the outcome.
# CASE 0 is the compiling twin and must compile. Any other case must fail to compile, and the
# diagnostic must match both EXPECT (the precondition's sentence) and STOP (the name of the
# function the failing path stops in), on every compiler the suite runs.
foreach(_var CXX SOURCE INCLUDE_DIR CASE EXPECT STOP)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "run_case.cmake: ${_var} is not set")
  endif()
endforeach()
# PCH_FLAGS ("|"-separated, optional): the flags that force-include the cases' precompiled header
# (compile_fail/pch.hpp).
string(REPLACE "|" ";" _pch_flags "${PCH_FLAGS}")
execute_process(COMMAND ${CXX} -std=c++20 -fsyntax-only ${_pch_flags} -I${INCLUDE_DIR} -DPOSENC_CASE=${CASE} ${SOURCE}
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(CASE EQUAL 0)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${SOURCE} case 0 must compile (it is the twin of the failing cases):\n${_err}")
  endif()
  message("case 0 compiled, as required")
  return()
endif()
if(_rc EQUAL 0)
  message(FATAL_ERROR "${SOURCE} case ${CASE} compiled, but it must fail naming: ${EXPECT}")
endif()
foreach(_want IN ITEMS "${EXPECT}" "${STOP}")
  if(NOT "${_out}${_err}" MATCHES "${_want}")
    message(FATAL_ERROR "${SOURCE} case ${CASE} failed, but its diagnostic lacks '${_want}':\n${_err}")
  endif()
endforeach()
message("case ${CASE} failed to compile, as required, naming: ${EXPECT}")
