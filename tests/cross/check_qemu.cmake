# Script mode: build tests/cross/qemu_m4.cpp for a Cortex-M4F (arm-none-eabi-g++ 12, hard-float ABI,
# newlib with rdimon semihosting, qemu_m4_startup.S's vector table, qemu_m4.ld's memory map) and run
# it under QEMU's mps2-an386 machine, twice:
#   1. as it is: passes only when the program exits with status 0 (semihosting SYS_EXIT carries
#      main's return value to QEMU's exit status; a fault exits 1, a hang hits the timeout) and
#      prints its success line;
#   2. with the argument --selftest-fail (one expected bit flipped): passes only when that run FAILS,
#      so the comparison is shown able to fail.
# One build serves both runs (the build is the cost: 17 s; a run takes under a second).
foreach(_var ARM_CXX QEMU CROSS_DIR INCLUDE_DIR OUTPUT_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "check_qemu.cmake: ${_var} is not set")
  endif()
endforeach()
if(NOT DEFINED RUN_SECONDS)
  set(RUN_SECONDS 300)
endif()
file(MAKE_DIRECTORY ${OUTPUT_DIR})
set(_elf ${OUTPUT_DIR}/qemu_m4.elf)

string(TIMESTAMP _t0 "%s")
execute_process(
  COMMAND ${ARM_CXX} -std=c++20 -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -O2
          -ffp-contract=off -fno-exceptions -fno-rtti -Wall -Wextra -Wpedantic -Wconversion
          -Wsign-conversion -Wshadow -Werror -I${INCLUDE_DIR}
          ${CROSS_DIR}/qemu_m4.cpp ${CROSS_DIR}/qemu_m4_startup.S
          --specs=rdimon.specs -T ${CROSS_DIR}/qemu_m4.ld -Wl,--gc-sections -o ${_elf}
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "arm-none-eabi-g++ failed to build ${CROSS_DIR}/qemu_m4.cpp")
endif()
string(TIMESTAMP _t1 "%s")
math(EXPR _build_s "${_t1} - ${_t0}")
message("qemu_m4: built ${_elf} in ${_build_s} s")

# Runs the ELF with the semihosting arguments ARGN; sets _passed in the caller.
function(_posenc_qemu_run label)
  set(_args "")
  foreach(_a IN LISTS ARGN)
    string(APPEND _args ",arg=${_a}")
  endforeach()
  set(_qemu_cmd ${QEMU} -M mps2-an386 -nographic -monitor none -serial none
                -semihosting-config enable=on,target=native,arg=qemu_m4${_args} -kernel ${_elf})
  if(TIMEOUT_PROGRAM)
    set(_qemu_cmd ${TIMEOUT_PROGRAM} ${RUN_SECONDS} ${_qemu_cmd})
  endif()
  math(EXPR _outer "${RUN_SECONDS} + 30")
  string(TIMESTAMP _s0 "%s")
  execute_process(COMMAND ${_qemu_cmd} OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc
                  TIMEOUT ${_outer})
  string(TIMESTAMP _s1 "%s")
  math(EXPR _run_s "${_s1} - ${_s0}")
  message("${_out}")
  if(_err)
    message("qemu stderr: ${_err}")
  endif()
  message("qemu_m4 (${label}): QEMU ran for ${_run_s} s, exit status ${_rc}")
  set(_ok FALSE)
  if("${_rc}" STREQUAL "0" AND _out MATCHES "qemu_m4: all [0-9]+ comparisons bit-identical")
    set(_ok TRUE)
  endif()
  set(_passed ${_ok} PARENT_SCOPE)
  set(_status ${_rc} PARENT_SCOPE)
endfunction()

_posenc_qemu_run("as built")
if(NOT _passed)
  message(FATAL_ERROR "qemu_m4: compile time and run time differ on the Cortex-M4, or the program did not finish "
                      "(exit status ${_status}; 124 is the timeout)")
endif()
_posenc_qemu_run("self-test, one expected bit flipped" --selftest-fail)
if(_passed)
  message(FATAL_ERROR "qemu_m4 self-test: a flipped expected bit went unnoticed")
endif()
message("qemu_m4 self-test: the flipped expected bit was detected (exit status ${_status})")
