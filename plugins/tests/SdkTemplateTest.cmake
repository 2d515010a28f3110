# cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -P SdkTemplateTest.cmake
#
# 1. cmake --install BUILD_DIR into WORK_DIR/prefix (fresh) and check the
#    layout and that the installed libraries and tools need no
#    LD_LIBRARY_PATH;
# 2. configure and build SOURCE_DIR/plugins/template out of tree with
#    -DHadron_DIR=<prefix>/lib/cmake/Hadron (Ninja, ccache, lld);
# 3. run its template-smoke on examples/vector_add.mlir with
#    HADRON_PLUGIN_PATH=<template build>/plugins.
cmake_minimum_required(VERSION 3.20)

set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/template-build)
file(REMOVE_RECURSE ${prefix} ${build})

function(step name)
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(TIMESTAMP end "%s")
  math(EXPR seconds "${end} - ${start}")
  message(STATUS "${name}: exit ${rc}, ${seconds} s")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name} failed:\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

# 1. Install.
step("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f
    include/hadron/IR/Dialect.h
    include/hadron/IR/HadronOps.h.inc
    include/hadron/Compiler/Pipeline.h
    include/hadron/Conversion/TargetHooks.h
    include/hadron/Layout/LinearLayout.h
    include/hadron/plugin/plugin.h
    include/hadron/runtime/runtime.h
    include/hadron/runtime/Runtime.hpp
    lib/libhadron-core.so
    lib/libhadron-layout.so
    lib/libhadron-runtime.so
    lib/hadron/plugins/libhadron-target-host.so
    lib/hadron/plugins/libhadron-target-host-compiler.so
    lib/cmake/Hadron/HadronConfig.cmake
    lib/cmake/Hadron/HadronConfigVersion.cmake
    lib/cmake/Hadron/HadronTargets.cmake
    lib/cmake/Hadron/HadronPlugin.cmake
    bin/hadron-opt)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "the install lacks ${f}")
  endif()
endforeach()

# Nothing installed may find its libraries through the build tree.
file(GLOB_RECURSE installed_elfs ${prefix}/lib/*.so ${prefix}/bin/*)
foreach(elf ${installed_elfs})
  execute_process(COMMAND ${READELF} -d ${elf} OUTPUT_VARIABLE dyn)
  if(dyn MATCHES "R(UN)?PATH[^\n]*${BUILD_DIR}")
    message(FATAL_ERROR "${elf} has an RPATH into the build tree:\n${dyn}")
  endif()
endforeach()
step("installed hadron-opt without LD_LIBRARY_PATH"
  ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH
  ${prefix}/bin/hadron-opt ${SOURCE_DIR}/examples/vector_add.mlir -o /dev/null)

# 2. The template, out of tree.
set(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR}/plugins/template -B ${build}
  -G ${GENERATOR}
  -DCMAKE_BUILD_TYPE=RelWithDebInfo
  -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
  -DCMAKE_C_COMPILER=${C_COMPILER}
  -DHadron_DIR=${prefix}/lib/cmake/Hadron)
if(COMPILER_LAUNCHER)
  list(APPEND configure -DCMAKE_CXX_COMPILER_LAUNCHER=${COMPILER_LAUNCHER}
                        -DCMAKE_C_COMPILER_LAUNCHER=${COMPILER_LAUNCHER})
endif()
if(EXISTS ${LLVM_TOOLS_DIR}/ld.lld)
  foreach(kind EXE SHARED MODULE)
    list(APPEND configure "-DCMAKE_${kind}_LINKER_FLAGS=-fuse-ld=lld -B${LLVM_TOOLS_DIR}")
  endforeach()
endif()
step("configure the template" ${configure})
step("build the template" ${CMAKE_COMMAND} --build ${build})

# 3. Load it through the runtime and run a kernel on it.
step("template-smoke"
  ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH HADRON_PLUGIN_PATH=${build}/plugins
  ${build}/template-smoke ${SOURCE_DIR}/examples/vector_add.mlir)
message(STATUS "${step_output}")
# The installed runtime finds the installed plugins beside itself.
if(NOT step_output MATCHES "plugin host: ${prefix}/lib/hadron/plugins/libhadron-target-host.so")
  message(FATAL_ERROR "the installed runtime did not load ${prefix}/lib/hadron/plugins' host plugin")
endif()

# 4. The plugin CTS, built from the SDK's copy: every test passes (the
#    template's device is this CPU, so none may skip).
step("hadron-cts-template"
  ${CMAKE_COMMAND} -E env --unset=LD_LIBRARY_PATH HADRON_CACHE_DIR=off
  ${build}/hadron-cts-template)
if(step_output MATCHES "SKIPPED" OR NOT step_output MATCHES "PASSED")
  message(FATAL_ERROR "hadron-cts-template did not pass every test:\n${step_output}")
endif()
