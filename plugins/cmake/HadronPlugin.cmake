# hadron_add_target_plugin(NAME <name>
#                          RUNTIME_SOURCES <src>...
#                          [RUNTIME_LIBRARIES <lib>...]
#                          [COMPILER_SOURCES <src>...]
#                          [COMPILER_LIBRARIES <lib>...]
#                          [OUTPUT_DIRECTORY <dir>])
#
# Builds a target plugin's runtime part, libhadron-target-<name>.so (CMake
# target hadron-target-<name>), and, when COMPILER_SOURCES are given, its
# compiler part, libhadron-target-<name>-compiler.so (hadron-target-<name>-compiler,
# see hadron_add_target_compiler). Both land in OUTPUT_DIRECTORY, by default
# HADRON_PLUGIN_OUTPUT_DIR, the directory the runtime searches.
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
  target_link_libraries(${target} PRIVATE HadronPluginABI ${ARG_LIBRARIES})
  target_link_options(${target} PRIVATE ${ARG_LINK_OPTIONS}
    -Wl,--version-script=${map})
  set_target_properties(${target} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${output_dir}
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS ${map})
endfunction()

function(hadron_add_target_plugin)
  cmake_parse_arguments(ARG "" "NAME;OUTPUT_DIRECTORY"
                        "RUNTIME_SOURCES;RUNTIME_LIBRARIES;COMPILER_SOURCES;COMPILER_LIBRARIES"
                        ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_RUNTIME_SOURCES)
    message(FATAL_ERROR "hadron_add_target_plugin: NAME and RUNTIME_SOURCES are required")
  endif()
  if(NOT ARG_OUTPUT_DIRECTORY)
    set(ARG_OUTPUT_DIRECTORY ${HADRON_PLUGIN_OUTPUT_DIR})
  endif()
  _hadron_plugin_library(hadron-target-${ARG_NAME} plugin-runtime.map ${ARG_OUTPUT_DIRECTORY}
    SOURCES ${ARG_RUNTIME_SOURCES}
    LIBRARIES ${ARG_RUNTIME_LIBRARIES}
    LINK_OPTIONS -Wl,-z,defs)
  if(ARG_COMPILER_SOURCES)
    hadron_add_target_compiler(NAME ${ARG_NAME}
      SOURCES ${ARG_COMPILER_SOURCES}
      LIBRARIES ${ARG_COMPILER_LIBRARIES}
      OUTPUT_DIRECTORY ${ARG_OUTPUT_DIRECTORY})
  endif()
endfunction()

# hadron_add_target_compiler(NAME <name> SOURCES <src>... [LIBRARIES <lib>...]
#                            [OUTPUT_DIRECTORY <dir>])
#
# The compiler part alone, for a target that builds it in its own folder
# (targets/<name>/compiler): libhadron-target-<name>-compiler.so, CMake target
# hadron-target-<name>-compiler, written beside the runtime part.
function(hadron_add_target_compiler)
  cmake_parse_arguments(ARG "" "NAME;OUTPUT_DIRECTORY" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT ARG_NAME OR NOT ARG_SOURCES)
    message(FATAL_ERROR "hadron_add_target_compiler: NAME and SOURCES are required")
  endif()
  if(NOT ARG_OUTPUT_DIRECTORY)
    set(ARG_OUTPUT_DIRECTORY ${HADRON_PLUGIN_OUTPUT_DIR})
  endif()
  _hadron_plugin_library(hadron-target-${ARG_NAME}-compiler plugin-compiler.map
    ${ARG_OUTPUT_DIRECTORY}
    SOURCES ${ARG_SOURCES}
    LIBRARIES ${ARG_LIBRARIES})
endfunction()
