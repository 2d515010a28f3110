# cmake -DREADELF=<readelf> -DLIBRARY=<lib> -P CheckNoLibcuda.cmake
#
# Fails when the library has a NEEDED entry for libcuda: the NVIDIA runtime
# part must load where the driver is absent, so it dlopens libcuda.so.1.
execute_process(COMMAND ${READELF} -d ${LIBRARY} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "NEEDED")
  message(FATAL_ERROR "readelf -d ${LIBRARY} failed (${rc})")
endif()
if(out MATCHES "Shared library: \\[libcuda")
  message(FATAL_ERROR "${LIBRARY} links libcuda; it must dlopen it")
endif()
