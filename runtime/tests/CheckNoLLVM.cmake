# cmake -DREADELF=<readelf> -DLIBRARIES=<lib>,<lib>... -P CheckNoLLVM.cmake
#
# Fails when a library has a NEEDED entry for libLLVM or libMLIR (rule 2:
# the runtime links no LLVM/MLIR), or when it cannot be read.
string(REPLACE "," ";" libraries "${LIBRARIES}")
set(bad "")
foreach(lib IN LISTS libraries)
  execute_process(COMMAND ${READELF} -d ${lib}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "NEEDED")
    message(FATAL_ERROR "readelf -d ${lib} failed (${rc}): ${err}")
  endif()
  string(REGEX MATCHALL "Shared library: \\[[^]]*\\]" needed "${out}")
  foreach(entry IN LISTS needed)
    if(entry MATCHES "lib(LLVM|MLIR)")
      list(APPEND bad "${lib}: ${entry}")
    endif()
  endforeach()
  message(STATUS "${lib}: ${needed}")
endforeach()
if(bad)
  list(JOIN bad "\n  " lines)
  message(FATAL_ERROR "libraries that must not link LLVM/MLIR do:\n  ${lines}")
endif()
