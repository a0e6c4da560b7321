// The v3 backend's table and its one exported symbol.
#include "backend_table.hpp"
#include "v3_entry.hpp"

CAE_DEFINE_BACKEND_ENTRY_WITH(
    cae_v3::entry, "v3", "1.0.0",
    "CUDA, TF32 tensor cores: channels-last convolutions as cuBLASLt GEMMs with fused epilogues",
    CAE_GROUP_MEMBER_SET CAE_PROCESS_GROUP_MEMBER_SET CAE_HOST_MEMORY_MEMBER_SET
        CAE_OPTIONS_MEMBER_SET);
