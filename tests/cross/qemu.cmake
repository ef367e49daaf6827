# Included by tests/CMakeLists.txt. Compile time equals run time on the target: tests/cross/qemu_m4.cpp
# is built for a Cortex-M4F with arm-none-eabi-g++ (newlib, rdimon semihosting) and run under
# qemu-system-arm's mps2-an386 machine; it compares the bits of the math functions, RoPE tables and
# rotate computed by the compiler with the same computed by the emulated core (check_qemu.cmake).
# Skipped, with a message, when the cross compiler, its newlib semihosting library or QEMU is absent
# (tools/bootstrap-deps.sh installs them).
find_program(POSENC_ARM_CXX arm-none-eabi-g++)
find_program(POSENC_QEMU_SYSTEM_ARM qemu-system-arm)
find_program(POSENC_TIMEOUT timeout)
set(_posenc_qemu_ok FALSE)
if(POSENC_ARM_CXX AND POSENC_QEMU_SYSTEM_ARM)
  # newlib's rdimon start-up file for this multilib: gcc prints the bare name when it has none.
  execute_process(
    COMMAND ${POSENC_ARM_CXX} -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 -print-file-name=rdimon-crt0.o
    OUTPUT_VARIABLE _posenc_rdimon_crt0 OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _posenc_rc)
  if(_posenc_rc EQUAL 0 AND IS_ABSOLUTE "${_posenc_rdimon_crt0}" AND EXISTS "${_posenc_rdimon_crt0}")
    set(_posenc_qemu_ok TRUE)
  else()
    message(STATUS "posenc: arm-none-eabi newlib (rdimon semihosting) not found; the QEMU Cortex-M4 test is skipped")
  endif()
elseif(NOT POSENC_QEMU_SYSTEM_ARM)
  message(STATUS "posenc: qemu-system-arm not found; the QEMU Cortex-M4 run-time test is skipped")
else()
  message(STATUS "posenc: arm-none-eabi-g++ not found; the QEMU Cortex-M4 run-time test is skipped")
endif()
if(_posenc_qemu_ok)
  add_test(NAME cross_arm_qemu_m4
    COMMAND ${CMAKE_COMMAND} -DARM_CXX=${POSENC_ARM_CXX} -DQEMU=${POSENC_QEMU_SYSTEM_ARM}
      "-DTIMEOUT_PROGRAM=${POSENC_TIMEOUT}"
      -DCROSS_DIR=${CMAKE_CURRENT_SOURCE_DIR}/cross
      -DINCLUDE_DIR=${PROJECT_SOURCE_DIR}/include
      -DOUTPUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/cross_qemu_m4
      -P ${CMAKE_CURRENT_SOURCE_DIR}/cross/check_qemu.cmake)
  # The run also shows the comparison can fail: one expected bit flipped must fail (check_qemu.cmake).
  set_tests_properties(cross_arm_qemu_m4 PROPERTIES LABELS "cross" TIMEOUT 600 COST 30)
endif()
unset(_posenc_qemu_ok)
