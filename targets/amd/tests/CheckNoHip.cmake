# cmake -DREADELF=<readelf> -DLIBRARY=<lib> -P CheckNoHip.cmake
#
# Fails when the AMD runtime part has a NEEDED entry for HIP or the HSA
# runtime: it must load libamdhip64 with dlopen, so that it loads (and
# reports the driver as missing) where ROCm is not installed.
execute_process(COMMAND ${READELF} -d ${LIBRARY}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "NEEDED")
  message(FATAL_ERROR "readelf -d ${LIBRARY} failed (${rc}): ${err}")
endif()
string(REGEX MATCHALL "Shared library: \\[[^]]*\\]" needed "${out}")
foreach(entry IN LISTS needed)
  if(entry MATCHES "amdhip|hsa-runtime|hsakmt")
    message(FATAL_ERROR "${LIBRARY} links ${entry}; HIP must be dlopen'ed")
  endif()
endforeach()
message(STATUS "${LIBRARY}: ${needed}")
