# Included by tests/CMakeLists.txt (the GCC preset, beside the cross tests). examples/firmware built as
# a user builds it (its own CMakeLists.txt and arm-none-eabi.cmake), both boards in one build tree
# (build_images.cmake), then each image checked and run under QEMU (check_image.cmake): the tables
# in flash and equal to the host's, no initialisers, heap or libm from the example, the printed
# checksum equal to the host's, the size within the budgets below. Twins show every check able to
# fail: an image with one table bit flipped, a misbuilt image (misbuilt_image.cpp), and the
# example's sources with one table bit flipped, which must not compile (laws_twin.cmake). And the
# example built after find_package(posenc), as a copy outside this tree, gives the same image.
# Skipped, with a message, when the Arm toolchain, its newlib (nano, rdimon) or QEMU is absent
# (tools/bootstrap-deps.sh installs them).
find_program(POSENC_ARM_CC arm-none-eabi-gcc)
find_program(POSENC_ARM_OBJDUMP arm-none-eabi-objdump)
find_program(POSENC_ARM_SIZE arm-none-eabi-size)
find_program(POSENC_QEMU_SYSTEM_ARM qemu-system-arm)
find_program(POSENC_TIMEOUT timeout)
set(_posenc_fw_missing "")
foreach(_tool IN ITEMS "POSENC_ARM_CXX|arm-none-eabi-g++" "POSENC_ARM_CC|arm-none-eabi-gcc" "POSENC_ARM_NM|arm-none-eabi-nm"
                       "POSENC_ARM_OBJDUMP|arm-none-eabi-objdump" "POSENC_ARM_SIZE|arm-none-eabi-size"
                       "POSENC_QEMU_SYSTEM_ARM|qemu-system-arm")
  string(REPLACE "|" ";" _tool "${_tool}")
  list(GET _tool 0 _var)
  if(NOT ${_var})
    list(GET _tool 1 _program)
    list(APPEND _posenc_fw_missing ${_program})
  endif()
endforeach()
if(NOT _posenc_fw_missing)
  # newlib-nano's semihosting library for the Cortex-M0's multilib (the M4F's comes with it).
  execute_process(COMMAND ${POSENC_ARM_CXX} -mcpu=cortex-m0 -mthumb -mfloat-abi=soft -print-file-name=librdimon_nano.a
                  OUTPUT_VARIABLE _posenc_fw_rdimon OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${_posenc_fw_rdimon}" OR NOT EXISTS "${_posenc_fw_rdimon}")
    list(APPEND _posenc_fw_missing "newlib-nano rdimon (librdimon_nano.a)")
  endif()
endif()
if(_posenc_fw_missing)
  string(JOIN ", " _posenc_fw_missing ${_posenc_fw_missing})
  message(STATUS "posenc: ${_posenc_fw_missing} not found; the examples/firmware tests are skipped")
else()
  set(_fw_source ${PROJECT_SOURCE_DIR}/examples/firmware)
  set(_fw_work ${CMAKE_CURRENT_BINARY_DIR}/firmware)
  set(_fw_build ${_fw_work}/build)
  # The example's host reference (what the images must hold and print), with posenc's warnings as
  # errors; and the twin's one-bit editor.
  add_executable(firmware_host_reference ${_fw_source}/host/reference.cpp)
  target_include_directories(firmware_host_reference PRIVATE ${_fw_source}/src)
  target_link_libraries(firmware_host_reference PRIVATE posenc::posenc posenc_warnings)
  add_executable(firmware_flip_bit ${CMAKE_CURRENT_SOURCE_DIR}/firmware/flip_bit.cpp)
  target_link_libraries(firmware_flip_bit PRIVATE posenc_warnings)

  # The example's own script, as tools/demo.sh runs it: configure and build both boards in one tree
  # (its CMakeLists.txt and arm-none-eabi.cmake, posenc by add_subdirectory of this tree), run both
  # under QEMU, compare with the host. The fixture of the checks below, which read its images.
  find_program(POSENC_BASH bash REQUIRED)
  add_test(NAME firmware_run COMMAND ${POSENC_BASH} ${_fw_source}/run.sh ${_fw_work})
  # (Its exit status is the verdict: 0 only when both images ran and matched the host. One build job:
  # the suite runs other tests beside it.)
  set_tests_properties(firmware_run PROPERTIES LABELS "cross" TIMEOUT 600 FIXTURES_SETUP posenc_firmware_images
                       ENVIRONMENT "FIRMWARE_HOST_REFERENCE=$<TARGET_FILE:firmware_host_reference>;CMAKE_BUILD_PARALLEL_LEVEL=1")

  # run.sh's comparisons, shown able to fail: a host reference one bit off must make it exit 1, saying
  # so for both boards (run_twin.sh; firmware_run's images, nothing rebuilt).
  add_test(NAME firmware_run_twin
    COMMAND ${POSENC_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/firmware/run_twin.sh ${_fw_source}/run.sh ${_fw_work}
            $<TARGET_FILE:firmware_host_reference> $<TARGET_FILE:firmware_flip_bit>)
  set_tests_properties(firmware_run_twin PROPERTIES LABELS "cross" TIMEOUT 300 FIXTURES_REQUIRED posenc_firmware_images)

  # The example's static_asserts, shown able to fail: its sources with one RoPE bit flipped must not
  # compile, the compiler naming the exactness law and the entry.
  add_test(NAME firmware_laws_twin
    COMMAND ${CMAKE_COMMAND} -DARM_CXX=${POSENC_ARM_CXX} -DSOURCE_DIR=${_fw_source}
            -DINCLUDE_DIR=${PROJECT_SOURCE_DIR}/include -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/firmware_laws_twin
            -P ${CMAKE_CURRENT_SOURCE_DIR}/firmware/laws_twin.cmake)
  set_tests_properties(firmware_laws_twin PROPERTIES LABELS "cross" TIMEOUT 300)

  # A copy of the example outside posenc's tree: find_package(posenc) from the prefix that the
  # package_consumer test installs; the microbit image must equal the fixture's, byte for byte.
  add_test(NAME firmware_find_package
    COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${_fw_source} -DBUILD_DIR=${CMAKE_CURRENT_BINARY_DIR}/firmware_find_package
            "-DGENERATOR=${CMAKE_GENERATOR}" -DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}
            -DPOSENC_PACKAGE_DIR=${POSENC_PACKAGE_PREFIX}/share/cmake/posenc -DBOARDS=microbit -DSAME_AS=${_fw_build}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/firmware/build_images.cmake)
  set_tests_properties(firmware_find_package PROPERTIES LABELS "cross;packaging" TIMEOUT 600
                       FIXTURES_REQUIRED "posenc_package_prefix;posenc_firmware_images")

  # Each test: name|mode|board|image|object|flash origin|flash length|flash budget|RAM budget.
  # FLASH_ORIGIN and FLASH_LENGTH are the boards' flash (boards/<board>/memory.ld; 256 KiB on the
  # micro:bit). The budgets are this example's, in bytes, about 15% above what was measured on
  # 2026-11-27 with arm-none-eabi-gcc 12.2 after the q15 table joined the images (flash: mps2-an386
  # 65904, microbit 73444, of which 53840 are posenc's tables; RAM before the stack: 300 on both).
  # The twins: microbit's image with one table bit flipped must fail the byte and checksum
  # comparisons; the misbuilt image (misbuilt_image.cpp, built by its test) the placement,
  # initialiser, heap, libm, run, checksum and size checks. One twin each suffices: the checks are the
  # same script for both boards.
  set(_fw_dir ${_fw_build}/CMakeFiles)
  set(_fw_tests
      "firmware_mps2-an386|check|mps2-an386|${_fw_build}/firmware-mps2-an386.elf|${_fw_dir}/firmware-mps2-an386.dir/src/main.cpp.obj|0x0|0x400000|76000|512"
      "firmware_microbit|check|microbit|${_fw_build}/firmware-microbit.elf|${_fw_dir}/firmware-microbit.dir/src/main.cpp.obj|0x0|0x40000|84500|512"
      "firmware_microbit_flipped_bit|flipped_bit|microbit|${_fw_build}/firmware-microbit.elf|${_fw_dir}/firmware-microbit.dir/src/main.cpp.obj|0x0|0x40000|84500|512"
      "firmware_misbuilt_twin|misbuilt|mps2-an386|${CMAKE_CURRENT_BINARY_DIR}/firmware_misbuilt_twin/misbuilt.elf|${CMAKE_CURRENT_BINARY_DIR}/firmware_misbuilt_twin/misbuilt.o|0x0|0x400000|76000|512")
  foreach(_entry IN LISTS _fw_tests)
    string(REPLACE "|" ";" _entry "${_entry}")
    list(GET _entry 0 _name)
    list(GET _entry 1 _mode)
    list(GET _entry 2 _board)
    list(GET _entry 3 _elf)
    list(GET _entry 4 _object)
    list(GET _entry 5 _flash_origin)
    list(GET _entry 6 _flash_length)
    list(GET _entry 7 _flash_budget)
    list(GET _entry 8 _ram_budget)
    add_test(NAME ${_name}
      COMMAND ${CMAKE_COMMAND} -DMODE=${_mode} -DBOARD=${_board} -DELF=${_elf} -DOBJECT=${_object}
              -DHOST_REFERENCE=$<TARGET_FILE:firmware_host_reference> -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/${_name}
              -DQEMU=${POSENC_QEMU_SYSTEM_ARM} "-DTIMEOUT_PROGRAM=${POSENC_TIMEOUT}" -DOBJDUMP=${POSENC_ARM_OBJDUMP}
              -DNM=${POSENC_ARM_NM} -DSIZE=${POSENC_ARM_SIZE} -DFLASH_ORIGIN=${_flash_origin}
              -DFLASH_LENGTH=${_flash_length} -DFLASH_BUDGET=${_flash_budget} -DRAM_BUDGET=${_ram_budget}
              -DFLIP_BIT=$<TARGET_FILE:firmware_flip_bit> -DARM_CXX=${POSENC_ARM_CXX}
              -DINCLUDE_DIR=${PROJECT_SOURCE_DIR}/include -DEXAMPLE_DIR=${_fw_source}
              -DMISBUILT_SOURCE=${CMAKE_CURRENT_SOURCE_DIR}/firmware/misbuilt_image.cpp
              -P ${CMAKE_CURRENT_SOURCE_DIR}/firmware/check_image.cmake)
    set_tests_properties(${_name} PROPERTIES LABELS "cross" TIMEOUT 300 FIXTURES_REQUIRED posenc_firmware_images)
  endforeach()
endif()
unset(_posenc_fw_missing)
