# posenc_add_table: a positional-encoding table generated at build time by `posenc emit`, as a C/C++
# header in a target's sources. For tables too large for constant evaluation (a 2048 x 128 RoPE table
# needs -fconstexpr-ops-limit=268435456 on GCC) and for C code; the bits are those of the constexpr
# tables (tests/add_table/ checks it).
#
#   posenc_add_table(<target> <name>
#                    SCHEME <table>                  # rope, alibi, sinusoidal, ...: posenc emit's table
#                    [HF_CONFIG <config.json>]       # --hf-config; relative paths from this directory
#                    [DTYPE f64|f32|bf16|f16]        # --dtype (default f64)
#                    [ARGS <flag>...]                # the table's own flags, e.g. --positions 2048
#                    [DEPENDS <file>...]             # other inputs named in ARGS (--position-ids FILE)
#                    [SCOPE PRIVATE|PUBLIC|INTERFACE] # of the include directory (default PRIVATE)
#                    [HEADER_VARIABLE <var>])        # set to the header's path
#
# writes ${CMAKE_CURRENT_BINARY_DIR}/posenc_tables/<target>/<name>.h, whose identifiers start with
# <name> (posenc emit --name), adds it to <target>'s sources and its directory to <target>'s include
# path: `#include "<name>.h"`. The header is `posenc emit --format c`: static const arrays in C,
# inline constexpr in C++, so one format serves both languages. The table's flags are passed through
# as written rather than mapped to keywords, so every table and flag of `posenc emit` works here and
# a new one needs no change to this file; `posenc emit <table> --help` lists them.
#
# The header is regenerated when HF_CONFIG, a DEPENDS file or the generator changes. A generator
# failure fails the build with posenc's own error line, and the header is deleted first, so a
# failed build leaves no stale table behind for the next one to compile.
#
# The generator, first found of:
#   1. POSENC_EXECUTABLE (cache variable): a posenc that runs on the build machine;
#   2. posenc::cli: the installed executable (find_package), or the posenc_cli target of this
#      source tree (add_subdirectory), which is built first; not when cross-compiling, where the
#      in-tree target is built for the target machine and cannot run here;
#   3. `posenc` on the build machine's PATH (find_program).
# When none is found, configuring fails and says how to provide one.
include_guard(GLOBAL)

# The generator command and the dependency that reruns it when the generator changes.
function(_posenc_add_table_generator out_command out_depends)
  if(POSENC_EXECUTABLE)
    # Said now rather than as a failed command at build time.
    if(NOT IS_ABSOLUTE "${POSENC_EXECUTABLE}" OR NOT EXISTS "${POSENC_EXECUTABLE}")
      message(FATAL_ERROR "posenc_add_table: POSENC_EXECUTABLE is not the path of an existing file: ${POSENC_EXECUTABLE}")
    endif()
    set(${out_command} "${POSENC_EXECUTABLE}" PARENT_SCOPE)
    set(${out_depends} "${POSENC_EXECUTABLE}" PARENT_SCOPE)
    return()
  endif()
  if(TARGET posenc::cli)
    get_target_property(_imported posenc::cli IMPORTED)
    if(_imported)
      set(${out_command} "$<TARGET_FILE:posenc::cli>" PARENT_SCOPE)
      set(${out_depends} "$<TARGET_FILE:posenc::cli>" PARENT_SCOPE)
      return()
    endif()
    if(NOT CMAKE_CROSSCOMPILING)
      # The target itself in DEPENDS: a target-level dependency (built first) and a file-level one
      # (a rebuilt generator regenerates the table).
      get_target_property(_real posenc::cli ALIASED_TARGET)
      set(${out_command} "$<TARGET_FILE:${_real}>" PARENT_SCOPE)
      set(${out_depends} "${_real}" PARENT_SCOPE)
      return()
    endif()
  endif()
  find_program(POSENC_EXECUTABLE posenc DOC "posenc_add_table's generator: a posenc that runs on the build machine")
  if(POSENC_EXECUTABLE)
    set(${out_command} "${POSENC_EXECUTABLE}" PARENT_SCOPE)
    set(${out_depends} "${POSENC_EXECUTABLE}" PARENT_SCOPE)
    return()
  endif()
  if(CMAKE_CROSSCOMPILING)
    message(FATAL_ERROR
      "posenc_add_table: cross-compiling (CMAKE_SYSTEM_NAME ${CMAKE_SYSTEM_NAME}), the generator must run "
      "on the build machine and no posenc for it was found: build or install posenc natively and pass "
      "-DPOSENC_EXECUTABLE=/path/to/posenc (or put it on PATH)")
  endif()
  message(FATAL_ERROR
    "posenc_add_table: no posenc generator: install posenc with its tools (POSENC_BUILD_TOOLS=ON), or "
    "pass -DPOSENC_EXECUTABLE=/path/to/posenc")
endfunction()

function(posenc_add_table target name)
  cmake_parse_arguments(PARSE_ARGV 2 _pat "" "SCHEME;HF_CONFIG;DTYPE;SCOPE;HEADER_VARIABLE" "ARGS;DEPENDS")
  set(_where "posenc_add_table(${target} ${name})")
  if(_pat_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "${_where}: no value after ${_pat_KEYWORDS_MISSING_VALUES}")
  endif()
  if(_pat_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${_where}: unknown arguments '${_pat_UNPARSED_ARGUMENTS}' (a table's own flags go after ARGS)")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${_where}: no target named '${target}'")
  endif()
  get_target_property(_aliased ${target} ALIASED_TARGET)
  get_target_property(_imported ${target} IMPORTED)
  if(_aliased OR _imported)
    message(FATAL_ERROR "${_where}: '${target}' is an alias or imported target; name the target itself")
  endif()
  # add_custom_command gives its rule to targets of the same directory only.
  get_target_property(_target_dir ${target} SOURCE_DIR)
  if(NOT _target_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
    message(FATAL_ERROR "${_where}: call it in the directory that defines '${target}' (${_target_dir})")
  endif()
  # The name is the header's file name and the prefix of its C identifiers.
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${_where}: the name must be a C identifier (letters, digits, _; not first a digit)")
  endif()
  if(NOT _pat_SCHEME)
    message(FATAL_ERROR "${_where}: SCHEME <table> is required (rope, alibi, ...: posenc emit --help lists them)")
  endif()
  if(NOT _pat_SCOPE)
    set(_pat_SCOPE PRIVATE)
  elseif(NOT _pat_SCOPE MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
    message(FATAL_ERROR "${_where}: SCOPE is PRIVATE, PUBLIC or INTERFACE, not '${_pat_SCOPE}'")
  endif()

  set(_flags "")
  set(_depends ${_pat_DEPENDS})
  if(DEFINED _pat_HF_CONFIG)
    get_filename_component(_config "${_pat_HF_CONFIG}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${_config}")
      message(FATAL_ERROR "${_where}: HF_CONFIG file not found: ${_config}")
    endif()
    list(APPEND _flags --hf-config "${_config}")
    list(APPEND _depends "${_config}")
  endif()
  if(DEFINED _pat_DTYPE)
    list(APPEND _flags --dtype "${_pat_DTYPE}")
  endif()

  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/posenc_tables/${target}")
  set(_header "${_dir}/${name}.h")
  get_property(_claimed GLOBAL PROPERTY "_posenc_add_table:${_header}" SET)
  if(_claimed)
    message(FATAL_ERROR "${_where}: a table of this name was already added to '${target}'")
  endif()
  set_property(GLOBAL PROPERTY "_posenc_add_table:${_header}" TRUE)

  _posenc_add_table_generator(_generator _generator_depends)
  file(MAKE_DIRECTORY "${_dir}")
  add_custom_command(
    OUTPUT "${_header}"
    COMMAND "${CMAKE_COMMAND}" -E rm -f "${_header}"
    COMMAND "${_generator}" emit ${_pat_SCHEME} ${_flags} ${_pat_ARGS} --format c --name ${name} -o "${_header}"
    DEPENDS ${_depends} ${_generator_depends}
    COMMENT "posenc: generating table ${name} (${_pat_SCHEME}) for ${target}"
    VERBATIM)
  target_sources(${target} PRIVATE "${_header}")
  target_include_directories(${target} ${_pat_SCOPE} "$<BUILD_INTERFACE:${_dir}>")
  if(_pat_HEADER_VARIABLE)
    set(${_pat_HEADER_VARIABLE} "${_header}" PARENT_SCOPE)
  endif()
endfunction()
