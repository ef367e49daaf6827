# Script mode: compile tests/cross/arm_rodata.cpp for a Cortex-M4 and check the object file:
# the table is a read-only data symbol and nothing is left undefined (no libm, no run-time init).
foreach(_var ARM_CXX ARM_NM SOURCE INCLUDE_DIR OUTPUT)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "check_arm.cmake: ${_var} is not set")
  endif()
endforeach()
execute_process(
  COMMAND ${ARM_CXX} -std=c++20 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O2
          -ffp-contract=off -fno-exceptions -fno-rtti -Wall -Wextra -Wpedantic -Wconversion
          -Wsign-conversion -Wshadow -Werror -I${INCLUDE_DIR} -c ${SOURCE} -o ${OUTPUT}
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "arm-none-eabi-g++ failed to compile ${SOURCE}")
endif()
execute_process(COMMAND ${ARM_NM} -C ${OUTPUT} OUTPUT_VARIABLE _symbols RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "arm-none-eabi-nm failed")
endif()
message("${_symbols}")
if(NOT _symbols MATCHES "[0-9a-f]+ R posenc_rope_table")
  message(FATAL_ERROR "posenc_rope_table is not a read-only data symbol (.rodata)")
endif()
if(_symbols MATCHES " U ")
  message(FATAL_ERROR "the object has undefined symbols: the table needs run-time code")
endif()
if(_symbols MATCHES "_GLOBAL__sub_I")
  message(FATAL_ERROR "the object has a static initialiser: the table is not constant-initialised")
endif()
message("arm-none-eabi: table in .rodata, no undefined symbols, no initialiser")
