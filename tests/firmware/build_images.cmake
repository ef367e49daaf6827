# Script mode: configures and builds examples/firmware as a user would (its own CMakeLists.txt and
# toolchain file), both boards in one build tree, and reports the time it took. posenc comes from
#   POSENC_SOURCE_DIR   its source tree, by add_subdirectory (the fixture of the board tests), or
#   POSENC_PACKAGE_DIR  an installed package's directory, by find_package (posenc_DIR): a copy of the
#                       example outside posenc's tree; then SAME_AS names the build tree of the first
#                       kind, whose images these must equal byte for byte, and BOARDS may pick boards.
# tests/firmware/firmware.cmake runs both.
foreach(_var SOURCE_DIR BUILD_DIR GENERATOR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "build_images.cmake: ${_var} is not set")
  endif()
endforeach()
if(POSENC_PACKAGE_DIR)
  set(_posenc -Dposenc_DIR=${POSENC_PACKAGE_DIR})
elseif(POSENC_SOURCE_DIR)
  set(_posenc -DPOSENC_SOURCE_DIR=${POSENC_SOURCE_DIR})
else()
  message(FATAL_ERROR "build_images.cmake: POSENC_SOURCE_DIR or POSENC_PACKAGE_DIR is required")
endif()
if(BOARDS)
  list(APPEND _posenc "-DFIRMWARE_BOARDS=${BOARDS}")
endif()
file(REMOVE_RECURSE "${BUILD_DIR}")
set(_make "")
if(MAKE_PROGRAM)
  set(_make -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
string(TIMESTAMP _t0 "%s")
execute_process(
  COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${BUILD_DIR}" -G "${GENERATOR}" ${_make}
          -DCMAKE_TOOLCHAIN_FILE=${SOURCE_DIR}/arm-none-eabi.cmake ${_posenc}
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "examples/firmware did not configure")
endif()
string(TIMESTAMP _t1 "%s")
# One job: the suite runs other tests beside this one.
execute_process(COMMAND ${CMAKE_COMMAND} --build "${BUILD_DIR}" -j 1 RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "examples/firmware did not build")
endif()
string(TIMESTAMP _t2 "%s")
math(EXPR _configure_s "${_t1} - ${_t0}")
math(EXPR _build_s "${_t2} - ${_t1}")
message("examples/firmware: configured in ${_configure_s} s, built in ${_build_s} s")

if(SAME_AS)
  file(GLOB _images RELATIVE "${BUILD_DIR}" "${BUILD_DIR}/firmware-*.elf")
  if(NOT _images)
    message(FATAL_ERROR "no image was built in ${BUILD_DIR}")
  endif()
  foreach(_image IN LISTS _images)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${BUILD_DIR}/${_image}" "${SAME_AS}/${_image}"
                    RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "${_image} built after find_package differs from the one built after add_subdirectory")
    endif()
    message("${_image} built after find_package(posenc) = the one built after add_subdirectory, byte for byte")
  endforeach()
endif()

# The misbuilt twin (misbuilt_image.cpp), with the example's flags for mps2-an386, its start-up code
# and linker scripts: the image check_image.cmake's MODE misbuilt must reject.
if(MISBUILT_SOURCE)
  foreach(_var ARM_CXX INCLUDE_DIR)
    if(NOT DEFINED ${_var})
      message(FATAL_ERROR "build_images.cmake: ${_var} is not set")
    endif()
  endforeach()
  set(_cpu -mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16)
  set(_object "${BUILD_DIR}/misbuilt_image.o")
  execute_process(
    COMMAND ${ARM_CXX} -std=c++20 ${_cpu} -Os -ffp-contract=off -fno-exceptions -fno-rtti -ffunction-sections
            -fdata-sections -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror
            -I${INCLUDE_DIR} -I${SOURCE_DIR}/src -c "${MISBUILT_SOURCE}" -o "${_object}"
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "the misbuilt twin did not compile")
  endif()
  execute_process(
    COMMAND ${ARM_CXX} ${_cpu} --specs=nano.specs --specs=rdimon.specs -nostartfiles -Wl,--gc-sections
            -L${SOURCE_DIR}/boards/mps2-an386 -T${SOURCE_DIR}/boards/sections.ld "${_object}"
            ${SOURCE_DIR}/src/startup.S -o "${BUILD_DIR}/misbuilt-mps2-an386.elf"
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "the misbuilt twin did not link")
  endif()
  string(TIMESTAMP _t3 "%s")
  math(EXPR _twin_s "${_t3} - ${_t2}")
  message("misbuilt twin: built in ${_twin_s} s")
endif()
