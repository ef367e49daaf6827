# Gappa certificates of the fast paths' rounding-error bounds (issue 24; proofs/gappa/README.md).
# Included from proofs/CMakeLists.txt. Each certificate is one ctest test (label "certificate"):
# proofs/gappa/certify.py reads the constants from the headers, runs gappa on proofs/gappa/<name>.g
# and checks the block recurrences in exact arithmetic. certificate_gappa_can_fail runs it on
# header copies with a constant tightened below what is provable and expects the failure line.
find_program(POSENC_GAPPA gappa)
find_package(Python3 COMPONENTS Interpreter)

set(_posenc_gappa_certificates
    rows_float_product
    rows_float_anchor
    rows_float_recurrence
    rows_float_test
    rows_double_step
    rows_double_entry
    rows_double_folded
    rows_double_offset
    rows_double_recurrence
    round_test_cheap
    xpos_rows
    dd_primitives
    dd_add
    dd_div
    reduce_pio2
    alibi_bias)

if(NOT POSENC_GAPPA OR NOT Python3_Interpreter_FOUND)
  if(NOT POSENC_GAPPA)
    set(_posenc_gappa_why "gappa not installed: bash tools/bootstrap-deps.sh installs it")
  else()
    set(_posenc_gappa_why "python3 not found: the Gappa certificates' runner (proofs/gappa/certify.py) needs it")
  endif()
  add_test(NAME certificate_gappa_missing
           COMMAND ${CMAKE_COMMAND} -DWHY=${_posenc_gappa_why} -P ${CMAKE_CURRENT_LIST_DIR}/missing.cmake)
  set_tests_properties(certificate_gappa_missing PROPERTIES LABELS "certificate")
else()
  foreach(_cert IN LISTS _posenc_gappa_certificates)
    add_test(NAME certificate_gappa_${_cert}
             COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/certify.py ${_cert})
    set_tests_properties(certificate_gappa_${_cert} PROPERTIES LABELS "certificate" TIMEOUT 120
                         ENVIRONMENT "POSENC_GAPPA=${POSENC_GAPPA}")
  endforeach()
  # The checker fails when a header's constant goes below what Gappa proves (one case per kernel
  # and one changed statement; test_certify_fails.py --list has more).
  add_test(NAME certificate_gappa_can_fail
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/test_certify_fails.py
                   dd_entry_R_e float_folded_margin dd_statement_changed)
  set_tests_properties(certificate_gappa_can_fail PROPERTIES LABELS "certificate" TIMEOUT 300
                       ENVIRONMENT "POSENC_GAPPA=${POSENC_GAPPA}")
endif()
