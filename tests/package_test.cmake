# Packaging test ({fmt} and Mp11 do the same): install posenc into a scratch prefix, then configure,
# build and run a separate project that finds it with find_package(posenc CONFIG).
add_test(NAME package_consumer
  COMMAND ${CMAKE_COMMAND}
    -DPOSENC_SOURCE_DIR=${PROJECT_SOURCE_DIR}
    -DPOSENC_WORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/package_consumer
    -DPOSENC_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    -DPOSENC_GENERATOR=${CMAKE_GENERATOR}
    -P ${CMAKE_CURRENT_SOURCE_DIR}/package_consumer/run.cmake)
set_tests_properties(package_consumer PROPERTIES LABELS "packaging" TIMEOUT 600)
