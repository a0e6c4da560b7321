// The v2 backend's table and its one exported symbol.
#include "backend_table.hpp"
#include "v2_entry_points.hpp"

CAE_DEFINE_BACKEND_ENTRY_WITH(
    cae_v2::entry, "v2", "1.0.0",
    "CUDA, FP32: convolutions as single batch-wide cuBLAS SGEMMs on channel-major activations",
    CAE_GROUP_MEMBER_SET CAE_PROCESS_GROUP_MEMBER_SET CAE_HOST_MEMORY_MEMBER_SET);
