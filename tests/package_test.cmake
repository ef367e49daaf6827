# Packaging test ({fmt} and Mp11 do the same): install posenc into a scratch prefix, then configure,
# build and run a separate project that finds it with find_package(posenc CONFIG).
# It is also the fixture of tests/add_table/: with _posenc_add_table_here it installs this build's
# posenc (the cli component) into the same prefix, which those tests then use.
set(POSENC_PACKAGE_PREFIX ${CMAKE_CURRENT_BINARY_DIR}/package_consumer/prefix)
set(_posenc_cli_build_dir "")
if(_posenc_add_table_here)
  set(_posenc_cli_build_dir ${PROJECT_BINARY_DIR})
endif()
add_test(NAME package_consumer
  COMMAND ${CMAKE_COMMAND}
    -DPOSENC_SOURCE_DIR=${PROJECT_SOURCE_DIR}
    -DPOSENC_WORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/package_consumer
    "-DPOSENC_CLI_BUILD_DIR=${_posenc_cli_build_dir}"
    -DPOSENC_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    -DPOSENC_GENERATOR=${CMAKE_GENERATOR}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/package_consumer/run.cmake)
set_tests_properties(package_consumer PROPERTIES LABELS "packaging" TIMEOUT 600 FIXTURES_SETUP posenc_package_prefix)
