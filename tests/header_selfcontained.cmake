# Every public header must compile on its own (Boost.Hana's TestHeaders habit): one generated
# translation unit per header, each including that header alone, twice (include guards work).
file(GLOB_RECURSE _posenc_headers CONFIGURE_DEPENDS
     RELATIVE "${PROJECT_SOURCE_DIR}/include" "${PROJECT_SOURCE_DIR}/include/posenc/*.hpp")
set(_core_sources "")
set(_verify_sources "")
foreach(_header IN LISTS _posenc_headers)
  string(MAKE_C_IDENTIFIER "${_header}" _id)
  set(_tu "${CMAKE_CURRENT_BINARY_DIR}/headers/${_id}.cpp")
  file(CONFIGURE OUTPUT "${_tu}"
       CONTENT "#include <${_header}>\n#include <${_header}>\nint posenc_header_${_id}() { return 0; }\n")
  if(_header MATCHES "^posenc/verify/")
    list(APPEND _verify_sources "${_tu}")
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
