# cmake -DREADELF=<readelf> -DLIBRARY=<lib> -P CheckNoDriverLinked.cmake
#
# Fails when the Intel runtime part has a NEEDED entry for Level Zero or
# OpenCL: both are dlopen'ed, so that the plugin loads (and reports the
# driver as missing) where neither is installed.
execute_process(COMMAND ${READELF} -d ${LIBRARY}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "NEEDED")
  message(FATAL_ERROR "readelf -d ${LIBRARY} failed (${rc}): ${err}")
endif()
string(REGEX MATCHALL "Shared library: \\[[^]]*\\]" needed "${out}")
foreach(entry IN LISTS needed)
  if(entry MATCHES "ze_loader|libOpenCL|intelocl|pocl")
    message(FATAL_ERROR "${LIBRARY} links ${entry}; drivers must be dlopen'ed")
  endif()
endforeach()
message(STATUS "${LIBRARY}: ${needed}")
