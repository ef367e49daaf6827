# Included by tests/CMakeLists.txt when posenc::io (nlohmann-json) is available. The readers'
# fuzzing harnesses (tests/fuzz/fuzz_*.cpp) run by tools/fuzz.sh under libFuzzer; here the suite
# runs them on their corpora: the kept corpus of each reader (tests/fuzz/corpus/<reader>/, every
# finding among it), and for the config readers every shipped config.
#  * Under Clang with libFuzzer, each harness fuzzes for two seconds (posenc_fuzz_smoke: the harnesses'
#    unit, replay_all.cpp, linked with libFuzzer; tests fuzz_smoke_<harness>), from its kept corpus
#    with the dictionary, into a working corpus in the build tree. libFuzzer first runs every input of
#    the corpus, so this is the replay too; a harness that stopped building, or an input its first
#    mutations break, fails the suite. Compiled at -O0 (19 s of CPU; -O1 adds about as much again,
#    for a 2-second run). The long runs are tools/fuzz.sh's.
#  * Under GCC with the sanitizers (the asan preset), the same unit without libFuzzer replays the
#    corpora (posenc_fuzz_replay, tests fuzz_replay_<harness>), and the twins show each property check
#    can fail. Not in GCC's plain build: the replay there checked the same properties on the same
#    inputs with no sanitizer watching, after Clang's smoke run and before the sanitized replay (13.5 s
#    of compile and a few seconds of tests that no finding could need).
set(_posenc_fuzz_corpus "${CMAKE_CURRENT_SOURCE_DIR}/fuzz/corpus")
set(_posenc_fuzz_inputs_hf_config "${_posenc_fuzz_corpus}/hf_config" "${PROJECT_SOURCE_DIR}/examples/configs")
set(_posenc_fuzz_inputs_npy "${_posenc_fuzz_corpus}/npy")
set(_posenc_fuzz_inputs_safetensors "${_posenc_fuzz_corpus}/safetensors")
set(_posenc_fuzz_inputs_verify_report "${_posenc_fuzz_corpus}/verify_report")
set(_posenc_fuzz_inputs_cli_args "${_posenc_fuzz_corpus}/cli_args")
set(_posenc_fuzz_inputs_verify_merge "${_posenc_fuzz_corpus}/verify_merge")
set(_posenc_fuzz_inputs_table_bin "${_posenc_fuzz_corpus}/table_bin")
set(_posenc_fuzz_inputs_position_ids "${_posenc_fuzz_corpus}/position_ids")
set(_posenc_fuzz_harnesses hf_config npy safetensors verify_report verify_merge cli_args table_bin position_ids)
set(_posenc_fuzz_smoke OFF)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
  set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=fuzzer")
  check_cxx_source_compiles(
    "#include <cstddef>\n#include <cstdint>\nextern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }"
    POSENC_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(POSENC_HAVE_LIBFUZZER)
    set(_posenc_fuzz_smoke ON)
    add_executable(posenc_fuzz_smoke "${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay_all.cpp")
    target_link_libraries(posenc_fuzz_smoke PRIVATE posenc::io posenc_warnings)
    target_include_directories(posenc_fuzz_smoke PRIVATE "${PROJECT_SOURCE_DIR}/tools")
    target_compile_definitions(posenc_fuzz_smoke PRIVATE POSENC_FUZZ_SMOKE)
    set(_posenc_fuzz_flags -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined)
    target_compile_options(posenc_fuzz_smoke PRIVATE -O0 ${_posenc_fuzz_flags})
    target_link_options(posenc_fuzz_smoke PRIVATE ${_posenc_fuzz_flags})
    foreach(_harness IN LISTS _posenc_fuzz_harnesses)
      set(_work "${CMAKE_CURRENT_BINARY_DIR}/fuzz_smoke/${_harness}")
      file(MAKE_DIRECTORY "${_work}")
      add_test(NAME fuzz_smoke_${_harness}
        COMMAND posenc_fuzz_smoke -max_total_time=2 -dict=${CMAKE_CURRENT_SOURCE_DIR}/fuzz/posenc.dict
                -max_len=65536 -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/fuzz_smoke/finding-${_harness}-
                "${_work}" ${_posenc_fuzz_inputs_${_harness}})
      set_tests_properties(fuzz_smoke_${_harness} PROPERTIES LABELS "fuzz" TIMEOUT 120
                           ENVIRONMENT "POSENC_FUZZ_HARNESS=${_harness}")
    endforeach()
  else()
    add_test(NAME fuzz_smoke_libfuzzer_missing
      COMMAND ${CMAKE_COMMAND} -E echo "libFuzzer not found: install Debian's libclang-rt-16-dev (bash tools/bootstrap-deps.sh)")
    set_tests_properties(fuzz_smoke_libfuzzer_missing PROPERTIES LABELS "fuzz" WILL_FAIL TRUE)
  endif()
endif()

if(NOT _posenc_fuzz_smoke AND POSENC_SANITIZED)
  add_executable(posenc_fuzz_replay "${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay_all.cpp")
  target_link_libraries(posenc_fuzz_replay PRIVATE posenc::io posenc_warnings)
  # The CLI's own argument readers (tools/cli/args.hpp, hexfloat.hpp) for fuzz_cli_args.cpp.
  target_include_directories(posenc_fuzz_replay PRIVATE "${PROJECT_SOURCE_DIR}/tools")
  # Run-time speed does not matter here (a few dozen small inputs): -O0, the cheapest to compile.
  target_compile_options(posenc_fuzz_replay PRIVATE -O0)
  foreach(_reader IN LISTS _posenc_fuzz_harnesses)
    add_test(NAME fuzz_replay_${_reader} COMMAND posenc_fuzz_replay ${_reader} ${_posenc_fuzz_inputs_${_reader}})
    set_tests_properties(fuzz_replay_${_reader} PROPERTIES LABELS "fuzz" TIMEOUT 300)
  endforeach()
  # The property checks can fail: the twins hand them a two-line error, a NaN and a shard's report
  # altered on its way back (twin_merge); each run must fail naming the property (expect_broken.cmake).
  foreach(_twin_property IN ITEMS "twin_error_lines|one error line" "twin_nan|no NaN or infinity"
                                 "twin_merge|verify merge of the shards equals the whole report")
    string(REPLACE "|" ";" _pair "${_twin_property}")
    list(GET _pair 0 _twin)
    list(GET _pair 1 _property)
    add_test(NAME fuzz_replay_${_twin}
      COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:posenc_fuzz_replay> -DTWIN=${_twin}
              "-DINPUT=${PROJECT_SOURCE_DIR}/tests/fuzz/posenc.dict" "-DPROPERTY=${_property}"
              -P ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/expect_broken.cmake)
    set_tests_properties(fuzz_replay_${_twin} PROPERTIES LABELS "fuzz" TIMEOUT 60)
  endforeach()
endif()
