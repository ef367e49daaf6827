# Script mode: compile SOURCE with ARM_CXX for a Cortex-M0 (no FPU) at -O0 and at -Os, and check
# with ARM_NM that neither object references the heap (operator new/delete, malloc, free) or libm's
# sin, cos, sincos, exp or log: posenc allocates nothing and calls no libm at run time, at any
# optimisation level (its constant evaluation allocates, and on GCC folds the math builtins:
# math/evaluation.hpp). Run on tests/cross/arm_heap_twin.cpp and arm_libm_twin.cpp (WILL_FAIL),
# the check is shown able to fail on each.
foreach(_var ARM_CXX ARM_NM SOURCE INCLUDE_DIR OUTPUT_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "check_no_heap.cmake: ${_var} is not set")
  endif()
endforeach()
get_filename_component(_stem ${SOURCE} NAME_WE)
foreach(_opt IN ITEMS -O0 -Os)
  set(_obj ${OUTPUT_DIR}/${_stem}${_opt}.o)
  execute_process(
    COMMAND ${ARM_CXX} -std=c++20 ${_opt} -mcpu=cortex-m0 -mthumb -ffp-contract=off -fno-exceptions -fno-rtti
            -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror -Wno-psabi
            -I${INCLUDE_DIR} -c ${SOURCE} -o ${_obj}
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "arm-none-eabi-g++ ${_opt} failed to compile ${SOURCE}")
  endif()
  execute_process(COMMAND ${ARM_NM} -C ${_obj} OUTPUT_VARIABLE _symbols RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "arm-none-eabi-nm failed on ${_obj}")
  endif()
  string(REGEX MATCHALL "U (operator new[^\n]*|operator delete[^\n]*|malloc|free|calloc|realloc)" _heap "${_symbols}")
  if(_heap)
    message(FATAL_ERROR "${_stem} at ${_opt} references the heap: ${_heap}")
  endif()
  string(REGEX MATCHALL "U (sin|cos|sincos|exp|log)f?\n" _libm "${_symbols}\n")
  if(_libm)
    message(FATAL_ERROR "${_stem} at ${_opt} references libm: ${_libm}")
  endif()
  message("${_stem} at ${_opt}: no heap or libm symbol")
endforeach()
