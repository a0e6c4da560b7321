# cae_add_backend(<name> SOURCES ... [LIBRARIES ...])
# Builds plugins/<name> as a MODULE library named libcae-backend-<name>.so in
# the plugin folder, exporting only the ABI entry symbol.
set(CAE_BACKEND_EXPORTS_MAP ${CMAKE_CURRENT_LIST_DIR}/backend_exports.map)

function(cae_add_backend name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBRARIES" ${ARGN})
  set(target cae-backend-${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE cae::api cae_plugin_common ${ARG_LIBRARIES})
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    OUTPUT_NAME "cae-backend-${name}"
    LIBRARY_OUTPUT_DIRECTORY "${CAE_PLUGIN_OUTPUT_DIR}"
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  # Plugins carry their C++ runtime with them so that they load next to any
  # host; the version script keeps that runtime (and everything else) out of
  # the dynamic symbol table: the entry point is the one exported symbol.
  target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc -Wl,--no-undefined
    -Wl,--version-script=${CAE_BACKEND_EXPORTS_MAP})
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${CAE_BACKEND_EXPORTS_MAP})
  install(TARGETS ${target} LIBRARY DESTINATION ${CAE_PLUGIN_SUBDIR} COMPONENT ${CAE_BACKEND_COMPONENT_${name}})
  set_property(GLOBAL APPEND PROPERTY CAE_BACKENDS ${name})
endfunction()
