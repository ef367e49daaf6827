# Script mode: drives tests/add_table/consumer as a user's project would be built.
#   MODE package       find_package(posenc) from the prefix that the package_consumer test installed
#                      (with this build's posenc as its cli component): build, compare every entry
#                      (check_tables), see a flipped bit reported, see the tables regenerate when
#                      the config or the generator changes, and a bad config fail the build with
#                      posenc's error line and no header left; misuse stops configuring, named.
#   MODE cross         arm-none-eabi (CMAKE_SYSTEM_NAME Generic), the generator on the build
#                      machine: after find_package (the installed posenc::cli), and after
#                      add_subdirectory, where it is refused without a host posenc and then given one
#                      (POSENC_EXECUTABLE). The comparison is cross_tables.cpp's static_asserts; the
#                      flipped variant must not compile.
#   MODE subdirectory  add_subdirectory(posenc) natively, configured only: the build plan must build
#                      posenc's own generator first, then the tables with it (ninja -t commands;
#                      compiling the generator takes half a minute more, and the in-tree
#                      add_table_subdirectory test builds and checks the same tables with this
#                      build's generator target); -DFULL=ON also builds and compares.
foreach(_var MODE POSENC_SOURCE_DIR WORK_DIR CXX_COMPILER GENERATOR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "run.cmake: ${_var} is not set")
  endif()
endforeach()
set(_consumer "${POSENC_SOURCE_DIR}/tests/add_table/consumer")
set(_llama "${POSENC_SOURCE_DIR}/examples/configs/llama-3.1-8b.json")

function(posenc_step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "add_table test step failed (${_rc}): ${ARGN}")
  endif()
endfunction()

# posenc_must_fail(MATCH <regex>... COMMAND <command>...): the command must fail, and its output
# (stdout and stderr) match every regex.
function(posenc_must_fail)
  cmake_parse_arguments(_f "" "" "MATCH;COMMAND" ${ARGN})
  execute_process(COMMAND ${_f_COMMAND} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(_rc EQUAL 0)
    message(FATAL_ERROR "expected to fail, succeeded: ${_f_COMMAND}\n${_out}")
  endif()
  # CMake wraps a long message over indented lines: match on the text with each run of spaces and
  # newlines as one space.
  string(REGEX REPLACE "[ \n]+" " " _out "${_out}")
  foreach(_re IN LISTS _f_MATCH)
    if(NOT _out MATCHES "${_re}")
      message(FATAL_ERROR "failed without '${_re}': ${_f_COMMAND}\n${_out}")
    endif()
  endforeach()
endfunction()

# The build plan (ninja -n) of `build` must match each regex given after PLAN and none after NOT.
function(posenc_plan build)
  cmake_parse_arguments(_p "" "" "PLAN;NOT" ${ARGN})
  execute_process(COMMAND ${CMAKE_COMMAND} --build "${build}" -- -n RESULT_VARIABLE _rc OUTPUT_VARIABLE _out)
  foreach(_re IN LISTS _p_PLAN)
    if(NOT _out MATCHES "${_re}")
      message(FATAL_ERROR "the build plan of ${build} lacks '${_re}':\n${_out}")
    endif()
  endforeach()
  foreach(_re IN LISTS _p_NOT)
    if(_out MATCHES "${_re}")
      message(FATAL_ERROR "the build plan of ${build} has '${_re}':\n${_out}")
    endif()
  endforeach()
endfunction()

# The host's default C compiler for tables_c.c; C++ is the build's own.
set(_native -G "${GENERATOR}" -DCMAKE_CXX_COMPILER=${CXX_COMPILER})

if(MODE STREQUAL "package")
  foreach(_var PREFIX)
    if(NOT DEFINED ${_var})
      message(FATAL_ERROR "run.cmake: ${_var} is not set")
    endif()
  endforeach()
  if(NOT EXISTS "${PREFIX}/share/cmake/posenc/posenc-cli-targets.cmake")
    message(FATAL_ERROR "${PREFIX} has no posenc::cli: the package_consumer test installs it first")
  endif()
  set(_build "${WORK_DIR}/package")
  file(REMOVE_RECURSE "${WORK_DIR}")
  # The project's own inputs, so that the test can change them.
  configure_file("${_llama}" "${WORK_DIR}/config.json" COPYONLY)
  configure_file("${POSENC_SOURCE_DIR}/tests/add_table/position_ids.csv" "${WORK_DIR}/position_ids.csv" COPYONLY)
  posenc_step(${CMAKE_COMMAND} -S "${_consumer}" -B "${_build}" ${_native} -DCMAKE_PREFIX_PATH=${PREFIX}
              -DPOSENC_TEST_HF_CONFIG=${WORK_DIR}/config.json -DPOSENC_TEST_POSITION_IDS=${WORK_DIR}/position_ids.csv)
  posenc_step(${CMAKE_COMMAND} --build "${_build}")
  posenc_step("${_build}/check_tables")
  posenc_must_fail(MATCH " 9 tables differ" COMMAND "${_build}/check_tables" --flip)
  # Up to date; a newer config regenerates its table alone, so does a newer DEPENDS file; a newer
  # generator, every table.
  posenc_plan("${_build}" NOT "generating table")
  file(TOUCH "${WORK_DIR}/config.json")
  posenc_plan("${_build}" PLAN "generating table llama31_bf16" NOT "generating table (rope_f32|alibi_f16|mrope_f64)")
  posenc_step(${CMAKE_COMMAND} --build "${_build}")
  file(TOUCH "${WORK_DIR}/position_ids.csv")
  posenc_plan("${_build}" PLAN "generating table mrope_f64" NOT "generating table (llama31_bf16|rope_f32|alibi_f16)")
  file(TOUCH "${PREFIX}/bin/posenc")
  posenc_plan("${_build}" PLAN "generating table llama31_bf16" "generating table rope_f32" "generating table alibi_f16"
              "generating table mrope_f64")
  # A config the generator refuses: the build fails with posenc's own error line, and no header of
  # the old config is left for a later build to compile.
  file(READ "${WORK_DIR}/config.json" _json)
  string(REPLACE "\"rope_theta\": 500000.0" "\"rope_theta\": 0.5" _json "${_json}")
  file(WRITE "${WORK_DIR}/config.json" "${_json}")
  posenc_must_fail(MATCH "posenc: error: emit rope: invalid RoPE config: rope_theta" COMMAND ${CMAKE_COMMAND} --build "${_build}")
  if(EXISTS "${_build}/posenc_tables/check_tables/llama31_bf16.h")
    message(FATAL_ERROR "a failed generation left llama31_bf16.h behind")
  endif()
  # Misuse, one case a configure of misuse/ (the cache, and so the compiler's detection, kept).
  foreach(_case_re IN ITEMS "name|the name must be a C identifier" "scheme|SCHEME <table> is required"
                            "config|HF_CONFIG file not found: [^ ]*/no-such-config\\.json" "empty|no value after HF_CONFIG"
                            "keyword|unknown arguments 'ROWS;4'" "scope|SCOPE is PRIVATE, PUBLIC or INTERFACE, not 'GLOBAL'"
                            "target|no target named 'no_such_target'" "twice|a table of this name was already added to 'app'"
                            "directory|call it in the directory that defines 'app'"
                            "executable|POSENC_EXECUTABLE is not the path of an existing file: /no/such/posenc")
    string(REPLACE "|" ";" _pair "${_case_re}")
    list(GET _pair 0 _case)
    list(GET _pair 1 _re)
    posenc_must_fail(MATCH "posenc_add_table(\\([^)]*\\))?: ${_re}"
                     COMMAND ${CMAKE_COMMAND} -S "${POSENC_SOURCE_DIR}/tests/add_table/misuse" -B "${WORK_DIR}/misuse"
                             ${_native} -DCMAKE_PREFIX_PATH=${PREFIX} -DCASE=${_case})
  endforeach()
  message("posenc_add_table after find_package: tables equal posenc's, regenerate on change, fail cleanly")
elseif(MODE STREQUAL "cross")
  foreach(_var PREFIX POSENC_EXECUTABLE)
    if(NOT DEFINED ${_var})
      message(FATAL_ERROR "run.cmake: ${_var} is not set")
    endif()
  endforeach()
  file(REMOVE_RECURSE "${WORK_DIR}")
  set(_cross -G "${GENERATOR}" -DCMAKE_TOOLCHAIN_FILE=${POSENC_SOURCE_DIR}/tests/add_table/arm-none-eabi.cmake)
  # find_package: posenc_DIR names the build machine's install, as a cross build names a host tool's.
  posenc_step(${CMAKE_COMMAND} -S "${_consumer}" -B "${WORK_DIR}/package" ${_cross}
              -Dposenc_DIR=${PREFIX}/share/cmake/posenc)
  posenc_step(${CMAKE_COMMAND} --build "${WORK_DIR}/package")
  posenc_must_fail(MATCH "generated llama31_bf16_cos equals" "generated llama31_bf16_sin equals"
                         "generated rope_f32_cos equals" "generated rope_f32_sin equals" "generated alibi_f16_slope equals"
                         "generated mrope_f64_cos equals" "generated mrope_f64_sin equals"
                   COMMAND ${CMAKE_COMMAND} --build "${WORK_DIR}/package" --target cross_tables_flipped)
  # add_subdirectory: the in-tree generator would be built for the Arm target, so a host one is
  # required, and its absence is said at configure time (PATH without any posenc on it).
  posenc_must_fail(MATCH "posenc_add_table: cross-compiling"
                   COMMAND ${CMAKE_COMMAND} -E env PATH=/usr/bin:/bin ${CMAKE_COMMAND} -S "${_consumer}"
                           -B "${WORK_DIR}/subdirectory" ${_cross} -DPOSENC_SOURCE_DIR=${POSENC_SOURCE_DIR})
  posenc_step(${CMAKE_COMMAND} -S "${_consumer}" -B "${WORK_DIR}/subdirectory" ${_cross}
              -DPOSENC_SOURCE_DIR=${POSENC_SOURCE_DIR} -DPOSENC_EXECUTABLE=${POSENC_EXECUTABLE})
  posenc_step(${CMAKE_COMMAND} --build "${WORK_DIR}/subdirectory")
  message("posenc_add_table cross-compiled (find_package and add_subdirectory): tables equal the target's constexpr tables")
elseif(MODE STREQUAL "subdirectory")
  if(NOT DEFINED MAKE_PROGRAM)
    message(FATAL_ERROR "run.cmake: MAKE_PROGRAM (ninja) is not set")
  endif()
  file(REMOVE_RECURSE "${WORK_DIR}")
  set(_build "${WORK_DIR}/subdirectory")
  posenc_step(${CMAKE_COMMAND} -S "${_consumer}" -B "${_build}" ${_native} -DPOSENC_SOURCE_DIR=${POSENC_SOURCE_DIR})
  # Every command that building check_tables runs, dependencies first (`ninja -n` would stop at the
  # glob check of posenc's tools/, which a dry run cannot record): the generator's compile, then a
  # table made by that generator, then the checker's compile.
  execute_process(COMMAND "${MAKE_PROGRAM}" -C "${_build}" -t commands check_tables
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _commands)
  set(_order "posenc_cli\\.dir/cli/main\\.cpp\\.o.*/posenc/tools/posenc emit rope --hf-config [^\n]*llama-3\\.1-8b\\.json.*check_tables\\.cpp\\.o")
  if(NOT _rc EQUAL 0 OR NOT _commands MATCHES "${_order}")
    message(FATAL_ERROR "building check_tables does not build posenc's generator, then the tables:\n${_commands}")
  endif()
  # And the table is remade when its config or the generator changes: both are inputs of its rule.
  execute_process(COMMAND "${MAKE_PROGRAM}" -C "${_build}" -t query posenc_tables/check_tables/llama31_bf16.h
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _query)
  if(NOT _rc EQUAL 0 OR NOT _query MATCHES "input: CUSTOM_COMMAND\n +[^\n]*/llama-3\\.1-8b\\.json\n +posenc/tools/posenc\n")
    message(FATAL_ERROR "llama31_bf16.h does not depend on its config and the generator:\n${_query}")
  endif()
  # -DFULL=ON: build it all and compare, as MODE package does (about 30 s on one core, the
  # generator's compile at -O0: not in the suite, whose time is counted; docs/cmake.md).
  if(FULL)
    posenc_step(${CMAKE_COMMAND} --build "${_build}")
    posenc_step("${_build}/check_tables")
    posenc_must_fail(MATCH " 9 tables differ" COMMAND "${_build}/check_tables" --flip)
  endif()
  message("posenc_add_table after add_subdirectory: posenc's generator is built, then the tables")
else()
  message(FATAL_ERROR "run.cmake: MODE is package, cross or subdirectory, not '${MODE}'")
endif()
