// The prototypes of the table members a CUDA backend on the shared entries
// defines: every required member, the collectives of ABI 1.1 and 1.2
// (CAE_DEFINE_CUDA_GROUP_MEMBERS defines both) and the page-locked host
// memory of ABI 1.3 (cuda_lifecycle_entries.hpp).
//
// Why: naive, v1, v2 and winograd each declared this same list in their entry
// header; the members are defined in several of a backend's files and taken
// into its table in another, so they are declared once for all of them here.
// A backend that offers more (declared options, graphs of its own) adds those
// declarations after this one.
//
// Plugins only. In the backend's entry namespace:
//   CAE_DECLARE_CUDA_BACKEND_MEMBERS();
#pragma once

#include <cae/backend.h>

#include "backend_table.hpp"

#define CAE_DECLARE_CUDA_BACKEND_MEMBERS()     \
  CAE_DECLARE_BACKEND_MEMBERS();               \
  CAE_DECLARE_BACKEND_GROUP_MEMBERS();         \
  CAE_DECLARE_BACKEND_PROCESS_GROUP_MEMBERS(); \
  CAE_DECLARE_BACKEND_HOST_MEMORY_MEMBERS()
