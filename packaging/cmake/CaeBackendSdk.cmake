# Installed with cae as part of its CMake package (find_package(cae)): builds
# third-party backends the way cae builds its own.
#
# cae_add_backend(<name> SOURCES src... [LIBRARIES lib...]
#                 [INSTALL_DESTINATION dir] [COMPONENT comp] [NO_INSTALL])
#
#   Creates target cae-backend-<name>: a MODULE library named
#   libcae-backend-<name>.so that
#     - compiles against the ABI header (cae::api) with hidden visibility,
#     - exports nothing but cae_backend_get_table (linker version script),
#     - carries its own C++ runtime (-static-libstdc++ -static-libgcc), so it
#       loads next to any host, and refuses undefined symbols at link time
#       (-Wl,--no-undefined: a missing library is a link error, not a load error),
#   and installs it into ${CMAKE_INSTALL_PREFIX}/<INSTALL_DESTINATION>
#   (default: lib/cae/plugins, where a cae installed in the same prefix finds it).
#   The file name is what makes it a plugin; the backend's name for
#   `--backend` comes from the table it returns (keep the two the same).
set(_CAE_BACKEND_EXPORTS_MAP "${CMAKE_CURRENT_LIST_DIR}/backend_exports.map")

function(cae_add_backend name)
  cmake_parse_arguments(ARG "NO_INSTALL" "INSTALL_DESTINATION;COMPONENT" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "cae_add_backend(${name}): no SOURCES given")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "cae_add_backend(${name}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_INSTALL_DESTINATION)
    set(ARG_INSTALL_DESTINATION "lib/cae/plugins")
  endif()

  set(target cae-backend-${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE cae::api ${ARG_LIBRARIES})
  set_target_properties(${target} PROPERTIES
    PREFIX "lib"
    SUFFIX ".so"
    OUTPUT_NAME "cae-backend-${name}"
    POSITION_INDEPENDENT_CODE ON
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    CUDA_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc -Wl,--no-undefined
    "-Wl,--version-script=${_CAE_BACKEND_EXPORTS_MAP}")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${_CAE_BACKEND_EXPORTS_MAP}")

  if(NOT ARG_NO_INSTALL)
    if(ARG_COMPONENT)
      install(TARGETS ${target} LIBRARY DESTINATION "${ARG_INSTALL_DESTINATION}"
              COMPONENT "${ARG_COMPONENT}")
    else()
      install(TARGETS ${target} LIBRARY DESTINATION "${ARG_INSTALL_DESTINATION}")
    endif()
  endif()
endfunction()
