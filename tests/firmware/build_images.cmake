# Script mode: configures and builds examples/firmware as a user would (its own CMakeLists.txt and
# toolchain file), both boards in one build tree, and reports the time it took. posenc comes from
#   POSENC_SOURCE_DIR   its source tree, by add_subdirectory, or
#   POSENC_PACKAGE_DIR  an installed package's directory, by find_package (posenc_DIR): a copy of the
#                       example outside posenc's tree.
# SAME_AS names another build tree of the example, whose images these must equal byte for byte;
# BOARDS may pick the boards. tests/firmware/firmware.cmake runs it as firmware_find_package.
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

