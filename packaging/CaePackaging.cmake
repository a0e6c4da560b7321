# CPack: Debian packages split by component, plus one relocatable .tar.gz.
#
#   cpack --config <build>/CPackConfig.cmake -G DEB   ->  cae_<v>_<arch>.deb, cae-cuda_<v>_<arch>.deb
#   cpack --config <build>/CPackConfig.cmake -G TGZ   ->  cae-<v>-Linux-<cpu>.tar.gz (everything)
#
# cae       host, cpu backend, header, CMake package, cae-conformance, docs.
#           Run-time dependencies come from dpkg-shlibdeps (Boost.Program_options,
#           libsvm, OpenBLAS, libgomp, libstdc++, libc).
# cae-cuda  the CUDA backends (naive, v1, v2, ...); built only when nvcc was found.
#           They link the CUDA runtime statically and need at run time the
#           driver's libcuda.so.1 (all) and cuBLAS 13 (v2: libcublas.so.13,
#           v3: libcublasLt.so.13, both linked dynamically).
#           Neither comes from Debian's main archive: cuBLAS is part of the CUDA
#           toolkit (NVIDIA's apt repository packages it as libcublas-13-<minor>),
#           the driver is libcuda1 (Debian non-free, NVIDIA's repository) or
#           libnvidia-compute-<version> (Ubuntu). dpkg-shlibdeps finds no package
#           owning a toolkit installed from NVIDIA's .run file and skips it, so
#           these dependencies are listed here (CAE_DEB_CUDA_DEPENDS); set that to
#           "" for machines whose driver and toolkit are not apt packages.
#           NCCL (libnccl.so.2, the ABI 1.1 collectives across GPUs) is
#           NVIDIA's libnccl2 package.
set(CAE_DEB_CUDA_DEPENDS
  "libcuda1 (>= 580) | libnvidia-compute-580 | cuda-drivers (>= 580), libcublas-13-0 | libcublas-13-1 | libcublas-13-2 | libcublas13, libnccl2"
  CACHE STRING "Debian Depends of the cae-cuda package besides cae and what dpkg-shlibdeps finds")
set(CAE_PACKAGE_MAINTAINER "cae maintainers <maintainers@users.noreply.a-seed-c232e263.example>"
  CACHE STRING "Maintainer field of the Debian packages")

set(CPACK_PACKAGE_NAME cae)
set(CPACK_PACKAGE_VENDOR "cae")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each Debian package's synopsis is the first line of its component's
# description (below). CPack would put this summary in front of both unless it
# is CPack's own default text, so it stays that default.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_PACKAGE_CONTACT "${CAE_PACKAGE_MAINTAINER}")
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)

set(CPACK_COMPONENTS_ALL cae)
if(CAE_HAVE_CUDA)
  list(APPEND CPACK_COMPONENTS_ALL cae-cuda)
endif()

# Component descriptions: the first line is the Debian synopsis.
set(CPACK_COMPONENT_CAE_DISPLAY_NAME "cae")
set(CPACK_COMPONENT_CAE_DESCRIPTION
  "convolutional-autoencoder feature learning with pluggable compute backends
cae trains a convolutional autoencoder on CIFAR-10 without labels, encodes
every image with it and classifies the codes with an SVM (libsvm). All heavy
compute runs in backends loaded at run time through one stable C ABI.
This package holds the cae program, the cpu backend (OpenMP + OpenBLAS), the
backend ABI header with a CMake package for building third-party backends,
the cae-conformance certification tool and the documentation.")
# The CUDA backends this build makes: those plugins/CMakeLists.txt puts in cae-cuda.
get_property(cae_backends GLOBAL PROPERTY CAE_BACKENDS)
set(cae_cuda_backends "")
foreach(name IN LISTS cae_backends)
  get_directory_property(component DIRECTORY ${PROJECT_SOURCE_DIR}/plugins
                         DEFINITION CAE_BACKEND_COMPONENT_${name})
  if(component STREQUAL "cae-cuda")
    list(APPEND cae_cuda_backends ${name})
  endif()
endforeach()
list(JOIN cae_cuda_backends ", " cae_cuda_backend_list)
set(CPACK_COMPONENT_CAE-CUDA_DISPLAY_NAME "cae CUDA backends")
set(CPACK_COMPONENT_CAE-CUDA_DESCRIPTION
  "CUDA compute backends for cae (${cae_cuda_backend_list})
GPU backends for the cae program, loaded at run time. They carry the CUDA
runtime and need an NVIDIA GPU with its driver (libcuda.so.1, 580 or later)
and cuBLAS 13 (libcublas.so.13, libcublasLt.so.13) from the CUDA toolkit.
On a machine without them they still load and report why they are
unavailable (`cae backends`).")
set(CPACK_COMPONENT_CAE-CUDA_DEPENDS cae)

# ---- Debian ------------------------------------------------------------------
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # <name>_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CAE_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)

set(CPACK_DEBIAN_CAE_PACKAGE_NAME cae)
if(CAE_HAVE_CUDA)
  set(CPACK_DEBIAN_CAE_PACKAGE_SUGGESTS cae-cuda)
endif()

set(CPACK_DEBIAN_CAE-CUDA_PACKAGE_NAME cae-cuda)
set(cae_cuda_depends "cae (= ${PROJECT_VERSION})")
if(CAE_DEB_CUDA_DEPENDS)
  string(APPEND cae_cuda_depends ", ${CAE_DEB_CUDA_DEPENDS}")
endif()
# dpkg-shlibdeps adds libc6 & co.; CPack appends its findings to this list.
set(CPACK_DEBIAN_CAE-CUDA_PACKAGE_DEPENDS "${cae_cuda_depends}")
set(CPACK_DEBIAN_CAE-CUDA_PACKAGE_SECTION science)

# ---- .tar.gz: one relocatable prefix with every component ----------------------
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)
set(CPACK_PACKAGE_FILE_NAME "cae-${PROJECT_VERSION}-Linux-${CMAKE_SYSTEM_PROCESSOR}")

# ---- source packages are not made here ---------------------------------------------
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build[^/]*/" "/\\\\.dev[^/]*/" "/data/")

include(CPack)
