# The library targets.
#
# posenc::posenc  header-only core, standard library only.
# posenc::verify  the property-testing layer: adds Boost.Hana, Boost.Multiprecision and MPFR.
# posenc::io      reading model files (io/: a HuggingFace config.json): adds nlohmann-json.

add_library(posenc INTERFACE)
add_library(posenc::posenc ALIAS posenc)
target_include_directories(posenc INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(posenc INTERFACE cxx_std_20)
# Same bits at compile time and at run time: constant evaluation never fuses a*b+c, so run-time
# code must not either (the error-free transforms of double_double.hpp depend on it).
target_compile_options(posenc INTERFACE
  $<$<OR:$<CXX_COMPILER_ID:GNU>,$<CXX_COMPILER_ID:Clang>>:-ffp-contract=off>)

# The verify layer is optional: it needs Boost 1.81 headers and MPFR.
find_package(Boost 1.81 CONFIG QUIET)
find_path(POSENC_MPFR_INCLUDE_DIR mpfr.h)
find_library(POSENC_MPFR_LIBRARY mpfr)
find_library(POSENC_GMP_LIBRARY gmp)
find_package(Threads)  # verify_rope (verify/rope_verify.hpp) runs on every core
if(Boost_FOUND AND POSENC_MPFR_INCLUDE_DIR AND POSENC_MPFR_LIBRARY AND POSENC_GMP_LIBRARY AND Threads_FOUND)
  set(POSENC_HAVE_VERIFY ON)
  add_library(posenc_verify INTERFACE)
  add_library(posenc::verify ALIAS posenc_verify)
  set_target_properties(posenc_verify PROPERTIES EXPORT_NAME verify)
  target_link_libraries(posenc_verify INTERFACE posenc Boost::headers
                        ${POSENC_MPFR_LIBRARY} ${POSENC_GMP_LIBRARY} Threads::Threads)
  target_include_directories(posenc_verify SYSTEM INTERFACE ${POSENC_MPFR_INCLUDE_DIR})
else()
  set(POSENC_HAVE_VERIFY OFF)
  message(STATUS "posenc: Boost 1.81 or MPFR not found; posenc::verify is not available")
endif()

# The kernel-testing kit (include/posenc/testing/: check_rope_apply and its generators) adds
# RapidCheck (Debian librapidcheck-dev: a static library and its CMake config) to the verify layer.
# Built in the tree only (tests, examples); not exported, since a consumer's RapidCheck may differ.
if(POSENC_HAVE_VERIFY)
  find_package(rapidcheck CONFIG QUIET)
endif()
if(POSENC_HAVE_VERIFY AND TARGET rapidcheck)
  set(POSENC_HAVE_TESTING ON)
  add_library(posenc_testing INTERFACE)
  add_library(posenc::testing ALIAS posenc_testing)
  target_link_libraries(posenc_testing INTERFACE posenc_verify rapidcheck)
else()
  set(POSENC_HAVE_TESTING OFF)
  message(STATUS "posenc: RapidCheck (or posenc::verify) not found; posenc/testing/, its test and example are not built")
endif()

# The io layer is optional too: it needs nlohmann-json (Debian nlohmann-json3-dev). Kept out of the
# core so that a user of the tables alone needs nothing but the standard library.
find_package(nlohmann_json 3 CONFIG QUIET)
if(nlohmann_json_FOUND)
  set(POSENC_HAVE_IO ON)
  add_library(posenc_io INTERFACE)
  add_library(posenc::io ALIAS posenc_io)
  set_target_properties(posenc_io PROPERTIES EXPORT_NAME io)
  target_link_libraries(posenc_io INTERFACE posenc nlohmann_json::nlohmann_json)
else()
  set(POSENC_HAVE_IO OFF)
  message(STATUS "posenc: nlohmann-json not found; posenc::io (and posenc --hf-config) is not available")
endif()

# Warnings as errors for the project's own code (tests, proofs, examples, tools), never for users.
add_library(posenc_warnings INTERFACE)
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(posenc_warnings INTERFACE
    -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror)
endif()
