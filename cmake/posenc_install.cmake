# Install rules, the export set and the package configuration for find_package(posenc CONFIG).
include(CMakePackageConfigHelpers)

set(POSENC_INSTALL_CMAKEDIR "${CMAKE_INSTALL_DATADIR}/cmake/posenc"
    CACHE STRING "Where posenc-config.cmake is installed")

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/posenc" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(TARGETS posenc EXPORT posenc-targets)
install(EXPORT posenc-targets NAMESPACE posenc:: DESTINATION "${POSENC_INSTALL_CMAKEDIR}")
# The command-line tool in an export set of its own, component cli: posenc::cli is the generator
# of posenc_add_table after find_package. The package configuration includes its file when present,
# so a headers-only install (POSENC_BUILD_TOOLS=OFF) stays a valid package.
if(POSENC_BUILD_TOOLS AND TARGET posenc_cli)
  install(TARGETS posenc_cli EXPORT posenc-cli-targets RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT cli)
  install(EXPORT posenc-cli-targets NAMESPACE posenc:: DESTINATION "${POSENC_INSTALL_CMAKEDIR}" COMPONENT cli)
endif()
install(FILES "${PROJECT_SOURCE_DIR}/cmake/posenc_add_table.cmake" DESTINATION "${POSENC_INSTALL_CMAKEDIR}")

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/posenc-config.cmake.in"
  "${PROJECT_BINARY_DIR}/posenc-config.cmake"
  INSTALL_DESTINATION "${POSENC_INSTALL_CMAKEDIR}")
# Header-only and architecture-independent: any 0.x minor matches only itself while the API is young.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/posenc-config-version.cmake"
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/posenc-config.cmake"
              "${PROJECT_BINARY_DIR}/posenc-config-version.cmake"
        DESTINATION "${POSENC_INSTALL_CMAKEDIR}")
