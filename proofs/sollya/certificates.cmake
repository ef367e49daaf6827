# proofs/sollya/certificates.cmake: the Sollya certificates of the kernels' polynomial approximation
# errors (proofs/sollya/README.md), one test per kernel (names from certify.py --list), and two
# tests showing a certificate fails when the header's coefficient or figure no longer holds.
# Included from proofs/CMakeLists.txt; CMAKE_CURRENT_LIST_DIR is this file's directory.
set(_posenc_sollya_dir "${CMAKE_CURRENT_LIST_DIR}")
find_program(POSENC_SOLLYA sollya)
find_package(Python3 COMPONENTS Interpreter QUIET)

if(NOT Python3_Interpreter_FOUND)
  message(WARNING "python3 not found: the Sollya certificates (proofs/sollya) are not registered")
elseif(NOT POSENC_SOLLYA)
  # certify.py prints "sollya not installed: bash tools/bootstrap-deps.sh installs it" and fails.
  add_test(NAME certificate_sollya_missing
           COMMAND ${Python3_EXECUTABLE} ${_posenc_sollya_dir}/certify.py --all --sollya ${POSENC_SOLLYA})
  set_tests_properties(certificate_sollya_missing PROPERTIES LABELS "certificate")
else()
  # The interpreter itself, not a launcher such as a pyenv shim (half a second a start, twelve starts).
  execute_process(COMMAND ${Python3_EXECUTABLE} -c "import sys; print(sys.executable)"
                  OUTPUT_VARIABLE _posenc_sollya_python OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT EXISTS "${_posenc_sollya_python}")
    set(_posenc_sollya_python ${Python3_EXECUTABLE})
  endif()
  execute_process(COMMAND ${_posenc_sollya_python} ${_posenc_sollya_dir}/certify.py --list
                  OUTPUT_VARIABLE _posenc_sollya_kernels OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE _posenc_sollya_rc)
  if(NOT _posenc_sollya_rc EQUAL 0)
    message(FATAL_ERROR "proofs/sollya/certify.py --list failed (${_posenc_sollya_rc})")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_posenc_sollya_dir}/certify.py)
  string(REPLACE "\n" ";" _posenc_sollya_kernels "${_posenc_sollya_kernels}")
  set(_posenc_sollya_tests)
  foreach(_kernel IN LISTS _posenc_sollya_kernels)
    add_test(NAME certificate_sollya_${_kernel}
             COMMAND ${_posenc_sollya_python} ${_posenc_sollya_dir}/certify.py ${_kernel} --sollya ${POSENC_SOLLYA})
    list(APPEND _posenc_sollya_tests certificate_sollya_${_kernel})
  endforeach()
  # selftest.py exits 0 only when certify.py, given the changed header, fails with its one line.
  foreach(_case IN ITEMS perturbed_coefficient tightened_figure)
    add_test(NAME certificate_sollya_fails_on_${_case}
             COMMAND ${_posenc_sollya_python} ${_posenc_sollya_dir}/selftest.py ${_case} --sollya ${POSENC_SOLLYA})
    list(APPEND _posenc_sollya_tests certificate_sollya_fails_on_${_case})
  endforeach()
  set_tests_properties(${_posenc_sollya_tests} PROPERTIES LABELS "certificate" TIMEOUT 120)
endif()
