# Every public header must compile on its own (Boost.Hana's TestHeaders habit): one generated
# translation unit per header, each including that header alone, twice (include guards work).
file(GLOB_RECURSE _posenc_headers CONFIGURE_DEPENDS
     RELATIVE "${PROJECT_SOURCE_DIR}/include" "${PROJECT_SOURCE_DIR}/include/posenc/*.hpp")
set(_core_sources "")
set(_verify_sources "")
set(_io_sources "")
set(_testing_sources "")
foreach(_header IN LISTS _posenc_headers)
  string(MAKE_C_IDENTIFIER "${_header}" _id)
  set(_tu "${CMAKE_CURRENT_BINARY_DIR}/headers/${_id}.cpp")
  file(CONFIGURE OUTPUT "${_tu}"
       CONTENT "#include <${_header}>\n#include <${_header}>\nint posenc_header_${_id}() { return 0; }\n")
  if(_header MATCHES "^posenc/testing/")
    list(APPEND _testing_sources "${_tu}")
  elseif(_header MATCHES "^posenc/verify/")
    list(APPEND _verify_sources "${_tu}")
  elseif(_header MATCHES "^posenc/io/")
    list(APPEND _io_sources "${_tu}")
  else()
    list(APPEND _core_sources "${_tu}")
  endif()
endforeach()
add_library(posenc_headers_core OBJECT ${_core_sources})
target_link_libraries(posenc_headers_core PRIVATE posenc::posenc posenc_warnings)
if(_verify_sources)
  add_library(posenc_headers_verify OBJECT ${_verify_sources})
  target_link_libraries(posenc_headers_verify PRIVATE posenc::verify posenc_warnings)
endif()
if(_testing_sources AND TARGET posenc::testing)
  add_library(posenc_headers_testing OBJECT ${_testing_sources})
  target_link_libraries(posenc_headers_testing PRIVATE posenc::testing posenc_warnings Catch2::Catch2)
endif()
if(_io_sources AND TARGET posenc::io)
  add_library(posenc_headers_io OBJECT ${_io_sources})
  target_link_libraries(posenc_headers_io PRIVATE posenc::io posenc_warnings)
endif()

# And every public header of the layers this build has in one unit: two headers that each compile
# alone can still clash (verify/stats.hpp's class error_stats and rope_precision.hpp's struct of the
# same name did, until the second became precision_stats).
set(_together "")
foreach(_header IN LISTS _posenc_headers)
  if((_header MATCHES "^posenc/testing/" AND NOT TARGET posenc_headers_testing) OR
     (_header MATCHES "^posenc/verify/" AND NOT TARGET posenc_headers_verify) OR
     (_header MATCHES "^posenc/io/" AND NOT TARGET posenc_headers_io))
    continue()
  endif()
  string(APPEND _together "#include <${_header}>\n")
endforeach()
file(CONFIGURE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/headers/posenc_all_headers.cpp"
     CONTENT "${_together}int posenc_all_headers() { return 0; }\n")
add_library(posenc_headers_together OBJECT "${CMAKE_CURRENT_BINARY_DIR}/headers/posenc_all_headers.cpp")
target_link_libraries(posenc_headers_together PRIVATE posenc::posenc posenc_warnings)
foreach(_layer IN ITEMS posenc::verify posenc::io posenc::testing)
  if(TARGET ${_layer})
    target_link_libraries(posenc_headers_together PRIVATE ${_layer})
  endif()
endforeach()
if(TARGET posenc_headers_testing)
  target_link_libraries(posenc_headers_together PRIVATE Catch2::Catch2)
endif()

# The units hold no code of their own to optimise: -O0 after the preset's -O2 (GCC: 1.48 s against
# 1.64 s for a verify header) leaves the check what it is, the header's includes.
foreach(_target IN ITEMS posenc_headers_core posenc_headers_verify posenc_headers_testing posenc_headers_io
                         posenc_headers_together)
  if(TARGET ${_target})
    target_compile_options(${_target} PRIVATE -O0)
  endif()
endforeach()
