# Script mode: the example's static_asserts are live. Copies examples/firmware/src to WORK_DIR with
# one bit of the RoPE table flipped in model_tables.hpp (the lowest bit of sin at position 37,
# pair 31, in both of its lanes: 31 and 63), and compiles the copy's main.cpp for the Cortex-M0: it
# must fail, the compiler naming the exactness law and the entry (laws::require: position 37, pair
# 31, element 31), and no other law (the flipped entry is 1 ulp off a value of order 1e-5: still a
# rotation up to rounding, the same in both lanes, equal scores). The unchanged sources compile in
# firmware_run.
foreach(_var ARM_CXX SOURCE_DIR INCLUDE_DIR WORK_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "laws_twin.cmake: ${_var} is not set")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${SOURCE_DIR}/src/" DESTINATION "${WORK_DIR}")
file(READ "${WORK_DIR}/model_tables.hpp" _text)
set(_stored "inline constexpr rope_table_type rope_table = rope_built.value;\n")
string(FIND "${_text}" "${_stored}" _at)
if(_at LESS 0)
  message(FATAL_ERROR "model_tables.hpp no longer defines rope_table as '${_stored}': update this twin")
endif()
string(REPLACE "${_stored}" "constexpr rope_table_type one_bit_flipped(rope_table_type t) {
  for (const std::size_t k : {37 * head_dim + 31, 37 * head_dim + 63})
    t.sin[k] = std::bit_cast<float>(std::bit_cast<std::uint32_t>(t.sin[k]) ^ 1u);
  return t;
}
inline constexpr rope_table_type rope_table = one_bit_flipped(rope_built.value);
" _text "${_text}")
string(REPLACE "#include <array>\n" "#include <array>\n#include <bit>\n#include <cstdint>\n" _text "${_text}")
file(WRITE "${WORK_DIR}/model_tables.hpp" "${_text}")

execute_process(
  COMMAND ${ARM_CXX} -std=c++20 -Os -mcpu=cortex-m0 -mthumb -mfloat-abi=soft -ffp-contract=off -fno-exceptions
          -fno-rtti "-DFIRMWARE_BOARD_NAME=\"microbit\"" -I${INCLUDE_DIR} -fsyntax-only "${WORK_DIR}/main.cpp"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(_rc EQUAL 0)
  message(FATAL_ERROR "the example compiled with a flipped RoPE bit: its laws did not see it")
endif()
if(NOT _err MATCHES "posenc::laws::failed::exactness\\(37, 31, 31\\)")
  message(FATAL_ERROR "the compile failed, but not with exactness at position 37, pair 31, element 31:\n${_err}")
endif()
string(REGEX MATCHALL "posenc::laws::failed::[a-z_]+\\(" _failed "${_err}")
list(REMOVE_DUPLICATES _failed)
if(NOT _failed STREQUAL "posenc::laws::failed::exactness(")
  message(FATAL_ERROR "laws other than exactness failed on a 1-ulp change: ${_failed}\n${_err}")
endif()
message("the example's static_asserts reject the flipped bit: posenc::laws::failed::exactness(37, 31, 31), no other law")
