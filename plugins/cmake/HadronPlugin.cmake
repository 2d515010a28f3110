# hadron_add_target_plugin(NAME <name>
#                          RUNTIME_SOURCES <src>...
#                          [RUNTIME_LIBRARIES <lib>...]
#                          [COMPILER_SOURCES <src>...]
#                          [COMPILER_LIBRARIES <lib>...]
#                          [OUTPUT_DIRECTORY <dir>]
#                          [INSTALL_DESTINATION <dir>])
#
# Builds a target plugin's runtime part, libhadron-target-<name>.so (CMake
# target hadron-target-<name>), and, when COMPILER_SOURCES are given, its
# compiler part, libhadron-target-<name>-compiler.so (hadron-target-<name>-compiler,
# see hadron_add_target_compiler). Both land in OUTPUT_DIRECTORY, by default
# HADRON_PLUGIN_OUTPUT_DIR when the project sets it (in Hadron's own tree, the
# directory its runtime searches), else ${CMAKE_BINARY_DIR}/plugins. Point
# HADRON_PLUGIN_PATH there to load them. With INSTALL_DESTINATION, both are
# also installed there (e.g. ${HADRON_INSTALL_PLUGIN_DIR} of an SDK prefix).
#
# This file is used in Hadron's tree and, installed, by find_package(Hadron);
# a compiler part lists Hadron::Core in COMPILER_LIBRARIES.
#
# Each library is built with hidden visibility and exports only its entry
# symbol (mark it HADRON_PLUGIN_EXPORT). The runtime part is linked with
# -z defs so that an unresolved symbol fails the build rather than the
# dlopen; it must not link LLVM or MLIR (a test checks the result).
# One plugin library: a MODULE named `target` exporting what `map` lists.
function(_hadron_plugin_library target map output_dir)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES;LINK_OPTIONS" ${ARGN})
  set(map ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/${map})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE Hadron::PluginABI ${ARG_LIBRARIES})
  target_link_options(${target} PRIVATE ${ARG_LINK_OPTIONS}
    -Wl,--version-script=${map})
  set_target_properties(${target} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${output_dir}
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS ${map})
endfunction()

# The default plugin directory of a project.
function(_hadron_plugin_output_dir out)
  if(HADRON_PLUGIN_OUTPUT_DIR)
    set(${out} ${HADRON_PLUGIN_OUTPUT_DIR} PARENT_SCOPE)
  else()
    set(${out} ${CMAKE_BINARY_DIR}/plugins PARENT_SCOPE)
  endif()
endfunction()

function(hadron_add_target_plugin)
  cmake_parse_arguments(ARG "" "NAME;OUTPUT_DIRECTORY;INSTALL_DESTINATION"
                        "RUNTIME_SOURCES;RUNTIME_LIBRARIES;COMPILER_SOURCES;COMPILER_LIBRARIES"
                        ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_RUNTIME_SOURCES)
    message(FATAL_ERROR "hadron_add_target_plugin: NAME and RUNTIME_SOURCES are required")
  endif()
  if(NOT ARG_OUTPUT_DIRECTORY)
    _hadron_plugin_output_dir(ARG_OUTPUT_DIRECTORY)
  endif()
  _hadron_plugin_library(hadron-target-${ARG_NAME} plugin-runtime.map ${ARG_OUTPUT_DIRECTORY}
    SOURCES ${ARG_RUNTIME_SOURCES}
    LIBRARIES ${ARG_RUNTIME_LIBRARIES}
    LINK_OPTIONS -Wl,-z,defs)
  if(ARG_INSTALL_DESTINATION)
    install(TARGETS hadron-target-${ARG_NAME} LIBRARY DESTINATION ${ARG_INSTALL_DESTINATION})
  endif()
  if(ARG_COMPILER_SOURCES)
    hadron_add_target_compiler(NAME ${ARG_NAME}
      SOURCES ${ARG_COMPILER_SOURCES}
      LIBRARIES ${ARG_COMPILER_LIBRARIES}
      OUTPUT_DIRECTORY ${ARG_OUTPUT_DIRECTORY}
      INSTALL_DESTINATION ${ARG_INSTALL_DESTINATION})
  endif()
endfunction()

# hadron_add_target_compiler(NAME <name> SOURCES <src>... [LIBRARIES <lib>...]
#                            [OUTPUT_DIRECTORY <dir>] [INSTALL_DESTINATION <dir>])
#
# The compiler part alone, for a target that builds it in its own folder
# (targets/<name>/compiler): libhadron-target-<name>-compiler.so, CMake target
# hadron-target-<name>-compiler, written beside the runtime part. Installed,
# it finds libhadron-core in the directory two levels up (<prefix>/lib when
# installed into <prefix>/lib/hadron/plugins) and LLVM where the SDK found it.
function(hadron_add_target_compiler)
  cmake_parse_arguments(ARG "" "NAME;OUTPUT_DIRECTORY;INSTALL_DESTINATION" "SOURCES;LIBRARIES"
                        ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_SOURCES)
    message(FATAL_ERROR "hadron_add_target_compiler: NAME and SOURCES are required")
  endif()
  if(NOT ARG_OUTPUT_DIRECTORY)
    _hadron_plugin_output_dir(ARG_OUTPUT_DIRECTORY)
  endif()
  set(target hadron-target-${ARG_NAME}-compiler)
  _hadron_plugin_library(${target} plugin-compiler.map ${ARG_OUTPUT_DIRECTORY}
    SOURCES ${ARG_SOURCES}
    LIBRARIES ${ARG_LIBRARIES})
  set_target_properties(${target} PROPERTIES
    INSTALL_RPATH "$ORIGIN/../..;${LLVM_LIBRARY_DIR}")
  if(ARG_INSTALL_DESTINATION)
    install(TARGETS ${target} LIBRARY DESTINATION ${ARG_INSTALL_DESTINATION})
  endif()
endfunction()

# hadron_add_plugin_cts(NAME <name>
#                       [RUNTIME_LIBRARY <path>]
#                       [PLUGIN_PATH <dir>]
#                       [DEPENDS <target>...]
#                       [ENVIRONMENT <VAR=value>...])
#
# The tests every target plugin passes (plugins/cts/PluginCts.cpp), built for
# plugin <name> as hadron-cts-<name> and registered with CTest as
# <name>.PluginCts.* and <name>.PluginDevice.*: the descriptor, the runtime's
# answer without a device, and with one the example kernels run on random
# inputs against host references plus the runtime's argument, copy and
# allocation checks. RUNTIME_LIBRARY defaults to the runtime part of
# hadron_add_target_plugin (target hadron-target-<name>), PLUGIN_PATH (the
# tests' HADRON_PLUGIN_PATH) to its directory; ENVIRONMENT adds variables
# (a driver's switch). Needs GoogleTest (find_package(GTest)).
function(hadron_add_plugin_cts)
  cmake_parse_arguments(ARG "" "NAME;RUNTIME_LIBRARY;PLUGIN_PATH" "DEPENDS;ENVIRONMENT" ${ARGN})
  if(NOT ARG_NAME)
    message(FATAL_ERROR "hadron_add_plugin_cts: NAME is required")
  endif()
  if(NOT ARG_RUNTIME_LIBRARY)
    set(ARG_RUNTIME_LIBRARY $<TARGET_FILE:hadron-target-${ARG_NAME}>)
    list(APPEND ARG_DEPENDS hadron-target-${ARG_NAME})
    if(TARGET hadron-target-${ARG_NAME}-compiler)
      list(APPEND ARG_DEPENDS hadron-target-${ARG_NAME}-compiler)
    endif()
  endif()
  if(NOT ARG_PLUGIN_PATH)
    set(ARG_PLUGIN_PATH $<TARGET_FILE_DIR:hadron-target-${ARG_NAME}>)
  endif()
  if(NOT TARGET GTest::gtest_main)
    find_package(GTest REQUIRED)
  endif()
  include(GoogleTest)
  # The CTS: in Hadron's tree beside this file, in an SDK prefix under share/.
  set(here ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  if(EXISTS ${here}/../cts/PluginCts.cpp)
    set(cts ${here}/../cts)
    set(kernels ${here}/../../examples)
  else()
    set(cts ${here}/../../../share/hadron/cts)
    set(kernels ${cts}/kernels)
  endif()
  set(exe hadron-cts-${ARG_NAME})
  add_executable(${exe} ${cts}/PluginCts.cpp)
  target_compile_definitions(${exe} PRIVATE
    HADRON_CTS_PLUGIN="${ARG_NAME}"
    HADRON_CTS_LIBRARY="${ARG_RUNTIME_LIBRARY}"
    HADRON_CTS_KERNEL_DIR="${kernels}")
  target_link_libraries(${exe} PRIVATE Hadron::Runtime Hadron::PluginABI GTest::gtest_main
                                       ${CMAKE_DL_LIBS})
  if(ARG_DEPENDS)
    add_dependencies(${exe} ${ARG_DEPENDS})
  endif()
  # The environment is compiled in (set at start-up where the process does
  # not set it already): running the binary by hand tests the same plugin.
  set(env HADRON_PLUGIN_PATH=${ARG_PLUGIN_PATH} ${ARG_ENVIRONMENT})
  string(REPLACE ";" "\\n" env "${env}")
  target_compile_definitions(${exe} PRIVATE HADRON_CTS_ENVIRONMENT="${env}")
  gtest_discover_tests(${exe} TEST_PREFIX "${ARG_NAME}.")
endfunction()
