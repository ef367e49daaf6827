# check.cmake: the detail boundary. Code outside include/ (tools/, examples/, bench/, proofs/) uses
# only public APIs, so that every internal can change without breaking it (design.md section 1:
# "detail/ ... never used outside include/"). Fails, listing the offenders, when any file under
# ROOT/<dir> for the dirs in DIRS contains "detail::".
#   cmake -DROOT=<source dir> "-DDIRS=tools;examples;bench;proofs" -P check.cmake
# A plain text search on purpose: it also catches a `detail::` in a comment or a macro, which a
# compiler-based check would miss, and it needs nothing built.
if(NOT DEFINED ROOT OR NOT DEFINED DIRS)
  message(FATAL_ERROR "usage: cmake -DROOT=<dir> \"-DDIRS=a;b\" -P check.cmake")
endif()
set(_offenders "")
set(_scanned 0)
foreach(_dir IN LISTS DIRS)
  if(NOT IS_DIRECTORY "${ROOT}/${_dir}")
    message(FATAL_ERROR "detail boundary: ${ROOT}/${_dir} is not a directory")
  endif()
  file(GLOB_RECURSE _files LIST_DIRECTORIES false "${ROOT}/${_dir}/*")
  foreach(_f IN LISTS _files)
    # Files that other tests running beside this one create and delete (Python's __pycache__, an
    # output being written) are not sources; one that vanished since the glob is skipped, not an
    # error (a suite run failed this check once on such a race).
    if(_f MATCHES "/__pycache__/" OR NOT EXISTS "${_f}")
      continue()
    endif()
    math(EXPR _scanned "${_scanned} + 1")
    file(STRINGS "${_f}" _hits REGEX "detail::")
    if(_hits)
      file(RELATIVE_PATH _rel "${ROOT}" "${_f}")
      list(LENGTH _hits _n)
      list(GET _hits 0 _first)
      string(STRIP "${_first}" _first)
      string(APPEND _offenders "  ${_rel}: ${_n} line(s), first: ${_first}\n")
    endif()
  endforeach()
endforeach()
if(_scanned EQUAL 0)
  message(FATAL_ERROR "detail boundary: no file found under ${ROOT} in ${DIRS}")
endif()
if(_offenders)
  message(FATAL_ERROR "detail boundary: code outside include/ uses detail:: (use or publish a public API):\n${_offenders}")
endif()
message(STATUS "detail boundary: ${_scanned} files under ${DIRS}, none uses detail::")
